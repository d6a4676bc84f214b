#!/usr/bin/env python3
"""Compares Frost's array kernels (lib/Eval/Array.cpp, Slice.cpp) with TensorFlow.

Generates random cases (shapes, dtypes, axes, masks, paddings, indices, some
out of range on purpose), runs each with TensorFlow's own CPU kernel in a
graph whose inputs are placeholders of unknown shape (so the messages are the
kernel's, not shape inference's), and writes them to a binary GraphDef: one
node per case, with the op and attributes as TensorFlow built them, the inputs
in attribute `_inputs` and the outputs in `_outputs` or TensorFlow's message in
`_error`. Then runs frost-unittests' ArrayTensorFlowTest on the file, which
evaluates every case with Frost and reports each difference.

  scripts/compare_array_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops Reshape,StridedSlice] [--out /tmp/array-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from tensorflow.core.framework import attr_value_pb2  # noqa: E402

tf1 = tf.compat.v1
R = tf.raw_ops

NUMERIC = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32,
           tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.complex64, tf.complex128]
MOVABLE = NUMERIC + [tf.bool, tf.string]


class Case:
    """One op call: inputs by argument name (arrays, or lists of arrays) and attributes."""

    def __init__(self, op, inputs, attrs=None):
        self.op, self.inputs, self.attrs = op, inputs, attrs or {}


def values(rng, dtype, shape):
    """Random elements of `dtype` as a numpy array of `shape` (strings of any length)."""
    n = int(np.prod(shape)) if shape else 1
    if dtype == tf.string:
        words = [bytes(rng.choice(list(b"abcxyz"), size=rng.integers(0, 5)).tolist())
                 for _ in range(n)]
        return np.array(words, dtype=object).reshape(shape)
    if dtype == tf.bool:
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.is_complex:
        real = rng.normal(size=shape) + 1j * rng.normal(size=shape)
        return real.astype(dtype.as_numpy_dtype)
    if dtype.is_floating:
        v = rng.normal(size=shape) * 100
        return v.astype(np.float32).astype(dtype.as_numpy_dtype)
    info = np.iinfo(dtype.as_numpy_dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True,
                        dtype=np.int64 if info.min < 0 else np.uint64).astype(dtype.as_numpy_dtype)


def idx(v, dtype=np.int32):
    return np.array(v, dtype=dtype)


def rand_shape(rng, rank=None, max_dim=4, zeros=True):
    rank = rng.integers(0, 5) if rank is None else rank
    low = 0 if zeros and rng.random() < 0.15 else 1
    return [int(d) for d in rng.integers(low, max_dim + 1, size=rank)]


def pick(rng, items):
    return items[rng.integers(0, len(items))]


def index_dtype(rng):
    return pick(rng, [np.int32, np.int64])


# --- Case generators, one per op ---------------------------------------------------------

def gen_shape(rng):
    x = values(rng, pick(rng, MOVABLE), rand_shape(rng))
    op = pick(rng, ["Shape", "Size", "Rank"])
    attrs = {} if op == "Rank" else {"out_type": pick(rng, [tf.int32, tf.int64])}
    return Case(op, {"input": x}, attrs)


def gen_shape_n(rng):
    dt = pick(rng, MOVABLE)
    xs = [values(rng, dt, rand_shape(rng)) for _ in range(rng.integers(1, 4))]
    return Case("ShapeN", {"input": xs}, {"out_type": pick(rng, [tf.int32, tf.int64])})


def gen_reshape(rng):
    shape = rand_shape(rng)
    x = values(rng, pick(rng, MOVABLE), shape)
    n = int(np.prod(shape))
    target = list(rng.permutation(shape)) if rng.random() < 0.5 else [n]
    target = [int(t) for t in target]
    r = rng.random()
    if target and r < 0.4:
        target[rng.integers(0, len(target))] = -1
    elif target and r < 0.5:
        target[rng.integers(0, len(target))] += int(rng.integers(-3, 3))
    elif r < 0.55:
        target = target + [-1, -1]
    elif r < 0.6:
        target = [0, -1] if rng.random() < 0.5 else [-1, 0, 2]
    return Case("Reshape", {"tensor": x, "shape": idx(target, index_dtype(rng))})


def gen_expand_squeeze(rng):
    shape = rand_shape(rng)
    x = values(rng, pick(rng, MOVABLE), shape)
    if rng.random() < 0.5:
        dim = int(rng.integers(-len(shape) - 2, len(shape) + 2))
        return Case("ExpandDims", {"input": x, "axis": idx(dim, index_dtype(rng))})
    shape = [pick(rng, [1, 1, 2]) for _ in shape]
    x = values(rng, tf.float32, shape)
    dims = sorted(set(int(d) for d in rng.integers(-len(shape) - 1, len(shape) + 1,
                                                  size=rng.integers(0, 3))))
    return Case("Squeeze", {"input": x}, {"axis": dims})


def gen_transpose(rng):
    shape = rand_shape(rng)
    x = values(rng, pick(rng, MOVABLE), shape)
    perm = [int(p) for p in rng.permutation(len(shape))]
    r = rng.random()
    if perm and r < 0.15:
        perm[0] = perm[-1]
    elif perm and r < 0.3:
        perm[0] -= len(shape) * int(rng.integers(1, 3))
    elif r < 0.35:
        perm = perm + [0]
    return Case("Transpose", {"x": x, "perm": idx(perm, index_dtype(rng))})


def gen_concat(rng):
    dt = pick(rng, MOVABLE)
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)) if rng.random() < 0.1 else
                       int(rng.integers(1, 4)))
    axis = int(rng.integers(-len(shape) - 1, len(shape) + 1)) if shape else 0
    xs = []
    for _ in range(rng.integers(2, 4)):
        s = list(shape)
        if s and -len(s) <= axis < len(s):
            s[axis] = int(rng.integers(0, 4))
        if s and rng.random() < 0.08:
            s[0] += 1
        if rng.random() < 0.04:
            s = s + [1]
        xs.append(values(rng, dt, s))
    if rng.random() < 0.5:
        return Case("ConcatV2", {"values": xs, "axis": idx(axis, index_dtype(rng))})
    return Case("Concat", {"concat_dim": idx(axis), "values": xs})


def gen_pack_unpack(rng):
    dt = pick(rng, MOVABLE)
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)))
    if rng.random() < 0.5:
        xs = [values(rng, dt, shape if rng.random() > 0.08 else shape + [2])
              for _ in range(rng.integers(1, 4))]
        axis = int(rng.integers(-len(shape) - 2, len(shape) + 2))
        return Case("Pack", {"values": xs}, {"axis": axis})
    x = values(rng, dt, shape)
    axis = int(rng.integers(-len(shape) - 1, len(shape) + 1))
    num = shape[axis] if -len(shape) <= axis < len(shape) else 1
    if rng.random() < 0.1:
        num += 1
    return Case("Unpack", {"value": x}, {"num": num, "axis": axis})


def gen_split(rng):
    dt = pick(rng, MOVABLE)
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)), max_dim=6)
    x = values(rng, dt, shape)
    axis = int(rng.integers(-len(shape) - 1, len(shape) + 1))
    dim = shape[axis] if -len(shape) <= axis < len(shape) else 1
    if rng.random() < 0.5:
        divisors = [k for k in range(1, 7) if dim % k == 0] or [1]
        n = pick(rng, divisors) if rng.random() > 0.1 else 4
        return Case("Split", {"axis": idx(axis), "value": x}, {"num_split": n})
    n = int(rng.integers(1, 4))
    cuts = sorted(rng.integers(0, dim + 1, size=n - 1).tolist())
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [dim])]
    r = rng.random()
    if r < 0.3:
        sizes[rng.integers(0, n)] = -1
    elif r < 0.4:
        sizes[rng.integers(0, n)] += 1
    elif r < 0.45 and n > 1:
        sizes[0], sizes[1] = -1, -1
    tlen = pick(rng, [np.int32, np.int64, np.int8])
    return Case("SplitV", {"value": x, "size_splits": idx(sizes, tlen), "axis": idx(axis)},
                {"num_split": n})


def gen_fill_like(rng):
    dt = pick(rng, MOVABLE)
    op = pick(rng, ["Fill", "ZerosLike", "OnesLike"])
    if op == "Fill":
        dims = rand_shape(rng)
        if dims and rng.random() < 0.1:
            dims[0] = -1
        return Case("Fill", {"dims": idx(dims, index_dtype(rng)),
                             "value": values(rng, dt, [] if rng.random() > 0.1 else [1])})
    if op == "OnesLike" and dt == tf.string:
        dt = tf.int32
    return Case(op, {"x": values(rng, dt, rand_shape(rng))})


def gen_range(rng):
    dt = pick(rng, [tf.int32, tf.int64, tf.float32, tf.float64, tf.float16, tf.bfloat16])
    np_dt = dt.as_numpy_dtype
    if dt.is_integer:
        start, limit = (int(v) for v in rng.integers(-50, 50, size=2))
        delta = int(rng.integers(-7, 8))
    else:
        start, limit = (float(v) for v in rng.normal(size=2) * 20)
        delta = float(rng.normal() * 3)
        if rng.random() < 0.1:
            delta = 0.0
    if rng.random() < 0.7 and delta != 0 and (limit - start) * delta < 0:
        start, limit = limit, start
    return Case("Range", {"start": np.array(start, np_dt), "limit": np.array(limit, np_dt),
                          "delta": np.array(delta, np_dt)})


def random_slice_spec(rng, shape):
    n = int(rng.integers(0, len(shape) + 3))
    begin, end, strides = [], [], []
    for _ in range(n):
        begin.append(int(rng.integers(-6, 7)))
        end.append(int(rng.integers(-6, 7)))
        s = int(rng.integers(-3, 4))
        strides.append(s if s != 0 or rng.random() < 0.05 else 1)
    masks = {}
    for name in ["begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask"]:
        masks[name] = int(rng.integers(0, 1 << max(n, 1))) if rng.random() < 0.5 else 0
    masks["ellipsis_mask"] = (1 << int(rng.integers(0, n))) if n and rng.random() < 0.3 else 0
    if n > 1 and rng.random() < 0.03:
        masks["ellipsis_mask"] = 3
    return begin, end, strides, masks


def gen_strided_slice(rng):
    shape = rand_shape(rng, max_dim=5)
    x = values(rng, pick(rng, MOVABLE), shape)
    begin, end, strides, masks = random_slice_spec(rng, shape)
    dt = index_dtype(rng)
    return Case("StridedSlice", {"input": x, "begin": idx(begin, dt), "end": idx(end, dt),
                                 "strides": idx(strides, dt)}, masks)


def gen_slice(rng):
    shape = rand_shape(rng, max_dim=5)
    x = values(rng, pick(rng, MOVABLE), shape)
    begin = [int(rng.integers(0, d + 1)) for d in shape]
    size = [int(rng.integers(0, d - b + 1)) if rng.random() > 0.2 else -1
            for d, b in zip(shape, begin)]
    if shape and rng.random() < 0.15:
        begin[0] += pick(rng, [-1, 2])
    if shape and rng.random() < 0.1:
        size[-1] += 2
    if rng.random() < 0.05:
        size = size + [1]
    dt = index_dtype(rng)
    return Case("Slice", {"input": x, "begin": idx(begin, dt), "size": idx(size, dt)})


def gen_gather(rng):
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)) if rng.random() < 0.05 else
                       int(rng.integers(1, 4)))
    x = values(rng, pick(rng, MOVABLE), shape)
    rank = len(shape)
    axis = int(rng.integers(-rank - 1, rank + 1)) if rank else 0
    batch_dims = 0
    ishape = rand_shape(rng, rank=int(rng.integers(0, 3)))
    if rng.random() < 0.3 and rank >= 2:
        batch_dims = int(rng.integers(1, rank))
        ishape = shape[:batch_dims] + ishape
        axis = int(rng.integers(batch_dims, rank))
        if rng.random() < 0.2:
            batch_dims = -batch_dims if rng.random() < 0.5 else batch_dims + 3
    limit = shape[axis] if -rank <= axis < rank else 1
    ind = rng.integers(-1 if rng.random() < 0.1 else 0,
                       limit + (1 if rng.random() < 0.1 else 0) if limit else 1,
                       size=ishape)
    idt = pick(rng, [np.int32, np.int64, np.int16])
    if rng.random() < 0.3:
        return Case("Gather", {"params": x, "indices": idx(ind, idt)})
    return Case("GatherV2", {"params": x, "indices": idx(ind, idt),
                             "axis": idx(axis, index_dtype(rng))}, {"batch_dims": batch_dims})


def gen_tile_broadcast(rng):
    dt = pick(rng, MOVABLE)
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)))
    x = values(rng, dt, shape)
    r = rng.random()
    if r < 0.35:
        mult = [int(m) for m in rng.integers(0, 4, size=len(shape))]
        if rng.random() < 0.1:
            mult = mult + [2]
        if mult and rng.random() < 0.05:
            mult[0] = -1
        return Case("Tile", {"input": x, "multiples": idx(mult, index_dtype(rng))})
    if r < 0.75:
        target = [d if d != 1 else int(rng.integers(0, 4)) for d in shape]
        target = [int(d) for d in rng.integers(1, 4, size=rng.integers(0, 3))] + target
        if target and rng.random() < 0.1:
            target[-1] += 1
        if rng.random() < 0.05:
            target = target[1:]
        return Case("BroadcastTo", {"input": x, "shape": idx(target, index_dtype(rng))})
    a = [int(d) for d in rng.integers(0, 4, size=rng.integers(0, 4))]
    b = [d if rng.random() < 0.6 else 1 for d in a[len(a) - rng.integers(0, len(a) + 1):]]
    if rng.random() < 0.5:
        a, b = b, a
    dt = index_dtype(rng)
    return Case("BroadcastArgs", {"s0": idx(a, dt), "s1": idx(b, dt)})


def gen_pad(rng):
    dt = pick(rng, MOVABLE)
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)))
    x = values(rng, dt, shape)
    op = pick(rng, ["Pad", "PadV2", "MirrorPad"])
    pads = [[int(v) for v in rng.integers(0, 3, size=2)] for _ in shape]
    if pads and rng.random() < 0.07:
        pads[0][1] = -1
    if rng.random() < 0.05:
        pads = pads + [[0, 0]]
    pdt = index_dtype(rng)
    if op == "Pad":
        return Case("Pad", {"input": x, "paddings": idx(pads, pdt).reshape(-1, 2)})
    if op == "PadV2":
        return Case("PadV2", {"input": x, "paddings": idx(pads, pdt).reshape(-1, 2),
                              "constant_values": values(rng, dt, [])})
    mode = pick(rng, ["REFLECT", "SYMMETRIC"])
    pads = [[min(p, d - (mode == "REFLECT")) if rng.random() > 0.1 else p for p in pair]
            for pair, d in zip(pads, shape)]
    return Case("MirrorPad", {"input": x, "paddings": idx(pads, pdt).reshape(-1, 2)},
                {"mode": mode})


def gen_reverse(rng):
    shape = rand_shape(rng)
    x = values(rng, pick(rng, MOVABLE), shape)
    axes = [int(a) for a in rng.permutation(len(shape))[:rng.integers(0, len(shape) + 1)]]
    axes = [a - len(shape) if rng.random() < 0.3 else a for a in axes]
    if rng.random() < 0.1:
        axes = axes + [pick(rng, [0, len(shape), -len(shape) - 1])]
    return Case("ReverseV2", {"tensor": x, "axis": idx(axes, index_dtype(rng))})


GENERATORS = [gen_shape, gen_shape_n, gen_reshape, gen_expand_squeeze, gen_transpose,
              gen_concat, gen_pack_unpack, gen_split, gen_fill_like, gen_range,
              gen_strided_slice, gen_slice, gen_gather, gen_tile_broadcast, gen_pad,
              gen_reverse]


# --- Running a case with TensorFlow ----------------------------------------------------------

def dtype_of(value):
    if isinstance(value, np.ndarray) and value.dtype == object:
        return tf.string
    return tf.as_dtype(np.asarray(value).dtype)


def kernel_message(message):
    """The kernel's own words out of a Session error (after "Node: 'X'", before "[[")."""
    if "\nNode: '" in message:
        message = message.split("\nNode: '", 1)[1].split("\n", 1)[1]
    return message.split("\n\t [[")[0]


