#!/usr/bin/env python3
"""Compares Frost's kernels for running graphs (lib/Eval/Convolution.cpp,
Pooling.cpp, Normalization.cpp, Resize.cpp; 2-D and 3-D) with TensorFlow.

Generates random cases (shapes, strides, dilations, paddings, data formats,
dtypes, a few invalid on purpose) and writes them to a binary GraphDef: one
node per case, with the op and attributes as TensorFlow builds them, the
inputs in attribute `_inputs`, and either the expected outputs in `_outputs`
(with the tolerance in `_tolerance`) or TensorFlow's error class in `_error`.
Then runs frost-unittests' NNTensorFlowTest on the file, which evaluates each
case with Frost (Exactness::WithinRounding) and requires, for each output,
max |frost - tf| <= tolerance * max(1, max |tf|), reporting the largest error
per op and dtype.

Where TensorFlow's CPU kernels refuse what Frost computes (NCHW and NCDHW
convolutions and pooling, dilated or unequally strided depthwise
convolutions, dilated transposed and 3-D convolutions, grouped 3-D
convolutions), the expected outputs come from equivalent channels-last
computations: transposes around the op, a grouped Conv2D, a Conv3D per
group, a filter with zeros between its taps. FusedPadConv2D and FusedResizeAndPadConv2D are
compared with the unfused ops (TensorFlow 2.21's fused CPU kernels compute
every image of a batch from the first one).

  scripts/compare_nn_with_tf.py --build build [--cases 40] [--seed 1]
      [--ops Conv2D,MaxPool] [--out /tmp/frost-nn-tf-cases.pb] [--no-run]

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# TensorFlow's own (Eigen) CPU kernels, not oneDNN's rewrites.
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_cases  # noqa: E402
from tensorflow.core.framework import node_def_pb2  # noqa: E402

tf1 = tf.compat.v1
R = tf.raw_ops

# max |frost - tf| allowed, relative to max(1, max |tf|).
TOLERANCE = {tf.float32: 1e-5, tf.float64: 1e-12, tf.float16: 1e-2, tf.bfloat16: 5e-2,
             tf.int32: 0.0, tf.int8: 0.0, tf.uint8: 0.0, tf.int64: 0.0, tf.int16: 0.0}
NCHW_TO_NHWC, NHWC_TO_NCHW = [0, 2, 3, 1], [0, 3, 1, 2]


class Case:
    """One op call: inputs by argument name (numpy arrays with their TF dtypes),
    attributes, and optionally the reference (a function of the inputs'
    tensors returning the expected outputs) when it is not the op itself."""

    def __init__(self, op, inputs, attrs, reference=None, tolerance=None):
        self.op, self.inputs, self.attrs = op, inputs, attrs
        self.reference, self.tolerance = reference, tolerance


def pick(rng, items):
    return items[int(rng.integers(0, len(items)))]


def values(rng, dtype, shape, scale=1.0):
    if dtype.is_integer:
        return tf.constant(rng.integers(-4, 5, size=shape), dtype)
    return tf.cast(tf.constant(rng.normal(size=shape) * scale), dtype)


def float_dtype(rng, extra=()):
    return pick(rng, [tf.float32] * 4 + [tf.float64, tf.float16, tf.bfloat16] + list(extra))


def nchw(x):
    return tf.transpose(x, NHWC_TO_NCHW)


def nhwc(x):
    return tf.transpose(x, NCHW_TO_NHWC)


def in_format(fmt, v):
    """A 4-vector given in NHWC order, in format `fmt`'s order."""
    return v if fmt == "NHWC" else [v[0], v[3], v[1], v[2]]


def padding_attrs(rng, allow_explicit=True):
    kinds = ["SAME", "VALID"] + (["EXPLICIT"] if allow_explicit else [])
    padding = pick(rng, kinds)
    pads = [0, 0] + [int(p) for p in rng.integers(0, 3, 4)] + [0, 0]
    return padding, (pads if padding == "EXPLICIT" else [])


