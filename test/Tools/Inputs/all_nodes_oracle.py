#!/usr/bin/env python3
"""Freezes a TF1 training graph with every node as an output, as
freeze_graph.py does when asked to keep Assign, optimizer updates, the Saver
and the initializers, with TensorFlow and with freeze-graph.

    all_nodes_oracle.py WORKDIR

The model: resource variables (w, b) and a reference variable (r), a
GradientDescent train op, the initializer and a Saver, trained one step and
saved. TensorFlow's convert_variables_to_constants on the list of all node
names turns the variables into Consts and leaves the ops writing them: its
graph does not import. freeze-graph refuses the same freeze (printed), and
with --drop-variable-writes keeps every node TensorFlow keeps, in the same
order, with the same op, inputs and attributes, except that each op writing
a frozen variable is a NoOp with its control inputs and each
"is it initialized" check is Const true. Frost's graph imports and computes
`y` as the trained session does. Prints one line per finding; exits 1 with
the first difference.
"""
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.core.protobuf import meta_graph_pb2  # noqa: E402

V1 = tf.compat.v1
V1.disable_v2_behavior()
V1.logging.set_verbosity(V1.logging.ERROR)

WRITERS = {"AssignVariableOp", "ResourceApplyGradientDescent", "Assign",
           "ApplyGradientDescent"}
INIT_CHECKS = {"VarIsInitializedOp", "IsVariableInitialized"}


def fail(message):
    print("MISMATCH " + message)
    sys.exit(1)


def build(prefix):
    graph = tf.Graph()
    with graph.as_default():
        V1.set_random_seed(3)
        x = V1.placeholder(tf.float32, [None, 3], name="x")
        w = V1.Variable(V1.random_normal([3, 2]), name="w", use_resource=True)
        b = V1.Variable(tf.zeros([2]), name="b", use_resource=True)
        r = V1.Variable([0.5, -0.5], name="r", use_resource=False)
        y = tf.add(tf.matmul(x, w) + b, r, name="y")
        loss = tf.reduce_mean(tf.square(y), name="loss")
        train = V1.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        init = V1.global_variables_initializer()
        saver = V1.train.Saver()
        feed = {x: np.arange(6, dtype=np.float32).reshape(2, 3) / 6}
        with V1.Session(graph=graph) as sess:
            sess.run(init)
            sess.run(train, feed)
            saver.save(sess, prefix)
            names = [n.name for n in graph.as_graph_def().node]
            graph_def = meta_graph(prefix).graph_def
            for node in graph_def.node:
                node.device = ""  # freeze_graph.py's clear_devices
            want = V1.graph_util.convert_variables_to_constants(sess, graph_def, names)
            y_value = sess.run(y, feed)
    return names, want, feed[x], y_value


def meta_graph(prefix):
    return meta_graph_pb2.MetaGraphDef.FromString(open(prefix + ".meta", "rb").read())


def freeze(prefix, names, out, *flags):
    return subprocess.run(["freeze-graph", prefix, "--outputs", ",".join(names), "-o", out,
                           *flags], capture_output=True, text=True)


def import_error(graph_def):
    try:
        with tf.Graph().as_default():
            tf.graph_util.import_graph_def(graph_def, name="")
        return None
    except ValueError as e:
        return str(e).splitlines()[0]


def main():
    workdir = sys.argv[1]
    prefix = os.path.join(workdir, "model.ckpt")
    names, want, x, y_value = build(prefix)
    print("model: %d nodes, all of them outputs" % len(names))
    print("tensorflow: %s" % (import_error(want) or "imports"))

    refused = os.path.join(workdir, "refused.pb")
    proc = freeze(prefix, names, refused)
    if proc.returncode == 0 or os.path.exists(refused):
        fail("freeze-graph froze the writes without --drop-variable-writes")
    print("frost refuses: " + proc.stderr.strip().splitlines()[-1])

    out = os.path.join(workdir, "frozen.pb")
    proc = freeze(prefix, names, out, "--drop-variable-writes", "--verify", "--allow-unchecked")
    if proc.returncode != 0:
        fail("freeze-graph --drop-variable-writes failed:\n" + proc.stderr)
    got = graph_pb2.GraphDef.FromString(open(out, "rb").read())
    if [n.name for n in want.node] != [n.name for n in got.node]:
        fail("node lists differ\n  tensorflow: %s\n  frost: %s"
             % ([n.name for n in want.node], [n.name for n in got.node]))
    same, dropped, checks = 0, [], []
    for a, b in zip(want.node, got.node):
        where = "node '%s' (%s)" % (a.name, a.op)
        if a.op in WRITERS and b.op == "NoOp":
            if list(b.input) != [i for i in a.input if i.startswith("^")] or b.attr:
                fail("%s: the NoOp should keep only the control inputs %s" % (where, b))
            dropped.append(a.op)
        elif a.op in INIT_CHECKS and b.op == "Const":
            if b.input or not tf.make_ndarray(b.attr["value"].tensor):
                fail("%s: expected Const true, got %s" % (where, b))
            checks.append(a.op)
        elif (a.op, list(a.input), a.device) != (b.op, list(b.input), b.device):
            fail("%s differs\n  tensorflow: %s\n  frost: %s" % (where, a, b))
        elif sorted(a.attr) != sorted(b.attr) or any(
                a.attr[k].SerializeToString(deterministic=True)
                != b.attr[k].SerializeToString(deterministic=True)
                and not (k == "value" and np.array_equal(tf.make_ndarray(a.attr[k].tensor),
                                                         tf.make_ndarray(b.attr[k].tensor)))
                for k in a.attr):
            fail("%s: attributes differ\n  tensorflow: %s\n  frost: %s" % (where, a, b))
        else:
            same += 1
    print("frost --drop-variable-writes: same %d nodes in the same order; %d identical, "
          "%d writers made NoOps (%s), %d initialization checks made Const true"
          % (len(got.node), same, len(dropped), ", ".join(sorted(set(dropped))), len(checks)))
    error = import_error(got)
    if error:
        fail("Frost's graph does not import: " + error)
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(got, name="")
        with V1.Session(graph=g) as sess:
            y = sess.run("y:0", {"x:0": x})
    if not np.array_equal(y, y_value):
        fail("y is %r, the trained session computes %r" % (y, y_value))
    print("frost: imports; y as the trained session computes it")


if __name__ == "__main__":
    main()
