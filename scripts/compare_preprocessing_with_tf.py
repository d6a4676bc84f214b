#!/usr/bin/env python3
"""Compares Frost's Bucketize and StringToHashBucketStrong with TensorFlow.

The kernels behind Keras' Discretization and salted Hashing layers:
Bucketize (lib/Eval/Segment.cpp) over int32, int64, float and double inputs
with boundaries that hold the inputs' values exactly, repeated boundaries,
NaNs and infinities, unsorted boundaries (refused); StringToHashBucketStrong
(lib/Eval/Strings.cpp) over random byte strings (empty and long ones) with
random 64-bit keys (negative ones included), bucket counts up to 2**62, and
keys of the wrong length (refused). Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes, or TensorFlow's message.

  scripts/compare_preprocessing_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops Bucketize] [--out /tmp/preprocessing-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, rand_shape, replay_main  # noqa: E402


def gen_bucketize(rng):
    dt = pick(rng, [np.int32, np.int64, np.float32, np.float64])
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)))
    bounds = np.sort(rng.integers(-4, 5, size=int(rng.integers(0, 6))) * 0.5).tolist()
    if rng.random() < 0.2:
        bounds = np.sort(rng.normal(size=int(rng.integers(1, 6))) * 1e9).tolist()
    if len(bounds) > 1 and rng.random() < 0.05:
        bounds = bounds[::-1] if bounds[0] != bounds[-1] else bounds
    if np.issubdtype(dt, np.integer):
        x = rng.integers(-3, 4, size=shape)
        if rng.random() < 0.2:
            x = rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, size=shape, dtype=np.int64)
    else:
        x = rng.integers(-6, 7, size=shape) * 0.25 + (rng.normal(size=shape) * 1e-7
                                                       if rng.random() < 0.3 else 0)
        if x.size and rng.random() < 0.3:
            x.reshape(-1)[rng.integers(0, x.size)] = pick(rng, [np.nan, np.inf, -np.inf, -0.0])
    return Case("Bucketize", {"input": np.asarray(x).astype(dt)},
                {"boundaries": [float(b) for b in bounds]})


def gen_strong_hash(rng):
    shape = rand_shape(rng, rank=int(rng.integers(0, 3)))
    n = int(np.prod(shape)) if shape else 1
    words = [bytes(rng.integers(0, 256, size=int(pick(rng, [0, 1, 3, 7, 8, 9, 15, 16, 40])))
                   .astype(np.uint8)) for _ in range(n)]
    key = [int(k) for k in rng.integers(-2**63, 2**63 - 1, size=2, dtype=np.int64)]
    if rng.random() < 0.3:
        key = [int(rng.integers(0, 10)), int(rng.integers(0, 10))]
    if rng.random() < 0.04:
        key = key[:1]
    buckets = int(pick(rng, [1, 2, 8, 1000, 2**31 - 1, 2**62]))
    return Case("StringToHashBucketStrong",
                {"input": np.array(words, dtype=object).reshape(shape)},
                {"num_buckets": buckets, "key": key})


GENERATORS = [gen_bucketize, gen_strong_hash]


def main():
    return replay_main(__doc__, GENERATORS, "preprocessing")


if __name__ == "__main__":
    sys.exit(main())