def explicit_in_format(fmt, pads):
    if not pads or fmt == "NHWC":
        return pads
    return pads[0:2] + pads[6:8] + pads[2:6]


def gen_conv2d(rng):
    dtype = float_dtype(rng, [tf.int32])
    n, h, w = int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10))
    groups = pick(rng, [1, 1, 1, 2, 3])
    depth, out_per_group = int(rng.integers(1, 5)), int(rng.integers(1, 4))
    if rng.random() < 0.15:  # Long sums, as in real layers: 3x3x64 taps.
        groups, depth, out_per_group, h, w = 1, int(rng.choice([32, 64])), 8, 10, 10
    kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    strides = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), 1]
    dilations = [1, int(rng.integers(1, 3)), int(rng.integers(1, 3)), 1]
    padding, pads = padding_attrs(rng)
    fmt = pick(rng, ["NHWC", "NHWC", "NCHW"])
    x = values(rng, dtype, [n, h, w, depth * groups])
    f = values(rng, dtype, [kh, kw, depth, out_per_group * groups])
    if groups > 1 and dtype == tf.int32:
        dtype = tf.float32
        x, f = tf.cast(x, dtype), tf.cast(f, dtype)
    attrs = dict(strides=in_format(fmt, strides), dilations=in_format(fmt, dilations),
                 padding=padding, explicit_paddings=explicit_in_format(fmt, pads),
                 data_format=fmt)
    if fmt == "NHWC":
        return Case("Conv2D", dict(input=x, filter=f), attrs)

    def reference(input, filter):
        return [nchw(R.Conv2D(input=nhwc(input), filter=filter, strides=strides,
                              dilations=dilations, padding=padding, explicit_paddings=pads))]
    return Case("Conv2D", dict(input=nchw(x), filter=f), attrs, reference)


def gen_depthwise(rng):
    dtype = float_dtype(rng)
    n, h, w, c = (int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10)),
                  int(rng.integers(1, 6)))
    m = int(rng.integers(1, 4))
    kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    s = int(rng.integers(1, 3))
    strides = [1, s, s, 1] if rng.random() < 0.7 else [1, int(rng.integers(1, 3)), int(
        rng.integers(1, 3)), 1]
    dilations = [1, 1, 1, 1] if rng.random() < 0.6 else [1, int(rng.integers(1, 3)), int(
        rng.integers(1, 3)), 1]
    padding, pads = padding_attrs(rng)
    fmt = pick(rng, ["NHWC", "NHWC", "NCHW"])
    x = values(rng, dtype, [n, h, w, c])
    f = values(rng, dtype, [kh, kw, c, m])
    attrs = dict(strides=in_format(fmt, strides), dilations=in_format(fmt, dilations),
                 padding=padding, explicit_paddings=explicit_in_format(fmt, pads),
                 data_format=fmt)
    direct = fmt == "NHWC" and strides[1] == strides[2] and dilations == [1, 1, 1, 1]
    if direct:
        return Case("DepthwiseConv2dNative", dict(input=x, filter=f), attrs)

    def reference(input, filter):
        # A depthwise convolution is a Conv2D with one group per channel.
        image = input if fmt == "NHWC" else nhwc(input)
        out = R.Conv2D(input=tf.cast(image, tf.float64),
                       filter=tf.reshape(tf.cast(filter, tf.float64), [kh, kw, 1, c * m]),
                       strides=strides, dilations=dilations, padding=padding,
                       explicit_paddings=pads)
        out = tf.cast(out, dtype)
        return [out if fmt == "NHWC" else nchw(out)]
    return Case("DepthwiseConv2dNative", dict(input=x if fmt == "NHWC" else nchw(x), filter=f),
                attrs, reference)


