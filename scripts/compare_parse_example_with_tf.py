#!/usr/bin/env python3
"""Compares Frost's ParseExample kernels (lib/Eval/ParseExample.cpp) with TensorFlow.

Generates random cases of ParseExampleV2 (sparse, dense and ragged features
of float, int64 and string; dense shapes [], [1], [2], [2,2]; defaults or
required; a batch of 0..4 examples or one scalar example; names or none;
features missing, empty, of no list at all, unrelated ones, given twice,
keys that are not UTF-8), ParseExample
and ParseSingleExample, and at most one fault a case: a feature of another
list type, a dense feature with too few or too many values, a required
feature missing, a default of the wrong size, bytes that are no Example.
TensorFlow computes each case (compare_array_with_tf.run_case: a NodeDef
with `_inputs` and `_outputs` or `_error`); frost-unittests'
ArrayTensorFlowTest replays them and requires equal elements (or
TensorFlow's message).

  scripts/compare_parse_example_with_tf.py --build build [--cases 60] [--seed 1]
      [--out /tmp/frost-parse-example-tf-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import compare_array_with_tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, run_case  # noqa: E402

KEYS = ["age", "income", "tags", "ids", "w", "x"]
TYPES = [tf.float32, tf.int64, tf.string]
SHAPES = [[], [1], [2], [2, 2]]


class FlatOps:
    """tf.raw_ops whose Parse* ops return their outputs as one flat list
    (run_case takes the op of the first output)."""

    def __getattr__(self, name):
        op = getattr(tf.raw_ops, name)
        if not name.startswith("Parse"):
            return op

        def flat(**kw):
            out = op(**kw)
            return [t for group in out for t in group]
        return flat


compare_array_with_tf.R = FlatOps()


def pick(rng, items):
    return items[rng.integers(0, len(items))]


def obj(v):
    return np.array(v, dtype=object)


def values_of(rng, dtype, n):
    if dtype == tf.float32:
        return [float(np.float32(v)) for v in rng.normal(size=n) * 10]
    if dtype == tf.int64:
        return [int(v) for v in rng.integers(-2**40, 2**40, size=n)]
    # No trailing NUL: numpy's bytes arrays drop them from TensorFlow's result.
    return [pick(rng, [b"", b"a", b"zb", b"a\x00b", b"\xff\xfe", b"long value " * 3])
            for _ in range(n)]


def feature(dtype, vals):
    if dtype == tf.float32:
        return tf.train.Feature(float_list=tf.train.FloatList(value=vals))
    if dtype == tf.int64:
        return tf.train.Feature(int64_list=tf.train.Int64List(value=vals))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=vals))


def spec(rng, ragged=True):
    keys = list(rng.permutation(KEYS))
    out = {"sparse": [], "dense": [], "ragged": []}
    for kind, most in (("sparse", 2), ("dense", 3), ("ragged", 2 if ragged else 0)):
        for _ in range(int(rng.integers(0, most + 1))):
            if keys:
                out[kind].append([keys.pop(), pick(rng, TYPES), pick(rng, SHAPES), None])
    if not any(out.values()):
        out["dense"].append([keys.pop(), tf.float32, [1], None])
    for d in out["dense"]:
        size = int(np.prod(d[2]))
        d[3] = np.array(values_of(rng, d[1], size) if rng.random() < 0.5 else [],
                        dtype=object if d[1] == tf.string else d[1].as_numpy_dtype)
        if d[3].size:
            d[3] = d[3].reshape(d[2])
    return out


def examples(rng, sp, count, fault):
    """`count` serialized examples for spec `sp`; `fault` (None or a kind)
    is put in one of them."""
    where = int(rng.integers(0, count)) if count else -1
    out = []
    for b in range(count):
        feats = {}
        for kind in ("sparse", "dense", "ragged"):
            for key, dtype, shape, default in sp[kind]:
                if kind == "dense":
                    # A feature with a default may be missing.
                    if default.size and rng.random() < 0.4:
                        continue
                    feats[key] = feature(dtype, values_of(rng, dtype, int(np.prod(shape))))
                else:
                    r = rng.random()
                    if r < 0.2:
                        continue
                    if r < 0.3:
                        feats[key] = tf.train.Feature()  # no list at all: missing
                        continue
                    feats[key] = feature(dtype, values_of(rng, dtype, int(rng.integers(0, 4))))
        if rng.random() < 0.3:
            feats["unrelated"] = feature(tf.int64, [1, 2])
        if b == where and fault:
            kinds = [k for k in ("sparse", "dense", "ragged") if sp[k]]
            kind = pick(rng, kinds)
            key, dtype, shape, default = sp[kind][int(rng.integers(0, len(sp[kind])))]
            if fault == "type":
                other = pick(rng, [t for t in TYPES if t != dtype])
                feats[key] = feature(other, values_of(rng, other, 1))
            elif fault == "size" and kind == "dense":
                n = int(np.prod(shape)) + pick(rng, [-1, 1])
                feats[key] = feature(dtype, values_of(rng, dtype, max(n, 0)))
            elif fault == "missing" and kind == "dense" and not default.size:
                feats.pop(key, None)
        if b == where and fault == "garbage":
            out.append(b"ab")  # no Example (TensorFlow accepts some malformed bytes)
            continue
        ex = tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()
        # Serialized Examples concatenated merge: a key given again (the last
        # one wins), and a key that is not UTF-8 (Python's protobuf cannot
        # write one: its bytes by hand, a map entry of key 1 and value 2).
        if rng.random() < 0.2:
            kind = pick(rng, [k for k in ("sparse", "dense", "ragged") if sp[k]])
            key, dtype, shape, _ = sp[kind][int(rng.integers(0, len(sp[kind])))]
            n = int(np.prod(shape)) if kind == "dense" else int(rng.integers(0, 3))
            again = {key: feature(dtype, values_of(rng, dtype, n))}
            ex += tf.train.Example(features=tf.train.Features(feature=again)).SerializeToString()
        if rng.random() < 0.2:
            value = feature(tf.int64, [3]).SerializeToString()
            entry = b"\x0a\x02\xffk\x12" + bytes([len(value)]) + value
            features = b"\x0a" + bytes([len(entry)]) + entry
            ex += b"\x0a" + bytes([len(features)]) + features
        out.append(ex)
    return out


def fault_of(rng):
    return pick(rng, [None, None, None, "type", "size", "missing", "garbage"])


def gen_v2(rng):
    sp = spec(rng)
    scalar = rng.random() < 0.2
    count = 1 if scalar else int(rng.integers(0, 5))
    ser = examples(rng, sp, count, fault_of(rng))
    serialized = obj(ser[0]) if scalar else obj(ser).reshape([count])
    names = obj([]) if scalar or rng.random() < 0.5 else obj(
        [("ex%d" % i).encode() for i in range(count)]).reshape([count])
    dense = sp["dense"]
    if rng.random() < 0.05 and dense:
        dense[0][3] = dense[0][3].reshape([-1])[:1] if dense[0][3].size > 1 else dense[0][3]
    keys = lambda kind: obj([k[0].encode() for k in sp[kind]]).reshape([len(sp[kind])])  # noqa
    return Case("ParseExampleV2", {
        "serialized": serialized, "names": names, "sparse_keys": keys("sparse"),
        "dense_keys": keys("dense"), "ragged_keys": keys("ragged"),
        "dense_defaults": [d[3] for d in dense]}, {
        "num_sparse": len(sp["sparse"]), "sparse_types": [s[1] for s in sp["sparse"]],
        "ragged_value_types": [r[1] for r in sp["ragged"]],
        "ragged_split_types": [pick(rng, [tf.int32, tf.int64]) for _ in sp["ragged"]],
        "dense_shapes": [d[2] for d in dense]})


def gen_v1(rng):
    sp = spec(rng, ragged=False)
    count = int(rng.integers(0, 4))
    ser = examples(rng, sp, count, fault_of(rng))
    return Case("ParseExample", {
        "serialized": obj(ser).reshape([count]), "names": obj([]),
        "sparse_keys": [obj(s[0].encode()) for s in sp["sparse"]],
        "dense_keys": [obj(d[0].encode()) for d in sp["dense"]],
        "dense_defaults": [d[3] for d in sp["dense"]]}, {
        "sparse_types": [s[1] for s in sp["sparse"]],
        "dense_shapes": [d[2] for d in sp["dense"]]})


def gen_single(rng):
    sp = spec(rng, ragged=False)
    ser = examples(rng, sp, 1, fault_of(rng))
    return Case("ParseSingleExample", {
        "serialized": obj(ser[0]), "dense_defaults": [d[3] for d in sp["dense"]]}, {
        "num_sparse": len(sp["sparse"]), "sparse_keys": [s[0] for s in sp["sparse"]],
        "dense_keys": [d[0] for d in sp["dense"]], "sparse_types": [s[1] for s in sp["sparse"]],
        "dense_shapes": [d[2] for d in sp["dense"]]})


GENERATORS = [gen_v2, gen_v1, gen_single]


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=60,
                         out="/tmp/frost-parse-example-tf-cases.pb",
                         env_var="FROST_ARRAY_TF_CASES", gtest_filter="ArrayTensorFlowTest.*",
                         skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
