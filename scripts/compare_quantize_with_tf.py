#!/usr/bin/env python3
"""Compares Frost's QuantizeV2 kernel with TensorFlow.

QuantizeV2 (lib/Eval/Quantize.cpp) on random cases over every output type
TensorFlow registers on CPU (qint8, quint8, qint16, quint16, qint32), modes
MIN_COMBINED, MIN_FIRST and SCALED, both round modes, narrow_range, one range
or one per slice along `axis`, ensure_minimum_range; ranges that hold zero or
not, narrow, empty or reversed; inputs on and between the quantization steps
(ties), and inputs TensorFlow refuses (Dequantize has its own cases in
scripts/compare_reduction_with_tf.py). Cases are computed and written as scripts/compare_array_with_tf.py does and replayed by the same
frost-unittests test (ArrayTensorFlowTest): equal bytes, or TensorFlow's
message.

  scripts/compare_quantize_with_tf.py --build build [--cases 60] [--seed 1]
      [--out /tmp/quantize-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# TensorFlow's own kernels are the reference. On CPUs where TensorFlow turns
# oneDNN on by itself (AVX-512 ones), QuantizeV2 runs MklQuantizeV2Op, which
# aborts the process on a per-axis range ("Must have a one element tensor").
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, rand_shape, replay_main  # noqa: E402

TYPES = [tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32]
MODES = ["MIN_COMBINED", "MIN_FIRST", "SCALED"]


def a_range(rng):
    r = rng.random()
    if r < 0.3:
        lo, hi = -float(rng.integers(1, 9)), float(rng.integers(1, 9))
    elif r < 0.5:
        lo, hi = sorted(float(v) for v in rng.normal(size=2) * 5)
    elif r < 0.6:
        lo, hi = 0.0, float(rng.random() * 1e-3)
    elif r < 0.7:
        lo = hi = float(rng.normal())
    elif r < 0.75:
        lo, hi = 1.0, -1.0
    else:
        lo, hi = -float(rng.random() * 3), float(rng.random() * 3)
    return lo, hi


def inputs_for(rng, shape, lo, hi):
    x = rng.normal(size=shape) * max(abs(lo), abs(hi), 1e-3) * 1.2
    if rng.random() < 0.4:
        # On and between the steps of an 8-bit grid over the range: ties.
        x = np.round(x * 510 / max(hi - lo, 1e-3)) / (510 / max(hi - lo, 1e-3))
    return x.astype(np.float32)


def gen_quantize(rng):
    t = pick(rng, TYPES)
    mode = pick(rng, MODES)
    shape = rand_shape(rng, rank=int(rng.integers(0, 4)))
    attrs = {"T": t, "mode": mode, "narrow_range": bool(rng.random() < 0.3)}
    attrs["round_mode"] = ("HALF_TO_EVEN" if mode == "SCALED" and rng.random() < 0.5
                           else "HALF_AWAY_FROM_ZERO")
    if rng.random() < 0.03:
        attrs["round_mode"] = "HALF_TO_EVEN"
    if rng.random() < 0.3:
        attrs["ensure_minimum_range"] = pick(rng, [0.0, 1e-3, 0.5, 2.0])
    axis = -1
    if shape and mode != "MIN_FIRST" and rng.random() < 0.4:
        axis = int(rng.integers(0, len(shape)))
    if rng.random() < 0.03:
        axis = len(shape)
    attrs["axis"] = axis
    x = inputs_for(rng, shape, *a_range(rng))
    if 0 <= axis < len(shape):
        ranges = [a_range(rng) for _ in range(shape[axis])]
        if rng.random() < 0.05:
            ranges.append(a_range(rng))
        mins = np.array([r[0] for r in ranges], np.float32)
        maxs = np.array([r[1] for r in ranges], np.float32)
    else:
        lo, hi = a_range(rng)
        mins, maxs = np.array(lo, np.float32), np.array(hi, np.float32)
        if rng.random() < 0.03:
            mins = np.array([lo, lo], np.float32)
    return Case("QuantizeV2", {"input": x, "min_range": mins, "max_range": maxs}, attrs)


REFUSED = [
    Case("QuantizeV2", {"input": np.zeros([2], np.float32), "min_range": np.float32(0),
                        "max_range": np.float32(1)}, {"T": tf.quint8, "mode": "MIN_FIRST",
                                                      "round_mode": "HALF_TO_EVEN"}),
    Case("QuantizeV2", {"input": np.zeros([2, 3], np.float32),
                        "min_range": np.zeros([2, 1], np.float32),
                        "max_range": np.ones([2, 1], np.float32)}, {"T": tf.qint8, "axis": 0}),
    Case("QuantizeV2", {"input": np.zeros([2, 3], np.float32),
                        "min_range": np.zeros([2], np.float32),
                        "max_range": np.ones([3], np.float32)}, {"T": tf.qint8, "axis": 0}),
    Case("QuantizeV2", {"input": np.zeros([2, 3], np.float32),
                        "min_range": np.zeros([3], np.float32),
                        "max_range": np.ones([3], np.float32)},
         {"T": tf.qint8, "axis": 1, "mode": "MIN_FIRST"}),
    Case("QuantizeV2", {"input": np.zeros([2, 3], np.float32),
                        "min_range": np.float32(0), "max_range": np.ones([2], np.float32)},
         {"T": tf.qint8}),
]


def gen_refused(rng, _next=iter(range(1 << 30))):
    return REFUSED[next(_next) % len(REFUSED)]


GENERATORS = [gen_quantize] * 4 + [gen_refused]


def main():
    return replay_main(__doc__, GENERATORS, "quantize")


if __name__ == "__main__":
    sys.exit(main())
