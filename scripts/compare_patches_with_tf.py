#!/usr/bin/env python3
"""Compares Frost's Roll, ExtractImagePatches and matrix diagonal kernels with TensorFlow.

The ops of lib/Eval/Patches.cpp (Roll, ExtractImagePatches) and
lib/Eval/MatrixDiag.cpp (MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3) on
random cases: shifts of any sign and size over repeated and negative axes,
patches with strides, rates and SAME/VALID padding, diagonal ranges k with
every align, explicit and inferred matrix sizes, padding values, and inputs
TensorFlow refuses. Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes, or TensorFlow's message.

  scripts/compare_patches_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops Roll] [--out /tmp/patches-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, idx, pick, rand_shape, replay_main, values  # noqa: E402

SOME = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int32, tf.int64,
        tf.uint8, tf.uint16, tf.bool]
ALIGNS = ["LEFT_LEFT", "LEFT_RIGHT", "RIGHT_LEFT", "RIGHT_RIGHT"]


def gen_roll(rng):
    dt = pick(rng, SOME + [tf.string])
    rank = int(rng.integers(1, 4)) if rng.random() > 0.03 else 0
    shape = rand_shape(rng, rank=rank)
    n = int(rng.integers(1, 4))
    r = max(rank, 1)
    axis = rng.integers(-r, r, size=n)
    if rng.random() < 0.05:
        axis[0] = r
    shift = rng.integers(-9, 10, size=n)
    if rng.random() < 0.1:
        shift[0] = pick(rng, [2**31 - 1, -2**31, 2**40 + 3])
    itype = np.int64 if abs(int(shift[0])) >= 2**31 - 1 else pick(rng, [np.int32, np.int64])
    if rng.random() < 0.4:
        shift, axis = shift[:1].reshape([]), axis[:1].reshape([])
    if rng.random() < 0.04:
        axis = axis.reshape([1] * axis.ndim + [-1])
    if rng.random() < 0.04 and shift.ndim == 1:
        shift = np.concatenate([shift, shift])
    return Case("Roll", {"input": values(rng, dt, shape), "shift": idx(shift, itype),
                         "axis": idx(axis, pick(rng, [np.int32, np.int64]))})


def gen_patches(rng):
    dt = pick(rng, SOME[:-1])
    shape = [int(rng.integers(0 if rng.random() < 0.05 else 1, 3)), int(rng.integers(1, 7)),
             int(rng.integers(1, 7)), int(rng.integers(1, 4))]
    if rng.random() < 0.03:
        shape = shape[:3]

    def four(lo, hi):
        v = [1, int(rng.integers(lo, hi)), int(rng.integers(lo, hi)), 1]
        if rng.random() < 0.03:
            v[pick(rng, [0, 3])] = 2
        return v
    return Case("ExtractImagePatches", {"images": values(rng, dt, shape)},
                {"ksizes": four(1, 4), "strides": four(1, 4), "rates": four(1, 3),
                 "padding": pick(rng, ["SAME", "VALID"])})


def diag_k(rng, rows, cols):
    lo = int(rng.integers(-rows, cols)) if rows + cols > 0 else 0
    hi = int(rng.integers(lo, cols)) if lo < cols else lo
    if rng.random() < 0.05:
        lo, hi = hi + 1, lo
    if rng.random() < 0.05:
        hi = cols + 1
    if lo == hi and rng.random() < 0.5:
        return idx(lo)
    return idx([lo, hi])


def diagonals_shape(batch, rows, cols, k):
    """The shape of the diagonals k (a scalar or [lo, hi]) of rows x cols
    matrices: [..., hi - lo + 1 (only for a range), the longest diagonal]."""
    lo, hi = (int(k), int(k)) if k.ndim == 0 else (int(k[0]), int(k[1]))
    lo, hi = min(lo, hi), max(lo, hi)
    max_len = max(min(rows + min(hi, 0), cols - max(lo, 0)), 1)
    return batch + ([hi - lo + 1] if hi > lo else []) + [max_len], hi > lo


def gen_diag(rng):
    dt = pick(rng, SOME)
    batch = rand_shape(rng, rank=int(rng.integers(0, 3)), max_dim=3)
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    k = diag_k(rng, rows, cols)
    dshape, ranged = diagonals_shape(batch, rows, cols, k)
    if rng.random() < 0.05 and ranged:
        dshape[-2] += 1
    diagonal = values(rng, dt, dshape)
    num_rows = pick(rng, [-1, -1, rows, rows + 1])
    num_cols = pick(rng, [-1, -1, cols, cols + 1])
    pad = values(rng, dt, [])
    return Case("MatrixDiagV3", {"diagonal": diagonal, "k": k, "num_rows": idx(num_rows),
                                 "num_cols": idx(num_cols), "padding_value": pad},
                {"align": pick(rng, ALIGNS)})


def gen_diag_part(rng):
    dt = pick(rng, SOME)
    batch = rand_shape(rng, rank=int(rng.integers(0, 3)), max_dim=3)
    rows, cols = int(rng.integers(0 if rng.random() < 0.05 else 1, 6)), int(rng.integers(1, 6))
    k = diag_k(rng, rows, cols)
    shape = batch + [rows, cols] if rng.random() > 0.03 else [cols]
    return Case("MatrixDiagPartV3", {"input": values(rng, dt, shape), "k": k,
                                     "padding_value": values(rng, dt, [])},
                {"align": pick(rng, ALIGNS)})


def gen_set_diag(rng):
    dt = pick(rng, SOME)
    batch = rand_shape(rng, rank=int(rng.integers(0, 3)), max_dim=3)
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    k = diag_k(rng, rows, cols)
    dshape, _ = diagonals_shape(batch, rows, cols, k)
    if rng.random() < 0.05:
        dshape[-1] += 1
    return Case("MatrixSetDiagV3", {"input": values(rng, dt, batch + [rows, cols]),
                                    "diagonal": values(rng, dt, dshape), "k": k},
                {"align": pick(rng, ALIGNS)})


GENERATORS = [gen_roll, gen_patches, gen_diag, gen_diag_part, gen_set_diag]


def main():
    return replay_main(__doc__, GENERATORS, "patches")


if __name__ == "__main__":
    sys.exit(main())
