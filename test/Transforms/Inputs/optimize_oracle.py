"""optimize-for-inference checked against TensorFlow's optimize_for_inference.

    optimize_oracle.py [--frost CMD] [--tf-only] [--self-test] CASE...

CASE is a graph TensorFlow's tool handles fully (part A) or a Keras model
(part B); `all-a`, `all-b` and `all` name the groups.

Part A, TF1 graphs built in graph mode with variables, frozen by
graph_util.convert_variables_to_constants:
  conv-bias-bn       Conv2D + BiasAdd + FusedBatchNormV3 + Relu
  depthwise-bn       DepthwiseConv2dNative (multiplier 2) + FusedBatchNormV3
  conv-bn-v1         Conv2D (stride 2, VALID) + FusedBatchNorm (V1), the output
  decomposed-bn      Conv2D + BiasAdd + Add(Mul(x, Mul(Rsqrt(Add(var, eps)),
                     gamma)), Sub(beta, Mul(mean, ..))): the exact pattern of
                     fuse_decomposed_batch_norm (op Add, not AddV2)
  decomposed-bn-no-gamma  the same without gamma, Add(Sub, Mul), on the conv
  resize-pad-conv    ResizeBilinear(align_corners) + MirrorPad(REFLECT) + Conv2D
  resize-pad-conv-bn ResizeBilinear + MirrorPad(SYMMETRIC) + Conv2D + BN
  pad-conv           MirrorPad + Conv2D
  resize-conv        ResizeBilinear + Conv2D (dummy paddings)
(The last four have a batch of one, declared: TensorFlow's CPU kernels of
FusedPadConv2D and FusedResizeAndPadConv2D compute every image of a batch
from the first one, so its own fused graph is wrong for larger batches, and
Frost fuses only where the batch is known to be 1.)
Each graph goes through tensorflow.python.tools.optimize_for_inference_lib.
optimize_for_inference and through Frost's `optimize-for-inference` CLI, with
the same flags, once as is and once with --toco_compatible. The two outputs
must be equal node for node (decomposed-bn also as text files with
--frozen_graph=false): the same node names; per node the same op, the
same data inputs in order (`x:0` spelled `x`), the same control inputs as a
set and the same attributes, Const values bitwise (the max ulp is printed
otherwise). Allowed differences, each with its reason in compare(): node
order; the versions TensorFlow's output lacks (Frost keeps the input's);
with --toco_compatible, the Consts TensorFlow leaves unread after folding
(Frost removes dead nodes). Then the original and both optimized graphs run
in TensorFlow on the same random input: both must compute the original's
output within 1e-5 relative, elementwise, plus 1e-6 times the output's
largest magnitude (for elements near zero after cancellation):
|got - want| <= 1e-5 |want| + 1e-6 max|want|.

Part B, Keras 3 models frozen with convert_variables_to_constants_v2:
  keras-conv-bn      Conv2D + BatchNormalization + ReLU, twice, + Dense
  keras-dense-bn     Dense + BatchNormalization + ReLU + Dense + BatchNormalization
  mobilenetv2        MobileNetV2 alpha 0.35, 96x96, weights=None
  resnet50           ResNet50 weights=None, 224x224
Every BatchNormalization gets random moving mean/variance/gamma/beta first.
Keras 3 freezes a batch norm decomposed (var AddV2 eps, Rsqrt, Mul by gamma,
Mul x / Mul mean, Sub from beta, AddV2) which TensorFlow's tool does not
match (it wants Add): only Frost's output is checked, numerically (the same
tolerance as part A) and for being free of batch norms and Rsqrt. What
TensorFlow's tool leaves is printed for information.

--frost CMD runs CMD instead of `optimize-for-inference` (split on spaces:
`--frost "python3 -m tensorflow.python.tools.optimize_for_inference"` checks
the comparison itself against TensorFlow's own CLI). --tf-only skips Frost.
--self-test first checks that the comparison rejects altered copies of
TensorFlow's output (a weight or offset 1 ulp off, inputs swapped, a node
renamed, missing or added, a control input, op or attribute changed) and
accepts equivalent spellings (constants as float_val, `x:0`, node order).
Exits 1 after printing `FAIL: ...` on the first difference.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.python.platform import tf_logging  # noqa: E402
from tensorflow.python.tools import optimize_for_inference_lib  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fold_constants_oracle import freeze_v2, ulps  # noqa: E402

tf1 = tf.compat.v1
tf_logging.set_verbosity(tf_logging.ERROR)
CONFIG = tf1.ConfigProto()
CONFIG.graph_options.rewrite_options.disable_meta_optimizer = True

BATCH_NORMS = ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3",
               "BatchNormWithGlobalNormalization")
RTOL, ATOL_SCALE = 1e-5, 1e-6


class Mismatch(Exception):
    pass


def fail(message):
    raise Mismatch(message)


# --------------------------------------------------------------- part A graphs

class Builder:
    """A TF1 graph under construction: variables with seeded random values."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)
        self.graph = tf.Graph()

    def var(self, name, shape, low=None, high=None):
        if low is None:
            value = self.rng.randn(*shape)
        else:
            value = self.rng.uniform(low, high, shape)
        return tf1.Variable(value.astype(np.float32), name=name)

    def bn_params(self, prefix, channels):
        return (self.var(prefix + "/gamma", [channels], 0.5, 1.5),
                self.var(prefix + "/beta", [channels]),
                self.var(prefix + "/mean", [channels]),
                self.var(prefix + "/var", [channels], 0.5, 2.0))

    def freeze(self, outputs):
        with tf1.Session(graph=self.graph) as sess:
            sess.run(tf1.global_variables_initializer())
            return tf1.graph_util.convert_variables_to_constants(
                sess, self.graph.as_graph_def(), outputs)


