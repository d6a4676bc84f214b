#!/usr/bin/env python3
"""Compares Frost's string kernels (lib/Eval/Strings.cpp, Farmhash.cpp) with TensorFlow.

Generates random cases of StringToHashBucketFast (strings of every length
class FarmHash's Fingerprint64 treats apart, up to 300 bytes, and bucket
counts up to 2**63 - 1, so all 63 low bits of the fingerprint are compared),
StringJoin, StringLength, StringLower/StringUpper, Substr, AsString,
StringToNumber, StringSplitV2 and (Static)RegexReplace with one-character or
bracket-class patterns, a few invalid on purpose. TensorFlow computes
each case (compare_array_with_tf.run_case: a NodeDef with `_inputs` and
`_outputs` or `_error`); frost-unittests' ArrayTensorFlowTest replays them
and requires equal elements (or TensorFlow's message).

  scripts/compare_strings_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops Substr] [--out /tmp/frost-strings-tf-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, idx, run_case  # noqa: E402

ALPHABET = [b"a", b"b", b"Z", b"Q", b" ", b" ", b",", b"\t", b"<>", b"0", b"7", b".",
            "\u00e9".encode(), "\u65e5".encode(), b"\xff"]


def pick(rng, items):
    return items[rng.integers(0, len(items))]


def word(rng, max_len=8, alphabet=ALPHABET):
    return b"".join(pick(rng, alphabet) for _ in range(rng.integers(0, max_len + 1)))


def strings(rng, shape, **kw):
    n = int(np.prod(shape)) if shape else 1
    return np.array([word(rng, **kw) for _ in range(n)], dtype=object).reshape(shape)


def small_shape(rng):
    return [int(d) for d in rng.integers(0, 4, size=rng.integers(0, 3))]


def gen_hash(rng):
    n = int(rng.integers(1, 12))
    # Every length class: 0, 1-3, 4-7, 8-16, 17-32, 33-64, and longer (64-byte blocks).
    lengths = [int(pick(rng, [0, 1, 3, 5, 8, 13, 16, 17, 31, 32, 33, 50, 64, 65, 100, 128, 129,
                              300]))
               for _ in range(n)]
    data = np.array([bytes(rng.integers(0, 256, size=k, dtype=np.uint8).tolist())
                     for k in lengths], dtype=object)
    buckets = int(pick(rng, [1, 7, 1000, 2**31 - 1, 2**62 + 5, 2**63 - 1]))
    return Case("StringToHashBucketFast", {"input": data}, {"num_buckets": buckets})


def gen_join(rng):
    shape = small_shape(rng)
    inputs = [strings(rng, shape if rng.random() < 0.6 else []) for _ in range(rng.integers(1, 4))]
    if rng.random() < 0.05:
        inputs.append(strings(rng, shape + [2]))
    return Case("StringJoin", {"inputs": inputs}, {"separator": word(rng, 2).decode("latin-1")
                                                   if rng.random() < 0.5 else ""})


def gen_length(rng):
    return Case("StringLength", {"input": strings(rng, small_shape(rng))},
                {"unit": pick(rng, ["BYTE", "UTF8_CHAR"])})


def gen_case(rng):
    op = pick(rng, ["StringLower", "StringUpper"])
    if rng.random() < 0.5:
        return Case(op, {"input": strings(rng, small_shape(rng))}, {"encoding": ""})
    ascii_only = [b"a", b"B", b"z", b"Q", b" ", b"1", b"."]
    return Case(op, {"input": strings(rng, small_shape(rng), alphabet=ascii_only)},
                {"encoding": "utf-8"})


def gen_substr(rng):
    n = int(rng.integers(1, 5))
    data = strings(rng, [n], alphabet=[b"a", b"b", b"c", b"d", b"e"])
    dt = pick(rng, [np.int32, np.int64])
    if rng.random() < 0.5:
        pos = np.array(int(rng.integers(-4, 5)), dtype=dt)
        length = np.array(int(rng.integers(-2, 6)), dtype=dt)
    else:
        pos = np.array([int(rng.integers(-len(s) - (rng.random() < 0.1), len(s) + 1
                                        + (rng.random() < 0.1)))
                        for s in data], dtype=dt)
        length = rng.integers(-1, 6, size=n).astype(dt)
    return Case("Substr", {"input": data, "pos": pos, "len": length})


def gen_as_string(rng):
    dtype = pick(rng, [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int32, tf.int64,
                       tf.int8, tf.uint8, tf.bool])
    shape = small_shape(rng)
    if dtype == tf.bool:
        x = rng.integers(0, 2, size=shape).astype(bool)
    elif dtype.is_floating:
        x = (rng.normal(size=shape) * 10.0 ** rng.integers(-5, 8, size=shape)).astype(np.float32)
        with np.errstate(over="ignore"):  # beyond float16's range: inf
            x = x.astype(dtype.as_numpy_dtype)
    else:
        info = np.iinfo(dtype.as_numpy_dtype)
        x = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.int64 if info.min < 0
                         else np.uint64).astype(dtype.as_numpy_dtype)
    attrs = {}
    if rng.random() < 0.5:
        attrs["width"] = int(rng.integers(0, 12))
    if rng.random() < 0.3:
        attrs["fill"] = pick(rng, [" ", "0", "-", "+", "#", ""])
    if dtype.is_floating:
        if rng.random() < 0.5:
            attrs["precision"] = int(rng.integers(0, 10))
        r = rng.random()
        if r < 0.3:
            attrs["scientific"] = True
        elif r < 0.6:
            attrs["shortest"] = True
    return Case("AsString", {"input": x}, attrs)


NUMBERS = ["0", "1", "-1", "42", " 17 ", "\t-3\n", "+5", "1.5", "-2.25", ".5", "5.", "1e3",
           "1E-2", "-0", "2147483647", "2147483648", "-2147483648", "-2147483649",
           "9223372036854775807", "9223372036854775808", "-9223372036854775808", "3.4e38",
           "3.5e38", "1e-46", "1e309", "inf", "-INF", "nan", "NaN", "abc", "", " ", "1 2",
           "1.5.6", "12abc", "0.1", "0.30000000000000004", "123456789012", "00012",
           "1234567890123456789012345678901234", "- 1", "1e", "e5", "+-1", "0x10", "infinity",
           "0x1p3", "\x0b5", "1_000"]


def gen_to_number(rng):
    shape = small_shape(rng)
    n = int(np.prod(shape)) if shape else 1
    data = np.array([pick(rng, NUMBERS).encode() for _ in range(n)], dtype=object).reshape(shape)
    return Case("StringToNumber", {"string_tensor": data},
                {"out_type": pick(rng, [tf.float32, tf.float64, tf.int32, tf.int64])})


def gen_split(rng):
    n = int(rng.integers(0, 5))
    sep = pick(rng, [b"", b"", b",", b"<>", b" "])
    data = strings(rng, [n], max_len=10)
    if rng.random() < 0.04:
        data = strings(rng, [1, 2])
    sep_arr = np.array(sep, dtype=object)
    if rng.random() < 0.03:
        sep_arr = np.array([sep], dtype=object)
    return Case("StringSplitV2", {"input": data, "sep": sep_arr},
                {"maxsplit": int(pick(rng, [-1, -1, -1, 0, 1, 2]))})


def gen_regex(rng):
    """Patterns of one ASCII character or bracket class (what Frost implements without RE2)."""
    pattern = pick(rng, ["[,.]", "[a-c]", "[ \t]", "[Z0-9]", ",", "Q", "[.<>]"])
    rewrite = pick(rng, [" ", "", "<>", "xx"])
    data = strings(rng, small_shape(rng))
    glob = bool(rng.random() < 0.7)
    if rng.random() < 0.5:
        return Case("StaticRegexReplace", {"input": data},
                    {"pattern": pattern, "rewrite": rewrite, "replace_global": glob})
    return Case("RegexReplace", {"input": data, "pattern": np.array(pattern.encode(), dtype=object),
                                 "rewrite": np.array(rewrite.encode(), dtype=object)},
                {"replace_global": glob})


def obj(v):
    return np.array(v, dtype=object)


# Inputs the random generators above never make, one after another: Substr's
# broadcast of strings against positions, and refusals (each must be refused with
# TensorFlow's message).
REFUSED = [
    lambda rng: Case("Substr", {"input": obj([b"abc", b"de", b""]), "pos": idx([[0], [1]]),
                                "len": idx([[1], [5]])}),
    lambda rng: Case("Substr", {"input": obj([b"abc", b"de", b"x"]), "pos": idx([[0], [-1]]),
                                "len": idx([[1], [5]])}),
    lambda rng: Case("Substr", {"input": obj([b"abc", b"de", b""]), "pos": idx([1]),
                                "len": idx([1])}),
    lambda rng: Case("Substr", {"input": obj([[[b"ab", b"c"]]]), "pos": idx(np.zeros([2, 1, 1])),
                                "len": idx(np.ones([2, 1, 1]))}),
    lambda rng: Case("Substr", {"input": obj([b"abc", b"de", b""]), "pos": idx([0, 1]),
                                "len": idx([1, 1])}),
    lambda rng: Case("Substr", {"input": obj([b"abc"]), "pos": idx([0]), "len": idx(1)}),
    lambda rng: Case("AsString", {"input": np.float32([1.5])},
                     {"scientific": True, "shortest": True}),
    lambda rng: Case("AsString", {"input": idx([1])}, {"fill": "00"}),
    lambda rng: Case("AsString", {"input": idx([1])}, {"fill": "x", "width": 3}),
    lambda rng: Case("RegexReplace", {"input": obj([b"a,b"]), "pattern": obj([b","]),
                                      "rewrite": obj(b" ")}),
    lambda rng: Case("RegexReplace", {"input": obj([b"a,b"]), "pattern": obj(b","),
                                      "rewrite": obj([b" "])}),
]


def gen_refused(rng, _next=iter(range(1 << 30))):
    return REFUSED[next(_next) % len(REFUSED)](rng)


GENERATORS = [gen_hash, gen_join, gen_length, gen_case, gen_substr, gen_as_string, gen_to_number,
              gen_split, gen_regex, gen_refused]


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=60,
                         out="/tmp/frost-strings-tf-cases.pb", env_var="FROST_ARRAY_TF_CASES",
                         gtest_filter="ArrayTensorFlowTest.*", skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
