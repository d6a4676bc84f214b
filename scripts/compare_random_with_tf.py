#!/usr/bin/env python3
"""Compares Frost's stateless random kernels (lib/Eval/Random.cpp) with TensorFlow, bit for bit.

Generates random cases of every stateless random op TensorFlow has (v1 ops
with a seed pair, v2 ops with a Philox key, counter and algorithm, the ops
that turn a seed into a key and counter), for each dtype TensorFlow registers,
with seeds of every sign and size, shapes whose sizes are not multiples of the
generators' groups, and a few invalid inputs. TensorFlow computes each case
(compare_array_with_tf.run_case: a NodeDef with `_inputs` and `_outputs` or
`_error`); frost-unittests' ArrayTensorFlowTest replays them and requires equal
bytes (or TensorFlow's message).

  scripts/compare_random_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops StatelessRandomNormalV2] [--out /tmp/frost-random-tf-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, replay_main, run_case  # noqa: E402

FLOATS = [tf.float32, tf.float64, tf.float16, tf.bfloat16]
INT_RANGE = {tf.int32: np.int32, tf.int64: np.int64, tf.uint32: np.uint32, tf.uint64: np.uint64}


def pick(rng, items):
    return items[rng.integers(0, len(items))]


def shape_input(rng):
    """A shape vector: mostly small, sizes that are not multiples of 4; sometimes long (many
    groups, so truncated normals reject and skip), sometimes empty; rarely not a vector."""
    r = rng.random()
    if r < 0.1:
        dims = [int(rng.integers(200, 1200))]
    elif r < 0.15:
        dims = [int(rng.integers(0, 3)), 0]
    elif r < 0.2:
        dims = []
    else:
        dims = [int(d) for d in rng.integers(1, 8, size=rng.integers(1, 4))]
    shape = np.array(dims, dtype=pick(rng, [np.int32, np.int64]))
    if rng.random() < 0.03:
        shape = shape.reshape(1, -1)
    return shape


def seed_input(rng):
    """A seed pair of int32 or int64, any sign and size; rarely the wrong shape."""
    dtype = pick(rng, [np.int32, np.int64])
    info = np.iinfo(dtype)
    if rng.random() < 0.3:
        seed = rng.integers(-5, 6, size=2)
    else:
        seed = rng.integers(info.min, info.max, size=2, endpoint=True, dtype=np.int64)
    seed = seed.astype(dtype)
    if rng.random() < 0.03:
        seed = np.concatenate([seed, seed[:1]])
    return seed


def key_counter_alg(rng):
    """A v2 op's key [1], counter [2] (uint64, any value, some near wrapping) and algorithm."""
    key = rng.integers(0, 2**64 - 1, size=1, endpoint=True, dtype=np.uint64)
    counter = rng.integers(0, 2**64 - 1, size=2, endpoint=True, dtype=np.uint64)
    if rng.random() < 0.2:
        counter[0] = np.uint64(2**64 - 1 - int(rng.integers(0, 4)))
    alg = np.array(pick(rng, [1, 1, 3]), dtype=np.int32)
    r = rng.random()
    if r < 0.03:
        alg = np.array(pick(rng, [0, 2]), dtype=np.int32)  # 2 is ThreeFry: not on CPU
    elif r < 0.05:
        key = np.concatenate([key, key])
    return {"key": key, "counter": counter, "alg": alg}


def gen_float(rng):
    op = pick(rng, ["StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal"])
    attrs = {"dtype": pick(rng, FLOATS)}
    if rng.random() < 0.5:
        return Case(op, {"shape": shape_input(rng), "seed": seed_input(rng)}, attrs)
    return Case(op + "V2", dict(shape=shape_input(rng), **key_counter_alg(rng)), attrs)


def bounds(rng, dtype):
    info = np.iinfo(INT_RANGE[dtype])
    r = rng.random()
    if r < 0.2:
        lo, hi = info.min, info.max  # the widest range: wraps in the unsigned difference
    elif r < 0.5:
        lo, hi = sorted(int(v) for v in rng.integers(info.min, info.max, size=2, endpoint=True,
                                                     dtype=np.int64 if info.min < 0 else np.uint64))
    else:
        lo = int(rng.integers(max(info.min, -100), 100))
        hi = lo + int(rng.integers(1, 50))
    if rng.random() < 0.05:
        lo, hi = hi, lo  # refused unless the output is empty
    np_type = INT_RANGE[dtype]
    lo, hi = np.array(lo, dtype=np_type), np.array(hi, dtype=np_type)
    if rng.random() < 0.04:
        lo = lo.reshape(1)  # not a scalar: refused unless the output is empty
    return lo, hi


def gen_int(rng):
    if rng.random() < 0.5:
        dtype = pick(rng, [tf.int32, tf.int64])
        lo, hi = bounds(rng, dtype)
        return Case("StatelessRandomUniformInt",
                    {"shape": shape_input(rng), "seed": seed_input(rng), "minval": lo,
                     "maxval": hi})
    dtype = pick(rng, [tf.int32, tf.int64])  # uint32, uint64: XLA only
    lo, hi = bounds(rng, dtype)
    return Case("StatelessRandomUniformIntV2",
                dict(shape=shape_input(rng), **key_counter_alg(rng), minval=lo, maxval=hi))


def gen_full_int(rng):
    attrs = {"dtype": pick(rng, list(INT_RANGE))}
    if rng.random() < 0.5:
        return Case("StatelessRandomUniformFullInt",
                    {"shape": shape_input(rng), "seed": seed_input(rng)}, attrs)
    return Case("StatelessRandomUniformFullIntV2", dict(shape=shape_input(rng),
                                                        **key_counter_alg(rng)), attrs)


def gen_key_counter(rng):
    op = pick(rng, ["StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg",
                    "StatelessRandomGetAlg"])
    return Case(op, {} if op == "StatelessRandomGetAlg" else {"seed": seed_input(rng)})


# Refused inputs the random generators above never make, one after another: each
# must be refused with TensorFlow's message.
REFUSED = [
    lambda rng: Case("StatelessRandomUniformInt",
                     {"shape": np.array([2], dtype=np.int32), "seed": seed_input(rng),
                      "minval": np.array(0, dtype=np.int32),
                      "maxval": np.array([5], dtype=np.int32)}),
    lambda rng: Case("StatelessRandomUniformV2",
                     dict(shape=np.array([2], dtype=np.int32),
                          **dict(key_counter_alg(rng), alg=np.array([1], dtype=np.int32))),
                     {"dtype": tf.float32}),
]


def gen_refused(rng, _next=iter(range(1 << 30))):
    return REFUSED[next(_next) % len(REFUSED)](rng)


GENERATORS = [gen_float, gen_float, gen_float, gen_int, gen_full_int, gen_key_counter,
              gen_refused]


def main():
    return replay_main(__doc__, GENERATORS, "random")


if __name__ == "__main__":
    sys.exit(main())