def conv_bias_bn():
    b = Builder(1)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 8, 8, 3], name="input")
        h = tf.nn.conv2d(x, b.var("conv/w", [3, 3, 3, 4]), strides=1, padding="SAME",
                         name="conv")
        h = tf.nn.bias_add(h, b.var("conv/b", [4]), name="conv/bias")
        gamma, beta, mean, var = b.bn_params("bn", 4)
        h, _, _ = tf1.nn.fused_batch_norm(h, gamma, beta, mean=mean, variance=var,
                                          epsilon=1e-3, is_training=False, name="bn")
        tf.nn.relu(h, name="output")
    return b.freeze(["output"]), [2, 8, 8, 3]


def depthwise_bn():
    b = Builder(2)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 8, 8, 3], name="input")
        h = tf.nn.depthwise_conv2d(x, b.var("dw/w", [3, 3, 3, 2]), strides=[1, 1, 1, 1],
                                   padding="SAME", name="dw")
        gamma, beta, mean, var = b.bn_params("bn", 6)
        h, _, _ = tf1.nn.fused_batch_norm(h, gamma, beta, mean=mean, variance=var,
                                          epsilon=1e-5, is_training=False, name="bn")
        tf.nn.relu6(h, name="output")
    return b.freeze(["output"]), [2, 8, 8, 3]


def conv_bn_v1():
    b = Builder(3)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 9, 9, 2], name="input")
        h = tf.nn.conv2d(x, b.var("conv/w", [3, 3, 2, 5]), strides=2, padding="VALID",
                         name="conv")
        gamma, beta, mean, var = b.bn_params("bn", 5)
        tf.raw_ops.FusedBatchNorm(x=h, scale=gamma, offset=beta, mean=mean, variance=var,
                                  epsilon=0.001, is_training=False, name="output")
    return b.freeze(["output"]), [2, 9, 9, 2]