def run_case(case, name, known_shapes=()):
    """The case as a NodeDef with `_inputs` and `_outputs` or `_error`; None if unbuildable.

    Placeholders have unknown shapes, except for the arguments in `known_shapes` (ops whose
    shape functions need their ranks to build)."""
    graph = tf.Graph()
    feeds = {}
    with graph.as_default():
        kwargs = {}
        for arg, value in case.inputs.items():
            if isinstance(value, list):
                kwargs[arg] = []
                for v in value:
                    p = tf1.placeholder(dtype_of(v), shape=None)
                    feeds[p] = v
                    kwargs[arg].append(p)
            else:
                shape = np.shape(value) if arg in known_shapes else None
                p = tf1.placeholder(dtype_of(value), shape=shape)
                feeds[p] = value
                kwargs[arg] = p
        kwargs.update(case.attrs)
        try:
            result = getattr(R, case.op)(**kwargs)
        except (ValueError, TypeError, tf.errors.OpError):
            return None
        outputs = result if isinstance(result, (list, tuple)) else [result]
        op = outputs[0].op if outputs else None
        if op is None:
            return None
    node = op.node_def
    node.name = name
    del node.input[:]
    node.ClearField("device")
    inputs = [feeds[t] for t in op.inputs]
    for t, v in zip(op.inputs, inputs):
        node.attr["_inputs"].list.tensor.add().CopyFrom(tf.make_tensor_proto(v, dtype=t.dtype))
    config = tf1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf1.Session(graph=graph, config=config) as sess:
        try:
            got = sess.run(list(outputs), feed_dict=feeds)
        except tf.errors.OpError as e:
            node.attr["_error"].s = kernel_message(e.message).encode()
            return node
    node.attr["_outputs"].list.tensor.extend([])
    for t, v in zip(outputs, got):
        node.attr["_outputs"].list.tensor.add().CopyFrom(
            tf.make_tensor_proto(np.asarray(v), dtype=t.dtype, shape=np.shape(v)))
    return node


def replay_main(doc, generators, name):
    """The main of a script whose cases ArrayTensorFlowTest replays: writes
    /tmp/frost-NAME-tf-cases.pb (60 cases unless --cases) and runs the test."""
    return tf_cases.main(doc.splitlines()[0], generators, run_case, cases=60,
                         out="/tmp/frost-%s-tf-cases.pb" % name, env_var="FROST_ARRAY_TF_CASES",
                         gtest_filter="ArrayTensorFlowTest.*", skipped_as="not buildable")


def main():
    return replay_main(__doc__, GENERATORS, "array")


if __name__ == "__main__":
    sys.exit(main())
