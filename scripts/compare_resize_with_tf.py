#!/usr/bin/env python3
"""Compares Frost's CropAndResize and ResizeBicubic kernels with TensorFlow.

The ops of lib/Eval/Resize.cpp that are bit for bit TensorFlow's, on random
NHWC images of every dtype TensorFlow's CPU kernels take (NaNs and signed
zeros among float pixels, integers over their whole range). CropAndResize:
boxes inside the image, beyond it, reversed, degenerate or on the pixel grid,
crop sizes of 1, bilinear and nearest, extrapolation values (NaN too), box
indices in and out of range. ResizeBicubic: sizes up and down,
align_corners and half_pixel_centers. Then inputs TensorFlow refuses (ranks,
sizes, channels, non-finite boxes; ResizeBicubic's checks are
ImageResizerState's, which all of Resize.cpp's resizes share). Cases are computed and written as
scripts/compare_array_with_tf.py does and replayed by the same
frost-unittests test (ArrayTensorFlowTest): equal bytes, or TensorFlow's
message.

  scripts/compare_resize_with_tf.py --build build [--cases 60] [--seed 1]
      [--ops CropAndResize] [--out /tmp/resize-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from compare_array_with_tf import Case, idx, pick, run_case  # noqa: E402

# TensorFlow's CPU kernels' dtypes (CropAndResize's OpDef leaves out bfloat16).
CROP_TYPES = [np.float32, np.float32, np.float64, np.float16, np.uint8, np.uint16, np.int8,
              np.int16, np.int32, np.int64]
IMAGE_TYPES = CROP_TYPES + [tf.bfloat16.as_numpy_dtype]


def image(rng, shape, types=IMAGE_TYPES):
    dtype = pick(rng, types)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        if rng.random() < 0.5:
            return rng.integers(info.min, info.max, size=shape, endpoint=True,
                                dtype=np.int64 if info.min < 0 else np.uint64).astype(dtype)
        return rng.integers(max(info.min, -100), 101, size=shape).astype(dtype)
    x = rng.normal(size=shape) * pick(rng, [1.0, 100.0, 1e4])
    if x.size and rng.random() < 0.2:
        x.reshape(-1)[rng.integers(0, x.size)] = pick(rng, [np.nan, -0.0, np.inf])
    return x.astype(np.float32).astype(dtype)


def image_shape(rng, max_side=6):
    return [int(rng.integers(1, 3)), int(rng.integers(1, max_side + 1)),
            int(rng.integers(1, max_side + 1)), int(pick(rng, [1, 2, 3, 3, 4]))]


def box_side(rng, size):
    """Normalized ends of one box side: inside, beyond the image, reversed,
    degenerate, or on the pixel grid (exact sample positions)."""
    kind = rng.integers(0, 5)
    if kind == 0:
        lo, hi = sorted(rng.random(2))
    elif kind == 1:
        lo, hi = rng.random(2) * 3 - 1
    elif kind == 2:
        hi, lo = sorted(rng.random(2))
    elif kind == 3:
        lo = hi = rng.random() * 1.2 - 0.1
    else:
        grid = max(size - 1, 1)
        lo, hi = rng.integers(-1, grid + 2, size=2) / grid
    return float(lo), float(hi)


def gen_crop_and_resize(rng):
    shape = image_shape(rng)
    n = int(rng.integers(0, 5))
    boxes = np.zeros((n, 4), np.float32)
    for b in range(n):
        boxes[b, 0], boxes[b, 2] = box_side(rng, shape[1])
        boxes[b, 1], boxes[b, 3] = box_side(rng, shape[2])
    crop = [int(pick(rng, [1, 1, 2, 3, 4, 7])), int(pick(rng, [1, 1, 2, 3, 5, 6]))]
    box_ind = rng.integers(0, shape[0], size=n)
    attrs = {"method": pick(rng, ["bilinear", "bilinear", "nearest"]),
             "extrapolation_value": float(pick(rng, [0.0, 0.0, -1.0, 0.5, np.nan]))}
    return Case("CropAndResize", {"image": image(rng, shape, CROP_TYPES), "boxes": boxes,
                                  "box_ind": idx(box_ind), "crop_size": idx(crop)}, attrs)


def gen_resize_bicubic(rng):
    shape = image_shape(rng, 8)
    size = [int(rng.integers(1, 13)), int(rng.integers(1, 13))]
    align, half = pick(rng, [(False, False), (True, False), (False, True), (False, True)])
    return Case("ResizeBicubic", {"images": image(rng, shape), "size": idx(size)},
                {"align_corners": align, "half_pixel_centers": half})


def gen_refused(rng):
    """Inputs TensorFlow's kernels refuse, one check at a time (or two, to
    see which comes first)."""
    x = image(rng, [1, 3, 4, 2], CROP_TYPES)
    boxes = np.array([[0.1, 0.2, 0.8, 0.9]], np.float32)
    crop = dict(image=x, boxes=boxes, box_ind=idx([0]), crop_size=idx([2, 3]))
    kind = int(rng.integers(0, 17))
    if kind == 0:
        crop["image"] = x[0]
    elif kind == 1:
        crop["image"] = x[:, :0]
    elif kind == 2:
        crop["boxes"] = boxes[0]
    elif kind == 3:
        crop["boxes"] = boxes[:, :3]
    elif kind == 4:
        crop["box_ind"] = idx([0, 0])
    elif kind == 5:
        crop["box_ind"] = idx([[0]])
    elif kind == 6:
        crop["crop_size"] = idx([2, 0] if rng.random() < 0.5 else [-1, 3])
    elif kind == 7:
        crop["crop_size"] = idx(pick(rng, [[2], [2, 3, 4], [[2, 3]]]))
    elif kind == 8:
        crop["box_ind"] = idx([pick(rng, [1, -1, 7])])
    elif kind == 9:
        crop["boxes"] = np.array([[0.1, pick(rng, [np.nan, np.inf, -np.inf]), 0.8, 0.9]],
                                 np.float32)
        if rng.random() < 0.5:
            crop["box_ind"] = idx([1])  # Which check comes first.
    elif kind == 10:  # Empty boxes with a bad box_ind, or neither.
        crop["boxes"] = np.zeros((0, pick(rng, [4, 3])), np.float32)
        crop["box_ind"] = idx(pick(rng, [[], [0]]))
    if kind <= 10:
        return Case("CropAndResize", crop,
                    {"method": pick(rng, ["bilinear", "nearest"]), "extrapolation_value": 0.0})
    resize = dict(images=x, size=idx([3, 5]))
    attrs = {"align_corners": False, "half_pixel_centers": False}
    if kind == 11:
        resize["images"] = x[0]
    elif kind == 12:
        resize["images"] = x[..., :0]
    elif kind == 13:
        resize["images"] = x[:, :, :0]
    elif kind == 14:
        resize["size"] = idx(pick(rng, [[3, 0], [-2, 4]]))
    elif kind == 15:
        resize["size"] = idx(pick(rng, [[3], [3, 4, 5], [[3, 4]]]))
    if kind == 16 or rng.random() < 0.2:
        attrs = {"align_corners": True, "half_pixel_centers": True}
    return Case("ResizeBicubic", resize, attrs)


GENERATORS = [gen_crop_and_resize, gen_crop_and_resize, gen_resize_bicubic, gen_resize_bicubic,
              gen_refused]


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=60,
                         out="/tmp/frost-resize-tf-cases.pb",
                         env_var="FROST_ARRAY_TF_CASES", gtest_filter="ArrayTensorFlowTest.*",
                         skipped_as="not buildable")


if __name__ == "__main__":
    sys.exit(main())
