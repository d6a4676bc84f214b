#!/usr/bin/env python3
"""Compares Frost's segment reduction, bincount, histogram and search kernels with TensorFlow.

The ops of lib/Eval/Segment.cpp (UnsortedSegmentSum, UnsortedSegmentMax,
UnsortedSegmentMin, UnsortedSegmentProd, the sorted SegmentSum, SegmentMean,
SegmentMax, SegmentMin, SegmentProd, DenseBincount) and lib/Eval/Search.cpp
(LowerBound, UpperBound, HistogramFixedWidth) on random cases over
every real dtype TensorFlow registers for each op on CPU and every index type
(int32, int64 segment ids and bin values), with negative
segment ids (dropped), empty segments (the reduction's identity), NaNs and
signed zeros, sorted ids with gaps, repeats and out-of-order or negative ids,
and inputs TensorFlow refuses. Cases are computed and written as
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
from compare_array_with_tf import Case, idx, pick, rand_shape, replay_main, values  # noqa: E402

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


def gen_sorted_segment(rng):
    op = pick(rng, ["SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd"])
    dt = pick(rng, REAL)
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)), max_dim=5)
    if rng.random() < 0.3 and dt.is_floating:
        shape = [int(rng.integers(1, 6)), pick(rng, [8, 9, 16, 17])]  # Whole AVX packets.
    ids = np.sort(rng.integers(0, 4, size=shape[:1]))
    if rng.random() < 0.1 and ids.size > 1:
        ids = ids[::-1].copy()
    if rng.random() < 0.05 and ids.size:
        ids[0] = -1
    if rng.random() < 0.03 and ids.size:
        ids = ids - 3
    if rng.random() < 0.03:
        ids = np.concatenate([ids, [9]])
    data = some_values(rng, dt, shape)
    if rng.random() < 0.2 and dt.is_floating and data.size:
        data.reshape(-1)[rng.integers(0, 2, size=data.size).astype(bool)] = pick(rng, [0.0, -0.0])
    ids = idx(ids, pick(rng, [np.int32, np.int64]))
    if rng.random() < 0.03:
        ids = ids.reshape([1, -1])
    return Case(op, {"data": data, "segment_ids": ids})


SEARCH = [tf.float32, tf.float64, tf.float16, tf.int8, tf.int32, tf.int64, tf.uint8,
          tf.uint16]


def gen_search(rng):
    op = pick(rng, ["LowerBound", "UpperBound"])
    dt = pick(rng, SEARCH)
    rows = int(rng.integers(0, 4))
    n, m = int(rng.integers(0, 7)), int(rng.integers(0, 7))
    lo = 0 if dt.is_unsigned else -5
    sorted_inputs = np.sort(rng.integers(lo, 6, size=[rows, n]), axis=1)
    vals = rng.integers(lo - 1, 7, size=[rows if rng.random() > 0.05 else rows + 1, m])
    sorted_inputs = sorted_inputs.astype(dt.as_numpy_dtype)
    vals = vals.astype(dt.as_numpy_dtype)
    if dt.is_floating and rng.random() < 0.3 and vals.size:
        vals.reshape(-1)[0] = pick(rng, [np.nan, np.inf, -np.inf, 0.5])
    return Case(op, {"sorted_inputs": sorted_inputs, "values": vals},
                {"out_type": pick(rng, [tf.int32, tf.int64])})


def gen_histogram(rng):
    dt = pick(rng, [tf.float32, tf.float64, tf.int32, tf.int64])
    shape = rand_shape(rng, max_dim=6)
    lo = float(rng.integers(-5, 3))
    hi = lo + float(pick(rng, [1, 2, 7, 10])) * (1 if rng.random() > 0.05 else -1)
    if dt.is_floating and rng.random() < 0.3:
        lo, hi = lo + 0.25, hi - 0.5
    if dt.is_floating:
        v = (rng.normal(size=shape) * 6).astype(dt.as_numpy_dtype)
        if v.size and rng.random() < 0.2:
            v.reshape(-1)[0] = pick(rng, [np.inf, -np.inf, lo, hi, np.nan])
    else:
        v = rng.integers(-12, 12, size=shape).astype(dt.as_numpy_dtype)
    value_range = np.array([lo, hi]).astype(dt.as_numpy_dtype)
    if rng.random() < 0.03:
        value_range = np.array([lo, hi, hi]).astype(dt.as_numpy_dtype)
    nbins = idx(int(rng.integers(1, 8)) if rng.random() > 0.05 else 0)
    return Case("HistogramFixedWidth", {"values": v, "value_range": value_range,
                                        "nbins": nbins},
                {"dtype": pick(rng, [tf.int32, tf.int64])})


GENERATORS = [gen_segment, gen_segment, gen_bincount, gen_sorted_segment, gen_sorted_segment,
              gen_search, gen_histogram]


def main():
    return replay_main(__doc__, GENERATORS, "segment")


if __name__ == "__main__":
    sys.exit(main())
