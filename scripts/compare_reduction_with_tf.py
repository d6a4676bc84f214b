#!/usr/bin/env python3
"""Compares Frost's reduction, matrix-product and Dequantize kernels with
TensorFlow's on many random cases.

TensorFlow (the test oracle, never used by Frost itself) computes each case;
the cases and TensorFlow's results go to a text file that the unit test
ReductionTest.TensorFlowCases reads from $FROST_EVAL_TF_CASES, evaluates with
Frost and compares: integers and bools exactly, floats by ulps and by error
relative to the largest magnitude of the result. The test prints a table per
op and dtype and fails on any integer, bool, shape, dtype or error-code
mismatch, or on a float error beyond a loose bound.

  scripts/compare_reduction_with_tf.py [--cases N] [--seed S] [--onednn 0|1]
      [--out FILE] [--unittests build/bin/frost-unittests]

--onednn sets TF_ENABLE_ONEDNN_OPTS for TensorFlow (its default on x86 is 1,
which sends float MatMul to oneDNN); without --unittests the script only
writes the cases.

Case file format, one block per case (dtypes as tensorflow.DataType
numbers, element bytes little-endian in hex, "-" when there are none):
  case <id> <op>
  attr <name> b|i|s|t <value>
  input <dtype> <rank> <dims...> <hex>
  expect <dtype> <rank> <dims...> <hex>   |   error <TensorFlow error class>
  end
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=1500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--onednn", choices=["0", "1"], default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--unittests", default=None)
    return p.parse_args()


ARGS = parse_args()
if ARGS.onednn is not None:
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = ARGS.onednn
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402

RNG = np.random.default_rng(ARGS.seed)

FLOATS = [tf.float32, tf.float64, tf.half, tf.bfloat16]
INTS = [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64]


def tensor_line(kind, t):
    t = tf.convert_to_tensor(t)
    raw = t.numpy().tobytes()
    fields = [kind, t.dtype.as_datatype_enum, len(t.shape), *t.shape, raw.hex() or "-"]
    return " ".join(str(f) for f in fields)


def attr_line(name, value):
    if isinstance(value, bool):
        return f"attr {name} b {int(value)}"
    if isinstance(value, int):
        return f"attr {name} i {value}"
    if isinstance(value, str):
        return f"attr {name} s {value}"
    return f"attr {name} t {tf.as_dtype(value).as_datatype_enum}"


def random_values(dtype, shape, kind="any"):
    n = int(np.prod(shape)) if shape else 1
    if dtype == tf.bool:
        return RNG.random(n).reshape(shape) < 0.7
    if dtype.is_floating:
        if kind == "prod":
            v = RNG.uniform(0.7, 1.4, n)
        elif kind == "arg":
            v = RNG.integers(-3, 4, n).astype(np.float64)
            v[RNG.random(n) < 0.1] = np.nan
        else:
            v = RNG.standard_normal(n) * 10.0 ** RNG.integers(-2, 3)
        return tf.cast(tf.constant(v.reshape(shape)), dtype)
    info = np.iinfo(dtype.as_numpy_dtype)
    if kind == "prod":
        v = RNG.integers(-3 if info.min < 0 else 0, 4, n)
    elif kind == "arg":
        v = RNG.integers(max(info.min, -3), 4, n)
    else:
        v = RNG.integers(info.min, info.max, n, endpoint=True, dtype=np.int64 if info.min < 0
                         else np.uint64)
    return tf.constant(v.reshape(shape).astype(dtype.as_numpy_dtype))


def random_shape(max_rank=5, max_elements=6000):
    rank = int(RNG.integers(0, max_rank + 1))
    while True:
        shape = [int(RNG.choice([0, 1, 2, 3, 4, 5, 7, 16, 33])) if RNG.random() < 0.97 else 0
                 for _ in range(rank)]
        if RNG.random() < 0.25 and rank:
            shape[int(RNG.integers(rank))] = int(RNG.choice([100, 1000, 4099, 9000]))
        if np.prod(shape) <= max_elements:
            return shape


def reduction_case(op):
    dtypes = {"All": [tf.bool], "Any": [tf.bool]}.get(op, FLOATS * 2 + INTS)
    dtype = dtypes[int(RNG.integers(len(dtypes)))]
    shape = random_shape()
    x = random_values(dtype, shape, "prod" if op == "Prod" else "any")
    rank = len(shape)
    axes = [a for a in range(rank) if RNG.random() < 0.5]
    axes = [a - rank if RNG.random() < 0.3 else a for a in axes]
    RNG.shuffle(axes)
    if RNG.random() < 0.05:
        axes.append(rank + int(RNG.integers(0, 2)))  # Invalid.
    if RNG.random() < 0.03 and axes:
        axes.append(axes[0])  # Duplicate.
    axis_type = tf.int64 if RNG.random() < 0.3 else tf.int32
    axis = tf.constant(axes[0] if len(axes) == 1 and RNG.random() < 0.5 else axes, axis_type)
    keep = bool(RNG.random() < 0.5)
    fn = getattr(tf.raw_ops, op)
    return op, [x, axis], {"keep_dims": keep}, lambda: fn(input=x, axis=axis, keep_dims=keep)


def arg_case(op):
    dtypes = FLOATS + INTS + ([tf.bool] if op == "ArgMax" else [])
    dtype = dtypes[int(RNG.integers(len(dtypes)))]
    shape = [int(d) for d in RNG.integers(0 if RNG.random() < 0.05 else 1, 6,
                                          int(RNG.integers(1, 5)))]
    if RNG.random() < 0.3:
        shape[-1] = int(RNG.choice([50, 700]))
    x = random_values(dtype, shape, "arg")
    dim = int(RNG.integers(-len(shape), len(shape)))
    out = [tf.int32, tf.int64] + ([tf.int16, tf.uint16] if op == "ArgMax" else [])
    out_type = out[int(RNG.integers(len(out)))]
    d = tf.constant(dim, tf.int64 if RNG.random() < 0.3 else tf.int32)
    fn = getattr(tf.raw_ops, op)
    return op, [x, d], {"output_type": out_type}, lambda: fn(input=x, dimension=d,
                                                           output_type=out_type)


def matmul_case(op):
    dtypes = [tf.float32] * 4 + [tf.float64, tf.half, tf.bfloat16, tf.int32, tf.int64]
    dtype = dtypes[int(RNG.integers(len(dtypes)))]
    m, k, n = (int(RNG.choice([1, 2, 3, 5, 8, 17, 64, 130, 300])) for _ in range(3))
    ta, tb = bool(RNG.random() < 0.5), bool(RNG.random() < 0.5)
    if op == "MatMul":
        bx = by = []
    else:
        rank = int(RNG.integers(0, 3))
        out = [int(RNG.integers(1, 4)) for _ in range(rank)]
        bx = [d if RNG.random() < 0.7 else 1 for d in out][int(RNG.integers(0, rank + 1)):]
        by = [d if RNG.random() < 0.7 else 1 for d in out][int(RNG.integers(0, rank + 1)):]
    while np.prod(bx + [m, k]) * max(1, np.prod(by)) * n > 2_000_000:
        m, k, n = max(1, m // 2), max(1, k // 2), max(1, n // 2)
    xs = bx + ([k, m] if ta else [m, k])
    ys = by + ([n, k] if tb else [k, n])
    if dtype.is_integer:
        x = tf.constant(RNG.integers(-1000, 1000, xs), dtype)
        y = tf.constant(RNG.integers(-1000, 1000, ys), dtype)
    else:
        x = tf.cast(tf.constant(RNG.standard_normal(xs)), dtype)
        y = tf.cast(tf.constant(RNG.standard_normal(ys)), dtype)
    if op == "MatMul":
        attrs = {"transpose_a": ta, "transpose_b": tb}
        return op, [x, y], attrs, lambda: tf.raw_ops.MatMul(a=x, b=y, **attrs)
    attrs = {"adj_x": ta, "adj_y": tb}
    return op, [x, y], attrs, lambda: tf.raw_ops.BatchMatMulV2(x=x, y=y, **attrs)


def dequantize_case(_):
    qtypes = [(tf.qint8, np.int8), (tf.quint8, np.uint8), (tf.qint16, np.int16),
              (tf.quint16, np.uint16), (tf.qint32, np.int32)]
    qtype, npt = qtypes[int(RNG.integers(len(qtypes)))]
    shape = [int(d) for d in RNG.integers(1, 6, int(RNG.integers(1, 4)))]
    info = np.iinfo(npt)
    values = RNG.integers(info.min, info.max, shape, endpoint=True).astype(npt)
    x = tf.constant(values, qtype)
    mode = ["MIN_COMBINED", "MIN_FIRST", "SCALED"][int(RNG.integers(3))]
    axis = int(RNG.integers(-1, len(shape))) if mode != "MIN_FIRST" else -1
    slices = shape[axis] if axis >= 0 else 1
    lo = -np.abs(RNG.standard_normal(slices) * 10.0 ** RNG.integers(-2, 3)).astype(np.float32)
    hi = (np.abs(RNG.standard_normal(slices)) * 10.0 ** RNG.integers(-2, 3)).astype(np.float32)
    if RNG.random() < 0.3:
        lo = np.zeros_like(lo) if mode != "SCALED" else lo
    narrow = bool(RNG.random() < 0.3)
    dtype = tf.bfloat16 if mode == "MIN_COMBINED" and RNG.random() < 0.3 else tf.float32
    mn = tf.constant(lo if axis >= 0 else lo[0])
    mx = tf.constant(hi if axis >= 0 else hi[0])
    attrs = {"mode": mode, "narrow_range": narrow, "axis": axis, "dtype": dtype}
    return "Dequantize", [x, mn, mx], attrs, lambda: tf.raw_ops.Dequantize(
        input=x, min_range=mn, max_range=mx, **attrs)


GENERATORS = [(op, reduction_case) for op in ["Sum", "Prod", "Mean", "Max", "Min"]] * 3 + [
    ("All", reduction_case), ("Any", reduction_case),
    ("ArgMax", arg_case), ("ArgMin", arg_case),
    ("MatMul", matmul_case), ("MatMul", matmul_case), ("BatchMatMulV2", matmul_case),
    ("Dequantize", dequantize_case), ("Dequantize", dequantize_case)]


def main():
    out_path = ARGS.out or tempfile.mktemp(prefix="frost-tf-cases-", suffix=".txt")
    with tf.device("/CPU:0"), open(out_path, "w") as out:
        for case in range(ARGS.cases):
            name, gen = GENERATORS[int(RNG.integers(len(GENERATORS)))]
            op, inputs, attrs, run = gen(name)
            lines = [f"case {case} {op}"]
            lines += [attr_line(k, v) for k, v in attrs.items()]
            lines += [tensor_line("input", t) for t in inputs]
            try:
                lines.append(tensor_line("expect", run()))
            except tf.errors.OpError as e:
                lines.append(f"error {type(e).__name__}")
            lines.append("end")
            out.write("\n".join(lines) + "\n")
    print(f"wrote {ARGS.cases} cases to {out_path} (TensorFlow {tf.__version__}, "
          f"TF_ENABLE_ONEDNN_OPTS={os.environ.get('TF_ENABLE_ONEDNN_OPTS', 'default')})")
    if not ARGS.unittests:
        return 0
    env = dict(os.environ, FROST_EVAL_TF_CASES=out_path)
    return subprocess.call([ARGS.unittests, "--gtest_filter=ReductionTest.TensorFlowCases"],
                           env=env)


if __name__ == "__main__":
    sys.exit(main())
