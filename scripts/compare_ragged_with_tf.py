#!/usr/bin/env python3
"""Compares Frost's RaggedTensorToTensor (lib/Eval/Ragged.cpp) with TensorFlow.

Random ragged tensors of ragged rank 1 to 3 (empty rows and empty tensors
included) over numbers, bools and strings, encoded as TensorFlow encodes them
(ROW_SPLITS, or FIRST_DIM_SIZE then VALUE_ROWIDS, mixed across levels, int32
or int64), with inner dense dims, scalar or broadcast default values, and a
shape that is unknown, partly known, or cuts and pads rows; a few invalid on
purpose (an empty first partition, ranks or dims that do not match the
values, row ids past the first dimension, default values TensorFlow
refuses). Cases are computed and written as scripts/compare_array_with_tf.py
does and replayed by the same frost-unittests test (ArrayTensorFlowTest):
equal bytes, or TensorFlow's message.

  scripts/compare_ragged_with_tf.py --build build [--cases 60] [--seed 1]
      [--out /tmp/frost-ragged-tf-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, rand_shape, replay_main, values  # noqa: E402

DTYPES = [tf.float32, tf.float32, tf.int32, tf.int64, tf.float64, tf.float16, tf.bool,
          tf.string, tf.uint8, tf.complex64]


def ragged_levels(rng, ragged_rank):
    """Row lengths per level: the outermost has `nrows` rows."""
    count, levels = int(rng.integers(0, 5)), []
    for _ in range(ragged_rank):
        lengths = rng.integers(0, 4, size=count)
        if count and rng.random() < 0.2:
            lengths[rng.integers(0, count)] = int(rng.integers(4, 7))  # One long row.
        levels.append(lengths)
        count = int(lengths.sum())
    return levels, count


def gen_ragged_to_tensor(rng):
    ragged_rank = pick(rng, [1, 1, 2, 3])
    dtype = pick(rng, DTYPES)
    index = pick(rng, [np.int32, np.int64])
    levels, nvals = ragged_levels(rng, ragged_rank)
    inner = rand_shape(rng, rank=pick(rng, [0, 0, 1, 2]), max_dim=3, zeros=False)
    flat = values(rng, dtype, [nvals] + inner)

    # The partitions: ROW_SPLITS, or FIRST_DIM_SIZE then VALUE_ROWIDS; each
    # level below the first is either.
    first_dim_size = rng.random() < 0.4
    types, tensors = [], []
    if first_dim_size:
        types.append("FIRST_DIM_SIZE")
        tensors.append(np.array(len(levels[0]), index))
    for level, lengths in enumerate(levels):
        rowids = (first_dim_size and level == 0) or (level > 0 and rng.random() < 0.4)
        if rowids:
            types.append("VALUE_ROWIDS")
            tensors.append(np.repeat(np.arange(len(lengths)), lengths).astype(index))
        else:
            types.append("ROW_SPLITS")
            tensors.append(np.concatenate([[0], np.cumsum(lengths)]).astype(index))

    # The shape: unknown (-1), or each dim unknown or a size that cuts or pads.
    rank = ragged_rank + 1 + len(inner)
    if rng.random() < 0.3:
        shape = np.array(-1, index)
    else:
        dims = [-1 if rng.random() < 0.5 else int(rng.integers(0, 5)) for _ in range(rank)]
        dims[ragged_rank + 1:] = [d if rng.random() < 0.5 else -1 for d in inner]
        shape = np.array(dims, index)

    # The default: a scalar, one row, or a row broadcast from size-1 dims.
    kind = pick(rng, ["scalar", "scalar", "row", "ones"])
    default_shape = {"scalar": [], "row": inner,
                     "ones": [1] * len(inner) if inner else []}[kind]
    default = values(rng, dtype, default_shape)

    invalid = rng.random() < 0.12
    if invalid:
        what = int(rng.integers(0, 5))
        if what == 0:  # An empty first partition.
            tensors[0] = np.zeros([0], index) if types[0] == "ROW_SPLITS" else tensors[0]
        elif what == 1:  # A shape of the wrong rank.
            shape = np.array([-1] * (rank + 1), index)
        elif what == 2 and inner:  # A known inner dim the values do not have.
            dims = [-1] * rank
            dims[-1] = inner[-1] + 1
            shape = np.array(dims, index)
        elif what == 3 and types[0] == "FIRST_DIM_SIZE" and len(levels[0]):
            tensors[0] = np.array(len(levels[0]) - 1, index)  # Row ids past it.
        else:  # A default of the values' rank.
            default = values(rng, dtype, [1] + inner)
    return Case("RaggedTensorToTensor",
                {"shape": shape, "values": flat, "default_value": default,
                 "row_partition_tensors": tensors},
                {"row_partition_types": types})


GENERATORS = [gen_ragged_to_tensor]


def main():
    return replay_main(__doc__, GENERATORS, "ragged")


if __name__ == "__main__":
    sys.exit(main())
