#!/usr/bin/env python3
"""Compares Frost's CTC decoders and SparseToDense with TensorFlow.

The ops of lib/Eval/Ctc.cpp (CTCGreedyDecoder, CTCBeamSearchDecoder) and
SparseToDense (lib/Eval/Scatter.cpp), which turns their sparse paths into a
dense tensor, on random cases: float and double logits (random normal ones,
and for the greedy decoder small integers too, where equal maxima are
common), sequence lengths from -1 to
the time steps, merge_repeated, blank_index, beam widths and top paths, and
inputs TensorFlow refuses; SparseToDense over every dtype kind with sorted,
unsorted, repeated and out-of-range indices, with and without
validate_indices. Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes (the beam search's log probabilities
included), or TensorFlow's message.

  scripts/compare_ctc_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops CTCBeamSearchDecoder] [--out /tmp/ctc-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import compare_array_with_tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, idx, pick, rand_shape, replay_main, values  # noqa: E402


class FlatOps:
    """tf.raw_ops whose results come flat: the decoders return lists of outputs."""

    def __getattr__(self, name):
        op = getattr(tf.raw_ops, name)

        def call(**kwargs):
            result = op(**kwargs)
            if not isinstance(result, (list, tuple)):
                return result
            flat = []
            for r in result:
                flat.extend(r if isinstance(r, (list, tuple)) else [r])
            return flat
        return call


compare_array_with_tf.R = FlatOps()


def logits(rng, dt, shape, nan, ties):
    if ties and rng.random() < 0.3:  # Equal maxima, equal beam probabilities.
        v = rng.integers(-2, 3, size=shape).astype(np.float64)
    else:
        v = rng.normal(size=shape) * 2
    if nan and v.size and rng.random() < 0.1:
        v.reshape(-1)[rng.integers(0, v.size)] = np.nan
    return v.astype(dt)


def lengths(rng, max_time, batch):
    n = rng.integers(-1, max_time + 1, size=[batch])
    if batch and rng.random() < 0.04:
        n[rng.integers(0, batch)] = max_time + 1
    if rng.random() < 0.03:
        n = np.concatenate([n, [0]])
    if rng.random() < 0.03:
        n = n.reshape(1, -1)
    return idx(n, np.int32)


def decoder_inputs(rng, nan, ties):
    dt = pick(rng, [np.float32, np.float64])
    max_time, batch, classes = (int(rng.integers(1, 7)), int(rng.integers(1, 4)),
                                int(rng.integers(1, 7)))
    if rng.random() < 0.03:
        max_time = 0
    if rng.random() < 0.03:
        batch = 0
    shape = [max_time, batch, classes]
    if rng.random() < 0.03:
        shape = shape[:2]
    return {"inputs": logits(rng, dt, shape, nan, ties),
            "sequence_length": lengths(rng, max_time, batch)}, classes


def gen_greedy(rng):
    inputs, classes = decoder_inputs(rng, nan=True, ties=True)
    attrs = {"merge_repeated": bool(rng.random() < 0.5)}
    if rng.random() < 0.7:
        attrs["blank_index"] = int(rng.integers(-classes - 1, classes + 1))
    return Case("CTCGreedyDecoder", inputs, attrs)


def gen_beam(rng):
    # Random logits: equally probable beams, rare here, are where Frost and
    # TensorFlow may keep different ones (see lib/Eval/Ctc.cpp).
    inputs, _ = decoder_inputs(rng, nan=False, ties=False)
    width = int(rng.integers(1, 6))
    top = 1 if rng.random() < 0.5 else int(rng.integers(1, width + 1))
    if rng.random() < 0.05:
        top = width + 1
    return Case("CTCBeamSearchDecoder", inputs,
                {"beam_width": width, "top_paths": top,
                 "merge_repeated": bool(rng.random() < 0.5)})


DENSE_TYPES = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32,
               tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.complex64,
               tf.complex128, tf.bool, tf.string]


def gen_sparse_to_dense(rng):
    dt = pick(rng, DENSE_TYPES)
    itype = pick(rng, [np.int32, np.int64])
    shape = rand_shape(rng, rank=int(rng.integers(1, 4)))
    size = int(np.prod(shape))
    n = int(rng.integers(0, size + 1))
    flat = np.sort(rng.choice(size, size=n, replace=False)) if size else np.zeros([0], int)
    ix = np.stack(np.unravel_index(flat, shape), axis=1) if n else np.zeros([0, len(shape)], int)
    r = rng.random()
    if n > 1 and r < 0.1:
        ix = ix[rng.permutation(n)]
    elif n > 1 and r < 0.2:
        ix[rng.integers(1, n)] = ix[0]
    elif n and r < 0.3:
        ix[rng.integers(0, n), rng.integers(0, len(shape))] = pick(rng, [-1, 5])
    if len(shape) == 1 and rng.random() < 0.3:
        ix = ix.reshape(-1)
        if n == 1 and rng.random() < 0.5:
            ix = ix.reshape([])
    vals = values(rng, dt, [len(ix) if np.ndim(ix) else 1])
    if rng.random() < 0.2:
        vals = values(rng, dt, [])
    elif rng.random() < 0.03:
        vals = values(rng, dt, [len(ix) + 1])
    default = values(rng, dt, [] if rng.random() > 0.03 else [1])
    out_shape = list(shape)
    if rng.random() < 0.03:
        out_shape = out_shape + [2]
    if rng.random() < 0.03:
        out_shape[0] = -1
    return Case("SparseToDense", {"sparse_indices": idx(ix, itype),
                                  "output_shape": idx(out_shape, itype),
                                  "sparse_values": vals, "default_value": default},
                {"validate_indices": bool(rng.random() < 0.7)})


GENERATORS = [gen_greedy, gen_beam, gen_beam, gen_sparse_to_dense]


def main():
    return replay_main(__doc__, GENERATORS, "ctc")


if __name__ == "__main__":
    sys.exit(main())
