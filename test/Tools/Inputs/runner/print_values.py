#!/usr/bin/env python3
"""print_values.py DIR ROLE: frost-verify --save-values DIR's values of ROLE
(source, frozen, input), one line each: TENSOR VALUES (as a Python list).
Reads the .npy files itself (numeric dtypes and fixed-width bytes |S<n>, C
order), so the lit tests that use it need no NumPy."""
import ast
import json
import os
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?", "|u1": "B"}


def load(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    size_bytes = 2 if major == 1 else 4
    header_len = int.from_bytes(data[8:8 + size_bytes], "little")
    start = 8 + size_bytes
    header = ast.literal_eval(data[start:start + header_len].decode("latin1"))
    assert not header["fortran_order"], path
    shape, descr = header["shape"], header["descr"]
    count = 1
    for d in shape:
        count *= d
    body = data[start + header_len:]
    if descr.startswith("|S"):  # numpy's bytes: zero-padded to the width
        width = int(descr[2:])
        flat = [body[i * width:(i + 1) * width].rstrip(b"\0") for i in range(count)]
        fmt = "S"
    else:
        fmt = FORMATS[descr]
        flat = list(struct.unpack("<%d%s" % (count, fmt), body))
    if fmt in "fd":
        flat = [float(v) for v in flat]

    def nest(values, dims):
        if not dims:
            return values[0]
        step = len(values) // dims[0] if dims[0] else 0
        return [nest(values[i * step:(i + 1) * step], dims[1:]) if len(dims) > 1
                else values[i] for i in range(dims[0])]
    return nest(flat, list(shape))


index = json.load(open(os.path.join(sys.argv[1], "index.json")))["values"]
for v in index:
    if v["role"] == sys.argv[2]:
        print(v["tensor"], load(os.path.join(sys.argv[1], v["file"])))