def dilated_filter(f, dh, dw):
    """`f` with dh - 1 (dw - 1) zero rows (columns) between its taps."""
    kh, kw = f.shape[0], f.shape[1]
    out = np.zeros([(kh - 1) * dh + 1, (kw - 1) * dw + 1] + list(f.shape[2:]),
                   f.dtype.as_numpy_dtype)
    out[::dh, ::dw] = f.numpy()
    return tf.constant(out, f.dtype)


def gen_backprop_input(rng):
    dtype = float_dtype(rng, [tf.int32])
    n, h, w = int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10))
    cin, cout = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    strides = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), 1]
    dilations = [1, 1, 1, 1] if rng.random() < 0.7 else [1, int(rng.integers(1, 3)), int(
        rng.integers(1, 3)), 1]
    padding, pads = padding_attrs(rng)
    fmt = pick(rng, ["NHWC", "NHWC", "NCHW"])
    f = values(rng, dtype, [kh, kw, cin, cout])
    # The forward convolution's output size.
    try:
        out_shape = list(R.Conv2D(input=tf.zeros([n, h, w, cin]),
                                  filter=tf.zeros([kh, kw, cin, cout]), strides=strides,
                                  dilations=dilations, padding=padding,
                                  explicit_paddings=pads).shape)
    except tf.errors.OpError:
        out_shape = [n, 1, 1, cout]  # The filter does not fit: an invalid case.
    g = values(rng, dtype, out_shape)
    sizes_nhwc = [n, h, w, cin]
    two = rng.random() < 0.2
    sizes = np.array([h, w] if two else in_format(fmt, sizes_nhwc), np.int32)
    attrs = dict(strides=in_format(fmt, strides), dilations=in_format(fmt, dilations),
                 padding=padding, explicit_paddings=explicit_in_format(fmt, pads),
                 data_format=fmt)
    inputs = dict(input_sizes=tf.constant(sizes), filter=f,
                  out_backprop=g if fmt == "NHWC" else nchw(g))
    if fmt == "NHWC" and dilations == [1, 1, 1, 1]:
        return Case("Conv2DBackpropInput", inputs, attrs)

    def reference(input_sizes, filter, out_backprop):
        grad = out_backprop if fmt == "NHWC" else nhwc(out_backprop)
        out = R.Conv2DBackpropInput(input_sizes=sizes_nhwc,
                                    filter=dilated_filter(filter, dilations[1], dilations[2]),
                                    out_backprop=grad, strides=strides, padding=padding,
                                    explicit_paddings=pads)
        return [out if fmt == "NHWC" else nchw(out)]
    return Case("Conv2DBackpropInput", inputs, attrs, reference)


def mirror_pads(rng, h, w, mode):
    limit = lambda d: d - 1 if mode == "REFLECT" else d  # noqa: E731
    return [[0, 0], [int(rng.integers(0, limit(h) + 1)), int(rng.integers(0, limit(h) + 1))],
            [int(rng.integers(0, limit(w) + 1)), int(rng.integers(0, limit(w) + 1))], [0, 0]]


