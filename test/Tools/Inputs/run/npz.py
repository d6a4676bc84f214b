"""Zips .npy files into a .npz as numpy.savez does (stdlib only, no numpy):
npz.py OUT.npz [--deflate] NAME=FILE.npy ... (or NAME=@TEXT for an entry of
those bytes). show: npz.py --show FILE.npz prints each entry's header and
values, decoded by hand with struct."""
import ast
import struct
import sys
import zipfile


def show(path):
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            data = z.read(info)
            assert data[:6] == b"\x93NUMPY", info.filename
            n = struct.unpack("<H", data[8:10])[0]
            header = ast.literal_eval(data[10:10 + n].decode())
            body = data[10 + n:]
            assert (10 + n) % 64 == 0, "data not 64-byte aligned"
            d = header["descr"]
            fmt = {"<f4": "f", "<i4": "i", "|b1": "?", "<f8": "d", "<i8": "q"}.get(d)
            values = list(struct.unpack("<%d%s" % (len(body) // struct.calcsize(fmt), fmt), body)) if fmt else body
            print(info.filename, d, header["fortran_order"], header["shape"], values,
                  "stored" if info.compress_type == zipfile.ZIP_STORED else "compressed")


if sys.argv[1] == "--show":
    show(sys.argv[2])
    sys.exit(0)
out, args = sys.argv[1], sys.argv[2:]
mode = zipfile.ZIP_STORED
if args and args[0] == "--deflate":
    mode, args = zipfile.ZIP_DEFLATED, args[1:]
with zipfile.ZipFile(out, "w", mode) as z:
    for a in args:
        name, src = a.split("=", 1)
        z.writestr(name, src[1:].encode() if src.startswith("@") else open(src, "rb").read())
