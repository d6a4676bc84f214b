#!/usr/bin/env python3
"""Compares Frost's non-max suppression kernels with TensorFlow.

The ops of lib/Eval/NonMaxSuppression.cpp (NonMaxSuppressionV3, V4, V5) on
random cases: boxes on a coarse grid (overlaps, equal boxes, corners in either
order, empty boxes), scores with ties, IoU and score thresholds, soft NMS
(V5's soft_nms_sigma), pad_to_max_output_size, box dtypes half and float
(the thresholds' dtype too where it is an attribute of its own), and inputs
TensorFlow refuses. Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same frost-unittests
test (ArrayTensorFlowTest): equal bytes, or TensorFlow's message.

  scripts/compare_nms_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops NonMaxSuppressionV5] [--out /tmp/nms-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, idx, pick, run_case  # noqa: E402

BOX_TYPES = [np.float32, np.float16]


def boxes_and_scores(rng, dtype, n):
    """n boxes with corners on a 0.25 grid (some swapped, some empty) and scores with ties."""
    if rng.random() < 0.5:
        corners = rng.integers(0, 9, size=(n, 4)) * 0.25
    else:
        lo = rng.random(size=(n, 2)) * 2
        corners = np.concatenate([lo, lo + rng.random(size=(n, 2)) * 1.5], 1)
    swap = rng.random(size=n) < 0.2
    corners[swap] = corners[swap][:, [2, 3, 0, 1]]
    if rng.random() < 0.3:
        corners = corners + rng.normal(size=corners.shape) * 0.01
    if rng.random() < 0.5:
        scores = rng.integers(0, 6, size=n) / 5.0
    else:
        scores = rng.random(size=n)
    if rng.random() < 0.1:
        scores = -scores
    return corners.astype(dtype), scores.astype(dtype)


def thresholds(rng):
    iou = pick(rng, [0.0, 0.3, 0.5, 0.5, 0.7, 1.0, float(rng.random())])
    score = pick(rng, [float("-inf"), 0.0, 0.2, 0.5, float(rng.random()) - 0.2])
    return iou, score


def gen_nms(rng):
    op = pick(rng, ["NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5"])
    dt = pick(rng, BOX_TYPES)
    n = int(rng.integers(0, 13))
    boxes, scores = boxes_and_scores(rng, dt, n)
    iou, score = thresholds(rng)
    max_out = int(rng.integers(0, n + 3))
    inputs = {"boxes": boxes, "scores": scores, "max_output_size": idx(max_out)}
    attrs = {}
    if op == "NonMaxSuppressionV5":
        sigma = pick(rng, [0.0, 0.1, 0.5, 1.0, float(rng.random())])
        inputs.update(iou_threshold=np.array(iou, dt), score_threshold=np.array(score, dt),
                      soft_nms_sigma=np.array(sigma, dt))
        attrs["pad_to_max_output_size"] = bool(rng.random() < 0.5)
    else:
        tt = pick(rng, BOX_TYPES)
        inputs.update(iou_threshold=np.array(iou, tt), score_threshold=np.array(score, tt))
        if op == "NonMaxSuppressionV4":
            attrs["pad_to_max_output_size"] = bool(rng.random() < 0.5)
    return Case(op, inputs, attrs)


def refused(op, **changes):
    """A V3/V4/V5 case with one input TensorFlow refuses."""
    inputs = {"boxes": np.array([[0, 0, 1, 1], [0, 0.5, 1, 1.5]], np.float32),
              "scores": np.array([0.9, 0.8], np.float32), "max_output_size": idx(2),
              "iou_threshold": np.array(0.5, np.float32),
              "score_threshold": np.array(0.0, np.float32)}
    if op == "NonMaxSuppressionV5":
        inputs["soft_nms_sigma"] = np.array(0.0, np.float32)
    inputs.update(changes)
    return Case(op, inputs)


REFUSED = [
    refused(op, **change)
    for op in ["NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5"]
    for change in [{"boxes": np.zeros([1, 2, 4], np.float32)},
                   {"boxes": np.zeros([2, 3], np.float32)},
                   {"scores": np.zeros([3], np.float32)},
                   {"scores": np.zeros([2, 1], np.float32)},
                   {"max_output_size": idx([2])},
                   {"max_output_size": idx(-1)},
                   {"iou_threshold": np.array(1.5, np.float32)},
                   {"iou_threshold": np.array(-0.1, np.float32)},
                   {"iou_threshold": np.array([0.5], np.float32)},
                   {"score_threshold": np.array([0.5], np.float32)}]
] + [refused("NonMaxSuppressionV5", soft_nms_sigma=np.array(-1.0, np.float32)),
     refused("NonMaxSuppressionV5", soft_nms_sigma=np.array([1.0], np.float32))]


def gen_refused(rng, _next=iter(range(1 << 30))):
    return REFUSED[next(_next) % len(REFUSED)]


GENERATORS = [gen_nms, gen_nms, gen_nms, gen_nms, gen_refused]


def run_nms_case(case, name):
    node = run_case(case, name)
    # Some refusals come with shape inference's words appended; the kernel's
    # message is the part before them.
    if node is not None and "_error" in node.attr:
        node.attr["_error"].s = re.sub(rb" \((Shape|Dimension|Dimensions) must .*\)$", b"",
                                       node.attr["_error"].s)
    return node


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_nms_case, cases=60,
                         out="/tmp/frost-nms-tf-cases.pb", env_var="FROST_ARRAY_TF_CASES",
                         gtest_filter="ArrayTensorFlowTest.*", skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
