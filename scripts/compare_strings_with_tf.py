#!/usr/bin/env python3
"""Compares Frost's string kernels (lib/Eval/Strings.cpp, Farmhash.cpp) with TensorFlow.

Generates random cases of StringToHashBucketFast (strings of every length
class FarmHash's Fingerprint64 treats apart, up to 300 bytes, and bucket
counts up to 2**63 - 1, so all 63 low bits of the fingerprint are compared),
StringJoin, StringLength, StringLower/StringUpper, Substr (bytes and UTF-8
characters), AsString, StringToNumber, StringSplitV2, and (Static)RegexReplace
and (Static)RegexFullMatch with patterns from a small grammar of RE2's syntax
on UTF-8 and non-UTF-8 bytes, a few invalid on purpose. TensorFlow computes
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
from compare_array_with_tf import Case, idx, replay_main, run_case  # noqa: E402

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


# Regular expressions from a small grammar (RE2's syntax, which TensorFlow's
# kernels use): atoms, classes, groups, repetition, alternation and anchors,
# and patterns RE2 refuses. No pattern holds "[[": TensorFlow's Session reads
# it in an error message as the start of a node's name.
REGEX_ATOMS = ["a", "b", "Z", "0", " ", ",", "\u00e9", "\u65e5", "\\.", ".", "\\s", "\\S",
               "\\d", "\\w", "\\W", "[a-c]", "[^a-z0-9 ]", "[ \t]", "[_[:alpha:]]", "[x[:^digit:]]",
               "\\pL", "\\p{Han}", "\\PL", "\\x{e9}", "[\u00e0-\u00ff]", "\\C", "\\n"]
REGEX_ANCHORS = ["^", "$", "\\b", "\\B", "\\A", "\\z", "(?m)^", "(?m)$"]
REGEX_REPEATS = ["*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{0,}", "{2,}?"]
INVALID_PATTERNS = ["(", "a)", "[a-", "a**", "*a", "x{2,1}", "\\1", "(?<n>a)", "a{1001}",
                    "(?=a)", "[z-a]", "\\", "(?P<n>a)(?P<n>b)", "\\pX", "[x[:bad:]]", "a{1000}{1000}",
                    "(?i", "\\Q", "x{99999}"]


def regex(rng, depth=0):
    r = rng.random()
    if depth < 2 and r < 0.25:
        parts = [regex(rng, depth + 1) for _ in range(rng.integers(2, 4))]
        return "|".join(parts) if rng.random() < 0.4 else "".join(parts)
    if depth < 2 and r < 0.45:
        inner = regex(rng, depth + 1)
        group = pick(rng, ["(%s)", "(%s)", "(?:%s)", "(?P<g%d>%%s)" % rng.integers(0, 10**6), "(?i:%s)"]) % inner
        return group + (pick(rng, REGEX_REPEATS) if rng.random() < 0.4 else "")
    if r < 0.55:
        return pick(rng, REGEX_ANCHORS)
    atom = pick(rng, REGEX_ATOMS)
    return atom + (pick(rng, REGEX_REPEATS) if rng.random() < 0.35 else "")


REGEX_INPUT = [b"a", b"a", b"b", b"Z", b"0", b"7", b" ", b"  ", b"\t", b"\n", b",", b".", b"!",
               "\u00e9".encode(), "\u65e5".encode(), "\U0001f600".encode(), b"\xff", b"\xc3",
               b"\x80"]


def regex_case(rng):
    """A pattern from the grammar, or now and then one RE2 refuses, and input
    bytes that are UTF-8 or not."""
    pattern = pick(rng, INVALID_PATTERNS) if rng.random() < 0.08 else regex(rng)
    return pattern, strings(rng, small_shape(rng), max_len=10, alphabet=REGEX_INPUT)


def gen_regex_replace(rng):
    """(Static)RegexReplace, global or not; rewrites with groups \\0-\\3 (some
    beyond the pattern's groups: no replacement), escaped and invalid backslashes."""
    pattern, data = regex_case(rng)
    rewrite = "".join(pick(rng, ["", "-", "<>", "\\0", "\\1", "\\2", "\\3", "\\\\", "x",
                                 "\u00e9"]) for _ in range(rng.integers(0, 4)))
    if rng.random() < 0.05:
        rewrite += "\\x"  # invalid: RE2 stops the rewrite there
    glob = bool(rng.random() < 0.7)
    if rng.random() < 0.5:
        return Case("StaticRegexReplace", {"input": data},
                    {"pattern": pattern, "rewrite": rewrite, "replace_global": glob})
    return Case("RegexReplace", {"input": data, "pattern": obj(pattern.encode()),
                                 "rewrite": obj(rewrite.encode())}, {"replace_global": glob})


def gen_regex_full_match(rng):
    pattern, data = regex_case(rng)
    if rng.random() < 0.5:
        return Case("StaticRegexFullMatch", {"input": data}, {"pattern": pattern})
    return Case("RegexFullMatch", {"input": data, "pattern": obj(pattern.encode())})


UTF8_INPUT = [b"a", b"b", b"c", "\u00e9".encode(), "\u65e5".encode(), "\U0001f600".encode(),
              b"\xff", b"\xc3", b"\x80"]


def gen_substr_utf8(rng):
    """Substr in UTF8_CHAR units: positions from either end, some just out of range;
    lengths negative, short or past the end; scalar, per-element or broadcast."""
    n = int(rng.integers(1, 5))
    data = strings(rng, [n], max_len=6, alphabet=UTF8_INPUT)
    chars = [sum((c & 0xC0) != 0x80 for c in s) for s in data]
    dt = pick(rng, [np.int32, np.int64])
    info = np.iinfo(dt)

    def position(k):
        return int(rng.integers(-k - (rng.random() < 0.15), k + 1 + (rng.random() < 0.15)))

    def length():
        if rng.random() < 0.05:
            return int(pick(rng, [info.min, info.max]))
        return int(rng.integers(-3, 7))

    r = rng.random()
    if r < 0.4:
        pos = np.array(position(min(chars)), dtype=dt)
        length_ = np.array(length(), dtype=dt)
    elif r < 0.8:
        pos = np.array([position(k) for k in chars], dtype=dt)
        length_ = np.array([length() for _ in chars], dtype=dt)
    else:  # strings [n] against positions [m, 1] or [m, n]: a 2-D output
        m = int(rng.integers(1, 3))
        cols = 1 if rng.random() < 0.5 else n
        pos = np.array([[position(min(chars)) for _ in range(cols)] for _ in range(m)], dtype=dt)
        length_ = np.array([[length() for _ in range(cols)] for _ in range(m)], dtype=dt)
    return Case("Substr", {"input": data, "pos": pos, "len": length_}, {"unit": "UTF8_CHAR"})


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


GENERATORS = [gen_hash, gen_join, gen_length, gen_case, gen_substr, gen_substr_utf8, gen_as_string,
              gen_to_number, gen_split, gen_regex_replace, gen_regex_full_match, gen_refused]


def main():
    return replay_main(__doc__, GENERATORS, "strings")


if __name__ == "__main__":
    sys.exit(main())