def gen_fused_pad(rng, resize=False):
    dtype = pick(rng, [tf.float32, tf.float32, tf.float64, tf.float16] +
                 ([] if resize else [tf.bfloat16]))
    n, h, w, c = (int(rng.integers(1, 4)), int(rng.integers(2, 7)), int(rng.integers(2, 7)),
                  int(rng.integers(1, 4)))
    mode = pick(rng, ["REFLECT", "SYMMETRIC"])
    size = [int(rng.integers(2, 9)), int(rng.integers(2, 9))]
    ph, pw = (size[0], size[1]) if resize else (h, w)
    pads = mirror_pads(rng, ph, pw, mode)
    kh, kw, cout = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
    s = int(rng.integers(1, 3))
    strides = [1, s, s, 1]
    padding = pick(rng, ["SAME", "VALID"])
    x = values(rng, dtype, [n, h, w, c])
    f = values(rng, dtype, [kh, kw, c, cout])
    p = tf.constant(pads, tf.int32)
    attrs = dict(mode=mode, strides=strides, padding=padding)
    if not resize:
        def reference(input, paddings, filter):
            return [R.Conv2D(input=R.MirrorPad(input=input, paddings=paddings, mode=mode),
                             filter=filter, strides=strides, padding=padding)]
        return Case("FusedPadConv2D", dict(input=x, paddings=p, filter=f), attrs, reference)
    align = bool(rng.random() < 0.5)
    attrs["resize_align_corners"] = align

    def reference(input, size, paddings, filter):
        resized = R.ResizeBilinear(images=tf.cast(input, tf.float64), size=size,
                                   align_corners=align)
        padded = R.MirrorPad(input=tf.cast(resized, tf.float64), paddings=paddings, mode=mode)
        return [tf.cast(R.Conv2D(input=padded, filter=tf.cast(filter, tf.float64),
                                 strides=strides, padding=padding), dtype)]
    # ResizeBilinear computes in float: double results agree to float's precision.
    tol = 1e-5 if dtype == tf.float64 else None
    return Case("FusedResizeAndPadConv2D",
                dict(input=x, size=tf.constant(size, tf.int32), paddings=p, filter=f), attrs,
                reference, tol)


def gen_pool(rng):
    op = pick(rng, ["MaxPool", "MaxPool", "MaxPoolV2", "AvgPool", "AvgPool"])
    extra = [tf.int32, tf.int8, tf.uint8, tf.int64] if op != "AvgPool" else []
    dtype = float_dtype(rng, extra)
    n, h, w, c = (int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10)),
                  int(rng.integers(1, 5)))
    ksize = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), 1]
    strides = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), 1]
    padding, pads = padding_attrs(rng, allow_explicit=op == "MaxPool")
    if padding == "EXPLICIT":
        pads = [0, 0] + [min(p, k - 1) for p, k in zip(pads[2:6], [ksize[1]] * 2 + [ksize[2]] * 2)
                         ] + [0, 0]
    fmt = pick(rng, ["NHWC", "NHWC", "NCHW"])
    x = values(rng, dtype, [n, h, w, c])
    xin = x if fmt == "NHWC" else nchw(x)

    def run(image, k, s, explicit):
        if op == "MaxPoolV2":
            return R.MaxPoolV2(input=image, ksize=k, strides=s, padding=padding)
        if op == "AvgPool":
            return R.AvgPool(value=image, ksize=k, strides=s, padding=padding)
        return R.MaxPool(input=image, ksize=k, strides=s, padding=padding,
                         explicit_paddings=explicit)
    attrs = dict(padding=padding, data_format=fmt)
    if op == "MaxPool":
        attrs["explicit_paddings"] = explicit_in_format(fmt, pads)
    if op == "MaxPoolV2":
        inputs = dict(input=xin, ksize=tf.constant(in_format(fmt, ksize), tf.int32),
                      strides=tf.constant(in_format(fmt, strides), tf.int32))
    else:
        attrs.update(ksize=in_format(fmt, ksize), strides=in_format(fmt, strides))
        inputs = {"value" if op == "AvgPool" else "input": xin}
    if fmt == "NHWC":
        return Case(op, inputs, attrs)

    def reference(**args):
        return [nchw(run(x, ksize, strides, pads))]
    return Case(op, inputs, attrs, reference)


NCDHW_TO_NDHWC, NDHWC_TO_NCDHW = [0, 2, 3, 4, 1], [0, 4, 1, 2, 3]


def in_format5(fmt, v):
    """A 5-vector given in NDHWC order, in format `fmt`'s order."""
    return v if fmt == "NDHWC" else [v[0], v[4], v[1], v[2], v[3]]


def dilated_filter3(f, dilations):
    """The 3-D filter `f` with d - 1 zeros between its taps along each spatial dim."""
    k = f.shape[:3]
    out = np.zeros([(k[i] - 1) * dilations[i] + 1 for i in range(3)] + list(f.shape[3:]),
                   f.dtype.as_numpy_dtype)
    out[::dilations[0], ::dilations[1], ::dilations[2]] = f.numpy()
    return tf.constant(out, f.dtype)


