"""Compares frost-opt's backport-concatv2 and backport-tensor-array-v3 with
TensorFlow.

1. tf.concat along each axis (and a negative one): after backport-concatv2
   the graph holds Concat, not ConcatV2, and TensorFlow computes the same
   values from it.
2. A TF1 tf.while_loop writing a TensorArray (its handle enters the loop,
   its flow is loop-carried) then stacked, with a TensorArray gradient-free
   read: after backport-tensor-array-v3 only V2 ops remain and TensorFlow,
   which removed TensorArrayV2 at GraphDef version 26, runs the graph marked
   as produced by version 25 with the same results: the retyped Enter nodes
   and the replacement flow constants import and run.

Prints "backports match TensorFlow on N cases" on success.
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
tf1.disable_v2_behavior()  # TF1 control flow and TensorArrayV3


def frost(graph, pipeline, workdir):
    src = os.path.join(workdir, "in.pb")
    out = os.path.join(workdir, "out.pb")
    open(src, "wb").write(graph.SerializeToString())
    result = subprocess.run(["frost-opt", src, "--pass-pipeline=" + pipeline, "-o", out],
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:  # warnings are expected (identical_element_shapes)
        sys.exit("frost-opt: %s" % result.stderr)
    return graph_pb2.GraphDef.FromString(open(out, "rb").read())


def run(graph, feeds, fetch):
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(graph, name="")
        with tf1.Session(graph=g) as sess:
            return sess.run(fetch, {k + ":0": v for k, v in feeds.items()})


def concat_graph(axis):
    g = tf.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.float32, [2, 3, 4], name="a")
        b = tf1.placeholder(tf.float32, [2, 3, 4], name="b")
        tf.identity(tf.concat([a, b * 2.0, a], axis), name="out")
    return g.as_graph_def()


def tensor_array_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [3], name="x")
        ta = tf.TensorArray(tf.float32, size=4, element_shape=[3], clear_after_read=False)

        def body(i, ta):
            return i + 1, ta.write(i, x * tf.cast(i, tf.float32))

        _, ta = tf1.while_loop(lambda i, _: i < 4, body, [tf.constant(0), ta])
        tf.identity(ta.stack(), name="out")
        tf.identity(ta.read(2), name="read")
        tf.identity(ta.size(), name="size")
    return g.as_graph_def()


def main():
    rng = np.random.RandomState(5)
    checked = 0
    with tempfile.TemporaryDirectory() as workdir:
        for axis in (0, 1, 2, -1):
            graph = concat_graph(axis)
            back = frost(graph, "backport-concatv2", workdir)
            ops = [n.op for n in back.node]
            if "ConcatV2" in ops or "Concat" not in ops:
                sys.exit("axis %d: ops after the backport: %s" % (axis, ops))
            feeds = {"a": rng.randn(2, 3, 4).astype(np.float32),
                     "b": rng.randn(2, 3, 4).astype(np.float32)}
            if not np.array_equal(run(graph, feeds, "out:0"), run(back, feeds, "out:0")):
                sys.exit("axis %d: values differ" % axis)
            checked += 1

        graph = tensor_array_graph()
        assert any(n.op == "TensorArrayV3" for n in graph.node)
        back = frost(graph, "backport-tensor-array-v3", workdir)
        v3 = [n.name for n in back.node if n.op.startswith("TensorArray") and n.op.endswith("V3")]
        if v3:
            sys.exit("V3 ops left: %s" % v3)
        back.versions.producer = 25
        back.versions.min_consumer = 0
        for _ in range(3):
            feeds = {"x": rng.randn(3).astype(np.float32)}
            fetch = ["out:0", "read:0", "size:0"]
            want, got = run(graph, feeds, fetch), run(back, feeds, fetch)
            for w, o in zip(want, got):
                if not np.array_equal(w, o):
                    sys.exit("tensor array: TensorFlow gives %s, Frost's graph %s" % (want, got))
            checked += 1
    print("backports match TensorFlow on %d cases" % checked)


if __name__ == "__main__":
    main()