def decomposed(b, x, channels, prefix, gamma, sub_first):
    """TF's fuse_decomposed_batch_norm pattern, raw ops spelled out."""
    g, beta, mean, var = b.bn_params(prefix, channels)
    eps = tf.constant(1e-3, tf.float32, name=prefix + "/eps")
    s = tf.raw_ops.Rsqrt(x=tf.raw_ops.Add(x=var, y=eps, name=prefix + "/add"),
                         name=prefix + "/Rsqrt")
    if gamma:
        s = tf.raw_ops.Mul(x=s, y=g, name=prefix + "/mul")
    scaled = tf.raw_ops.Mul(x=x, y=s, name=prefix + "/mul_1")
    shift = tf.raw_ops.Sub(x=beta, y=tf.raw_ops.Mul(x=mean, y=s, name=prefix + "/mul_2"),
                           name=prefix + "/sub")
    if sub_first:
        return tf.raw_ops.Add(x=shift, y=scaled, name=prefix + "/add_1")
    return tf.raw_ops.Add(x=scaled, y=shift, name=prefix + "/add_1")


def decomposed_bn():
    b = Builder(4)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 8, 8, 3], name="input")
        h = tf.nn.conv2d(x, b.var("conv/w", [3, 3, 3, 4]), strides=1, padding="SAME",
                         name="conv")
        # x of the pattern is the BiasAdd: its input is the conv.
        h = tf.nn.bias_add(h, b.var("conv/b", [4]), name="conv/bias")
        h = decomposed(b, h, 4, "bn", gamma=True, sub_first=False)
        tf.nn.relu(h, name="output")
    return b.freeze(["output"]), [2, 8, 8, 3]


def decomposed_bn_no_gamma():
    b = Builder(5)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 8, 8, 3], name="input")
        h = tf.nn.conv2d(x, b.var("conv/w", [3, 3, 3, 4]), strides=1, padding="SAME",
                         name="conv")
        h = decomposed(b, h, 4, "bn", gamma=False, sub_first=True)
        tf.nn.relu(h, name="output")
    return b.freeze(["output"]), [2, 8, 8, 3]


def resize_pad_conv(align_corners, mode, bn):
    b = Builder(6)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [1, 5, 5, 3], name="input")
        h = tf1.image.resize_bilinear(x, [9, 9], align_corners=align_corners,
                                      half_pixel_centers=False, name="resize")
        h = tf.pad(h, [[0, 0], [1, 1], [2, 1], [0, 0]], mode=mode, name="pad")
        h = tf.nn.conv2d(h, b.var("conv/w", [3, 3, 3, 4]), strides=1, padding="VALID",
                         name="conv")
        if bn:
            gamma, beta, mean, var = b.bn_params("bn", 4)
            h, _, _ = tf1.nn.fused_batch_norm(h, gamma, beta, mean=mean, variance=var,
                                              epsilon=1e-3, is_training=False, name="bn")
        tf.identity(h, name="output")
    return b.freeze(["output"]), [1, 5, 5, 3]


def pad_conv():
    b = Builder(7)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [1, 6, 6, 3], name="input")
        h = tf.pad(x, [[0, 0], [2, 2], [1, 1], [0, 0]], mode="REFLECT", name="pad")
        h = tf.nn.conv2d(h, b.var("conv/w", [3, 3, 3, 4]), strides=[1, 2, 1, 1],
                         padding="SAME", name="conv")
        tf.nn.relu(h, name="output")
    return b.freeze(["output"]), [1, 6, 6, 3]


def resize_conv():
    b = Builder(8)
    with b.graph.as_default():
        x = tf1.placeholder(tf.float32, [1, 4, 4, 3], name="input")
        h = tf1.image.resize_bilinear(x, [7, 7], align_corners=False,
                                      half_pixel_centers=False, name="resize")
        h = tf.nn.conv2d(h, b.var("conv/w", [3, 3, 3, 4]), strides=1, padding="SAME",
                         name="conv")
        tf.nn.relu(h, name="output")
    return b.freeze(["output"]), [1, 4, 4, 3]


