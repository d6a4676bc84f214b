#!/usr/bin/env python3
"""The hostile corpus: malformed inputs for freeze-graph, frost-opt,
frost-inspect and frost-diff (and the other tools' command lines), generated at test time (nothing binary is committed).

    hostile_corpus.py OUTDIR [--filter REGEX]   write every case into OUTDIR
    hostile_corpus.py --list                    list the cases

Each case is a directory OUTDIR/<name> holding its input files, and an entry
in OUTDIR/cases.json:
    name, category, argv     the command; argv[0] is the tool, "{d}" is the
                             case's directory
    stdin                    null (/dev/null), "/dev/zero", or a path with {d}
    exit                     the exit codes that pass: [1] failed, [2] usage
                             error; [0] for the few inputs that are valid
                             (huge but legal graphs, a real loop), [0, 1]
                             where damage may land on bytes nobody reads
    success                  the exit codes that are no failure: [0], or [0, 1]
                             for frost-diff ("the graphs differ")
    regex                    what the error line must match (re.search), or null
    max_lines                most stderr lines allowed (default 5)
    timeout                  seconds, or null for the runner's default
The runner (run_hostile.py) checks each case for crashes, sanitizer
reports, hangs, the exit code, the shape of stderr, files left behind and
inputs changed.

Stdlib only. The checkpoints follow docs/formats.md; the table primitives
come from test/Transforms/Inputs/write_checkpoint.py.
"""
import io
import json
import os
import subprocess
import re
import shutil
import struct
import sys
import warnings
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Transforms", "Inputs"))
import write_checkpoint as wc  # noqa: E402

crc32c, mask, varint = wc.crc32c, wc.mask, wc.varint

# ------------------------------------------------------------ protobuf wire

_TAGS = {}


def tag(num, wire):
    key = (num << 3) | wire
    if key not in _TAGS:
        _TAGS[key] = varint(key)
    return _TAGS[key]


def fv(num, v):
    """A varint field (negative ints as 10-byte two's complement)."""
    return tag(num, 0) + varint(v)


def fb(num, data):
    if isinstance(data, str):
        data = data.encode()
    n = len(data)
    return tag(num, 2) + (bytes((n,)) if n < 128 else varint(n)) + data


def f32(num, v):
    return tag(num, 5) + struct.pack("<I", v)


def ffloat(num, v):
    return tag(num, 5) + struct.pack("<f", v)


DT = {"float": 1, "double": 2, "int32": 3, "string": 7, "int64": 9, "bool": 10, "resource": 20}


def shape(dims):
    return b"".join(fb(2, fv(1, d) if d else b"") for d in dims)


def a_type(t):
    return fv(6, DT[t])


def a_shape(dims):
    return fb(7, shape(dims))


def a_int(i):
    return fv(3, i)


def a_str(s):
    return fb(2, s)


def a_func(name, attrs=b""):
    return fb(10, fb(1, name) + attrs)


def a_list(items):
    return fb(1, items)


def a_tensor(tensor):
    return fb(8, tensor)


def tensor(dtype, dims, float_val=(), content=None):
    out = fv(1, DT[dtype]) + fb(2, shape(dims))
    if content is not None:
        out += fb(4, content)
    for v in float_val:
        out += ffloat(5, v)
    return out


def attr_entry(key, value):
    return fb(5, fb(1, key) + fb(2, value))


def node(name, op, inputs=(), attrs=None, device=None):
    out = fb(1, name) + fb(2, op) + b"".join(fb(3, i) for i in inputs)
    if device:
        out += fb(4, device)
    for k, v in (attrs or {}).items():
        out += attr_entry(k, v)
    return out


def graph(nodes, library=b"", producer=1087):
    out = b"".join(fb(1, n) for n in nodes)
    if library:
        out += fb(2, library)
    return out + fb(4, fv(1, producer))


def meta_graph(graph_bytes, tags=("serve",), extra=b""):
    info = b"".join(fb(4, t) for t in tags)
    return fb(1, info) + fb(2, graph_bytes) + extra


def saved_model(metas):
    return fv(1, 1) + b"".join(fb(2, m) for m in metas)


F = {"T": a_type("float")}


def model_nodes(v1_dtype="float", v1_dims=(1,)):
    """add = x * v1 + v2, the graph freeze-graph's tests use."""
    def var(name, dtype="float", dims=(1,)):
        return node(name, "VariableV2", attrs={"dtype": a_type(dtype), "shape": a_shape(dims)})
    return [
        node("x", "Placeholder", attrs={"dtype": a_type("float"), "shape": a_shape([-1, 1])}),
        var("v1", v1_dtype, v1_dims),
        node("v1/read", "Identity", ["v1"], attrs={"T": a_type(v1_dtype)}),
        var("v2"),
        node("v2/read", "Identity", ["v2"], attrs=F),
        node("mul", "Mul", ["x", "v1/read"], attrs=F),
        node("add", "AddV2", ["mul", "v2/read"], attrs=F),
    ]


MODEL_META = meta_graph(graph(model_nodes()))

# ------------------------------------------------------------ tables

FOOTER_MAGIC = struct.pack("<Q", 0xDB4775248B80FB57)


def snappy(data):
    """Raw snappy, literals only (valid, if not small)."""
    out = bytearray(varint(len(data)))
    for i in range(0, len(data), 65536):
        chunk = data[i:i + 65536]
        n = len(chunk) - 1
        if n < 60:
            out.append(n << 2)
        else:
            out += bytes([61 << 2]) + struct.pack("<H", n)
        out += chunk
    return bytes(out)


def block_contents(entries, restart_interval=16):
    out = bytearray()
    restarts = []
    prev = b""
    for i, (key, value) in enumerate(entries):
        shared = 0
        if i % restart_interval:
            while shared < min(len(prev), len(key)) and prev[shared] == key[shared]:
                shared += 1
        else:
            restarts.append(len(out))
        out += varint(shared) + varint(len(key) - shared) + varint(len(value))
        out += key[shared:] + value
        prev = key
    if not restarts:
        restarts = [0]
    for r in restarts:
        out += struct.pack("<I", r)
    return bytes(out + struct.pack("<I", len(restarts)))


class Table:
    """An SSTable built block by block, remembering where everything is."""

    def __init__(self):
        self.out = bytearray()
        self.blocks = []  # (offset, size, type)

    def add_block(self, contents, ctype=0, crc=None):
        handle = varint(len(self.out)) + varint(len(contents))
        self.blocks.append((len(self.out), len(contents), ctype))
        self.out += contents
        t = bytes([ctype])
        self.out += t + struct.pack("<I", mask(crc32c(contents + t)) if crc is None else crc)
        return handle

    def finish(self, meta_handle, index_handle, magic=FOOTER_MAGIC):
        footer = meta_handle + index_handle
        self.out += footer + b"\x00" * (40 - len(footer)) + magic
        return bytes(self.out)


def build_table(entries, per_block=None, compress=False, restart_interval=16):
    """entries sorted by key; per_block splits the data into several blocks."""
    entries = sorted(entries)
    t = Table()
    groups = [entries[i:i + per_block] for i in range(0, len(entries), per_block)] if per_block else [entries]
    index = []
    for group in groups:
        contents = block_contents(group, restart_interval)
        if compress:
            h = t.add_block(snappy(contents), 1)
        else:
            h = t.add_block(contents)
        index.append((group[-1][0] + b"\xff", h))
    meta = t.add_block(block_contents([]))
    idx = t.add_block(block_contents(index, 1))
    return t.finish(meta, idx), t


def header(num_shards=1, endianness=0, producer=1, min_consumer=None):
    version = fv(1, producer) + (fv(2, min_consumer) if min_consumer is not None else b"")
    return fv(1, num_shards) + (fv(2, endianness) if endianness else b"") + fb(3, version)


def entry(dtype, dims, offset=0, size=0, crc=0, shard=0, slices=None):
    out = fv(1, DT[dtype] if isinstance(dtype, str) else dtype) + fb(2, shape(dims))
    if shard:
        out += fv(3, shard)
    if offset:
        out += fv(4, offset)
    if size:
        out += fv(5, size)
    out += f32(6, crc)
    for s in slices or ():
        out += fb(7, s)
    return out


def floats(*vals):
    return b"".join(struct.pack("<f", v) for v in vals)


def std_entries(v1=None, v2=None):
    """Index entries of the standard checkpoint: v1 = 2.0, v2 = 3.0, float [1]."""
    a, b = floats(2.0), floats(3.0)
    return [
        (b"", header()),
        (b"v1", v1 if v1 is not None else entry("float", [1], 0, 4, mask(crc32c(a)))),
        (b"v2", v2 if v2 is not None else entry("float", [1], 4, 4, mask(crc32c(b)))),
    ], a + b


