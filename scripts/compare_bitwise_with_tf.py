#!/usr/bin/env python3
"""Compares Frost's bitwise kernels and Bitcast with TensorFlow.

The ops of lib/Eval/Bitwise.cpp (BitwiseAnd, BitwiseOr, BitwiseXor, Invert,
LeftShift, RightShift, Bitcast) on random cases over every integer dtype
TensorFlow registers, with broadcasting, shift counts below 0 and at or past
the width (TensorFlow clamps them), and Bitcast between every pair of
dtypes it lists with its shape checks. Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes, or TensorFlow's message.

  scripts/compare_bitwise_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops LeftShift] [--out /tmp/bitwise-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, rand_shape, replay_main, values  # noqa: E402

INTS = [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64]
BITCASTABLE = INTS + [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.complex64,
                      tf.complex128]


def broadcast_pair(rng):
    shape = rand_shape(rng, max_dim=4)
    other = list(shape)
    for i in range(len(other)):
        if rng.random() < 0.3:
            other[i] = 1
    other = other[int(rng.integers(0, len(other) + 1)):]
    if rng.random() < 0.05 and shape:
        other = [shape[-1] + 1]
    return (shape, other) if rng.random() < 0.5 else (other, shape)


def gen_binary(rng):
    op = pick(rng, ["BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift",
                    "LeftShift", "RightShift"])
    dt = pick(rng, INTS)
    a, b = broadcast_pair(rng)
    x = values(rng, dt, a)
    if op.endswith("Shift"):
        bits = dt.size * 8
        lo = 0 if dt.is_unsigned else -3
        y = rng.integers(lo, bits + 4, size=b).astype(dt.as_numpy_dtype)
        if rng.random() < 0.2:
            y = values(rng, dt, b)
    else:
        y = values(rng, dt, b)
    return Case(op, {"x": x, "y": y})


def gen_invert(rng):
    dt = pick(rng, INTS)
    return Case("Invert", {"x": values(rng, dt, rand_shape(rng))})


def gen_bitcast(rng):
    src = pick(rng, BITCASTABLE)
    dst = pick(rng, BITCASTABLE)
    shape = rand_shape(rng, max_dim=3)
    ratio = dst.size // src.size
    if ratio > 1 and rng.random() < 0.8:
        shape = shape + [ratio] if rng.random() < 0.9 else shape + [ratio + 1]
    x = values(rng, src, shape)
    return Case("Bitcast", {"input": x}, {"type": dst})


GENERATORS = [gen_binary, gen_binary, gen_invert, gen_bitcast]


def main():
    return replay_main(__doc__, GENERATORS, "bitwise")


if __name__ == "__main__":
    sys.exit(main())
