"""fold_old_batch_norms' concat pattern checked in TensorFlow.

    concat_batch_norm_oracle.py TRANSFORM_GRAPH

graph_transforms' fold_old_batch_norms also folds a batch norm after a
ConcatV2 of two convolutions (its test: two Conv2D joined on the channel
axis, then FusedBatchNorm). The graphs here, each frozen TF1 code with random
weights and batch norm statistics:
  channels   Conv2D (3 filters) and Conv2D (5 filters) joined on axis 3,
             FusedBatchNorm over the 8 channels;
  minus-one  the same, axis -1, FusedBatchNormV3, the second conv behind a
             BiasAdd;
  three      three convolutions (one DepthwiseConv2dNative) on axis 3;
  height     two convolutions of 4 channels joined along H (axis 1): every
             convolution takes all of the norm's parameters.
Each goes through `transform-graph --transforms=remove_nodes(op=Identity)
fold_old_batch_norms` (the weights are Consts, not their Identity reads); the
result must have no batch norm and no convolution reading the old weights,
the concat named as the norm, and compute the original's output in
TensorFlow within 1e-5 relative (+1e-6 of the largest output). Prints one
line per graph.
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


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def build(case):
    rng = np.random.RandomState(11)
    g = tf.Graph()
    with g.as_default():
        def var(name, shape, low=None, high=None):
            value = rng.randn(*shape) if low is None else rng.uniform(low, high, shape)
            return tf1.Variable(value.astype(np.float32), name=name)
        x = tf1.placeholder(tf.float32, [2, 6, 6, 3], name="input")
        conv = lambda name, n: tf.nn.conv2d(x, var(name + "/w", [3, 3, 3, n]), 1, "SAME",
                                            name=name)
        if case == "channels":
            parts, axis = [conv("a", 3), conv("b", 5)], 3
        elif case == "minus-one":
            parts, axis = [conv("a", 3), tf.nn.bias_add(conv("b", 5), var("b/bias", [5]),
                                                          name="b/bias_add")], -1
        elif case == "three":
            dw = tf.nn.depthwise_conv2d(x, var("c/w", [3, 3, 3, 2]), [1, 1, 1, 1], "SAME",
                                        name="c")
            parts, axis = [conv("a", 3), conv("b", 5), dw], 3
        else:
            parts, axis = [conv("a", 4), conv("b", 4)], 1
        joined = tf.concat(parts, axis, name="concat")
        n = joined.shape[-1]
        gamma, beta = var("bn/gamma", [n], .5, 1.5), var("bn/beta", [n])
        mean, variance = var("bn/mean", [n]), var("bn/var", [n], .5, 2.)
        op = tf.raw_ops.FusedBatchNormV3 if case == "minus-one" else tf.raw_ops.FusedBatchNorm
        y = op(x=joined, scale=gamma, offset=beta, mean=mean, variance=variance,
               epsilon=1e-3, is_training=False, name="bn")[0]
        tf.nn.relu(y, name="output")
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            return tf1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["output"])


def run(graph_def, x):
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        with tf1.Session(graph=g, config=CONFIG) as sess:
            return sess.run("output:0", {"input:0": x})


def main():
    tool = sys.argv[1]
    x = np.random.RandomState(3).randn(2, 6, 6, 3).astype(np.float32)
    for case in ("channels", "minus-one", "three", "height"):
        original = build(case)
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "in.pb"), os.path.join(tmp, "out.pb")
            open(src, "wb").write(original.SerializeToString())
            p = subprocess.run([tool, "--in_graph=" + src, "--out_graph=" + dst,
                                "--inputs=input", "--outputs=output",
                                "--transforms=remove_nodes(op=Identity) fold_old_batch_norms"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                fail("%s: transform-graph exits %d: %s" % (case, p.returncode, p.stderr.strip()))
            folded = graph_pb2.GraphDef.FromString(open(dst, "rb").read())
        norms = [n.name for n in folded.node if "BatchNorm" in n.op]
        if norms:
            fail("%s: batch norms left: %s (%s)" % (case, norms, p.stderr.strip()))
        nodes = {n.name: n for n in folded.node}
        if nodes["bn"].op != "ConcatV2":
            fail("%s: 'bn' is %s, not the concat" % (case, nodes["bn"].op))
        want = run(original, x)
        got = run(folded, x)
        diff = np.abs(got - want)
        limit = 1e-5 * np.abs(want) + 1e-6 * np.max(np.abs(want))
        if np.any(diff > limit):
            fail("%s: the folded graph computes the original's output within %.3g only"
                 % (case, float(np.max(diff))))
        print("%s: %d -> %d nodes, no batch norm, %d BiasAdds into the concat; outputs equal "
              "(max diff %.2g)" % (case, len(original.node), len(folded.node),
                                   sum(i.split(":")[0] in nodes and nodes[i.split(":")[0]].op
                                       == "BiasAdd" for i in nodes["bn"].input), float(diff.max())))


if __name__ == "__main__":
    main()