def conv3d_geometry(rng):
    """Batch, spatial dims, taps, strides, dilations (mostly 1), padding, format."""
    n = int(rng.integers(1, 3))
    spatial = [int(d) for d in rng.integers(1, 7, 3)]
    taps = [int(k) for k in rng.integers(1, 4, 3)]
    strides = [1] + [int(s) for s in rng.integers(1, 4, 3)] + [1]
    dilations = [1] * 5 if rng.random() < 0.7 else [1] + [int(d) for d in rng.integers(1, 3, 3)
                                                          ] + [1]
    return (n, spatial, taps, strides, dilations, pick(rng, ["SAME", "VALID"]),
            pick(rng, ["NDHWC", "NDHWC", "NCDHW"]))


def gen_conv3d(rng):
    dtype = float_dtype(rng)
    n, spatial, taps, strides, dilations, padding, fmt = conv3d_geometry(rng)
    groups, depth, per_group = pick(rng, [1, 1, 1, 2]), int(rng.integers(1, 4)), int(
        rng.integers(1, 4))
    x = values(rng, dtype, [n] + spatial + [depth * groups])
    f = values(rng, dtype, taps + [depth, per_group * groups])
    attrs = dict(strides=in_format5(fmt, strides), dilations=in_format5(fmt, dilations),
                 padding=padding, data_format=fmt)
    if fmt == "NDHWC" and groups == 1 and dilations == [1] * 5:
        return Case("Conv3D", dict(input=x, filter=f), attrs)

    def reference(input, filter):
        # TensorFlow's CPU Conv3D takes NDHWC, one group and no dilations:
        # transposes, a convolution per group, a filter with zeros between taps.
        volume = input if fmt == "NDHWC" else tf.transpose(input, NCDHW_TO_NDHWC)
        wide = dilated_filter3(filter, dilations[1:4])
        out = tf.concat([R.Conv3D(input=volume[..., g * depth:(g + 1) * depth],
                                  filter=wide[..., g * per_group:(g + 1) * per_group],
                                  strides=strides, padding=padding)
                         for g in range(groups)], axis=-1)
        return [out if fmt == "NDHWC" else tf.transpose(out, NDHWC_TO_NCDHW)]
    return Case("Conv3D", dict(input=x if fmt == "NDHWC" else tf.transpose(x, NDHWC_TO_NCDHW),
                               filter=f), attrs, reference)