TEXT_CASE = "decomposed-bn"
PART_A = {
    "conv-bias-bn": conv_bias_bn,
    "depthwise-bn": depthwise_bn,
    "conv-bn-v1": conv_bn_v1,
    "decomposed-bn": decomposed_bn,
    "decomposed-bn-no-gamma": decomposed_bn_no_gamma,
    "resize-pad-conv": lambda: resize_pad_conv(True, "REFLECT", False),
    "resize-pad-conv-bn": lambda: resize_pad_conv(False, "SYMMETRIC", True),
    "pad-conv": pad_conv,
    "resize-conv": resize_conv,
}


# --------------------------------------------------------------- part B models

def randomize_batch_norms(model):
    """Random moving statistics, gamma and beta, so that folding them shows."""
    rng = np.random.RandomState(11)
    count = 0
    for layer in model.layers:  # functional models: every layer is top-level
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            values = []
            for w in layer.weights:
                shape = tuple(w.shape)
                if "moving_variance" in w.path:
                    values.append(rng.uniform(0.5, 2.0, shape))
                elif "gamma" in w.path:
                    values.append(rng.uniform(0.5, 1.5, shape))
                else:  # beta, moving_mean
                    values.append(rng.randn(*shape) * 0.5)
            layer.set_weights([v.astype(np.float32) for v in values])
            count += 1
    return count


def keras_conv_bn():
    layers = tf.keras.layers
    inp = tf.keras.Input([8, 8, 3])
    h = layers.ReLU()(layers.BatchNormalization()(layers.Conv2D(4, 3, padding="same")(inp)))
    h = layers.BatchNormalization(epsilon=1e-5)(
        layers.Conv2D(6, 3, strides=2, padding="valid", use_bias=False)(h))
    h = layers.Dense(5)(layers.Flatten()(layers.ReLU()(h)))
    return tf.keras.Model(inp, h), [2, 8, 8, 3]


def keras_dense_bn():
    layers = tf.keras.layers
    inp = tf.keras.Input([12])
    h = layers.ReLU()(layers.BatchNormalization()(layers.Dense(16)(inp)))
    h = layers.BatchNormalization(center=False)(layers.Dense(8, use_bias=False)(h))
    return tf.keras.Model(inp, h), [3, 12]


PART_B = {
    "keras-conv-bn": keras_conv_bn,
    "keras-dense-bn": keras_dense_bn,
    "mobilenetv2": lambda: (tf.keras.applications.MobileNetV2(
        input_shape=(96, 96, 3), alpha=0.35, weights=None), [1, 96, 96, 3]),
    "resnet50": lambda: (tf.keras.applications.ResNet50(weights=None), [1, 224, 224, 3]),
}


# ------------------------------------------------------------------- running

def run(graph_def, fetch, feed, who=None):
    """fetch's value; with `who`, a graph that does not import or run is a
    Mismatch rather than an error of this script."""
    try:
        with tf.Graph().as_default() as g:
            tf1.import_graph_def(graph_def, name="")
            with tf1.Session(graph=g, config=CONFIG) as sess:
                return sess.run(fetch, feed)
    except (ValueError, tf.errors.OpError) as e:
        if who is None:
            raise
        fail("%s does not run in TensorFlow: %s" % (who, str(e).splitlines()[0]))


def tf_optimize(graph_def, inputs, outputs, toco):
    return optimize_for_inference_lib.optimize_for_inference(
        graph_def, inputs, outputs, tf.float32.as_datatype_enum, toco_compatible=toco)