def write(path, data, mode="wb"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def write_ckpt(d, prefix="model", entries=None, data=None, index=None, shards=1, meta=True, **kw):
    std, std_data = std_entries()
    entries = std if entries is None else entries
    data = std_data if data is None else data
    if index is None:
        index, _ = build_table(entries, **kw)
    write(os.path.join(d, prefix + ".index"), index)
    if data is not False:
        write(os.path.join(d, "%s.data-00000-of-%05d" % (prefix, shards)), data)
    if meta:
        write(os.path.join(d, prefix + ".meta"), meta if isinstance(meta, bytes) else MODEL_META)


STD_INDEX, STD_LAYOUT = build_table(std_entries()[0])

# ------------------------------------------------------------ the cases

CASES = []
# Where one input holds thousands of mistakes, a capped list ("... and N more") is fine.
MANY = 25


# Nodes of the huge-but-legal graphs; run_hostile.py lowers it for sanitized
# builds.
HUGE_GRAPH_NODES = 200000


def add(name, category, argv, setup=None, exit=(1,), regex=None, max_lines=5, stdin=None,
        timeout=None, success=(0,)):
    """success: the exit codes that are no failure (frost-diff's 1, "the graphs
    differ", prints no error)."""
    assert re.match(r"^[A-Za-z0-9_.-]+$", name), name
    assert name not in {c["name"] for c in CASES}, name
    CASES.append(dict(name=name, category=category, argv=list(argv), setup=setup,
                      exit=list(exit), regex=regex, max_lines=max_lines, stdin=stdin,
                      timeout=timeout, success=list(success)))


INSPECT_VERIFY = ["frost-inspect", "checkpoint", "{d}/model", "--verify"]
FREEZE = ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb"]


def ckpt_case(name, argv=INSPECT_VERIFY, exit=(1,), regex=None, **kw):
    add(name, "checkpoint", argv, lambda d: write_ckpt(d, **kw), exit=exit, regex=regex)


def index_bytes_case(name, index, argv=INSPECT_VERIFY, exit=(1,), regex=None, data=None):
    add(name, "checkpoint", argv, lambda d: write_ckpt(d, index=index, data=data), exit=exit,
        regex=regex)


def checkpoint_cases():
    # Sanity: the undamaged checkpoint works with both tools.
    ckpt_case("ckpt-valid-inspect", exit=(0,))
    ckpt_case("ckpt-valid-freeze", FREEZE, exit=(0,))
    ckpt_case("ckpt-valid-snappy", exit=(0,), compress=True)
    ckpt_case("ckpt-valid-multiblock", exit=(0,), per_block=1, restart_interval=1)

    # Truncated index: every interesting offset of the 3-block table.
    n = len(STD_INDEX)
    offsets = sorted({0, 1, 4, 8, 16, 32, 47, 48, 49, n // 2, n - 49, n - 48, n - 47, n - 40,
                      n - 9, n - 8, n - 1})
    for off in offsets:
        index_bytes_case("ckpt-index-trunc-%d" % off, STD_INDEX[:off], regex=r"\.index")
    # The same through freeze-graph.
    for off in (0, 47, n - 1):
        index_bytes_case("ckpt-index-trunc-%d-freeze" % off, STD_INDEX[:off], FREEZE,
                         regex=r"\.index")
    # Flipped bytes (xor 0x40) over the whole file. Damage in the footer's
    # zero padding and in the metaindex block (which nobody needs) may go
    # unnoticed; everything else must be caught.
    meta_off, meta_size, _ = STD_LAYOUT.blocks[1]
    footer = n - 48
    meta_handle_len = len(varint(meta_off) + varint(meta_size))
    handles_len = meta_handle_len + len(varint(STD_LAYOUT.blocks[2][0]) + varint(STD_LAYOUT.blocks[2][1]))
    for off in list(range(0, n - 8, 7)) + [n - 8, n - 3, n - 1]:
        data = bytearray(STD_INDEX)
        data[off] ^= 0x40
        tolerant = (meta_off <= off < meta_off + meta_size + 5 or footer <= off < footer + meta_handle_len
                    or footer + handles_len <= off < n - 8)
        index_bytes_case("ckpt-index-flip-%d" % off, bytes(data),
                         exit=(0, 1) if tolerant else (1,))

    # Footer and block handles.
    def footer_with(meta, index, magic=FOOTER_MAGIC):
        body = STD_INDEX[:footer]
        f = meta + index
        return body + f + b"\x00" * (40 - len(f)) + magic
    meta_h = varint(meta_off) + varint(meta_size)
    idx_off, idx_size, _ = STD_LAYOUT.blocks[2]
    idx_h = varint(idx_off) + varint(idx_size)
    index_bytes_case("ckpt-footer-bad-magic", footer_with(meta_h, idx_h, b"\x00" * 8), regex="magic")
    index_bytes_case("ckpt-footer-index-past-eof", footer_with(meta_h, varint(10 ** 6) + varint(100)))
    index_bytes_case("ckpt-footer-index-huge-size", footer_with(meta_h, varint(idx_off) + varint(2 ** 62)))
    index_bytes_case("ckpt-footer-index-huge-offset", footer_with(meta_h, varint(2 ** 63 - 1) + varint(16)))
    index_bytes_case("ckpt-footer-index-offset-wraps", footer_with(meta_h, varint(2 ** 64 - 8) + varint(16)))
    index_bytes_case("ckpt-footer-index-size-0", footer_with(meta_h, varint(idx_off) + varint(0)))
    index_bytes_case("ckpt-footer-index-in-footer", footer_with(meta_h, varint(footer) + varint(20)))
    index_bytes_case("ckpt-footer-index-is-data-block", footer_with(meta_h, varint(0) + varint(STD_LAYOUT.blocks[0][1])))
    index_bytes_case("ckpt-footer-varint-overlong", footer_with(meta_h, b"\xff" * 11 + b"\x01"))
    index_bytes_case("ckpt-footer-all-ff", STD_INDEX[:footer] + b"\xff" * 40 + FOOTER_MAGIC)
    index_bytes_case("ckpt-only-footer", footer_with(varint(0) + varint(0), varint(0) + varint(0))[footer:])

    # Hand-made index blocks pointing at bad data blocks.
    def with_index(index_entries, data_blocks, ctype=0):
        t = Table()
        for contents in data_blocks:
            t.add_block(contents, ctype)
        meta = t.add_block(block_contents([]))
        idx = t.add_block(block_contents(index_entries, 1))
        return t.finish(meta, idx)
    good, _ = std_entries()
    good_block = block_contents(sorted(good))
    h = varint(0) + varint(len(good_block))
    index_bytes_case("ckpt-index-entry-huge-handle",
                     with_index([(b"\xff", varint(0) + varint(2 ** 40))], [good_block]))
    index_bytes_case("ckpt-index-entry-garbage-handle",
                     with_index([(b"\xff", b"\x80\x80")], [good_block]))
    index_bytes_case("ckpt-index-entry-points-at-itself",
                     with_index([(b"\xff", varint(len(good_block) + 5 + 5 + 4) + varint(30))], [good_block]))
    index_bytes_case("ckpt-index-keys-unsorted",
                     with_index([(b"\xff", h), (b"a", h)], [good_block]))
    index_bytes_case("ckpt-index-same-block-twice",
                     with_index([(b"v2\xff", h), (b"\xff", h)], [good_block]), exit=(0, 1))

    # Damaged block contents (valid CRCs: the structure itself is wrong).
    def one_block(contents, ctype=0):
        return with_index([(b"\xff", varint(0) + varint(len(contents)))], [contents], ctype)
    restarts_tail = good_block[-8:]
    body = good_block[:-8]
    index_bytes_case("ckpt-block-empty", one_block(b""))
    index_bytes_case("ckpt-block-3-bytes", one_block(b"\x00\x00\x00"))
    index_bytes_case("ckpt-block-restarts-huge", one_block(body + struct.pack("<II", 0, 0x7FFFFFFF)))
    index_bytes_case("ckpt-block-restarts-ffffffff", one_block(body + struct.pack("<II", 0, 0xFFFFFFFF)))
    index_bytes_case("ckpt-block-restart-past-end", one_block(body + struct.pack("<II", 10 ** 6, 1)))
    index_bytes_case("ckpt-block-zero-restarts", one_block(body + struct.pack("<I", 0)))
    bad_entry = varint(5) + varint(2) + varint(1) + b"v1" + b"\x00"
    index_bytes_case("ckpt-block-shared-too-long", one_block(bad_entry + struct.pack("<II", 0, 1)))
    big_value = varint(0) + varint(2) + varint(2 ** 31) + b"v1"
    index_bytes_case("ckpt-block-value-len-huge", one_block(big_value + struct.pack("<II", 0, 1)))
    big_key = varint(0) + varint(2 ** 32 - 1) + varint(0) + b"v1"
    index_bytes_case("ckpt-block-key-len-huge", one_block(big_key + struct.pack("<II", 0, 1)))
    index_bytes_case("ckpt-block-varint-runs-off", one_block(b"\xff" * 12 + struct.pack("<II", 0, 1)))
    index_bytes_case("ckpt-block-restarts-tail-only", one_block(restarts_tail))
    # Compression.
    index_bytes_case("ckpt-block-compression-2", one_block(good_block, 2), regex="compress")
    index_bytes_case("ckpt-block-compression-ff", one_block(good_block, 0xFF), regex="compress")
    sn = snappy(good_block)
    index_bytes_case("ckpt-snappy-valid-handmade", one_block(sn, 1), exit=(0,))
    index_bytes_case("ckpt-snappy-length-huge", one_block(varint(2 ** 32 - 1) + sn[1:], 1))
    index_bytes_case("ckpt-snappy-length-4g-minus", one_block(varint(0xFFFFFFF0) + b"\x00a", 1))
    index_bytes_case("ckpt-snappy-length-short", one_block(varint(len(good_block) - 5) + sn[1:], 1))
    index_bytes_case("ckpt-snappy-length-long", one_block(varint(len(good_block) + 5) + sn[1:], 1))
    index_bytes_case("ckpt-snappy-truncated", one_block(sn[:len(sn) // 2], 1))
    index_bytes_case("ckpt-snappy-empty", one_block(b"", 1))
    index_bytes_case("ckpt-snappy-varint-only", one_block(b"\xff\xff\xff\xff\xff\xff", 1))
    # copy of 64 bytes at offset 1 before anything was produced
    index_bytes_case("ckpt-snappy-copy-before-start", one_block(varint(64) + bytes([(63 << 2) | 2]) + b"\x01\x00", 1))
    # literal "a", then a copy with offset 0
    index_bytes_case("ckpt-snappy-copy-offset-0", one_block(varint(9) + b"\x00a" + bytes([(7 << 2) | 2]) + b"\x00\x00", 1))
    # copy far beyond the declared length
    index_bytes_case("ckpt-snappy-copy-overruns", one_block(varint(2) + b"\x00a" + bytes([(63 << 2) | 2]) + b"\x01\x00", 1))
    # 4-byte literal length claiming 2 GiB
    index_bytes_case("ckpt-snappy-literal-huge", one_block(varint(16) + bytes([63 << 2]) + b"\xff\xff\xff\x7f" + b"a", 1))
    # a legal copy that expands a lot: a 1-byte literal repeated (RLE) to 1 MiB, not a block
    rle = bytearray(varint(1 << 20) + b"\x00a")
    produced = 1
    while produced < (1 << 20):
        n_copy = min(64, (1 << 20) - produced)
        if n_copy < 4:
            rle += bytes([(n_copy - 1) << 2]) + b"a" * n_copy
        else:
            rle += bytes([((n_copy - 1) << 2) | 2]) + b"\x01\x00"
        produced += n_copy
    index_bytes_case("ckpt-snappy-rle-1mib-garbage", one_block(bytes(rle), 1))

    # Bundle header.
    def hdr_case(name, hdr, **kw):
        entries, data = std_entries()
        entries[0] = (b"", hdr)
        ckpt_case(name, entries=entries, data=data, **kw)
    hdr_case("ckpt-header-empty", b"", exit=(0, 1))  # all defaults: num_shards=0
    entries, data = std_entries()
    ckpt_case("ckpt-header-absent", entries=entries[1:], data=data)
    hdr_case("ckpt-header-garbage", b"\xff\xff\xff")
    hdr_case("ckpt-header-num-shards-0", header(num_shards=0))
    hdr_case("ckpt-header-num-shards-2", header(num_shards=2), regex="data-00001-of-00002|shard")
    hdr_case("ckpt-header-num-shards-huge", header(num_shards=2 ** 31 - 1))
    hdr_case("ckpt-header-num-shards-negative", header(num_shards=-1))
    hdr_case("ckpt-header-big-endian", header(endianness=1), exit=(0, 1))
    hdr_case("ckpt-header-endianness-7", header(endianness=7))
    hdr_case("ckpt-header-min-consumer-99", header(min_consumer=99))
    hdr_case("ckpt-header-shard-count-vs-files", header(num_shards=3),
             regex="shard|data-")

    # Bundle entries.
    a = floats(2.0)
    crc_a = mask(crc32c(a))

    def v1_case(name, v1_entry, argv=INSPECT_VERIFY, exit=(1,), data=None, regex=None):
        entries, std_data = std_entries(v1=v1_entry)
        ckpt_case(name, argv, exit=exit, regex=regex, entries=entries,
                  data=std_data if data is None else data)
    v1_case("ckpt-entry-garbage", b"\xff\xff")
    v1_case("ckpt-entry-dtype-invalid", entry(0, [1], 0, 4, crc_a))
    v1_case("ckpt-entry-dtype-999", entry(999, [1], 0, 4, crc_a))
    v1_case("ckpt-entry-dtype-negative", entry(-3, [1], 0, 4, crc_a))
    v1_case("ckpt-entry-size-mismatch", entry("float", [2], 0, 4, crc_a))
    v1_case("ckpt-entry-size-huge", entry("float", [1], 0, 2 ** 62, crc_a))
    v1_case("ckpt-entry-size-negative", entry("float", [1], 0, -4, crc_a))
    v1_case("ckpt-entry-offset-huge", entry("float", [1], 2 ** 62, 4, crc_a))
    v1_case("ckpt-entry-offset-negative", entry("float", [1], -4, 4, crc_a))
    v1_case("ckpt-entry-offset-size-wrap", entry("float", [1], 2 ** 63 - 2, 4, crc_a))
    v1_case("ckpt-entry-shape-huge", entry("float", [2 ** 40, 2 ** 40], 0, 4, crc_a))
    v1_case("ckpt-entry-shape-overflow", entry("float", [2 ** 62, 2 ** 62, 2 ** 62], 0, 4, crc_a))
    v1_case("ckpt-entry-shape-negative", entry("float", [-5], 0, 4, crc_a))
    v1_case("ckpt-entry-shape-rank-10000", entry("float", [1] * 10000, 0, 4, crc_a), exit=(0, 1))
    v1_case("ckpt-entry-shard-out-of-range", entry("float", [1], 0, 4, crc_a, shard=5))
    v1_case("ckpt-entry-shard-negative", entry("float", [1], 0, 4, crc_a, shard=-1))
    v1_case("ckpt-entry-crc-wrong", entry("float", [1], 0, 4, crc_a ^ 1), regex="checksum")
    v1_case("ckpt-entry-string-bad-lengths", entry("string", [2], 0, 8, 0))
    v1_case("ckpt-entry-string-length-huge", entry("string", [1], 0, 8, 0),
            data=varint(2 ** 40) + b"\x00" * 7)
    v1_case("ckpt-entry-string-count-huge", entry("string", [2 ** 40], 0, 8, 0))
    v1_case("ckpt-entry-variant", entry(21, [1], 0, 4, crc_a))
    v1_case("ckpt-entry-resource", entry("resource", [1], 0, 4, crc_a))
    v1_case("ckpt-entry-slices-missing", entry("float", [4], slices=[fb(1, fv(2, 2))]))
    v1_case("ckpt-entry-slice-out-of-range", entry("float", [1], slices=[fb(1, fv(1, 5) + fv(2, 2 ** 40))]))
    v1_case("ckpt-entry-slice-rank-wrong", entry("float", [1], slices=[fb(1, b"") + fb(1, b"")]))
    v1_case("ckpt-entry-dtype-vs-graph", entry("int32", [1], 0, 4, crc_a), FREEZE, regex="v1")
    v1_case("ckpt-entry-shape-vs-graph", entry("float", [1, 1], 0, 4, crc_a), FREEZE, regex="v1")
    v1_case("ckpt-entry-huge-shape-vs-graph", entry("float", [2 ** 40, 2 ** 40], 0, 4, crc_a), FREEZE)
    v1_case("ckpt-entry-size-huge-freeze", entry("float", [1], 0, 2 ** 62, crc_a), FREEZE)
    v1_case("ckpt-entry-crc-wrong-freeze", entry("float", [1], 0, 4, crc_a ^ 1), FREEZE, regex="checksum")
    # a key that appears twice
    entries, data = std_entries()
    dup = build_table(entries, restart_interval=1)[0].replace(b"v2", b"v1")
    index_bytes_case("ckpt-duplicate-key", dup, exit=(0, 1))
    # many partitioned slices all overlapping one element
    slices = [fb(1, fv(2, 1))] * 1000
    v1_case("ckpt-entry-1000-overlapping-slices", entry("float", [1], slices=slices))

    # Partitioned variables: the full entry lists slices stored under their own keys.
    def sliced(name, extents_list, slice_dims=None, slice_data=None, full_dims=(4,), argv=FREEZE, exit=(1,)):
        def setup(d):
            entries, data = std_entries()
            data = bytearray(data)
            slices = []
            for k, extents in enumerate(extents_list):
                ext = b""
                for start, length in extents:
                    ext += fb(1, (fv(1, start) if start else b"") + (fv(2, length) if length >= 0 else b""))
                slices.append(ext)
                dims = slice_dims[k] if slice_dims else [e[1] for e in extents]
                raw = slice_data if slice_data is not None else floats(*([1.0] * min(64, max(0, dims[0]))))
                # (numbers beyond +-63 get a clamped, hence wrong, key: the slice is missing then)
                key = wc.slice_key("v1", [(max(-64, min(63, a)), max(-64, min(63, b))) for a, b in extents])
                entries.append((key, entry("float", dims, len(data), len(raw), mask(crc32c(raw)))))
                data += raw
            entries[1] = (b"v1", entry("float", list(full_dims), slices=slices))
            write_ckpt(d, entries=entries, data=bytes(data), meta=meta_graph(graph(model_nodes(v1_dims=full_dims))))
        add(name, "checkpoint", argv, setup, exit=exit)
    sliced("ckpt-slices-valid", [[(0, 2)], [(2, 2)]], exit=(0,))
    sliced("ckpt-slices-valid-inspect", [[(0, 2)], [(2, 2)]], argv=INSPECT_VERIFY, exit=(0,))
    sliced("ckpt-slices-past-end", [[(0, 2)], [(3, 2)]])
    sliced("ckpt-slices-gap", [[(0, 1)], [(2, 2)]])
    sliced("ckpt-slices-overlap", [[(0, 3)], [(2, 2)]], exit=(0, 1))
    sliced("ckpt-slices-negative-start", [[(-2, 2)], [(0, 4)]])
    sliced("ckpt-slices-length-huge", [[(0, 2 ** 40)]])
    sliced("ckpt-slices-entry-shape-wrong", [[(0, 2)], [(2, 2)]], slice_dims=[[2], [3]])
    sliced("ckpt-slices-entry-rank-wrong", [[(0, 2)], [(2, 2)]], slice_dims=[[2, 1, 1], [2]])
    sliced("ckpt-slices-data-short", [[(0, 2)], [(2, 2)]], slice_data=b"\x00")
    sliced("ckpt-slices-rank-mismatch", [[(0, 2), (0, 1)], [(2, 2), (0, 1)]])
    sliced("ckpt-slices-huge-full-shape", [[(0, 2)]], full_dims=(2 ** 40,))

    # Data shards.
    ckpt_case("ckpt-data-missing", data=False, regex=r"data-00000-of-00001")
    ckpt_case("ckpt-data-missing-freeze", FREEZE, data=False, regex=r"data-00000-of-00001")
    ckpt_case("ckpt-data-truncated", data=floats(2.0, 3.0)[:6])
    ckpt_case("ckpt-data-truncated-freeze", FREEZE, data=floats(2.0, 3.0)[:6])
    ckpt_case("ckpt-data-empty", data=b"")
    ckpt_case("ckpt-data-longer", data=floats(2.0, 3.0) + b"\x00" * 100, exit=(0,))
    ckpt_case("ckpt-data-flipped", data=b"\x40" + floats(2.0, 3.0)[1:], regex="checksum")

    def data_dir(d):
        write_ckpt(d, data=False)
        os.mkdir(os.path.join(d, "model.data-00000-of-00001"))
    add("ckpt-data-is-directory", "checkpoint", INSPECT_VERIFY, data_dir)

    def data_fifo(d):
        write_ckpt(d, data=False)
        os.mkfifo(os.path.join(d, "model.data-00000-of-00001"))
    add("ckpt-data-is-fifo", "checkpoint", INSPECT_VERIFY, data_fifo)

    def wrong_count(d):
        write_ckpt(d, data=False)
        write(os.path.join(d, "model.data-00000-of-00002"), floats(2.0, 3.0))
        write(os.path.join(d, "model.data-00001-of-00002"), b"")
    add("ckpt-data-wrong-shard-count", "checkpoint", INSPECT_VERIFY, wrong_count)
    add("ckpt-data-wrong-shard-count-freeze", "checkpoint", FREEZE, wrong_count)

    # The index itself is not a file.
    def index_replaced_by(make):
        def setup(d):
            write_ckpt(d, index=b"")
            index = os.path.join(d, "model.index")
            os.remove(index)
            make(index)
        return setup
    index_dir = index_replaced_by(os.mkdir)
    add("ckpt-index-is-directory", "checkpoint", INSPECT_VERIFY, index_dir, regex=r"model")
    add("ckpt-index-is-directory-freeze", "checkpoint", FREEZE, index_dir)
    index_fifo = index_replaced_by(os.mkfifo)
    add("ckpt-index-is-fifo", "checkpoint", INSPECT_VERIFY, index_fifo, regex=r"model")
    add("ckpt-index-is-fifo-freeze", "checkpoint", FREEZE, index_fifo)
    add("ckpt-index-symlink-loop", "checkpoint", INSPECT_VERIFY,
        index_replaced_by(lambda index: os.symlink("model.index", index)))

    # The `checkpoint` state file.
    def state(text):
        def setup(d):
            write_ckpt(d)
            write(os.path.join(d, "checkpoint"), text.encode() if isinstance(text, str) else text)
        return setup
    dir_inspect = ["frost-inspect", "checkpoint", "{d}", "--verify"]
    add("ckpt-state-valid", "checkpoint", dir_inspect, state('model_checkpoint_path: "model"\n'), exit=(0,))
    add("ckpt-state-names-missing", "checkpoint", dir_inspect, state('model_checkpoint_path: "gone"\n'), regex="gone")
    add("ckpt-state-garbage", "checkpoint", dir_inspect, state(b"\x00\xff{{{{ model_checkpoint_path"))
    add("ckpt-state-unterminated", "checkpoint", dir_inspect, state('model_checkpoint_path: "model'))
    add("ckpt-state-names-itself", "checkpoint", dir_inspect, state('model_checkpoint_path: "."\n'))
    add("ckpt-state-names-dir", "checkpoint", dir_inspect, state('model_checkpoint_path: "/"\n'))
    add("ckpt-state-huge-path", "checkpoint", dir_inspect, state('model_checkpoint_path: "%s"\n' % ("p" * 100000)))
    # Without a usable state file a reader may fall back to the one checkpoint present.
    add("ckpt-state-empty", "checkpoint", dir_inspect, state(""), exit=(0, 1))

    def state_is_dir(d):
        write_ckpt(d)
        os.mkdir(os.path.join(d, "checkpoint"))
    add("ckpt-state-is-directory", "checkpoint", dir_inspect, state_is_dir, exit=(0, 1))

    # V1 tables (one file, SavedTensorSlices).
    def v1_table(meta_tensors, data_items):
        """meta_tensors: [(name, dims, dtype)], data_items: [(name, dims, TensorProto)]."""
        metas = b""
        for name, dims, dtype in meta_tensors:
            full = b"".join(fb(1, b"") for _ in dims)
            metas += fb(1, fb(1, name) + fb(2, shape(dims)) + fv(3, DT[dtype]) + fb(4, full))
        entries = [(b"", fb(1, metas + fb(2, fv(1, 1))))]
        for name, dims, proto in data_items:
            full = b"".join(fb(1, b"") for _ in dims)
            entries.append((wc.slice_key(name, [(0, -1)] * len(dims)),
                            fb(2, fb(1, name) + fb(2, full) + fb(3, proto))))
        return build_table(entries)[0]

    def v1_proto(vals, dims=(1,)):
        return fv(1, 1) + fb(2, shape(dims)) + b"".join(ffloat(5, v) for v in vals)
    v1_argv = ["frost-inspect", "checkpoint", "{d}/v1", "--verify"]

    def v1(name, table, exit=(1,), argv=v1_argv):
        add(name, "checkpoint", argv, lambda d: write(os.path.join(d, "v1"), table), exit=exit)
    v1("ckpt-v1-valid", v1_table([("w", [2], "float")], [("w", [2], v1_proto([1.0, 2.0], [2]))]), exit=(0,))
    v1("ckpt-v1-missing-data", v1_table([("w", [2], "float")], []))
    v1("ckpt-v1-too-many-values", v1_table([("w", [2], "float")], [("w", [2], v1_proto([1.0] * 5, [2]))]))
    v1("ckpt-v1-dtype-mismatch", v1_table([("w", [1], "int32")], [("w", [1], v1_proto([1.0]))]))
    v1("ckpt-v1-huge-shape", v1_table([("w", [2 ** 40, 2 ** 40], "float")], [("w", [2 ** 40, 2 ** 40], v1_proto([1.0], [2 ** 40, 2 ** 40]))]))
    v1("ckpt-v1-meta-garbage", build_table([(b"", b"\xff\x00\xff")])[0])
    v1("ckpt-v1-no-meta", build_table([(b"zz", b"")])[0])
    v1("ckpt-v1-data-garbage", build_table([(b"", fb(1, fb(1, fb(1, "w") + fb(2, shape([1])) + fv(3, 1) + fb(4, fb(1, b""))))),
                                            (wc.slice_key("w", [(0, -1)]), b"\xff\xff\xff")])[0])
    v1_full = v1_table([("w", [2], "float")], [("w", [2], v1_proto([1.0, 2.0], [2]))])
    for off in (10, len(v1_full) // 2, len(v1_full) - 1):
        v1("ckpt-v1-trunc-%d" % off, v1_full[:off])


# ------------------------------------------------------------ graphs

def pbtxt_node(name, op, inputs=(), extra=""):
    ins = "".join(' input: "%s"' % i for i in inputs)
    return 'node { name: "%s" op: "%s"%s %s}\n' % (name, op, ins, extra)


PH = 'attr { key: "dtype" value { type: DT_FLOAT } } '
TF = 'attr { key: "T" value { type: DT_FLOAT } } '
SIMPLE_PBTXT = (pbtxt_node("x", "Placeholder", extra=PH)
                + pbtxt_node("y", "Identity", ["x"], TF)
                + "versions { producer: 1087 }\n")
SIMPLE_PB = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                   node("y", "Identity", ["x"], attrs=F)])


def graph_file(name, content):
    def setup(d):
        nonlocal content
        if callable(content):  # big inputs are built only when needed
            content = content()
        write(os.path.join(d, name), content.encode() if isinstance(content, str) else content)
    return setup


def opt(name, *extra):
    return ["frost-opt", "{d}/" + name, "-o", "{d}/out.pb"] + list(extra)


def freeze_graph_argv(name, outputs="y", *extra):
    return ["freeze-graph", "{d}/" + name, "--outputs", outputs, "-o", "{d}/out.pb"] + list(extra)


def inspect_graph(name):
    return ["frost-inspect", "graph", "{d}/" + name]


def optimize_argv(name, inputs, outputs, *extra):
    return ["optimize-for-inference", "--input={d}/" + name, "--output={d}/out.pb",
            "--input_names=" + inputs, "--output_names=" + outputs] + list(extra)


def gcase(name, filename, content, argv, exit=(1,), regex=None, **kw):
    add(name, "graph", argv, graph_file(filename, content), exit=exit, regex=regex, **kw)


def deep_text(depth, kind):
    if kind == "list-func":  # attr { value { list { func { attr { ... (the brief's shape)
        opening = 'attr { key: "a" value { list { func { name: "f" '
        closing = "} } } } "
    elif kind == "func":
        opening = 'attr { key: "a" value { func { name: "f" '
        closing = "} } } "
    else:  # tensor-in-list-in-attr is flat; use plain braces of an unknown message
        opening = "attr { key: \"a\" value { list { func { "
        closing = "} } } } "
    return ('node { name: "n" op: "NoOp" ' + opening * depth + closing * depth + "}\n")


def deep_binary(depth):
    value = a_int(1)
    for _ in range(depth):
        value = a_func("f", fb(2, fb(1, "a") + fb(2, value)))
    return graph([node("n", "NoOp", attrs={"a": value})])


def library_pbtxt(functions):
    return "library {\n" + "".join("function { %s }\n" % f for f in functions) + "}\n"


def fn(name, body, call_op=None):
    """A float -> float function; body: node_def text; returns text."""
    return ('signature { name: "%s" input_arg { name: "x" type: DT_FLOAT } '
            'output_arg { name: "y" type: DT_FLOAT } } %s ret { key: "y" value: "%s" }'
            % (name, body[0], body[1]))


def call_node(name, fname, inp="x"):
    return ('node { name: "%s" op: "PartitionedCall" input: "%s" '
            'attr { key: "Tin" value { list { type: DT_FLOAT } } } '
            'attr { key: "Tout" value { list { type: DT_FLOAT } } } '
            'attr { key: "f" value { func { name: "%s" } } } }\n' % (name, inp, fname))


def call_body(fname):
    return ('node_def { name: "c" op: "PartitionedCall" input: "x" '
            'attr { key: "Tin" value { list { type: DT_FLOAT } } } '
            'attr { key: "Tout" value { list { type: DT_FLOAT } } } '
            'attr { key: "f" value { func { name: "%s" } } } }' % fname, "c:output:0")


IDENTITY_BODY = ('node_def { name: "i" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } } }',
                 "i:output:0")


def graph_cases():
    gcase("graph-valid-pbtxt", "g.pbtxt", SIMPLE_PBTXT, freeze_graph_argv("g.pbtxt"), exit=(0,))
    gcase("graph-valid-pb", "g.pb", SIMPLE_PB, freeze_graph_argv("g.pb"), exit=(0,))

    # Truncated and flipped binary GraphDef / MetaGraphDef / SavedModel.
    # A truncation can end on a field boundary and still parse: then the
    # graph lacks nodes, which the outputs notice (or not).
    meta = MODEL_META
    for off in sorted({1, 2, 5, 17, len(meta) // 3, len(meta) // 2, len(meta) - 30, len(meta) - 1}):
        def setup(d, off=off):
            write_ckpt(d)
            write(os.path.join(d, "model.meta"), meta[:off])
        add("graph-meta-trunc-%d" % off, "graph", FREEZE, setup, exit=(1,))
    for off in range(3, len(meta), max(1, len(meta) // 12)):
        data = bytearray(meta)
        data[off] ^= 0x40

        def setup(d, data=bytes(data)):
            write_ckpt(d)
            write(os.path.join(d, "model.meta"), data)
        add("graph-meta-flip-%d" % off, "graph", FREEZE, setup, exit=(0, 1))
    for off in (1, len(SIMPLE_PB) // 2, len(SIMPLE_PB) - 1):
        gcase("graph-pb-trunc-%d" % off, "g.pb", SIMPLE_PB[:off], inspect_graph("g.pb"), exit=(0, 1))
    sm = saved_model([meta_graph(graph(model_nodes()))])

    def sm_setup(data, with_vars=True):
        def setup(d):
            write(os.path.join(d, "sm", "saved_model.pb"), data)
            if with_vars:
                write_ckpt(os.path.join(d, "sm", "variables"), "variables", meta=False)
        return setup
    sm_argv = ["freeze-graph", "{d}/sm", "--outputs", "add", "-o", "{d}/out.pb"]
    add("graph-sm-valid", "graph", sm_argv, sm_setup(sm), exit=(0,))
    for off in (1, 3, len(sm) // 2, len(sm) - 1):
        add("graph-sm-trunc-%d" % off, "graph", sm_argv, sm_setup(sm[:off]))
    add("graph-sm-empty", "graph", sm_argv, sm_setup(b""))
    add("graph-sm-no-meta-graphs", "graph", sm_argv, sm_setup(fv(1, 1)), regex="meta graph|tags")
    add("graph-sm-bad-tags", "graph", sm_argv, sm_setup(saved_model([meta_graph(graph(model_nodes()), tags=("train",))])),
        regex="tags")
    add("graph-sm-10000-meta-graphs", "graph", sm_argv,
        sm_setup(saved_model([meta_graph(b"", tags=("t%d" % i,)) for i in range(10000)])), regex="tags")
    add("graph-sm-no-variables", "graph", sm_argv, sm_setup(sm, with_vars=False))

    # Wire-level damage.
    wire = {
        "wire-type-7": SIMPLE_PB + b"\x0f",
        "field-0": b"\x02\x01a" + SIMPLE_PB,
        "length-past-end": fb(1, b"")[:1] + varint(1000) + b"abc",
        "length-huge": b"\x0a" + varint(2 ** 62) + b"abc",
        "varint-11-bytes": b"\x18" + b"\xff" * 10 + b"\x01",
        "group-unterminated": b"\x63abc",  # field 12 start group, no end
        "group-mismatched-end": b"\x63\x6c",
        "node-not-a-message": fb(1, b"\xff\xff\xff\xff"),
        "invalid-utf8-name": graph([node(b"x\xff\xfe", "NoOp")]),
        "all-zeros": b"\x00" * 64,
        "random-bytes": bytes((i * 7919 + 13) & 0xFF for i in range(512)),
    }
    for key, data in wire.items():
        gcase("graph-pb-" + key, "g.pb", data, opt("g.pb"))
    gcase("graph-pb-invalid-utf8-freeze", "g.pb", wire["invalid-utf8-name"], freeze_graph_argv("g.pb", "x"))

    # Text syntax errors.
    texts = {
        "unclosed-brace": 'node { name: "x" op: "NoOp"\n',
        "extra-brace": 'node { name: "x" op: "NoOp" } }\n',
        "unterminated-string": 'node { name: "x op: "NoOp" }\n',
        "bad-escape": 'node { name: "x\\q" op: "NoOp" }\n',
        "unknown-field": 'node { name: "x" op: "NoOp" colour: 3 }\n',
        "bad-enum": 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_BANANA } } }\n',
        "int-overflow": 'node { name: "x" op: "NoOp" attr { key: "i" value { i: 99999999999999999999999 } } }\n',
        "nul-bytes": 'node { name: "x"\x00 op: "NoOp" }\n',
        "invalid-utf8": b'node { name: "x\xff\xfe" op: "NoOp" }\n',
        "binary-garbage": bytes(range(256)) * 4,
        "only-comment": "# nothing but a comment\n",
        "unclosed-list": 'node { name: "x" op: "NoOp" attr { key: "l" value { list { i: [1, 2, } } } }\n',
        "long-line-error": 'node { name: "%s" op: "NoOp" } }\n' % ("z" * 100000),
        "many-errors": 'node { bogus: 1 }\n' * 10000,
        "deep-braces-unknown": "x { " * 100000,
    }
    for key, text in texts.items():
        gcase("graph-pbtxt-" + key, "g.pbtxt", text, opt("g.pbtxt"),
              exit=(0, 1) if key == "only-comment" else (1,))

    # Deep nesting: the text and binary parsers must refuse, not overflow the stack.
    gcase("graph-deep-text-2000", "g.pbtxt", deep_text(2000, "list-func"), opt("g.pbtxt"))
    gcase("graph-deep-text-2000-func", "g.pbtxt", deep_text(2000, "func"), opt("g.pbtxt"))
    gcase("graph-deep-text-50000", "g.pbtxt", deep_text(50000, "list-func"), opt("g.pbtxt"))
    gcase("graph-deep-text-2000-inspect", "g.pbtxt", deep_text(2000, "list-func"), inspect_graph("g.pbtxt"))
    gcase("graph-deep-text-2000-freeze", "g.pbtxt", deep_text(2000, "func"), freeze_graph_argv("g.pbtxt", "n"))
    gcase("graph-deep-binary-2000", "g.pb", deep_binary(2000), opt("g.pb"))
    gcase("graph-deep-binary-2000-freeze", "g.pb", deep_binary(2000), freeze_graph_argv("g.pb", "n"))
    # 3 messages a level: 10 levels stay under protobuf's limit of 100.
    gcase("graph-deep-binary-10", "g.pb", deep_binary(10), opt("g.pb"), exit=(0,))
    deep_meta = meta_graph(deep_binary(5000))
    gcase("graph-deep-binary-meta", "g.meta", deep_meta, inspect_graph("g.meta"))
    # A GraphDef nested in AttrValue.tensor? No: nested TensorShape lists of lists.
    nested_list = a_int(1)
    for _ in range(3000):
        nested_list = a_list(fb(9, fb(1, "f") + fb(2, fb(1, "k") + fb(2, nested_list))))
    gcase("graph-deep-binary-list-func", "g.pb", graph([node("n", "NoOp", attrs={"a": nested_list})]), opt("g.pb"))

    # Graph structure.
    def structure(name, text, argv_kind="freeze", outputs="out", exit=(1,), regex=None, pipeline=None):
        content = text + "versions { producer: 1087 }\n"
        if argv_kind == "freeze":
            argv = freeze_graph_argv("g.pbtxt", outputs)
        else:
            argv = opt("g.pbtxt") + (["--pass-pipeline=" + pipeline] if pipeline else [])
        gcase(name, "g.pbtxt", content, argv, exit=exit, regex=regex)
    x = pbtxt_node("x", "Placeholder", extra=PH)
    structure("graph-op-empty", x + pbtxt_node("out", "", ["x"]), regex="out")
    structure("graph-op-empty-opt", x + pbtxt_node("out", "", ["x"]), "opt", regex="out")
    structure("graph-name-empty", x + pbtxt_node("", "Identity", ["x"], TF) + pbtxt_node("out", "Identity", ["x"], TF))
    structure("graph-input-missing", x + pbtxt_node("out", "Identity", ["ghost"], TF), regex="ghost")
    structure("graph-input-missing-opt", x + pbtxt_node("out", "Identity", ["ghost"], TF), "opt", regex="ghost")
    structure("graph-input-missing-control", x + pbtxt_node("out", "Identity", ["x", "^ghost"], TF), regex="ghost")
    structure("graph-input-bad-port", x + pbtxt_node("out", "Identity", ["x:99999999999999999999"], TF))
    structure("graph-input-negative-port", x + pbtxt_node("out", "Identity", ["x:-1"], TF))
    structure("graph-input-port-out-of-range", x + pbtxt_node("out", "Identity", ["x:7"], TF), regex="x:7|port|output")
    structure("graph-input-empty", x + pbtxt_node("out", "Identity", [""], TF))
    structure("graph-input-caret-only", x + pbtxt_node("out", "Identity", ["x", "^"], TF))
    structure("graph-input-colon-only", x + pbtxt_node("out", "Identity", [":0"], TF))
    structure("graph-cycle-2", x + pbtxt_node("a", "Identity", ["b"], TF) + pbtxt_node("b", "Identity", ["a"], TF)
              + pbtxt_node("out", "Identity", ["a"], TF), regex="cycle")
    structure("graph-cycle-self", x + pbtxt_node("out", "AddV2", ["x", "out"], TF), regex="cycle")
    structure("graph-cycle-control", x + pbtxt_node("a", "Identity", ["x", "^out"], TF)
              + pbtxt_node("out", "Identity", ["a"], TF), regex="cycle")
    structure("graph-cycle-opt-prune", x + pbtxt_node("a", "Identity", ["b"], TF) + pbtxt_node("b", "Identity", ["a"], TF)
              + pbtxt_node("out", "Identity", ["a"], TF), "opt", pipeline="prune{outputs=out}")
    structure("graph-duplicate-names", x + pbtxt_node("out", "Identity", ["x"], TF) + pbtxt_node("out", "Neg", ["x"], TF),
              regex="out")
    structure("graph-duplicate-names-opt", x + pbtxt_node("out", "Identity", ["x"], TF) + pbtxt_node("out", "Neg", ["x"], TF),
              "opt", regex="out")
    ghost = 'attr { key: "_class" value { list { s: "loc:@ghost" } } } '
    structure("graph-class-ghost", x + pbtxt_node("out", "Identity", ["x"], TF + ghost), regex="ghost")
    structure("graph-class-ghost-opt", x + pbtxt_node("out", "Identity", ["x"], TF + ghost), "opt",
              pipeline="clear-devices", regex="ghost")
    structure("graph-class-not-loc", x + pbtxt_node("out", "Identity", ["x"], TF + 'attr { key: "_class" value { list { s: "loc:" } } } '),
              exit=(0, 1))
    structure("graph-attr-type-wrong", x + pbtxt_node("out", "Identity", ["x"], 'attr { key: "T" value { s: "float" } } '),
              exit=(0, 1))
    # Huge declared tensors in a Const: must not be materialized.
    huge = ('attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT '
            'tensor_shape { dim { size: 1099511627776 } dim { size: 1099511627776 } } float_val: 1 } } } ')
    # Written as it is, never materialized: passing it through is fine.
    structure("graph-const-huge-shape-freeze", pbtxt_node("out", "Const", extra=huge), exit=(0, 1))
    structure("graph-const-huge-shape-compress", pbtxt_node("out", "Const", extra=huge), "opt",
              pipeline="compress-constants")
    gcase("graph-const-huge-shape-inspect", "g.pbtxt", pbtxt_node("out", "Const", extra=huge), inspect_graph("g.pbtxt"),
          exit=(0, 1))
    overflow = huge.replace("1099511627776", "9223372036854775807")
    structure("graph-const-overflow-shape-compress", pbtxt_node("out", "Const", extra=overflow), "opt",
              pipeline="compress-constants")
    gcase("graph-const-overflow-shape-inspect", "g.pbtxt", pbtxt_node("out", "Const", extra=overflow),
          inspect_graph("g.pbtxt"), exit=(0, 1))
    negdim = huge.replace("1099511627776", "-7")
    structure("graph-const-negative-dim-compress", pbtxt_node("out", "Const", extra=negdim), "opt",
              pipeline="compress-constants")
    short = ('attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT '
             'tensor_shape { dim { size: 1000 } } tensor_content: "\\001\\002\\003" } } } ')
    structure("graph-const-short-content-compress", pbtxt_node("out", "Const", extra=short), "opt",
              pipeline="compress-constants")

    # Functions: missing, recursive, mutually recursive.
    def fcase(name, body_text, functions, pipeline="inline-functions", outputs="out", kind="freeze", **kw):
        text = x + body_text + (library_pbtxt(functions) if functions else "")
        structure(name, text, kind, outputs=outputs, pipeline=pipeline if kind == "opt" else None, **kw)
    call = call_node("out", "ghost_fn")
    fcase("graph-call-missing-function", call, [], regex="ghost_fn")
    fcase("graph-call-missing-function-opt", call, [], kind="opt", regex="ghost_fn")
    fcase("graph-call-missing-function-nopass", call, [], kind="opt", pipeline=None, regex="ghost_fn")
    # With no library at all, an unknown op may be a custom op: passing it through is fine.
    fcase("graph-op-names-missing-function", pbtxt_node("out", "ghost_fn", ["x"]), [], kind="opt", pipeline=None,
          exit=(0, 1))
    fcase("graph-op-names-missing-function-in-library", pbtxt_node("out", "ghost_fn", ["x"]), [fn("f", IDENTITY_BODY)],
          kind="opt", pipeline="inline-functions", exit=(0, 1))
    while_node = ('node { name: "out" op: "While" input: "x" '
                  'attr { key: "T" value { list { type: DT_FLOAT } } } '
                  'attr { key: "cond" value { func { name: "no_cond" } } } '
                  'attr { key: "body" value { func { name: "no_body" } } } '
                  'attr { key: "_lower_using_switch_merge" value { b: true } } }\n')
    fcase("graph-while-missing-functions", while_node, [], regex="no_cond|no_body")
    fcase("graph-while-missing-functions-lower", while_node, [], kind="opt", pipeline="lower-control-flow",
          regex="no_cond|no_body")
    if_node = (pbtxt_node("p", "Placeholder", extra='attr { key: "dtype" value { type: DT_BOOL } } ')
               + 'node { name: "out" op: "If" input: "p" input: "x" '
               'attr { key: "Tcond" value { type: DT_BOOL } } '
               'attr { key: "Tin" value { list { type: DT_FLOAT } } } '
               'attr { key: "Tout" value { list { type: DT_FLOAT } } } '
               'attr { key: "then_branch" value { func { name: "no_then" } } } '
               'attr { key: "else_branch" value { func { name: "no_else" } } } '
               'attr { key: "_lower_using_switch_merge" value { b: true } } }\n')
    fcase("graph-if-missing-functions", if_node, [], regex="no_then|no_else")
    fcase("graph-if-missing-functions-lower", if_node, [], kind="opt", pipeline="lower-control-flow",
          regex="no_then|no_else")
    call_f = call_node("out", "f")
    fcase("graph-function-valid-inline", call_f, [fn("f", IDENTITY_BODY)], kind="opt", exit=(0,))
    # Without inlining a recursive library may pass through (TensorFlow imports it too).
    fcase("graph-function-self-recursive", call_f, [fn("f", call_body("f"))], exit=(0, 1))
    fcase("graph-function-self-recursive-inline", call_f, [fn("f", call_body("f"))], kind="opt", regex="recurs|f")
    fcase("graph-function-mutual-recursion", call_f, [fn("f", call_body("g")), fn("g", call_body("f"))],
          exit=(0, 1))
    fcase("graph-function-mutual-recursion-inline", call_f, [fn("f", call_body("g")), fn("g", call_body("f"))],
          kind="opt", regex="recurs|f|g")
    direct = ('node_def { name: "c" op: "f" input: "x" }', "c:y:0")
    fcase("graph-function-direct-self-call-inline", pbtxt_node("out", "f", ["x"]), [fn("f", direct)], kind="opt")
    fcase("graph-function-body-calls-missing", call_f, [fn("f", call_body("nowhere"))], kind="opt", regex="nowhere")
    fcase("graph-function-ret-missing", call_f, [fn("f", ('node_def { name: "i" op: "NoOp" }', "gone:output:0"))],
          kind="opt", regex="gone")
    # Two different functions named f (TensorFlow accepts only identical twins).
    fcase("graph-function-duplicate", call_f, [fn("f", IDENTITY_BODY), fn("f", call_body("f2")),
                                               fn("f2", IDENTITY_BODY)], kind="opt", regex="f")
    # A call tree that is a DAG but exponential when expanded: f0 calls f1 twice, ... f30.
    funcs = []
    for i in range(30):
        body = ('node_def { name: "a" op: "PartitionedCall" input: "x" '
                'attr { key: "Tin" value { list { type: DT_FLOAT } } } attr { key: "Tout" value { list { type: DT_FLOAT } } } '
                'attr { key: "f" value { func { name: "f%d" } } } } '
                'node_def { name: "b" op: "PartitionedCall" input: "a:output:0" '
                'attr { key: "Tin" value { list { type: DT_FLOAT } } } attr { key: "Tout" value { list { type: DT_FLOAT } } } '
                'attr { key: "f" value { func { name: "f%d" } } } }' % (i + 1, i + 1), "b:output:0")
        funcs.append(fn("f%d" % i, body))
    funcs.append(fn("f30", IDENTITY_BODY))
    fcase("graph-function-exponential-inline", call_node("out", "f0"), funcs, kind="opt")

    # Huge but legal graphs: must finish within the time limit. (A tenth of
    # the size for a sanitized build: its checks do not need the size, and
    # the release build's run catches what scales badly.)
    big = HUGE_GRAPH_NODES
    n_addn = 5 * big
    addn = lambda: graph([node("c", "Const", attrs={"dtype": a_type("float"), "value": a_tensor(tensor("float", [], [1.0]))}),
                  node("sum", "AddN", ["c"] * n_addn, attrs={"N": a_int(n_addn), "T": a_type("float")})])
    gcase("graph-huge-addn-freeze", "g.pb", addn, freeze_graph_argv("g.pb", "sum"), exit=(0,))
    gcase("graph-huge-addn-opt", "g.pb", addn, opt("g.pb", "--pass-pipeline=prune{outputs=sum},clear-devices"),
          exit=(0,))
    wide = lambda: graph([node("n%d" % i, "NoOp") for i in range(big)]
                         + [node("out", "NoOp", ["^n%d" % i for i in range(big)])])
    gcase("graph-huge-noops-freeze", "g.pb", wide, freeze_graph_argv("g.pb", "out"), exit=(0,))
    gcase("graph-huge-noops-inspect", "g.pb", wide, inspect_graph("g.pb"), exit=(0,))
    gcase("graph-huge-noops-opt-all", "g.pb", wide,
          opt("g.pb", "--pass-pipeline=strip-save-nodes,prune{outputs=out},clear-devices,compress-constants"), exit=(0,))
    chain = lambda: graph([node("n0", "Placeholder", attrs={"dtype": a_type("float")})]
                  + [node("n%d" % i, "Identity", ["n%d" % (i - 1)], attrs=F) for i in range(1, big)])
    gcase("graph-huge-chain-freeze", "g.pb", chain, freeze_graph_argv("g.pb", "n%d" % (big - 1)), exit=(0,))
    gcase("graph-huge-chain-opt", "g.pb", chain, opt("g.pb", "--pass-pipeline=prune{outputs=n%d}" % (big - 1)), exit=(0,))
    gcase("graph-huge-chain-optimize", "g.pb", chain, optimize_argv("g.pb", "n0", "n%d" % (big - 1)), exit=(0,))
    ctrl_chain = lambda: graph([node("n0", "NoOp")] + [node("n%d" % i, "NoOp", ["^n%d" % (i - 1)]) for i in range(1, big)])
    gcase("graph-huge-control-chain-freeze", "g.pb", ctrl_chain, freeze_graph_argv("g.pb", "n%d" % (big - 1)), exit=(0,))
    # Control edges on chains of constants: optimize drops them all, walking the chain once.
    const_chain = lambda: graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                                 node("c", "Const", attrs={"dtype": a_type("float"), "value": a_tensor(tensor("float", [], [1.0]))})]
                                + [node("n%d" % i, "Identity", ["c" if i == 0 else "n%d" % (i - 1), "^c"], attrs=F)
                                   for i in range(big)]
                                + [node("out", "Identity", ["x", "^n%d" % (big - 1)], attrs=F)])
    gcase("graph-huge-const-control-chain-optimize", "g.pb", const_chain, optimize_argv("g.pb", "x", "out"), exit=(0,))
    # A batch norm after a convolution whose weights declare 2e13 elements: left alone, nothing allocated.
    huge_weights = lambda: graph([
        node("x", "Placeholder", attrs={"dtype": a_type("float")}),
        node("w", "Const", attrs={"dtype": a_type("float"), "value": a_tensor(tensor("float", [100000, 100000, 1000, 2], [1.0]))}),
        node("p", "Const", attrs={"dtype": a_type("float"), "value": a_tensor(tensor("float", [2], [1.0, 2.0]))}),
        node("conv", "Conv2D", ["x", "w"], attrs=dict(F, padding=a_str(b"VALID"), strides=a_list(fv(3, 1) * 4))),
        node("bn", "FusedBatchNormV3", ["conv", "p", "p", "p", "p"], attrs=dict(F, is_training=fv(5, 0))),
        node("y", "Mul", ["bn", "p"], attrs=F)])
    gcase("graph-optimize-huge-declared-weights", "g.pb", huge_weights, optimize_argv("g.pb", "x", "y"), exit=(0,))
    gcase("graph-quantize-huge-declared-weights", "g.pb", huge_weights,
          ["transform-graph", "--in_graph={d}/g.pb", "--out_graph={d}/out.pb", "--transforms=quantize_weights"],
          regex="too large")
    text_noops = lambda: "".join('node { name: "n%d" op: "NoOp" }\n' % i for i in range(big))
    gcase("graph-huge-noops-text", "g.pbtxt", text_noops, opt("g.pbtxt", "--pass-pipeline=prune{outputs=n7}"),
          exit=(0,))
    # Many missing inputs: the error is a few lines, not 200k.
    many_missing = lambda: graph([node("out", "AddN", ["m%d" % i for i in range(200000)],
                               attrs={"N": a_int(200000), "T": a_type("float")})])
    gcase("graph-200k-missing-inputs", "g.pb", many_missing, freeze_graph_argv("g.pb", "out"), max_lines=MANY)
    gcase("graph-200k-missing-inputs-opt", "g.pb", many_missing, opt("g.pb"), max_lines=MANY)
    dups = lambda: graph([node("d", "NoOp") for _ in range(100000)])
    gcase("graph-100k-duplicates", "g.pb", dups, opt("g.pb"), max_lines=MANY)

    # Very long names: the error must not echo all of it.
    long = "L" * 100000
    gcase("graph-long-node-name-missing-input", "g.pbtxt",
          x + pbtxt_node("out", "Identity", [long], TF), freeze_graph_argv("g.pbtxt", "out"))
    gcase("graph-long-op-name", "g.pbtxt", x + pbtxt_node("out", long, ["x"]), freeze_graph_argv("g.pbtxt", "out"),
          exit=(0, 1))  # custom ops are allowed; the check is on the message's length
    gcase("graph-long-names-suggest", "g.pb", graph([node("a" * 100000, "NoOp")]),
          freeze_graph_argv("g.pb", "b" * 100000))
    gcase("graph-long-function-name", "g.pbtxt", x + call_node("out", long), opt("g.pbtxt", "--pass-pipeline=inline-functions"))

    # Shapes at the limits of int64 through shape inference (fold-constants,
    # add-output-shapes): legal graphs, whose arithmetic must not overflow.
    i64max = 9223372036854775807
    def ph(name, dims):
        return pbtxt_node(name, "Placeholder", extra=PH + 'attr { key: "shape" value { shape { %s } } } '
                          % " ".join("dim { size: %d }" % d for d in dims))
    def ints(name, values, dtype="DT_INT64"):
        field = "int64_val" if dtype == "DT_INT64" else "int_val"
        return pbtxt_node(name, "Const", extra='attr { key: "dtype" value { type: %s } } attr { key: "value" '
                          'value { tensor { dtype: %s tensor_shape { dim { size: %d } } %s } } } '
                          % (dtype, dtype, len(values), " ".join("%s: %d" % (field, v) for v in values)))
    def ilist(key, values):
        return 'attr { key: "%s" value { list { %s } } } ' % (key, " ".join("i: %d" % v for v in values))
    conv_attrs = TF + 'attr { key: "padding" value { s: "EXPLICIT" } } ' + ilist("strides", [1, i64max, 1, 1]) \
        + ilist("dilations", [1, i64max, i64max, 1]) + ilist("explicit_paddings", [0, 0, i64max, i64max, -i64max, i64max, 0, 0])
    shapes = (ph("x", [i64max, i64max, 3, 3]) + ph("w", [i64max, i64max, 3, i64max]) + ph("h", [-7, 2, 2, 3])
              + pbtxt_node("conv", "Conv2D", ["x", "w"], conv_attrs)
              + pbtxt_node("dw", "DepthwiseConv2dNative", ["x", "w"], conv_attrs)
              + pbtxt_node("pool", "MaxPool", ["x"], TF + 'attr { key: "padding" value { s: "SAME" } } '
                           + ilist("ksize", [1, i64max, i64max, 1]) + ilist("strides", [1, i64max, i64max, 1]))
              + ints("m", [i64max, i64max, 2, 2]) + pbtxt_node("tile", "Tile", ["x", "m"], TF)
              + ints("p", [i64max, i64max, i64max, i64max, 0, 0, 1, 1]) + pbtxt_node("pad", "Pad", ["x", "p"], TF)
              + ints("r", [-1, i64max]) + pbtxt_node("reshape", "Reshape", ["x", "r"], TF)
              + ints("axis", [0]) + pbtxt_node("cat", "ConcatV2", ["x", "x", "axis"], TF + 'attr { key: "N" value { i: 2 } } ')
              + ints("blk", [i64max, 2]) + ints("pads", [i64max, i64max, 0, 0])
              + pbtxt_node("s2b", "SpaceToBatchND", ["x", "blk", "pads"], TF)
              + pbtxt_node("b2s", "BatchToSpaceND", ["x", "blk", "pads"], TF)
              + ints("perm", [0, 0, 1, 2]) + pbtxt_node("tr", "Transpose", ["h", "perm"], TF)
              + "".join(pbtxt_node(op.lower() + "_" + src, op, [src], TF)
                        for src in ("x", "conv", "dw", "pool", "tile", "pad", "reshape", "cat", "s2b", "b2s", "tr", "h")
                        for op in ("Shape", "Size", "Rank")))
    gcase("graph-shapes-at-int64-limits", "g.pbtxt", shapes,
          opt("g.pbtxt", "--pass-pipeline=fold-constants,add-output-shapes"), exit=(0,))


# ------------------------------------------------------------ I/O

def io_cases():
    def simple(d):
        write(os.path.join(d, "g.pbtxt"), SIMPLE_PBTXT.encode())
    add("io-stdin-dev-zero-opt", "io", ["frost-opt", "-", "-o", "{d}/out.pb"], stdin="/dev/zero")
    add("io-stdin-dev-zero-inspect", "io", ["frost-inspect", "graph", "-"], stdin="/dev/zero")
    add("io-stdin-empty-opt", "io", ["frost-opt", "-", "-o", "{d}/out.pb"])
    add("io-stdin-valid-opt", "io", ["frost-opt", "-", "-o", "{d}/out.pb"], simple, stdin="{d}/g.pbtxt", exit=(0,))
    for tool, argv in (("opt", ["frost-opt", "/dev/zero", "-o", "{d}/out.pb"]),
                       ("inspect-graph", ["frost-inspect", "graph", "/dev/zero"]),
                       ("inspect-ckpt", ["frost-inspect", "checkpoint", "/dev/zero"]),
                       ("freeze", ["freeze-graph", "/dev/zero", "--outputs", "y", "-o", "{d}/out.pb"]),
                       ("freeze-graph-flag", ["freeze-graph", "--input_graph", "/dev/zero", "--outputs", "y", "-o", "{d}/out.pb"]),
                       ("freeze-checkpoint", ["freeze-graph", "{d}/model.meta", "--checkpoint", "/dev/zero", "--outputs", "add", "-o", "{d}/out.pb"]),
                       ("opt-checkpoint", ["frost-opt", "{d}/model.meta", "-o", "{d}/out.pb", "--pass-pipeline=convert-variables-to-constants{checkpoint=/dev/zero}"])):
        add("io-dev-zero-path-" + tool, "io", argv, lambda d: (simple(d), write_ckpt(d)))

    def fifo(d):
        simple(d)
        write_ckpt(d)
        os.mkfifo(os.path.join(d, "fifo.pb"))

    def fed_fifo(d):
        # A FIFO being written (what `tool <(producer)` gives): read to its
        # end as a stream. The writer gives up after 900 s if nobody reads:
        # the corpus is made long before a sanitized run reaches the case.
        fifo(d)
        subprocess.Popen(["timeout", "900", "sh", "-c", 'cat "$0/g.pbtxt" > "$0/fifo.pb"', d],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    for tool, argv in (("opt", ["frost-opt", "{d}/fifo.pb", "-o", "{d}/out.pb"]),
                       ("inspect-graph", ["frost-inspect", "graph", "{d}/fifo.pb"]),
                       ("freeze", ["freeze-graph", "{d}/fifo.pb", "--outputs", "y", "-o", "{d}/out.pb"])):
        add("io-fifo-" + tool, "io", argv, fed_fifo, exit=(0,))
    # A checkpoint file that is a FIFO is refused without opening it (which
    # would wait for a writer).
    for tool, argv in (("inspect-ckpt", ["frost-inspect", "checkpoint", "{d}/fifo.pb"]),
                       ("freeze-checkpoint", ["freeze-graph", "{d}/model.meta", "--checkpoint", "{d}/fifo.pb", "--outputs", "add", "-o", "{d}/out.pb"]),
                       ("opt-checkpoint", ["frost-opt", "{d}/model.meta", "-o", "{d}/out.pb", "--pass-pipeline=convert-variables-to-constants{checkpoint={d}/fifo.pb}"])):
        add("io-fifo-" + tool, "io", argv, fifo)
    # (A FIFO as the output is left out: writing into it blocks until someone
    # reads, as `cat > fifo` does.)

    def empty(name):
        return lambda d: write(os.path.join(d, name), b"")
    add("io-empty-pb-opt", "io", opt("e.pb"), empty("e.pb"))
    add("io-empty-pb-freeze", "io", freeze_graph_argv("e.pb"), empty("e.pb"))
    add("io-empty-pbtxt-freeze", "io", freeze_graph_argv("e.pbtxt"), empty("e.pbtxt"))
    add("io-empty-meta-freeze", "io", ["freeze-graph", "{d}/e.meta", "--outputs", "y", "-o", "{d}/out.pb"], empty("e.meta"))
    add("io-empty-index", "io", ["frost-inspect", "checkpoint", "{d}/e"], empty("e.index"), regex="e.index")
    add("io-empty-inspect-graph", "io", inspect_graph("e.pb"), empty("e.pb"), exit=(0, 1))

    def dirs(d):
        os.makedirs(os.path.join(d, "dir.pb"))
        os.makedirs(os.path.join(d, "empty"))
    add("io-directory-opt", "io", opt("dir.pb"), dirs)
    add("io-directory-freeze", "io", freeze_graph_argv("dir.pb"), dirs)
    add("io-empty-directory-freeze", "io", freeze_graph_argv("empty"), dirs)
    add("io-directory-inspect-ckpt", "io", ["frost-inspect", "checkpoint", "{d}/empty"], dirs)
    add("io-directory-inspect-graph", "io", inspect_graph("empty"), dirs)
    add("io-missing-file", "io", opt("nothing.pb"), regex="nothing.pb")
    add("io-missing-dir-in-path", "io", opt("no/such/dir/g.pb"), regex="g.pb")

    def file_as_dir(d):
        simple(d)
    add("io-file-as-directory", "io", opt("g.pbtxt/inner.pb"), file_as_dir)

    # Output = input: the input must stay as it was, and the run must fail.
    def ckpt(d):
        write_ckpt(d)
    for what, target in (("meta", "model.meta"), ("index", "model.index"),
                         ("data", "model.data-00000-of-00001")):
        add("io-output-is-%s" % what, "io",
            ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/" + target], ckpt, regex=re.escape(target))
        add("io-report-is-%s" % what, "io",
            ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--report", "{d}/" + target], ckpt)

    def hard(d):
        write_ckpt(d)
        os.link(os.path.join(d, "model.meta"), os.path.join(d, "link.pb"))
        os.link(os.path.join(d, "model.index"), os.path.join(d, "ilink.pb"))
    add("io-output-hardlink-to-meta", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/link.pb"], hard)
    add("io-output-hardlink-to-index", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/ilink.pb"], hard)

    def sym(d):
        write_ckpt(d)
        os.symlink("model.meta", os.path.join(d, "sym.pb"))
        os.symlink(os.path.join(d, "model.data-00000-of-00001"), os.path.join(d, "dsym.pb"))
    add("io-output-symlink-to-meta", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/sym.pb"], sym)
    add("io-output-symlink-to-data", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/dsym.pb"], sym)
    add("io-output-via-dotdot", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/sub/../model.meta"],
        lambda d: (write_ckpt(d), os.mkdir(os.path.join(d, "sub"))))

    def opt_in(d):
        simple(d)
        os.symlink("g.pbtxt", os.path.join(d, "s.pbtxt"))
        os.link(os.path.join(d, "g.pbtxt"), os.path.join(d, "h.pbtxt"))
    add("io-opt-output-is-input", "io", ["frost-opt", "{d}/g.pbtxt", "-o", "{d}/g.pbtxt"], opt_in)
    add("io-opt-output-symlink-to-input", "io", ["frost-opt", "{d}/g.pbtxt", "-o", "{d}/s.pbtxt"], opt_in)
    add("io-opt-output-hardlink-to-input", "io", ["frost-opt", "{d}/g.pbtxt", "-o", "{d}/h.pbtxt"], opt_in)
    add("io-opt-output-is-checkpoint", "io",
        ["frost-opt", "{d}/model.meta", "-o", "{d}/model.index",
         "--pass-pipeline=convert-variables-to-constants{checkpoint={d}/model}"], ckpt)
    add("io-freeze-graph-output-is-input-graph", "io", ["freeze-graph", "{d}/g.pbtxt", "--outputs", "y", "-o", "{d}/g.pbtxt"],
        simple)

    def sm(d):
        write(os.path.join(d, "sm", "saved_model.pb"), saved_model([meta_graph(graph(model_nodes()))]))
        write_ckpt(os.path.join(d, "sm", "variables"), "variables", meta=False)
    add("io-output-is-saved-model-pb", "io",
        ["freeze-graph", "{d}/sm", "--outputs", "add", "-o", "{d}/sm/saved_model.pb"], sm)
    add("io-output-is-saved-model-index", "io",
        ["freeze-graph", "{d}/sm", "--outputs", "add", "-o", "{d}/sm/variables/variables.index"], sm)

    # --report to places it cannot go: nothing is written at all.
    base = ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--report"]
    add("io-report-to-directory", "io", base + ["{d}"], ckpt)
    add("io-report-to-missing-dir", "io", base + ["{d}/missing/dir/r.json"], ckpt, regex="r.json")
    add("io-report-to-file-as-dir", "io", base + ["{d}/model.meta/r.json"], ckpt)
    add("io-report-same-as-output", "io", base[:-1] + ["--report", "{d}/out.pb"], ckpt)
    add("io-output-to-directory", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}"], ckpt)
    add("io-output-to-missing-dir", "io", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/missing/dir/o.pb"],
        ckpt, regex="o.pb")
    add("io-opt-output-to-missing-dir", "io", ["frost-opt", "{d}/g.pbtxt", "-o", "{d}/missing/dir/o.pb"], simple,
        regex="o.pb")
    add("io-output-failing-freeze-leaves-nothing", "io",
        ["freeze-graph", "{d}/model", "--outputs", "nonexistent", "-o", "{d}/out.pb", "--report", "{d}/r.json"], ckpt)


# ------------------------------------------------------------ command lines

def cli_cases():
    def ckpt(d):
        write_ckpt(d)
        write(os.path.join(d, "g.pbtxt"), SIMPLE_PBTXT.encode())

    def c(name, argv, exit=(2,), regex=None, max_lines=5):
        add("cli-" + name, "cli", argv, ckpt, exit=exit, regex=regex, max_lines=max_lines)
    c("freeze-unknown-option", ["freeze-graph", "{d}/model", "--bogus", "--outputs", "add", "-o", "{d}/out.pb"], regex="--bogus")
    c("opt-unknown-option", ["frost-opt", "{d}/g.pbtxt", "--bogus"], regex="--bogus")
    c("inspect-unknown-option", ["frost-inspect", "checkpoint", "{d}/model", "--bogus"], regex="--bogus")
    c("inspect-graph-unknown-option", ["frost-inspect", "graph", "{d}/g.pbtxt", "--bogus"], regex="--bogus")
    c("opt-emit-xml", ["frost-opt", "{d}/g.pbtxt", "--emit=xml", "-o", "{d}/out.pb"], regex="xml")
    c("freeze-emit-xml", ["freeze-graph", "{d}/model", "--outputs", "add", "--emit=xml", "-o", "{d}/out.pb"], regex="xml")
    c("freeze-emit-missing-value", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--emit"])
    c("freeze-ambiguous-o", ["freeze-graph", "{d}/model", "--o", "{d}/out.pb", "--outputs", "add"], regex="ambiguous")
    c("freeze-ambiguous-out", ["freeze-graph", "{d}/model", "--out", "add", "-o", "{d}/out.pb"], regex="ambiguous")
    c("freeze-ambiguous-in", ["freeze-graph", "--in", "{d}/g.pbtxt", "--outputs", "y", "-o", "{d}/out.pb"], regex="ambiguous")
    c("freeze-empty-option", ["freeze-graph", "{d}/model", "--", "--outputs", "add", "-o", "{d}/out.pb"], exit=(1, 2))
    c("freeze-dashes-only", ["freeze-graph", "{d}/model", "---", "--outputs", "add", "-o", "{d}/out.pb"])
    c("freeze-option-twice", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "-o", "{d}/out2.pb"],
      exit=(0, 2))
    c("freeze-two-inputs", ["freeze-graph", "{d}/model", "{d}/g.pbtxt", "--outputs", "add", "-o", "{d}/out.pb"])
    tg = ["transform-graph", "--in_graph={d}/g.pbtxt", "--out_graph={d}/out.pb"]
    c("transform-unknown-option", tg + ["--transforms=sort_by_execution_order", "--bogus"], regex="--bogus")
    c("transform-no-transforms", tg, regex="--transforms")
    c("transform-unterminated", tg + ["--transforms=fold_constants(exclude_op=Add"], regex="never closed")
    c("transform-parens-only", tg + ["--transforms=" + "(" * 100000])
    c("transform-many-params", tg + ["--transforms=remove_nodes(" + "op=A, " * 10000 + "max_inputs=x)"],
      regex="max_inputs")
    c("transform-control-byte", tg + ["--transforms=sort_by_execution_order\x01"], regex="0x01")
    c("transform-unknown-parameter", tg + ["--transforms=fold_constants(exclude_ops=Add)"], regex="exclude_ops")
    c("transform-output-is-input", ["transform-graph", "--in_graph={d}/g.pbtxt", "--out_graph={d}/g.pbtxt",
                                    "--transforms=sort_by_execution_order"], exit=(1,), regex="input")
    c("freeze-no-args", ["freeze-graph"], exit=(1, 2))
    c("freeze-bad-bool", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--input_binary=maybe"])
    c("freeze-bad-bind", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--bind", "=,=,"], exit=(1, 2))
    c("freeze-bad-rename", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--rename", ":::"], exit=(1, 2))
    c("freeze-empty-outputs", ["freeze-graph", "{d}/model", "--outputs=", "-o", "{d}/out.pb"], exit=(1, 2))
    c("freeze-outputs-commas", ["freeze-graph", "{d}/model", "--outputs", ",,,,", "-o", "{d}/out.pb"], exit=(1, 2))
    c("freeze-newline-in-output", ["freeze-graph", "{d}/model", "--outputs", "a\nb\nc\nd\ne\nf\ng", "-o", "{d}/out.pb"],
      exit=(1, 2))
    c("freeze-invalid-utf8-arg", ["freeze-graph", "{d}/model", "--outputs", "\udcff\udcfe", "-o", "{d}/out.pb"],
      exit=(1, 2))
    c("freeze-bad-pipeline", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--pass-pipeline=prune{{{"])
    c("opt-bad-pipeline-unbalanced", ["frost-opt", "{d}/g.pbtxt", "--pass-pipeline=prune{outputs=y"], exit=(1, 2))
    c("opt-pipeline-deep-braces", ["frost-opt", "{d}/g.pbtxt", "--pass-pipeline=prune{outputs=" + "{" * 50000 + "}" * 50000 + "}"],
      exit=(1, 2))
    c("opt-pipeline-many-passes", ["frost-opt", "{d}/g.pbtxt", "-o", "{d}/out.pb", "--pass-pipeline=" + ",".join(["clear-devices"] * 5000)],
      exit=(0,))
    c("opt-pipeline-unknown-option", ["frost-opt", "{d}/g.pbtxt", "--pass-pipeline=prune{colour=red}"], exit=(1, 2))
    c("opt-pipeline-long-unknown-pass", ["frost-opt", "{d}/g.pbtxt", "--pass-pipeline=" + "p" * 100000], exit=(1, 2))
    c("opt-emit-missing-value", ["frost-opt", "{d}/g.pbtxt", "--emit"])
    c("opt-two-inputs", ["frost-opt", "{d}/g.pbtxt", "{d}/g.pbtxt"])
    c("opt-no-input", ["frost-opt"], exit=(1, 2))
    c("opt-o-missing-value", ["frost-opt", "{d}/g.pbtxt", "-o"])
    c("inspect-unknown-subcommand", ["frost-inspect", "chekpoint", "{d}/model"], regex="chekpoint")
    c("inspect-no-subcommand", ["frost-inspect"])
    c("inspect-tensor-missing-value", ["frost-inspect", "checkpoint", "{d}/model", "--tensor"])
    c("inspect-ckpt-no-path", ["frost-inspect", "checkpoint"], exit=(1, 2))
    c("inspect-ckpt-missing-tensor", ["frost-inspect", "checkpoint", "{d}/model", "--tensor", "nope"], exit=(1,),
      regex="nope")
    c("inspect-ckpt-15000-missing-tensors", ["frost-inspect", "checkpoint", "{d}/model"]
      + ["--tensor=t%d" % i for i in range(15000)], exit=(1,), max_lines=MANY)
    names = ",".join("m%05d" % i for i in range(15000))  # one argument stays < 128 KiB
    c("freeze-15000-missing-outputs", ["freeze-graph", "{d}/model", "--outputs", names, "-o", "{d}/out.pb"], exit=(1,),
      max_lines=MANY)
    c("freeze-15000-missing-only", ["freeze-graph", "{d}/model", "--outputs", "add", "--only", names, "-o", "{d}/out.pb"],
      exit=(0, 1), max_lines=MANY)  # warnings, as freeze_graph.py ignores them; but not 15,000
    c("freeze-15000-missing-initializers", ["freeze-graph", "{d}/model", "--outputs", "add", "--initializer_nodes", names,
                                            "-o", "{d}/out.pb"], exit=(1,), max_lines=MANY)
    c("opt-15000-missing-prune-outputs", ["frost-opt", "{d}/g.pbtxt", "-o", "{d}/out.pb",
                                          "--pass-pipeline=prune{outputs=" + names + "}"], exit=(1,), max_lines=MANY)
    c("freeze-long-output-name", ["freeze-graph", "{d}/model", "--outputs", "q" * 100000, "-o", "{d}/out.pb"], exit=(1,))
    c("freeze-long-unknown-option", ["freeze-graph", "{d}/model", "--" + "x" * 100000], regex="unknown")
    c("opt-long-unknown-option", ["frost-opt", "{d}/g.pbtxt", "--" + "x" * 100000])
    c("freeze-many-unknown-options", ["freeze-graph", "{d}/model"] + ["--bogus%d" % i for i in range(15000)],
      max_lines=MANY)
    c("opt-many-unknown-options", ["frost-opt", "{d}/g.pbtxt"] + ["--bogus%d" % i for i in range(15000)],
      max_lines=MANY)
    bind_graph = ["freeze-graph", "{d}/g.pbtxt", "--outputs", "y", "-o", "{d}/out.pb", "--bind"]
    c("freeze-bind-deep-brackets", bind_graph + ["x=" + "[" * 60000 + "1" + "]" * 60000], exit=(1, 2))
    c("freeze-bind-unbalanced-brackets", bind_graph + ["x=" + "[" * 60000], exit=(1, 2))
    c("freeze-bind-huge-list", bind_graph + ["x=[" + ",".join(["1"] * 60000) + "]"], exit=(1, 2))
    c("freeze-bind-out-of-range", bind_graph + ["x=1e999"], exit=(1, 2), regex="range")
    c("freeze-bind-unknown-placeholder", bind_graph + ["ghost=1"], exit=(1, 2), regex="ghost")
    c("freeze-rename-many", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--rename",
                             ",".join("v%d:k%d" % (i, i) for i in range(10000))], exit=(1, 2), max_lines=MANY)
    c("freeze-long-tags", ["freeze-graph", "{d}/model", "--outputs", "add", "-o", "{d}/out.pb", "--tags", "t," * 20000],
      exit=(0, 1, 2))


# ------------------------------------------------------------ frost-diff

def diff_cases():
    """frost-diff exits 0 (the same) or 1 (different) on any two graphs it can
    read, however large; 2 with one error line naming the file otherwise."""
    def files(*named):
        """("a.pb", bytes or a function making them), ..."""
        def setup(d):
            for name, data in named:
                write(os.path.join(d, name), data() if callable(data) else data)
        return setup

    def c(name, argv, setup, exit=(2,), regex=None, **kw):
        add("diff-" + name, "diff", ["frost-diff"] + argv, setup, exit=exit, regex=regex,
            success=(0, 1), **kw)
    ab = ["{d}/a.pb", "{d}/b.pb"]
    other = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                   node("y", "Neg", ["x"], attrs=F)])
    c("valid-same", ab, files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), exit=(0,))
    c("valid-different", ab, files(("a.pb", SIMPLE_PB), ("b.pb", other)), exit=(1,))
    c("valid-text-binary", ["{d}/a.pbtxt", "{d}/b.pb"], files(("a.pbtxt", SIMPLE_PBTXT.encode()), ("b.pb", SIMPLE_PB)),
      exit=(0,))
    # A truncation can end on a field boundary and still parse (as fewer nodes).
    for off in (1, 2, len(SIMPLE_PB) // 2, len(SIMPLE_PB) - 1):
        c("trunc-%d" % off, ab, files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB[:off])), exit=(1, 2), regex="b.pb")
    c("empty", ab, files(("a.pb", SIMPLE_PB), ("b.pb", b"")), regex="b.pb")
    c("text-junk", ["{d}/a.pb", "{d}/b.pbtxt"], files(("a.pb", SIMPLE_PB), ("b.pbtxt", b"hello {{{ world")), regex="b.pbtxt")
    # A checkpoint's file names its graph (the .meta beside it), as for every
    # tool; without a .meta it is one error naming the checkpoint.
    c("checkpoint-index", ["{d}/a.pb", "{d}/model.index"], lambda d: (write_ckpt(d), write(os.path.join(d, "a.pb"), SIMPLE_PB)),
      exit=(1,))
    c("checkpoint-index-no-meta", ["{d}/a.pb", "{d}/model.index"],
      lambda d: (write_ckpt(d, meta=False), write(os.path.join(d, "a.pb"), SIMPLE_PB)),
      regex="model")
    c("dev-zero", ["{d}/a.pb", "/dev/zero"], files(("a.pb", SIMPLE_PB)), regex="/dev/zero")
    c("stdin-dev-zero", ["-", "{d}/a.pb"], files(("a.pb", SIMPLE_PB)), stdin="/dev/zero", regex="stdin")
    c("missing", ["{d}/a.pb", "{d}/nothing.pb"], files(("a.pb", SIMPLE_PB)), regex="nothing.pb")
    c("directory", ["{d}/a.pb", "{d}"], files(("a.pb", SIMPLE_PB)))
    c("unknown-option", ab + ["--bogus"], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), regex="--bogus")
    c("ambiguous-option", ab + ["--ignore"], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), regex="ambiguous")
    c("one-argument", ["{d}/a.pb"], files(("a.pb", SIMPLE_PB)), regex="two graphs")
    c("three-arguments", ab + ["{d}/a.pb"], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), regex="two graphs")
    c("atol-nan", ab + ["--atol=nan"], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), regex="atol")
    c("max-findings-negative", ab + ["--max-findings=-1"], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), regex="max-findings")
    c("missing-signature", ab + ["--signature=nope"], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)), regex="nope")
    c("long-unknown-option", ab + ["--" + "x" * 100000], files(("a.pb", SIMPLE_PB), ("b.pb", SIMPLE_PB)))

    # Huge but legal: pairing stays near-linear. Every name renamed in B, so
    # every node pairs by structure; alike nodes (NoOps without inputs) are
    # the worst case for choosing among candidates.
    big = HUGE_GRAPH_NODES
    chain = lambda prefix: graph([node(prefix + "n0", "Placeholder", attrs={"dtype": a_type("float")})]
                                 + [node(prefix + "n%d" % i, "Identity", [prefix + "n%d" % (i - 1)], attrs=F)
                                    for i in range(1, big)])
    c("huge-chain-renamed", ab, files(("a.pb", lambda: chain("")), ("b.pb", lambda: chain("inlined/"))), exit=(1,))
    noops = lambda prefix: graph([node(prefix + "n%d" % i, "NoOp") for i in range(big)]
                                 + [node(prefix + "out", "NoOp", ["^%sn%d" % (prefix, i) for i in range(big)])])
    c("huge-noops-renamed", ab + ["--json"], files(("a.pb", lambda: noops("")), ("b.pb", lambda: noops("Func/"))), exit=(1,))
    # Every constant alike but one element: hashed once each, compared once.
    consts = lambda last: graph([node("c%d" % i, "Const", attrs={"dtype": a_type("float"), "value": a_tensor(
        tensor("float", [4], [1.0, 2.0, 3.0, last if i == big // 10 - 1 else 4.0]))}) for i in range(big // 10)])
    c("many-consts-one-differs", ab + ["--max-findings=5"], files(("a.pb", lambda: consts(4.0)), ("b.pb", lambda: consts(5.0))),
      exit=(1,))


# ------------------------------------------------------------ frost-verify

def verify_cases():
    """frost-verify exits 0 when the frozen graph holds, 1 with one error line
    per finding (or naming the file it cannot read), 2 for a bad command
    line; never a crash, never a file left behind."""
    def setup(frozen, ckpt=True, **kw):
        def make(d):
            if ckpt:
                write_ckpt(d, **kw)
            write(os.path.join(d, "frozen.pb"), frozen() if callable(frozen) else frozen)
        return make

    def c(name, argv, make, exit=(1,), regex=None, **kw):
        add("verify-" + name, "verify", ["frost-verify"] + argv, make, exit=exit, regex=regex, **kw)
    frozen = ["{d}/frozen.pb", "--source", "{d}/model", "--outputs", "add"]
    # The model's own graph, unfrozen: its variables are findings.
    c("unfrozen", frozen, setup(graph(model_nodes())), regex="VariableV2")
    c("unrelated", frozen, setup(SIMPLE_PB), regex="add")
    for off in (1, len(MODEL_META) // 2):
        c("trunc-%d" % off, frozen, setup(graph(model_nodes())[:off]), regex="frozen.pb")
    c("empty", frozen, setup(b""), regex="frozen.pb")
    c("junk", frozen, setup(b"\xff" * 64), regex="frozen.pb")
    c("missing-frozen", ["{d}/nothing.pb", "--source", "{d}/model", "--outputs", "add"], setup(SIMPLE_PB),
      regex="nothing.pb")
    c("dev-zero", ["/dev/zero", "--source", "{d}/model", "--outputs", "add"], setup(SIMPLE_PB), regex="/dev/zero")
    c("missing-checkpoint", frozen, setup(SIMPLE_PB, ckpt=False), regex="model")
    c("corrupt-checkpoint", frozen, setup(graph(model_nodes()), data=b"\0" * 3), regex="model")
    c("no-source", ["{d}/frozen.pb", "--outputs", "add"], setup(SIMPLE_PB), exit=(2,), regex="source")
    c("two-frozen", ["{d}/frozen.pb", "{d}/frozen.pb", "--source", "{d}/model"], setup(SIMPLE_PB), exit=(2,))
    c("no-arguments", [], None, exit=(2,))
    c("bad-input-shape", frozen + ["--input-shape", "x=abc"], setup(SIMPLE_PB), exit=(2,), regex="abc")
    c("negative-atol", frozen + ["--atol=-1"], setup(SIMPLE_PB), exit=(2,), regex="atol")
    c("huge-input-shape", frozen + ["--input-shape", "x=4000000000,4000000000"], setup(graph(model_nodes())),
      regex="VariableV2")
    c("save-values-onto-input", frozen + ["--save-values", "{d}/model.index"], setup(graph(model_nodes())))
    # Huge but legal: a 200,000-node chain frozen from itself runs through.
    big = HUGE_GRAPH_NODES
    chain = lambda: graph([node("n0", "Placeholder", attrs={"dtype": a_type("float"), "shape": a_shape([2])})]
                          + [node("n%d" % i, "Identity", ["n%d" % (i - 1)], attrs=F) for i in range(1, big)])
    c("huge-chain", ["{d}/frozen.pb", "--source", "{d}/frozen.pb", "--outputs", "n%d" % (big - 1)],
      setup(chain, ckpt=False), exit=(0,))


# ------------------------------------------------------------ frost-run

def run_cases():
    """frost-run's inputs (.npy, .npz) damaged: one error line naming the
    file, exit 1, nothing written, under the memory limit (a claimed size
    is never trusted before the bytes are there)."""
    def npy(dict_text, data=b""):
        header = dict_text.encode() + b" " * 8 + b"\n"
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + data

    good = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", b"\0" * 8)

    def npz(entries, mode=zipfile.ZIP_STORED):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", mode) as z, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a duplicate name is the point
            for name, data in entries:
                z.writestr(name, data)
        return buf.getvalue()

    def claimed_size(size):
        # A stored entry whose headers (local and central) claim `size` bytes.
        data = bytearray(npz([("x.npy", good)]))
        struct.pack_into("<I", data, 22, size)
        central = data.find(b"PK\x01\x02")
        struct.pack_into("<I", data, central + 24, size)
        return bytes(data)

    def setup(**files):
        def make(d):
            write(os.path.join(d, "g.pb"), SIMPLE_PB)
            for name, content in files.items():
                write(os.path.join(d, name.replace("_", ".")), content() if callable(content) else content)
        return make

    def c(name, argv, make, exit=(1,), regex=None):
        add("run-" + name, "run", ["frost-run", "{d}/g.pb", "--outputs", "y", "-o", "{d}/out.npz"]
            + argv, make, exit=exit, regex=regex)
    c("good", ["--input", "x={d}/x.npy"], setup(x_npy=good), exit=(0,))
    c("npy-junk", ["--input", "x={d}/x.npy"], setup(x_npy=b"\xff" * 64), regex="x.npy")
    c("npy-empty", ["--input", "x={d}/x.npy"], setup(x_npy=b""), regex="x.npy")
    c("npy-header-beyond-file", ["--input", "x={d}/x.npy"],
      setup(x_npy=b"\x93NUMPY\x01\x00\xff\xff{'descr'"), regex="x.npy.*truncated")
    c("npy-huge-shape", ["--input", "x={d}/x.npy"],
      setup(x_npy=npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }", b"\0" * 8)),
      regex="x.npy.*needs")
    c("npy-overflowing-shape", ["--input", "x={d}/x.npy"],
      setup(x_npy=npy("{'descr': '<c16', 'fortran_order': False, 'shape': (4611686018427387903, 3), }")),
      regex="x.npy")
    c("npy-nested-header", ["--input", "x={d}/x.npy"],
      setup(x_npy=npy("{'descr': '<f4', 'fortran_order': False, 'shape': " + "(" * 5000 + ")" * 5000 + ", }")),
      regex="x.npy")
    c("npy-dev-zero", ["--input", "x=/dev/zero"], setup(), regex="/dev/zero")
    c("npz-junk", ["--inputs", "{d}/in.npz"], setup(in_npz=b"PK\x03\x04" + b"\xff" * 60), regex="in.npz")
    c("npz-truncated", ["--inputs", "{d}/in.npz"],
      setup(in_npz=npz([("x.npy", good)])[:40]), regex="in.npz")
    c("npz-claims-3-gib", ["--inputs", "{d}/in.npz"], setup(in_npz=claimed_size(3 << 30)),
      regex="in.npz")
    # 64 MiB of zeros deflated to 64 KiB: inflated only up to --eval-max-bytes.
    bomb = lambda: npz([("x.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                                       b"\0" * (64 << 20)))], zipfile.ZIP_DEFLATED)
    c("npz-deflate-bomb", ["--inputs", "{d}/in.npz", "--eval-max-bytes", "1048576"], setup(in_npz=bomb),
      regex=r"in.npz: entry 'x.npy' inflates to more than 1.0 MiB.*--eval-max-bytes")
    c("npz-deflated-too-long", ["--inputs", "{d}/in.npz"], setup(in_npz=bomb),
      regex="in.npz: entry 'x.npy'.*needs 8 bytes")
    c("npz-duplicate", ["--inputs", "{d}/in.npz"], setup(in_npz=lambda: npz([("x.npy", good), ("x.npy", good)])),
      regex="in.npz")
    c("output-onto-input", ["--input", "x={d}/out.npz"], setup(out_npz=good))
    c("no-model", [], None, exit=(1,), regex="g.pb")


# ------------------------------------------------------------ budgets (issue #28, h5)
# Memory and time: what folding, verifying and reading may spend. Each case
# fails with one line naming the node (or file), the limit and the flag that
# raises it, under the runner's memory limit and well within its time limit.

def budget_cases():
    def splat(name, dims, dtype="float"):
        return node(name, "Const", attrs={"dtype": a_type(dtype),
                                          "value": a_tensor(tensor(dtype, dims, [1.0]))})
    F = {"T": a_type("float")}

    def matmul(n, k):
        return graph([splat("a", [n, k]), splat("b", [k, n]), node("mm", "MatMul", ["a", "b"], attrs=F)])

    def matmul_sum(n):
        axes = node("axes", "Const", attrs={"dtype": a_type("int32"), "value": a_tensor(
            fv(1, DT["int32"]) + fb(2, shape([2])) + fv(7, 0) + fv(7, 1))})
        return graph([splat("a", [n, n]), node("mm", "MatMul", ["a", "a"], attrs=F), axes,
                      node("s", "Sum", ["mm", "axes"], attrs={"T": a_type("float"), "Tidx": a_type("int32")})])

    def files(name, content):
        return lambda d: write(os.path.join(d, name), content() if callable(content) else content)
    fold = lambda name: ["transform-graph", "--in_graph={d}/" + name, "--out_graph={d}/out.pb",
                         "--outputs=mm", "--transforms=fold_constants"]
    # [3000,1e5] x [1e5,3000] splats: each input 1.2 GB once expanded, over
    # the 1 GiB per tensor; refused before either is expanded.
    add("budget-fold-matmul-splats", "budget", fold("mm.pb"), files("mm.pb", lambda: matmul(3000, 100000)),
        regex=r"node 'mm' \(MatMul\).*1\.0 GiB.*eval-max-bytes")
    add("budget-opt-fold-matmul-splats", "budget", opt("mm.pb", "--pass-pipeline=fold-constants"),
        files("mm.pb", lambda: matmul(3000, 100000)), regex=r"'mm'.*eval-max-bytes")
    # [6000,6000] squared: 2.16e11 multiply-adds, over the work budget.
    add("budget-fold-matmul-work", "budget", fold("mm.pb"), files("mm.pb", lambda: matmul(6000, 6000)),
        regex=r"node 'mm' \(MatMul\).*eval-budget")
    add("budget-verify-matmul-sum", "budget",
        ["frost-verify", "{d}/s.pb", "--source", "{d}/s.pb", "--outputs", "s"],
        files("s.pb", lambda: matmul_sum(6000)), regex=r"node 'mm' \(MatMul\).*--eval-budget")
    # Raised flags are checked too.
    add("budget-verify-zero-budget", "budget",
        ["frost-verify", "{d}/s.pb", "--source", "{d}/s.pb", "--outputs", "s", "--eval-budget=0"],
        files("s.pb", lambda: matmul_sum(2)), exit=(2,), regex="eval-budget")
    add("budget-fold-zero-max-bytes", "budget",
        fold("mm.pb")[:-1] + ["--transforms=fold_constants(eval_max_bytes=0)"],
        files("mm.pb", lambda: matmul(2, 2)), exit=(1, 2), regex=r"fold_constants.*eval_max_bytes=0: must be positive")
    # A [1e9] half splat made float: one value, never expanded.
    half = graph([node("x", "Placeholder", attrs={"dtype": fv(6, 19), "shape": a_shape([1000000000])}),
                  node("c", "Const", attrs={"dtype": fv(6, 19), "value": a_tensor(
                      fv(1, 19) + fb(2, shape([1000000000])) + fv(13, 15360))}),
                  node("y", "Add", ["x", "c"], attrs={"T": fv(6, 19)})])
    add("budget-compute-in-float32-half-splat", "budget",
        optimize_argv("half.pb", "x", "y", "--compute_in_float32"), files("half.pb", half), exit=(0,))
    # Streams that cannot start a model are refused from their first bytes.
    add("budget-stream-urandom", "budget", ["frost-opt", "/dev/urandom"], None, regex="/dev/urandom")
    add("budget-stdin-urandom", "budget", ["frost-opt", "-"], None, stdin="/dev/urandom", regex="stdin")

    def garbage_fifo(command):
        def setup(d):
            os.mkfifo(os.path.join(d, "fifo.pb"))
            # Writes until the reader goes (SIGPIPE), or 900 s at most.
            subprocess.Popen(["timeout", "900", "sh", "-c", command + ' > "$0/fifo.pb"', d],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        return setup
    add("budget-fifo-urandom", "budget", ["frost-opt", "{d}/fifo.pb"], garbage_fifo("cat /dev/urandom"),
        regex="fifo.pb")
    add("budget-fifo-text-garbage", "budget", ["frost-opt", "{d}/fifo.pb"], garbage_fifo("yes garbage"),
        regex="fifo.pb")

# ------------------------------------------------------------ end of budgets (issue #28, h5)


def all_cases():
    if not CASES:
        checkpoint_cases()
        graph_cases()
        io_cases()
        cli_cases()
        diff_cases()
        verify_cases()
        run_cases()
        issue28_validity_cases()
        budget_cases()
        messages_cases()
    return CASES


# ============================================================ issue 28 (h3)
# Bad input accepted with exit 0 before: transform parameters that lost
# their value or were never checked, names that match nothing, values that
# do not parse, and graphs TensorFlow's importer refuses. Each case fails
# with exactly one error line naming what is wrong.

def issue28_validity_cases():
    def c(name, argv, content, regex, exit=(1,), filename="g.pbtxt", max_lines=1):
        add("i28-" + name, "validity", argv, graph_file(filename, content), exit=exit,
            regex=regex, max_lines=max_lines)

    # x -> y (an Identity: strip_unused_nodes makes it a Placeholder) -> out
    chain = (pbtxt_node("x", "Placeholder", extra=PH) + pbtxt_node("y", "Identity", ["x"], TF)
             + pbtxt_node("out", "Identity", ["y"], TF) + "versions { producer: 1087 }\n")
    tg = ["transform-graph", "--in_graph={d}/g.pbtxt", "--out_graph={d}/out.pb"]

    def strip(params):
        return tg + ["--inputs=y", "--outputs=out", "--transforms=strip_unused_nodes(%s)" % params]
    for name, dims in [("overflow", "99999999999,99999999999,99999999999"), ("minus-7", "1,-7"),
                       ("255-dims", ",".join(["1"] * 255)), ("empty-dim", "1,,2"),
                       ("not-a-number", "1,x")]:
        # One error line, then the list with a caret under the transform.
        c("strip-shape-" + name, strip('type=float, shape="%s"' % dims), chain, r"shape", exit=(2,),
          max_lines=3)
    c("strip-type-unknown", strip("type=floot"), chain, r"floot.*float", exit=(2,), max_lines=3)

    # A MetaGraph whose op list says Identity's T is required and typed: a
    # resource or string Placeholder feeding it, or T removed, is refused.
    ops = ('meta_info_def { stripped_op_list { op { name: "Identity" '
           'input_arg { name: "input" type_attr: "T" } output_arg { name: "output" type_attr: "T" } '
           'attr { name: "T" type: "type" } } '
           'op { name: "Placeholder" output_arg { name: "output" type_attr: "dtype" } '
           'attr { name: "dtype" type: "type" } '
           'attr { name: "shape" type: "shape" default_value { shape { unknown_rank: true } } } } } }\n')
    meta = ops + "graph_def { " + chain.replace("versions { producer: 1087 }\n", "") + " }\n"
    for dtype in ("resource", "string"):
        # "pass ... left an invalid graph: " and its findings, on one line.
        c("strip-type-" + dtype, strip("type=%s" % dtype), meta, r"invalid graph.*resource|string")
    c("remove-attribute-required", tg + ["--transforms=remove_attribute(attribute_name=T)"], meta,
      r"invalid graph.*lacks attribute 'T'")

    # Names that match nothing.
    c("transform-inputs-ghost", tg + ["--inputs=ghost", "--outputs=out", "--transforms=fold_constants"],
      chain, r"--inputs 'ghost'")
    c("transform-outputs-ghost", tg + ["--inputs=x", "--outputs=ghost", "--transforms=sort_by_execution_order"],
      chain, r"--outputs 'ghost'")
    c("inspect-html-inputs-ghost", ["frost-inspect", "graph", "{d}/g.pbtxt", "--html", "--inputs=ghost",
                                    "-o", "{d}/out.html"], chain, r"--inputs 'ghost'")
    c("verify-input-shape-ghost", ["frost-verify", "{d}/g.pbtxt", "--source", "{d}/g.pbtxt",
                                   "--outputs", "out", "--input-shape", "ghost=1"], chain,
      r"--input-shape 'ghost'")

    # optimize_for_inference's --placeholder_to_const_names and
    # --placeholder_type_enum: every item must parse and name something.
    training = (pbtxt_node("x", "Placeholder", extra=PH)
                + pbtxt_node("is_training", "Placeholder",
                             extra='attr { key: "dtype" value { type: DT_BOOL } } ')
                + pbtxt_node("out", "Identity", ["x"], TF))

    def optimize(*extra):
        return optimize_argv("g.pbtxt", "x", "out", *extra)
    for name, item, regex in [("maybe", "is_training=maybe", r"true or .*false"),
                              ("two-equals", "is_training=1=2", r"more than one '='"),
                              ("bare", "is_training", r"no value"),
                              ("bare-unknown", "foo", r"no value"),
                              ("ghost", "ghost=true", r"'ghost' is in no placeholder"),
                              ("empty-name", "=true", r"names no placeholder")]:
        c("to-const-" + name, optimize("--placeholder_to_const_names=" + item), training,
          r"--placeholder_to_const_names: .*" + regex)
    c("type-enum-unknown", optimize("--placeholder_type_enum=999"), training,
      r"--placeholder_type_enum: 999", exit=(2,))
    c("type-enum-count", optimize("--placeholder_type_enum=1,1,1"), training,
      r"--placeholder_type_enum has 3 types for 1 input", exit=(2,))

    # A cycle through NextIteration without a Merge: TensorFlow breaks
    # cycles at NextIteration -> Merge only, and refuses this graph.
    cycle = (pbtxt_node("x", "Placeholder", extra=PH) + pbtxt_node("a", "AddV2", ["x", "n"], TF)
             + pbtxt_node("n", "NextIteration", ["a"], TF) + pbtxt_node("out", "Identity", ["a"], TF))
    for transform in ("fold_constants", "strip_unused_nodes", "optimize_for_inference",
                      "sort_by_execution_order"):
        c("next-iteration-cycle-" + transform,
          tg + ["--inputs=x", "--outputs=out", "--transforms=" + transform], cycle, r"cycle")


def generate(outdir, pattern=None):
    """Writes each case's files; returns the JSON-able case list."""
    out = []
    for case in all_cases():
        if pattern and not re.search(pattern, case["name"]):
            continue
        d = os.path.join(outdir, case["name"])
        if os.path.lexists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        if case["setup"]:
            case["setup"](d)
        out.append({k: v for k, v in case.items() if k != "setup"})
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(out, f, indent=1)
    return out


def main():
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        for case in all_cases():
            print("%-10s %s" % (case["category"], case["name"]))
        return
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    pattern = None
    if len(args) == 3 and args[1] == "--filter":
        pattern = args[2]
    cases = generate(args[0], pattern)
    print("wrote %d cases to %s" % (len(cases), args[0]))



# ------------------------------------------------------------ issue #28, item 7 (h4): messages
# Each of these once printed several error lines, or an error that did not
# name its object; one line now, naming it.

def messages_cases():
    def one_line(name, filename, content, argv, regex, exit=(1,)):
        gcase("msg-" + name, filename, content, argv, exit=exit, regex=regex, max_lines=1)

    # A control input before a data input, in frost-opt and freeze-graph.
    control_first = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                           node("c", "NoOp"),
                           node("y", "Identity", ["^c", "x"], attrs=F)])
    one_line("control-first-opt", "g.pb", control_first, opt("g.pb"), r"node 'y'.*after a control input")
    one_line("control-first-freeze", "g.pb", control_first, freeze_graph_argv("g.pb"),
             r"node 'y'.*after a control input")
    # Several nodes so: one line with the count.
    many_control_first = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                                node("c", "NoOp")]
                               + [node("y%d" % i, "Identity", ["^c", "x"], attrs=F) for i in range(50)])
    one_line("control-first-many", "g.pb", many_control_first, opt("g.pb"),
             r"errors: .*node 'y0': data input 'x' comes after a control input; .*; and \d+ more")
    # A While without its cond function, an If without its branches.
    f_list = a_list(fv(6, DT["float"]))
    no_cond = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                     node("w", "While", ["x"], attrs={"T": f_list, "body": a_func("b")})])
    one_line("while-without-cond", "g.pb", no_cond, opt("g.pb"), r"node 'w' \(While\): has no function attribute 'cond'")
    no_branches = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                         node("i", "If", ["x", "x"], attrs={"Tcond": a_type("float"), "Tin": f_list,
                                                            "Tout": f_list})])
    one_line("if-without-branches", "g.pb", no_branches, opt("g.pb"), r"node 'i' \(If\): has no function attribute 'then_branch'")
    # An unknown frost-inspect subcommand.
    add("msg-inspect-unknown-subcommand", "cli", ["frost-inspect", "bogus", "{d}/g.pb"],
        graph_file("g.pb", SIMPLE_PB), exit=(2,), regex="unknown subcommand 'bogus'", max_lines=1)
    # 15,000 missing outputs.
    one_line("missing-outputs-15000", "g.pb", SIMPLE_PB,
             freeze_graph_argv("g.pb", ",".join("o%d" % i for i in range(15000))),
             r"15000 errors: output 'o0'.*; and 14997 more")
    # A binary GraphDef whose op is empty is named like the same graph in text
    # (not "malformed binary MetaGraphDef"); an op "a<b" is accepted in both.
    empty_op = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                      fb(1, "y") + b"".join(fb(3, i) for i in ["x"])])
    one_line("binary-empty-op", "g.pb", empty_op, opt("g.pb"), r"node 'y' \(\): has no op")
    one_line("text-empty-op", "g.pbtxt", 'node { name: "x" op: "Placeholder" }\nnode { name: "y" input: "x" }\n',
             opt("g.pbtxt"), r"node 'y' \(\): has no op")
    odd_op = graph([node("x", "Placeholder", attrs={"dtype": a_type("float")}),
                    node("y", "a<b", ["x"])])
    gcase("msg-binary-odd-op", "g.pb", odd_op, opt("g.pb"), exit=(0,))
    # A TF2 SavedModel whose signature's function was removed from the library.
    tensor_info = lambda name: fb(1, name) + fv(2, DT["float"])
    signature = (fb(1, fb(1, "x") + fb(2, tensor_info("serving_default_x:0")))
                 + fb(2, fb(1, "out") + fb(2, tensor_info("StatefulPartitionedCall:0"))))
    removed_fn = saved_model([meta_graph(
        graph([node("serving_default_x", "Placeholder", attrs={"dtype": a_type("float")}),
               node("StatefulPartitionedCall", "StatefulPartitionedCall", ["serving_default_x"],
                    attrs={"f": a_func("gone"), "Tin": f_list, "Tout": f_list})]),
        extra=fb(5, fb(1, "serving_default") + fb(2, signature)))])

    def removed_setup(d):
        write(os.path.join(d, "sm", "saved_model.pb"), removed_fn)
    add("msg-signature-function-removed", "graph", ["freeze-graph", "{d}/sm", "-o", "{d}/out.pb"],
        removed_setup, regex=r"signature 'serving_default'.*'gone'", max_lines=1)
    add("msg-signature-function-removed-outputs", "graph",
        ["freeze-graph", "{d}/sm", "--outputs", "out", "-o", "{d}/out.pb"],
        removed_setup, regex=r"signature 'serving_default'.*'gone'", max_lines=1)


if __name__ == "__main__":
    main()