def gen_conv3d_backprop_input(rng):
    dtype = float_dtype(rng)
    n, spatial, taps, strides, dilations, padding, fmt = conv3d_geometry(rng)
    cin, cout = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    f = values(rng, dtype, taps + [cin, cout])
    out = []
    for i in range(3):  # The forward convolution's output size.
        effective = (taps[i] - 1) * dilations[i + 1] + 1
        out.append(-(-spatial[i] // strides[i + 1]) if padding == "SAME" else
                   (spatial[i] - effective + strides[i + 1]) // strides[i + 1])
    if min(out) < 1:
        out = [1, 1, 1]  # The filter does not fit: an invalid case.
    g = values(rng, dtype, [n] + out + [cout])
    sizes_ndhwc = [n] + spatial + [cin]
    sizes = np.array(in_format5(fmt, sizes_ndhwc), pick(rng, [np.int32, np.int64]))
    attrs = dict(strides=in_format5(fmt, strides), dilations=in_format5(fmt, dilations),
                 padding=padding, data_format=fmt)
    inputs = dict(input_sizes=tf.constant(sizes), filter=f,
                  out_backprop=g if fmt == "NDHWC" else tf.transpose(g, NDHWC_TO_NCDHW))
    if fmt == "NDHWC" and dilations == [1] * 5:
        return Case("Conv3DBackpropInputV2", inputs, attrs)

    def reference(input_sizes, filter, out_backprop):
        grad = out_backprop if fmt == "NDHWC" else tf.transpose(out_backprop, NCDHW_TO_NDHWC)
        result = R.Conv3DBackpropInputV2(input_sizes=sizes_ndhwc,
                                         filter=dilated_filter3(filter, dilations[1:4]),
                                         out_backprop=grad, strides=strides, padding=padding)
        return [result if fmt == "NDHWC" else tf.transpose(result, NDHWC_TO_NCDHW)]
    return Case("Conv3DBackpropInputV2", inputs, attrs, reference)


def gen_pool3d(rng):
    op = pick(rng, ["MaxPool3D", "AvgPool3D"])
    dtype = pick(rng, [tf.float32] * 4 + [tf.bfloat16, tf.float16])  # No half kernel: refused.
    n, spatial, _, strides, _, padding, fmt = conv3d_geometry(rng)
    c = int(rng.integers(1, 4))
    ksize = [1] + [int(k) for k in rng.integers(1, 4, 3)] + [1]
    x = values(rng, dtype, [n] + spatial + [c])
    attrs = dict(ksize=in_format5(fmt, ksize), strides=in_format5(fmt, strides),
                 padding=padding, data_format=fmt)
    if fmt == "NDHWC":
        return Case(op, dict(input=x), attrs)

    def reference(input):
        return [tf.transpose(getattr(R, op)(input=x, ksize=ksize, strides=strides,
                                            padding=padding), NDHWC_TO_NCDHW)]
    return Case(op, dict(input=tf.transpose(x, NDHWC_TO_NCDHW)), attrs, reference)


def gen_batch_norm(rng):
    op = pick(rng, ["FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"])
    dtype = tf.float32 if op == "FusedBatchNorm" else pick(
        rng, [tf.float32, tf.float32, tf.float16, tf.bfloat16])
    fmt = pick(rng, ["NHWC", "NCHW"])
    shape = [int(d) for d in rng.integers(1, 6, 4)]
    c = shape[3] if fmt == "NHWC" else shape[1]
    params = [tf.constant(rng.normal(size=[c]), tf.float32) for _ in range(3)]
    variance = tf.constant(rng.uniform(0.1, 3, size=[c]), tf.float32)
    if rng.random() < 0.05:
        variance = tf.constant(rng.uniform(0.1, 3, size=[c + 1]), tf.float32)  # Invalid.
    x = values(rng, dtype, shape)
    attrs = dict(epsilon=float(rng.choice([1e-3, 1e-5, 0.1])), data_format=fmt,
                 is_training=False)

    def reference(x, scale, offset, mean, variance):
        # The reserve spaces as TensorFlow's oneDNN kernels return them: its
        # Eigen kernels return zeros (V1) or uninitialized memory (V2, V3)
        # and a scalar reserve_space_3.
        out = list(getattr(R, op)(x=x, scale=scale, offset=offset, mean=mean,
                                  variance=variance, **attrs))
        out[3], out[4] = mean, variance
        if len(out) == 6:
            out[5] = tf.zeros([0], tf.float32)
        return out
    return Case(op, dict(x=x, scale=params[0], offset=params[1], mean=params[2],
                         variance=variance), attrs, reference)


def gen_global_norm(rng):
    dtype = pick(rng, [tf.float32, tf.float64, tf.float16])
    shape = [int(d) for d in rng.integers(1, 6, 4)]
    c = shape[3]
    m, beta, gamma = (values(rng, dtype, [c]) for _ in range(3))
    v = tf.cast(tf.constant(rng.uniform(0.1, 3, size=[c])), dtype)
    eps, scale_after = float(rng.choice([1e-3, 0.1])), bool(rng.random() < 0.5)
    t = values(rng, dtype, shape)

    def reference(t, m, v, beta, gamma):
        w = [tf.cast(a, tf.float64) for a in (t, m, v, beta, gamma)]
        y = (w[0] - w[1]) * tf.math.rsqrt(w[2] + tf.cast(tf.constant(eps, tf.float32),
                                                          tf.float64))
        if scale_after:
            y = y * w[4]
        return [tf.cast(y + w[3], dtype)]
    return Case("BatchNormWithGlobalNormalization", dict(t=t, m=m, v=v, beta=beta, gamma=gamma),
                dict(variance_epsilon=eps, scale_after_normalization=scale_after), reference)


def gen_softmax(rng):
    op = pick(rng, ["Softmax", "LogSoftmax"])
    dtype = float_dtype(rng)
    shape = [int(d) for d in rng.integers(1, 8, int(rng.integers(1, 4)))]
    if rng.random() < 0.1:
        shape[-1] = 1000
    x = values(rng, dtype, shape, scale=float(rng.choice([1, 5])))
    return Case(op, dict(logits=x), {})


def gen_lrn(rng):
    dtype = pick(rng, [tf.float32, tf.float32, tf.float16])
    x = values(rng, dtype, [int(d) for d in rng.integers(1, 8, 4)])
    attrs = dict(depth_radius=int(rng.integers(0, 4)), bias=float(rng.choice([1.0, 2.0])),
                 alpha=float(rng.choice([1e-4, 0.5])), beta=float(rng.choice([0.5, 0.75])))
    return Case("LRN", dict(input=x), attrs)


def gen_resize(rng):
    op = pick(rng, ["ResizeBilinear", "ResizeNearestNeighbor"])
    dtype = pick(rng, [tf.float32, tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int32,
                       tf.uint8, tf.int8, tf.int16, tf.int64])
    n, h, w, c = (int(rng.integers(1, 3)), int(rng.integers(1, 9)), int(rng.integers(1, 9)),
                  int(rng.integers(1, 4)))
    x = values(rng, dtype, [n, h, w, c], scale=10)
    size = [int(rng.integers(1, 17)), int(rng.integers(1, 17))]
    align, half = pick(rng, [(False, False), (True, False), (False, True), (False, True)])
    if rng.random() < 0.03:
        align = half = True  # Invalid.
    return Case(op, dict(images=x, size=tf.constant(size, tf.int32)),
                dict(align_corners=align, half_pixel_centers=half))


def gen_invalid(rng):
    """Convolutions and pooling TensorFlow refuses."""
    kind = int(rng.integers(0, 7))
    x = values(rng, tf.float32, [1, 3, 3, 2])
    if kind == 0:  # The filter does not fit.
        return Case("Conv2D", dict(input=x, filter=values(rng, tf.float32, [5, 1, 2, 1])),
                    dict(strides=[1, 1, 1, 1], padding="VALID"))
    if kind == 1:  # Depths do not divide.
        return Case("Conv2D", dict(input=x, filter=values(rng, tf.float32, [1, 1, 3, 1])),
                    dict(strides=[1, 1, 1, 1], padding="SAME"))
    if kind == 2:  # Strides on the batch.
        return Case("MaxPool", dict(input=x), dict(ksize=[1, 2, 2, 1], strides=[2, 1, 1, 1],
                                                   padding="SAME"))
    if kind == 3:  # A 3-D input.
        return Case("Conv2D", dict(input=values(rng, tf.float32, [3, 3, 2]),
                                   filter=values(rng, tf.float32, [1, 1, 2, 1])),
                    dict(strides=[1, 1, 1, 1], padding="SAME"))
    volume = values(rng, tf.float32, [1, 2, 3, 3, 2])
    if kind == 4:  # The 3-D filter does not fit.
        return Case("Conv3D", dict(input=volume, filter=values(rng, tf.float32, [3, 1, 1, 2, 1])),
                    dict(strides=[1] * 5, padding="VALID"))
    if kind == 5:  # 3-D pooling across channels.
        return Case("MaxPool3D", dict(input=volume),
                    dict(ksize=[1, 1, 1, 1, 2], strides=[1, 1, 1, 1, 2], padding="VALID"))
    return Case("Conv3DBackpropInputV2",  # out_backprop of the wrong size.
                dict(input_sizes=tf.constant([1, 2, 3, 3, 2]),
                     filter=values(rng, tf.float32, [1, 1, 1, 2, 1]),
                     out_backprop=values(rng, tf.float32, [1, 2, 3, 2, 1])),
                dict(strides=[1] * 5, padding="VALID"))


GENERATORS = [gen_conv2d, gen_conv2d, gen_depthwise, gen_backprop_input, gen_fused_pad,
              lambda rng: gen_fused_pad(rng, resize=True), gen_pool, gen_pool, gen_batch_norm,
              gen_global_norm, gen_softmax, gen_lrn, gen_resize, gen_resize, gen_conv3d,
              gen_conv3d_backprop_input, gen_pool3d, gen_invalid]


def node_of(case, name):
    """The case's op as TensorFlow builds it (attributes complete), no
    inputs: on placeholders of unknown shape (so that shape inference lets
    invalid cases through), or of their shapes for ops whose shape function
    needs them; None when TensorFlow cannot build it. Deprecated ops, which
    TensorFlow no longer builds, are written by hand."""
    if case.op == "BatchNormWithGlobalNormalization":
        node = node_def_pb2.NodeDef(name=name, op=case.op)
        node.attr["T"].type = next(iter(case.inputs.values())).dtype.as_datatype_enum
        node.attr["variance_epsilon"].f = case.attrs["variance_epsilon"]
        node.attr["scale_after_normalization"].b = case.attrs["scale_after_normalization"]
        for v in case.inputs.values():
            node.attr["_inputs"].list.tensor.add().CopyFrom(tf.make_tensor_proto(v.numpy()))
        return node
    for known in (False, True):
        graph = tf.Graph()
        with graph.as_default():
            args = {k: tf1.placeholder(v.dtype, shape=v.shape if known else None)
                    for k, v in case.inputs.items()}
            try:
                result = getattr(R, case.op)(**args, **case.attrs)
            except ValueError:
                continue
            outputs = result if isinstance(result, (list, tuple)) else [result]
            op = outputs[0].op
            break
    else:
        return None
    node = op.node_def
    node.name = name
    del node.input[:]
    node.ClearField("device")
    order = [t.op.name for t in op.inputs]
    by_name = {args[k].op.name: v for k, v in case.inputs.items()}
    for placeholder in order:
        node.attr["_inputs"].list.tensor.add().CopyFrom(tf.make_tensor_proto(
            by_name[placeholder].numpy()))
    return node


def run_case(case, name):
    """The case as a NodeDef with `_inputs` and `_outputs` or `_error`; None
    when the reference fails (nothing to compare)."""
    node = node_of(case, name)
    if node is None:
        return None
    try:
        with tf.device("/CPU:0"):
            if case.reference:
                outputs = case.reference(**case.inputs)
            else:
                result = getattr(R, case.op)(**case.inputs, **case.attrs)
                outputs = result if isinstance(result, (list, tuple)) else [result]
    except tf.errors.OpError as e:
        if case.reference:
            return None
        node.attr["_error"].s = type(e).__name__.encode()
        return node
    dtype = outputs[0].dtype
    node.attr["_tolerance"].f = case.tolerance if case.tolerance is not None else TOLERANCE[dtype]
    node.attr["_outputs"].list.tensor.extend([])
    for v in outputs:
        node.attr["_outputs"].list.tensor.add().CopyFrom(tf.make_tensor_proto(v.numpy()))
    return node


def main():
    return tf_cases.main(__doc__.splitlines()[0], GENERATORS, run_case, cases=40,
                         out="/tmp/frost-nn-tf-cases.pb", env_var="FROST_NN_TF_CASES",
                         gtest_filter="NNTensorFlowTest.*", skipped_as="without a reference")


if __name__ == "__main__":
    sys.exit(main())
