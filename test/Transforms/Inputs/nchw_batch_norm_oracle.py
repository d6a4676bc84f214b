"""optimize-for-inference on a decomposed batch norm after an NCHW convolution,
run in TensorFlow's oneDNN CPU runtime with Grappler on (its defaults).

    nchw_batch_norm_oracle.py OPTIMIZE_FOR_INFERENCE

The graph: x [2,3,5,4] NCHW -> Conv2D(NCHW, 4 filters) -> the pattern of
optimize_for_inference's fuse_decomposed_batch_norm, Add(Mul(conv, s),
Sub(beta, Mul(mean, s))), s = Rsqrt(var + eps) * gamma, with constants of
length 4 (the last axis, W, of the NCHW conv output [2,4,5,4]) -> Identity.
TensorFlow's own tool leaves it (it fuses only after NHWC convolutions).
Frost's optimized graph must keep no NHWC FusedBatchNorm over the NCHW data,
and compute the original's output in TensorFlow, with Grappler on and off,
within 1e-5 * max|output|. As a control, the graph Frost used to write (an
NHWC FusedBatchNorm over the conv's output, built here by hand) is run too:
it equals the original with Grappler off, and TensorFlow's runtime computes it
wrongly with Grappler on (printed; a TensorFlow that computes it right is
said so, not failed). NCHW Conv2D runs on CPU only with oneDNN, which this
script enables (TF_ENABLE_ONEDNN_OPTS=1, TensorFlow's default on CPUs with
AVX-512).
"""
import os
import subprocess
import sys
import tempfile

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.python.tools import optimize_for_inference_lib  # noqa: E402

tf1 = tf.compat.v1
C = 4


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def build():
    rng = np.random.RandomState(5)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2, 3, 5, C], name="input")
        w = tf.constant(rng.randn(3, 3, 3, C).astype(np.float32), name="w")
        h = tf.nn.conv2d(x, w, strides=1, padding="SAME", data_format="NCHW", name="conv")

        def const(name, low, high):
            return tf.constant(rng.uniform(low, high, [C]).astype(np.float32), name=name)
        gamma, beta = const("bn/gamma", .5, 1.5), const("bn/beta", -.5, .5)
        mean, var = const("bn/mean", -.5, .5), const("bn/var", .5, 1.5)
        eps = tf.constant(1e-3, tf.float32, name="bn/eps")
        s = tf.raw_ops.Mul(x=tf.raw_ops.Rsqrt(x=tf.raw_ops.Add(x=var, y=eps, name="bn/add"),
                                              name="bn/Rsqrt"), y=gamma, name="bn/mul")
        scaled = tf.raw_ops.Mul(x=h, y=s, name="bn/mul_1")
        shift = tf.raw_ops.Sub(x=beta, y=tf.raw_ops.Mul(x=mean, y=s, name="bn/mul_2"),
                               name="bn/sub")
        tf.identity(tf.raw_ops.Add(x=scaled, y=shift, name="bn/add_1"), name="output")
    return g.as_graph_def(), rng.randn(2, 3, 5, C).astype(np.float32)


def nhwc_fused(graph_def):
    """The graph with the site as one NHWC FusedBatchNorm over the conv."""
    out = graph_pb2.GraphDef()
    out.CopyFrom(graph_def)
    keep = [n for n in out.node if n.name in ("input", "w", "conv", "bn/gamma", "bn/beta",
                                                 "bn/mean", "bn/var", "output")]
    del out.node[:]
    out.node.extend(keep)
    bn = out.node.add(name="bn/add_1", op="FusedBatchNorm",
                      input=["conv", "bn/gamma", "bn/beta", "bn/mean", "bn/var"])
    bn.attr["T"].type = tf.float32.as_datatype_enum
    bn.attr["epsilon"].f = 1e-3
    bn.attr["is_training"].b = False
    bn.attr["data_format"].s = b"NHWC"
    return out


def run(graph_def, x, grappler):
    config = tf1.ConfigProto()
    if not grappler:
        config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        with tf1.Session(graph=g, config=config) as sess:
            return sess.run("output:0", {"input:0": x})


def main():
    tool = sys.argv[1]
    original, x = build()
    try:
        want = run(original, x, grappler=False)
    except tf.errors.UnimplementedError as e:
        print("UNSUPPORTED: this TensorFlow runs no NCHW Conv2D on CPU: %s"
              % str(e).splitlines()[0])
        return
    limit = 1e-5 * float(np.max(np.abs(want)))
    if np.max(np.abs(run(original, x, grappler=True) - want)) > limit:
        fail("the original computes differently with Grappler on")
    theirs = optimize_for_inference_lib.optimize_for_inference(
        original, ["input"], ["output"], tf.float32.as_datatype_enum)
    tf_fused = sum(n.op.startswith("FusedBatchNorm") for n in theirs.node)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.pb"), os.path.join(tmp, "out.pb")
        open(src, "wb").write(original.SerializeToString())
        p = subprocess.run([tool, "--input=" + src, "--output=" + dst, "--input_names=input",
                            "--output_names=output"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail("optimize-for-inference exits %d: %s" % (p.returncode, p.stderr.strip()))
        mine = graph_pb2.GraphDef.FromString(open(dst, "rb").read())
    norms = [n.name for n in mine.node if n.op.startswith("FusedBatchNorm")]
    if norms:
        fail("Frost fused the norm over NCHW data: %s" % norms)
    diffs = []
    for grappler in (True, False):
        diff = float(np.max(np.abs(run(mine, x, grappler) - want)))
        if diff > limit:
            fail("Frost's graph computes, with Grappler %s, the original's output within %.3g "
                 "only (limit %.3g)" % ("on" if grappler else "off", diff, limit))
        diffs.append(diff)
    old = nhwc_fused(original)
    old_off = float(np.max(np.abs(run(old, x, grappler=False) - want)))
    old_on = run(old, x, grappler=True)
    old_diff = float(np.max(np.abs(old_on - want)))
    print("nchw decomposed batch norm: TensorFlow's tool fuses %d; Frost's graph (%d nodes, "
          "warned: %s) computes the original's output with Grappler on and off (max diff %.2g, "
          "%.2g; limit %.2g)" % (tf_fused, len(mine.node), "left 'bn/add_1' alone" in p.stderr,
                                 diffs[0], diffs[1], limit))
    print("control: an NHWC FusedBatchNorm over the NCHW conv: Grappler off max diff %.2g; "
          "Grappler on %s (max diff %.3g; original's minimum %.4g, its %.4g)"
          % (old_off, "wrong" if old_diff > limit else "right (TensorFlow fixed this)",
             old_diff, float(want.min()), float(old_on.min())))


if __name__ == "__main__":
    main()
