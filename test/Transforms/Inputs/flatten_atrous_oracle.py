"""Compares frost-opt's flatten-atrous-conv with TensorFlow.

TF1 graphs with atrous convolutions as TensorFlow builds them
(SpaceToBatchND -> Conv2D/DepthwiseConv2dNative -> BatchToSpaceND):
tf.nn.atrous_conv2d with padding SAME and VALID, depthwise_conv2d with
dilations, with_space_to_batch with different rates per dimension, on
inputs whose sizes the block does not divide (so crops are not zero). Frost's
output must have no SpaceToBatchND/BatchToSpaceND left and, run by
TensorFlow on the same random batches, give the original graph's output
(same shape, equal up to float rounding: the sums are ordered differently).

Prints "flatten-atrous-conv matches TensorFlow on N cases" on success.
"""
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402

tf1 = tf.compat.v1
tf1.disable_v2_behavior()

CONFIG = tf1.ConfigProto()
CONFIG.graph_options.rewrite_options.disable_meta_optimizer = True
CONFIG.graph_options.optimizer_options.opt_level = tf1.OptimizerOptions.L0
CONFIG.graph_options.optimizer_options.do_constant_folding = False


def conv(rate, padding, x_shape, f_shape):
    def build(x, f):
        return tf1.nn.atrous_conv2d(x, f, rate, padding)
    return build, x_shape, f_shape


def depthwise(rates, padding, x_shape, f_shape):
    def build(x, f):
        return tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], padding, dilations=rates)
    return build, x_shape, f_shape


def space_to_batch(rates, padding, x_shape, f_shape):
    def build(x, f):
        return tf.nn.with_space_to_batch(
            x, rates, padding,
            lambda i, _, padding: tf.nn.conv2d(i, f, [1, 1, 1, 1], padding),
            filter_shape=f_shape[:2])
    return build, x_shape, f_shape


CASES = [
    ("atrous SAME rate 2", conv(2, "SAME", [2, 9, 10, 3], [3, 3, 3, 4])),
    ("atrous VALID rate 2", conv(2, "VALID", [2, 9, 10, 3], [3, 3, 3, 4])),
    ("atrous SAME rate 3 even filter", conv(3, "SAME", [1, 11, 7, 2], [2, 4, 2, 3])),
    ("atrous VALID rate 4", conv(4, "VALID", [1, 13, 14, 2], [2, 3, 2, 2])),
    ("depthwise SAME rate 2", depthwise([2, 2], "SAME", [2, 8, 9, 3], [3, 3, 3, 2])),
    ("depthwise VALID rate 3", depthwise([3, 3], "VALID", [1, 12, 10, 2], [3, 2, 2, 1])),
    ("space_to_batch SAME rates 2,3", space_to_batch([2, 3], "SAME", [1, 10, 11, 2], [3, 3, 2, 3])),
    ("space_to_batch VALID rates 3,2", space_to_batch([3, 2], "VALID", [2, 11, 9, 2], [2, 3, 2, 2])),
]


def make_graph(build, x_shape, f_shape, rng):
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None] + x_shape[1:], name="x")
        f = tf.constant(rng.randn(*f_shape).astype(np.float32), name="filter")
        tf.identity(build(x, f), name="out")
    return g.as_graph_def()


def run(graph, x):
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(graph, name="")
        with tf1.Session(graph=g, config=CONFIG) as sess:
            return sess.run("out:0", {"x:0": x})


def frost(graph, workdir):
    src = os.path.join(workdir, "in.pb")
    out = os.path.join(workdir, "out.pb")
    open(src, "wb").write(graph.SerializeToString())
    result = subprocess.run(["frost-opt", src, "--pass-pipeline=flatten-atrous-conv", "-o", out],
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0 or result.stderr:
        sys.exit("frost-opt: %s" % result.stderr)
    return graph_pb2.GraphDef.FromString(open(out, "rb").read())


def main():
    rng = np.random.RandomState(3)
    checked = 0
    with tempfile.TemporaryDirectory() as workdir:
        for label, (build, x_shape, f_shape) in CASES:
            graph = make_graph(build, x_shape, f_shape, rng)
            ops = [n.op for n in graph.node]
            assert "SpaceToBatchND" in ops and "BatchToSpaceND" in ops, (label, ops)
            flat = frost(graph, workdir)
            left = [n.name for n in flat.node if n.op in ("SpaceToBatchND", "BatchToSpaceND")]
            if left:
                sys.exit("%s: not flattened: %s" % (label, left))
            for _ in range(3):
                x = rng.randn(*x_shape).astype(np.float32)
                want, got = run(graph, x), run(flat, x)
                if want.shape != got.shape or not np.allclose(want, got, rtol=1e-5, atol=1e-5):
                    sys.exit("%s: TensorFlow gives %s, Frost's graph %s (max diff %s)" % (
                        label, want.shape, got.shape,
                        np.abs(want - got).max() if want.shape == got.shape else "-"))
                checked += 1
    print("flatten-atrous-conv matches TensorFlow on %d cases" % checked)


if __name__ == "__main__":
    main()
