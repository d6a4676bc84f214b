#!/usr/bin/env python3
"""Compares Frost's AdjustHue and AdjustSaturation kernels with TensorFlow.

The ops of lib/Eval/ImageAdjust.cpp on random float images (TensorFlow
registers float only on CPU): colours in [0, 1] and beyond, greys and ties
between channels, signed zeros and NaNs; hue deltas in and beyond [-1, 1],
saturation scales from 0 to past saturation; and inputs TensorFlow refuses
(rank, channels, a non-scalar delta or scale). Cases are computed and written
as scripts/compare_array_with_tf.py does and replayed by the same
frost-unittests test (ArrayTensorFlowTest): equal bytes, or TensorFlow's
message.

  scripts/compare_image_adjust_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops AdjustHue] [--out /tmp/image-adjust-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, pick, run_case  # noqa: E402


def image(rng):
    shape = [int(d) for d in rng.integers(0, 4, size=int(rng.integers(2, 4)))] + [3]
    if rng.random() < 0.5:
        x = rng.random(size=shape)
    elif rng.random() < 0.5:
        x = rng.integers(0, 4, size=shape) / 3.0  # Ties between channels, greys.
    else:
        x = rng.normal(size=shape) * 2
    if x.size and rng.random() < 0.2:
        x.reshape(-1)[rng.integers(0, x.size)] = pick(rng, [np.nan, -0.0, 0.0])
    if rng.random() < 0.05:
        x = x[..., :2]
    if len(x) and rng.random() < 0.03:
        x = x[0]
    return x.astype(np.float32)


def gen_hue(rng):
    delta = pick(rng, [0.1, -0.3, 0.5, 1.0, -1.0, float(rng.normal()), float(rng.random() * 4 - 2)])
    d = np.array(delta, np.float32)
    if rng.random() < 0.03:
        d = d.reshape(1)
    return Case("AdjustHue", {"images": image(rng), "delta": d})


def gen_saturation(rng):
    scale = pick(rng, [0.0, 0.5, 1.0, 1.3, 3.0, float(rng.random() * 2), -0.5])
    s = np.array(scale, np.float32)
    if rng.random() < 0.03:
        s = s.reshape(1)
    return Case("AdjustSaturation", {"images": image(rng), "scale": s})


GENERATORS = [gen_hue, gen_saturation]


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=60,
                         out="/tmp/frost-image-adjust-tf-cases.pb",
                         env_var="FROST_ARRAY_TF_CASES", gtest_filter="ArrayTensorFlowTest.*",
                         skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
