#!/usr/bin/env python3
"""Compares Frost's ReverseSequence and Unique kernels with TensorFlow.

ReverseSequence (lib/Eval/Rearrange.cpp) over every dtype it moves, int32 and
int64 seq_lengths, any seq_dim/batch_dim pair, lengths of 0 and of the full
dim, and the lengths, dims and shapes TensorFlow refuses; Unique, UniqueV2,
UniqueWithCounts and UniqueWithCountsV2 (lib/Eval/Selection.cpp) over every
dtype TensorFlow registers, out_idx int32 and int64, UniqueV2's axis (empty:
a vector; negative; int32 or int64; refused), inputs with many repeats, NaNs
(each its own), signed zeros and subnormals (one value, the first seen). Cases
are computed and written as scripts/compare_array_with_tf.py does and
replayed by the same frost-unittests test (ArrayTensorFlowTest): equal bytes,
or TensorFlow's message.

  scripts/compare_unique_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops Unique] [--out /tmp/unique-cases.pb] [--no-run]

Half and bfloat16 inputs hold no -0.0 and no subnormals here: TensorFlow
hashes them by their bits, so whether 0.0 and -0.0 become one value depends on
its hash buckets, and Frost refuses those inputs (Unimplemented).

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, MOVABLE, idx, pick, rand_shape, replay_main, values  # noqa: E402

# TF_CALL_REAL_NUMBER_TYPES, string and bool.
UNIQUE_TYPES = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32,
                tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.bool, tf.string]


def repeating(rng, dt, shape):
    """Values drawn from a few, so that elements and slices repeat; floats
    with NaN, signed zeros and subnormals (not for half and bfloat16)."""
    n = int(np.prod(shape)) if shape else 1
    pool = values(rng, dt, [int(rng.integers(1, 5))])
    if dt.is_floating:
        extra = [np.nan, 0.0, 1.5]
        if dt in (tf.float32, tf.float64):
            extra += [-0.0, 1e-40, -1e-42, 5e-324 if dt == tf.float64 else 0.0]
        pool = np.concatenate([pool, np.array(extra, dt.as_numpy_dtype)[
            rng.choice(len(extra), int(rng.integers(0, 3)), replace=False)]])
    out = pool[rng.integers(0, len(pool), size=n)]
    if dt == tf.string:
        return np.array(list(out), dtype=object).reshape(shape)
    return out.reshape(shape)


def gen_reverse_sequence(rng):
    dt = pick(rng, MOVABLE)
    rank = int(rng.integers(2, 5)) if rng.random() > 0.05 else int(rng.integers(0, 2))
    shape = rand_shape(rng, rank=rank)
    dims = list(range(rank)) if rank >= 2 else [0, 1]
    seq_dim, batch_dim = (int(d) for d in rng.choice(dims, 2, replace=False))
    r = rng.random()
    if r < 0.03:
        batch_dim = seq_dim
    elif r < 0.06:
        seq_dim = rank + int(rng.integers(0, 2))
    elif r < 0.09:
        batch_dim = rank
    elif r < 0.11:
        seq_dim = -1
    elif r < 0.13:
        batch_dim = -1
    batches = shape[batch_dim] if 0 <= batch_dim < rank else 2
    length = shape[seq_dim] if 0 <= seq_dim < rank else 2
    lens = rng.integers(0, length + 1, size=batches)
    r = rng.random()
    if r < 0.04 and batches:
        lens[rng.integers(0, batches)] = -1
    elif r < 0.08 and batches:
        lens[rng.integers(0, batches)] = length + 1
    elif r < 0.11:
        lens = rng.integers(0, length + 1, size=batches + 1)
    elif r < 0.13:
        lens = lens.reshape(1, -1)
    return Case("ReverseSequence",
                {"input": values(rng, dt, shape),
                 "seq_lengths": idx(lens, pick(rng, [np.int32, np.int64]))},
                {"seq_dim": seq_dim, "batch_dim": batch_dim})


def gen_unique(rng):
    op = pick(rng, ["Unique", "UniqueV2", "UniqueWithCounts", "UniqueWithCountsV2"])
    dt = pick(rng, UNIQUE_TYPES)
    out_idx = pick(rng, [tf.int32, tf.int64])
    v2 = op.endswith("V2")
    if v2 and rng.random() < 0.7:
        rank = int(rng.integers(1, 4))
        shape = rand_shape(rng, rank=rank)
        axis = int(rng.integers(-rank, rank))
        if rng.random() < 0.05:
            axis = pick(rng, [rank, -rank - 1])
        axis_t = np.array([axis], pick(rng, [np.int32, np.int64]))
        r = rng.random()
        if r < 0.03:
            axis_t = np.array([0, 1], np.int32)
        elif r < 0.06:
            axis_t = np.array(0, np.int32)
        elif r < 0.08:
            axis_t = np.zeros([0], np.int32)  # No axis: the input must be a vector.
        x = repeating(rng, dt, shape)
        # Repeated slices: copies of a few along the axis.
        if x.size and rng.random() < 0.6:
            a = axis % rank if -rank <= axis < rank else 0
            picks = rng.integers(0, shape[a], size=shape[a])
            x = np.take(x, picks, axis=a)
        inputs = {"x": x, "axis": axis_t}
    else:
        shape = [int(rng.integers(0, 40))] if rng.random() > 0.05 else rand_shape(rng, rank=2)
        inputs = {"x": repeating(rng, dt, shape)}
        if v2:
            inputs["axis"] = np.zeros([0], pick(rng, [np.int32, np.int64]))
    return Case(op, inputs, {"out_idx": out_idx})


GENERATORS = [gen_reverse_sequence, gen_unique, gen_unique]


def main():
    return replay_main(__doc__, GENERATORS, "unique")


if __name__ == "__main__":
    sys.exit(main())