def frost_optimize(cmd, graph_def, inputs, outputs, toco, text=False):
    """Runs the CLI on graph_def written as a binary GraphDef file (text with
    --frozen_graph=false when `text`)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.pb"), os.path.join(tmp, "out.pb")
        with open(src, "wb") as f:
            f.write(text_format.MessageToString(graph_def).encode() if text
                    else graph_def.SerializeToString())
        argv = cmd + ["--input=" + src, "--output=" + dst,
                      "--input_names=" + ",".join(inputs),
                      "--output_names=" + ",".join(outputs)]
        if text:
            argv.append("--frozen_graph=false")
        if toco:
            # TensorFlow's flag is argparse type=bool: it needs a value.
            argv.append("--toco_compatible=true")
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        if proc.returncode != 0:
            fail("%s exited %d:\n%s" % (" ".join(argv), proc.returncode, proc.stdout))
        with open(dst, "rb") as f:
            data = f.read()
        if text:
            return text_format.Parse(data.decode("utf-8"), graph_pb2.GraphDef())
        return graph_pb2.GraphDef.FromString(data)


def close(want, got):
    """Whether got is want within RTOL * |want| + ATOL_SCALE * max |want|
    elementwise (the absolute part, scaled by the output's largest magnitude,
    covers elements near zero, where folded arithmetic rounds differently
    after cancellation), and a summary of the error."""
    want, got = np.asarray(want, np.float64), np.asarray(got, np.float64)
    if want.shape != got.shape:
        return False, "shape %s, want %s" % (got.shape, want.shape)
    if want.size == 0:
        return True, "empty"
    atol = ATOL_SCALE * float(np.max(np.abs(want)))
    err = np.abs(got - want)
    if not np.any(err):
        return True, "max abs error 0"
    with np.errstate(divide="ignore"):
        worst = float(np.max(err / (RTOL * np.abs(want) + atol)))
    return bool(worst <= 1), "max abs error %.3g, %.2f of the tolerance" % (float(np.max(err)),
                                                                          worst)


# ----------------------------------------------------------------- comparison

def split_inputs(node):
    """Data inputs in order (`x:0` spelled `x`) and the set of control inputs."""
    data, control = [], set()
    for text in node.input:
        if text.startswith("^"):
            control.add(text[1:])
        else:
            data.append(text[:-2] if text.endswith(":0") else text)
    return data, control


def const_difference(want, got):
    """None if the two Const `value` tensors are equal bit for bit, else why."""
    a, b = tf.make_ndarray(want.tensor), tf.make_ndarray(got.tensor)
    if a.dtype != b.dtype or a.shape != b.shape:
        return "value is %s %s, TensorFlow's %s %s" % (b.dtype, b.shape, a.dtype, a.shape)
    if a.dtype.kind == "f":
        if a.tobytes() != b.tobytes():
            bad = np.flatnonzero(np.any(a.reshape(a.size, 1).view(np.uint8) !=
                                        b.reshape(b.size, 1).view(np.uint8), axis=1))
            i = int(bad[0])
            return ("value differs in %d of %d elements, max %d ulp (first at flat index %d: "
                    "%r, TensorFlow %r)" % (len(bad), a.size, ulps(a, b), i,
                                            b.ravel()[i].item(), a.ravel()[i].item()))
        return None
    if not np.array_equal(a, b):
        return "value %s, TensorFlow %s" % (b.tolist(), a.tolist())
    return None


def unread_consts(graph_def, outputs):
    """Const nodes nothing reads that are not outputs."""
    read = set(outputs)
    for n in graph_def.node:
        for text in n.input:
            name = text.lstrip("^")
            read.add(name.rsplit(":", 1)[0] if ":" in name else name)
    return {n.name for n in graph_def.node if n.op == "Const" and n.name not in read}


def compare(case, want, got, outputs, toco):
    """Fails on the first difference between TensorFlow's and Frost's graphs.
    Returns notes on the differences allowed."""
    notes = []
    # Allowed: node ORDER is not compared. TensorFlow appends the nodes it
    # makes after the ones it keeps; Frost writes its own order.
    w = {n.name: n for n in want.node}
    g = {n.name: n for n in got.node}
    if len(w) != len(want.node) or len(g) != len(got.node):
        fail("%s: duplicate node names" % case)
    only_tf, only_frost = set(w) - set(g), set(g) - set(w)
    if toco:
        # Allowed with toco_compatible only: TensorFlow's one sweep of
        # unreferenced nodes is inside fuse_resize_and_conv, which
        # toco_compatible skips, so the Consts a folded batch norm no longer
        # reads (mean, variance, beta, gamma, the conv bias, eps of a
        # decomposed one) stay in its output, unread. Frost removes dead
        # nodes. Such Consts are not outputs and nothing in TF's graph reads them.
        dead = only_tf & unread_consts(want, outputs)
        if dead:
            notes.append("%d unread Consts TensorFlow keeps (toco_compatible skips its sweep)"
                         % len(dead))
        only_tf -= dead
    if only_tf or only_frost:
        fail("%s: node names differ: only TensorFlow's has %s; only Frost's has %s"
             % (case, sorted(only_tf), sorted(only_frost)))
    for name in sorted(set(w) & set(g)):
        a, b = w[name], g[name]
        if a.op != b.op:
            fail("%s: node %s is %s, TensorFlow's is %s" % (case, name, b.op, a.op))
        (ad, ac), (bd, bc) = split_inputs(a), split_inputs(b)
        if ad != bd:
            fail("%s: node %s (%s) reads %s, TensorFlow's reads %s" % (case, name, a.op, bd, ad))
        if ac != bc:
            fail("%s: node %s (%s) has control inputs %s, TensorFlow's %s"
                 % (case, name, a.op, sorted(bc), sorted(ac)))
        # Attribute order is a map's: not compared (protobuf maps have none).
        if set(a.attr) != set(b.attr):
            fail("%s: node %s (%s) has attrs %s, TensorFlow's %s"
                 % (case, name, a.op, sorted(b.attr), sorted(a.attr)))
        for key in sorted(a.attr):
            if a.op == "Const" and key == "value":
                # Compared as tensors: the encoding (tensor_content or
                # float_val, a repeated last value left out) may differ.
                why = const_difference(a.attr[key], b.attr[key])
                if why:
                    fail("%s: Const %s: %s" % (case, name, why))
            elif a.attr[key] != b.attr[key]:
                fail("%s: node %s (%s) attr %s is {%s}, TensorFlow's {%s}"
                     % (case, name, a.op, key, str(b.attr[key]).strip().replace("\n", " "),
                        str(a.attr[key]).strip().replace("\n", " ")))
    if want.library != got.library:
        fail("%s: function libraries differ" % case)
    # Allowed: versions. remove_training_nodes builds a new GraphDef from the
    # nodes alone, so TensorFlow's output has no versions at all (producer 0);
    # Frost may keep the input's. Any other difference fails.
    if want.versions != got.versions:
        if want.versions.ByteSize():
            fail("%s: versions {%s}, TensorFlow's {%s}" % (
                case, str(got.versions).strip().replace("\n", " "),
                str(want.versions).strip().replace("\n", " ")))
        notes.append("versions kept (producer %d), TensorFlow drops them"
                     % got.versions.producer)
    return notes


def self_test():
    """compare() must reject every mutation of TensorFlow's own output that
    changes the graph, and accept the spellings that do not."""
    def node(g, op):
        return next(n for n in g.node if n.op == op)

    def set_value(n, edit):
        v = tf.make_ndarray(n.attr["value"].tensor).copy()
        edit(v)
        n.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(v))

    def ulp(index):
        def edit(g):
            set_value(g.node[[n.name for n in g.node].index("conv_weights")],
                      lambda v: v.view(np.int32).ravel().__setitem__(
                          index, v.view(np.int32).ravel()[index] + 1))
        return edit

    def swap(g):
        n = node(g, "BiasAdd")
        n.input[0], n.input[1] = n.input[1], n.input[0]

    def rename(g):
        node(g, "BiasAdd").name = "bn_renamed"

    def drop(g):
        del g.node[0]

    def extra(g):
        g.node.add().CopyFrom(node(g, "Placeholder"))
        g.node[-1].name = "extra"

    def float_val(g):  # the same values, written element by element
        for n in g.node:
            if n.op == "Const":
                v = tf.make_ndarray(n.attr["value"].tensor)
                t = n.attr["value"].tensor
                t.ClearField("tensor_content")
                getattr(t, "float_val" if v.dtype == np.float32 else "int_val").extend(
                    v.ravel().tolist())

    def port0(g):
        node(g, "BiasAdd").input[0] += ":0"

    def reorder(g):
        nodes = list(g.node)[::-1]
        del g.node[:]
        g.node.extend(nodes)

    rejected = {
        "weights 1 ulp off (element 0)": ulp(0),
        "weights 1 ulp off (element 7)": ulp(7),
        "offset 1 ulp off": lambda g: set_value(
            next(n for n in g.node if n.name == "conv_bn_offset"),
            lambda v: v.view(np.int32).__setitem__(2, v.view(np.int32)[2] - 1)),
        "data inputs swapped": swap,
        "a node renamed": rename,
        "a node missing": drop,
        "an extra node": extra,
        "an extra control input": lambda g: node(g, "BiasAdd").input.append("^input"),
        "another op": lambda g: setattr(node(g, "BiasAdd"), "op", "Add"),
        "an attr changed": lambda g: setattr(node(g, "BiasAdd").attr["data_format"], "s",
                                             b"NCHW"),
        "an extra attr": lambda g: node(g, "BiasAdd").attr["_extra"].CopyFrom(
            node(g, "BiasAdd").attr["T"]),
        "a dtype changed": lambda g: node(g, "Placeholder").attr["dtype"].__setattr__(
            "type", tf.int32.as_datatype_enum),
        "versions set where TF's has them": None,
    }
    accepted = {
        "constants as float_val": float_val,
        "x:0 for x": port0,
        "nodes in another order": reorder,
        "versions kept": lambda g: setattr(g.versions, "producer", 2474),
    }
    original, _ = conv_bias_bn()
    want = tf_optimize(original, ["input"], ["output"], False)
    for what, edit in rejected.items():
        got, ref = graph_pb2.GraphDef(), graph_pb2.GraphDef()
        got.CopyFrom(want)
        ref.CopyFrom(want)
        if edit is None:
            ref.versions.producer = 1
            got.versions.producer = 2
        else:
            edit(got)
        try:
            compare("self-test", ref, got, ["output"], False)
        except Mismatch:
            continue
        fail("self-test: %s passed the comparison" % what)
    for what, edit in accepted.items():
        got = graph_pb2.GraphDef()
        got.CopyFrom(want)
        edit(got)
        compare("self-test (%s)" % what, want, got, ["output"], False)
    # toco_compatible: TensorFlow keeps the Consts the folded batch norm no
    # longer reads; leaving them out is allowed, leaving out anything else not.
    want = tf_optimize(original, ["input"], ["output"], True)
    dead = unread_consts(want, ["output"])
    got = graph_pb2.GraphDef()
    got.node.extend(n for n in want.node if n.name not in dead)
    compare("self-test (toco, dead Consts removed)", want, got, ["output"], True)
    got.node.extend(n for n in want.node if n.name in dead)
    del got.node[[n.op for n in got.node].index("Placeholder")]
    try:
        compare("self-test", want, got, ["output"], True)
    except Mismatch:
        print("self-test: %d changed graphs rejected, %d equivalent spellings accepted"
              % (len(rejected) + 1, len(accepted) + 1))
        return
    fail("self-test: a missing Placeholder passed the comparison under toco_compatible")


def count_ops(graph_def, ops):
    return sum(1 for n in graph_def.node if n.op in ops)


def check_a(case, frost_cmd):
    original, shape = PART_A[case]()
    inputs, outputs = ["input"], ["output"]
    rng = np.random.RandomState(7)
    feed = {"input:0": rng.randn(*shape).astype(np.float32)}
    want_out = run(original, "output:0", feed)
    # One case also goes through text files (--frozen_graph=false).
    runs = [(False, False), (True, False)] + ([(False, True)] if case == TEXT_CASE else [])
    for toco, text in runs:
        label = case + (" (toco_compatible)" if toco else "") + (" (text)" if text else "")
        want = tf_optimize(original, inputs, outputs, toco)
        ok, how = close(want_out, run(want, "output:0", feed))
        if not ok:
            fail("%s: TensorFlow's optimized graph is off the original: %s" % (label, how))
        if frost_cmd is None:
            print("%s: %d -> %d nodes (TensorFlow only: %s)"
                  % (label, len(original.node), len(want.node),
                     " ".join(sorted({n.op for n in want.node}))))
            continue
        got = frost_optimize(frost_cmd, original, inputs, outputs, toco, text)
        notes = compare(label, want, got, outputs, toco)
        ok, how = close(want_out, run(got, "output:0", feed, label + ": Frost's graph"))
        if not ok:
            fail("%s: Frost's optimized graph is off the original: %s" % (label, how))
        print("%s: %d -> %d nodes, same nodes as TensorFlow's%s; outputs equal (%s)"
              % (label, len(original.node), len(got.node),
                 "".join("; allowed: " + n for n in notes), how))


def check_b(case, frost_cmd):
    start = time.time()
    tf.keras.utils.set_random_seed(1)
    model, shape = PART_B[case]()
    norms = randomize_batch_norms(model)
    original, inp, out, shape = freeze_v2(model, shape)
    rng = np.random.RandomState(7)
    feed = {inp + ":0": rng.randn(*shape).astype(np.float32)}
    want_out = run(original, out + ":0", feed)
    rsqrt = count_ops(original, ("Rsqrt",))
    # Each BatchNormalization layer freezes to one decomposed batch norm with
    # one Rsqrt: the count of those is the count of batch norms to fold.
    if norms == 0 or rsqrt != norms:
        fail("%s: expected one Rsqrt per BatchNormalization (%d layers, %d Rsqrt)"
             % (case, norms, rsqrt))

    ref = tf_optimize(original, [inp], [out], False)
    ok, how = close(want_out, run(ref, out + ":0", feed))
    if not ok:
        fail("%s: TensorFlow's optimized graph is off the original: %s" % (case, how))
    info = ("TensorFlow's tool: %d nodes, %d Rsqrt and %d batch norms left"
            % (len(ref.node), count_ops(ref, ("Rsqrt",)), count_ops(ref, BATCH_NORMS)))
    if frost_cmd is None:
        print("%s: %d BatchNormalization layers, %d nodes; %s (%.0fs)"
              % (case, norms, len(original.node), info, time.time() - start))
        return
    got = frost_optimize(frost_cmd, original, [inp], [out], False)
    left = count_ops(got, BATCH_NORMS + ("Rsqrt",))
    if left:
        fail("%s: Frost's output still has %d batch norm/Rsqrt nodes: %s" % (
            case, left, sorted(n.name for n in got.node if n.op in BATCH_NORMS + ("Rsqrt",))))
    ok, how = close(want_out, run(got, out + ":0", feed, case + ": Frost's graph"))
    if not ok:
        fail("%s: Frost's optimized graph is off the original: %s" % (case, how))
    print("%s: %d -> %d nodes, %d batch norms folded, none left; outputs equal (%s); %s (%.0fs)"
          % (case, len(original.node), len(got.node), rsqrt, how, info, time.time() - start))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--frost", default="optimize-for-inference",
                   help="the command to test (split on spaces)")
    p.add_argument("--tf-only", action="store_true")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("cases", nargs="*")
    args = p.parse_args()
    frost_cmd = None if args.tf_only else args.frost.split()
    cases = []
    for c in args.cases:
        if c in ("all", "all-a"):
            cases += list(PART_A)
        if c in ("all", "all-b"):
            cases += list(PART_B)
        if c not in ("all", "all-a", "all-b"):
            cases.append(c)
    try:
        if args.self_test:
            self_test()
        for case in cases:
            if case in PART_A:
                check_a(case, frost_cmd)
            elif case in PART_B:
                check_b(case, frost_cmd)
            else:
                fail("unknown case " + case)
            sys.stdout.flush()
    except Mismatch as e:
        print("FAIL: %s" % e)
        sys.exit(1)


if __name__ == "__main__":
    main()
