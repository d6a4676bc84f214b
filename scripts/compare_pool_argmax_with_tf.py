#!/usr/bin/env python3
"""Compares Frost's MaxPoolWithArgmax with TensorFlow.

MaxPoolWithArgmax (lib/Eval/Pooling.cpp) on random NHWC cases over every real
dtype TensorFlow registers on CPU: windows and strides of 1 to 4, SAME and
VALID padding, include_batch_in_index, small integer values (so windows often
hold equal maxima: the index TensorFlow picks among them is checked), NaNs and
infinities, and windows TensorFlow refuses. Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes, or TensorFlow's message.

  scripts/compare_pool_argmax_with_tf.py --build build [--cases 60] [--seed 1]
      [--out /tmp/pool-argmax-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, replay_main  # noqa: E402

REAL = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32,
        tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64]


def gen_pool(rng):
    dt = pick(rng, REAL)
    shape = [int(rng.integers(1, 3)), int(rng.integers(1, 7)), int(rng.integers(1, 7)),
             int(rng.integers(1, 4))]
    if rng.random() < 0.5:
        x = rng.integers(0, 4, size=shape).astype(np.float64)
    else:
        x = rng.normal(size=shape) * 10
    if dt.is_floating and rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 4))):
            x.reshape(-1)[rng.integers(0, x.size)] = pick(rng, [np.nan, np.inf, -np.inf, -0.0])
    if dt.is_unsigned:
        x = np.abs(x)
    x = x.astype(dt.as_numpy_dtype)
    ksize = [1, int(rng.integers(1, 5)), int(rng.integers(1, 5)), 1]
    strides = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), 1]
    if rng.random() < 0.04:
        ksize[0] = 2
    if rng.random() < 0.04:
        strides = strides[:3]
    attrs = {"ksize": ksize, "strides": strides, "padding": pick(rng, ["SAME", "VALID"]),
             "include_batch_in_index": bool(rng.random() < 0.5)}
    return Case("MaxPoolWithArgmax", {"input": x}, attrs)


GENERATORS = [gen_pool]


def main():
    return replay_main(__doc__, GENERATORS, "pool-argmax")


if __name__ == "__main__":
    sys.exit(main())
