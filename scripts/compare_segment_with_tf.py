#!/usr/bin/env python3
"""Compares Frost's segment reduction and DenseBincount kernels with TensorFlow.

The ops of lib/Eval/Segment.cpp (UnsortedSegmentSum, UnsortedSegmentMax,
UnsortedSegmentMin, UnsortedSegmentProd, DenseBincount) on random cases over
every real dtype TensorFlow registers for each op on CPU and every index type
(int32, int64 segment ids and bin values), with negative
segment ids (dropped), empty segments (the reduction's identity), NaNs and
signed zeros, and inputs TensorFlow refuses. Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes, or TensorFlow's message.

  scripts/compare_segment_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops UnsortedSegmentSum] [--out /tmp/segment-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, idx, pick, rand_shape, run_case, values  # noqa: E402

REAL = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32,
        tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64]
BINCOUNT = [tf.float32, tf.float64, tf.int32, tf.int64]  # The OpDef's list.


def some_values(rng, dt, shape):
    if dt.is_floating and rng.random() < 0.5:
        v = rng.normal(size=shape) * 3
        if v.size and rng.random() < 0.3:
            v.reshape(-1)[rng.integers(0, v.size)] = pick(rng, [np.nan, -0.0, np.inf])
        return v.astype(dt.as_numpy_dtype)
    if rng.random() < 0.5:
        lo = 0 if dt.is_unsigned else -3
        return rng.integers(lo, 4, size=shape).astype(dt.as_numpy_dtype)
    return values(rng, dt, shape)


def gen_segment(rng):
    op = pick(rng, ["UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
                    "UnsortedSegmentProd"])
    dt = pick(rng, REAL)
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)))
    id_rank = int(rng.integers(1, len(shape) + 1)) if rng.random() > 0.05 else 0
    n = int(rng.integers(0, 5))
    ids = rng.integers(-1, n + 1 if rng.random() < 0.05 else max(n, 1), size=shape[:id_rank])
    if rng.random() < 0.05:
        ids = rng.integers(0, 2, size=[s + 1 for s in shape[:id_rank]])
    num = idx(n if rng.random() > 0.03 else -1, pick(rng, [np.int32, np.int64]))
    if rng.random() < 0.03:
        num = num.reshape(1)
    return Case(op, {"data": some_values(rng, dt, shape),
                     "segment_ids": idx(ids, pick(rng, [np.int32, np.int64])),
                     "num_segments": num})


def gen_bincount(rng):
    dt = pick(rng, BINCOUNT)
    rank = int(rng.integers(0, 3)) if rng.random() > 0.03 else 3
    shape = rand_shape(rng, rank=rank, max_dim=6)
    size = int(rng.integers(0, 6))
    itype = pick(rng, [np.int32, np.int64])
    arr = rng.integers(0 if rng.random() > 0.05 else -1, size + 2, size=shape).astype(itype)
    if rng.random() < 0.5:
        weights = some_values(rng, dt, shape)
    else:
        weights = np.zeros([0], dt.as_numpy_dtype)
    if rng.random() < 0.03:
        weights = some_values(rng, dt, shape + [2])
    size_t = np.array(size if rng.random() > 0.03 else -1, itype)
    if rng.random() < 0.03:
        size_t = size_t.reshape(1)
    return Case("DenseBincount", {"input": arr, "size": size_t, "weights": weights},
                {"binary_output": bool(rng.random() < 0.3)})


GENERATORS = [gen_segment, gen_segment, gen_bincount]


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=60,
                         out="/tmp/frost-segment-tf-cases.pb", env_var="FROST_ARRAY_TF_CASES",
                         gtest_filter="ArrayTensorFlowTest.*", skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
