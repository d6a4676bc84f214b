#!/usr/bin/env python3
"""A TF1-style graph built under TensorFlow 2 (tf.compat.v1, control flow v2:
tf.cond makes an If, tf.switch_case a Case), frozen by freeze-graph with
--bind is_training=false, run in TensorFlow.

    constant_branches_oracle.py WORKDIR

The model: x -> MatMul -> a batch norm whose statistics come from
tf.cond(is_training, batch moments + moving-average updates
(AssignMovingAvg: AssignSubVariableOp in the true branch), moving averages)
-> tf.switch_case(mode, [*2, relu, -1]) -> tf.switch_case(index computed
from is_training, [+1, *3]) -> softmax; is_training and mode are
placeholder_with_default (True, 1). Trained one step, saved.

Frozen four ways; each frozen graph is imported and run by TensorFlow and its
softmax compared with the original graph's run with is_training=False (and
the same mode) within 1e-6:
  optimized  --bind is_training=false --optimize --verify --allow-unchecked
  plain      --bind is_training=false --verify --allow-unchecked
  mode7      --bind is_training=false --bind mode=7 --optimize --verify
             --allow-unchecked (an index out
             of range runs the last branch, as Case does)
  dropped    --drop-variable-writes, no --bind: the training branch stays,
             its AssignSubVariableOps made NoOps (compared with the original's
             training run, whose output uses the batch's moments)
  unbound    no --bind: refused (the training branch writes frozen
             variables), no file written
One line per freeze: the ops left of If/StatelessIf/Case/StatelessCase and
of the variable writers, the library's functions and how many of them
nothing calls. Exits 1 with the first mismatch.
"""
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.python.training import moving_averages  # noqa: E402

V1 = tf.compat.v1
CONTROL_FLOW = {"If", "StatelessIf", "Case", "StatelessCase"}
WRITERS = {"AssignVariableOp", "AssignSubVariableOp", "AssignAddVariableOp"}
MODES = [0, 1, 2, 7]


def fail(message):
    print("MISMATCH " + message)
    sys.exit(1)


def build(prefix):
    """Saves the model; returns x and softmax for is_training=False per mode."""
    graph = tf.Graph()
    with graph.as_default():
        V1.set_random_seed(1)
        x = V1.placeholder(tf.float32, [None, 4], name="x")
        is_training = V1.placeholder_with_default(True, [], name="is_training")
        mode = V1.placeholder_with_default(1, [], name="mode")
        h = tf.matmul(x, V1.get_variable("w", [4, 3], use_resource=True))
        mean_var = V1.get_variable("bn/moving_mean", [3], trainable=False, use_resource=True,
                                   initializer=V1.zeros_initializer())
        variance_var = V1.get_variable("bn/moving_variance", [3], trainable=False,
                                       use_resource=True, initializer=V1.ones_initializer())

        def train():
            mean, variance = tf.nn.moments(h, [0])
            updates = [moving_averages.assign_moving_average(mean_var, mean, 0.9, False),
                       moving_averages.assign_moving_average(variance_var, variance, 0.9, False)]
            with tf.control_dependencies(updates):
                return tf.identity(mean), tf.identity(variance)

        mean, variance = tf.cond(is_training, train,
                                 lambda: (mean_var.read_value(), variance_var.read_value()))
        y = tf.nn.batch_normalization(h, mean, variance, None, None, 1e-3)
        y = tf.switch_case(mode, [lambda: y * 2.0, lambda: tf.nn.relu(y), lambda: y - 1.0])
        index = tf.cast(tf.logical_not(is_training), tf.int32)
        y = tf.switch_case(index, [lambda: y + 1.0, lambda: y * 3.0])
        softmax = tf.nn.softmax(y, name="softmax")
        ops = {n.op for n in graph.as_graph_def().node}
        if not {"If", "Case"} <= ops and not {"If", "StatelessCase"} <= ops:
            fail("TensorFlow built no functional control flow: %s" % sorted(ops))
        feed_x = np.random.RandomState(0).rand(5, 4).astype(np.float32)
        with V1.Session(graph=graph) as sess:
            sess.run(V1.global_variables_initializer())
            # Training uses the batch's moments (and moves the averages).
            want = {"training": sess.run(softmax, {x: feed_x})}
            V1.train.Saver().save(sess, prefix)
            want.update({m: sess.run(softmax, {x: feed_x, is_training: False, mode: m})
                         for m in MODES})
    return feed_x, want


def freeze(prefix, out, *flags):
    return subprocess.run(["freeze-graph", prefix, "--outputs", "softmax", "-o", out, *flags],
                          capture_output=True, text=True)


def called_functions(graph_def):
    """Names of the library functions the graph's nodes reach."""
    library = {f.signature.name: f for f in graph_def.library.function}
    reached, work = set(), []

    def use(name):
        if name in library and name not in reached:
            reached.add(name)
            work.append(library[name])

    def use_node(node):
        use(node.op)
        for value in node.attr.values():
            if value.HasField("func"):
                use(value.func.name)
            for func in value.list.func:
                use(func.name)

    for node in graph_def.node:
        use_node(node)
    while work:
        for node in work.pop().node_def:
            use_node(node)
    return reached


def check(name, path, feed_x, want, modes):
    got = graph_pb2.GraphDef.FromString(open(path, "rb").read())
    ops = [n.op for n in got.node] + [n.op for f in got.library.function for n in f.node_def]
    control_flow = sorted(op for op in ops if op in CONTROL_FLOW)
    writers = sorted(op for op in ops if op in WRITERS)
    functions = len(got.library.function)
    unused = functions - len(called_functions(got))
    worst = 0.0
    with tf.Graph().as_default() as graph:
        tf.graph_util.import_graph_def(got, name="")
        has_mode = any(n.name == "mode" for n in got.node)
        with V1.Session(graph=graph) as sess:
            for m in modes:
                feed = {"x:0": feed_x}
                if has_mode and m != "training":
                    feed["mode:0"] = m
                y = sess.run("softmax:0", feed)
                worst = max(worst, float(np.max(np.abs(y - want[m]))))
    if worst > 1e-6:
        fail("%s: softmax differs from TensorFlow's by %g" % (name, worst))
    print("%s: control flow left %s, writers left %s, %d functions (%d unused); "
          "TensorFlow runs it, softmax as the original for mode %s"
          % (name, control_flow or "none", writers or "none", functions, unused,
             ",".join(map(str, modes))))


def main():
    workdir = sys.argv[1]
    prefix = os.path.join(workdir, "model.ckpt")
    feed_x, want = build(prefix)

    runs = [("dropped", ["--drop-variable-writes"], ["training"]),
            ("optimized", ["--bind", "is_training=false", "--optimize", "--verify",
                           "--allow-unchecked"], MODES[:3]),
            ("plain", ["--bind", "is_training=false", "--verify", "--allow-unchecked"], MODES[:3]),
            ("mode7", ["--bind", "is_training=false", "--bind", "mode=7", "--optimize", "--verify",
                       "--allow-unchecked"], [7])]
    for name, flags, modes in runs:
        out = os.path.join(workdir, name + ".pb")
        proc = freeze(prefix, out, *flags)
        if proc.returncode != 0:
            fail("%s: freeze-graph failed:\n%s" % (name, proc.stderr))
        if "--verify" in flags:
            verdict = [l for l in proc.stderr.splitlines() if l.startswith("freeze-graph --verify:")]
            print("%s: %s" % (name, verdict[-1] if verdict else "no verdict"))
        check(name, out, feed_x, want, modes)

    out = os.path.join(workdir, "unbound.pb")
    proc = freeze(prefix, out)
    if proc.returncode == 0 or os.path.exists(out):
        fail("unbound: freeze-graph froze the training branch's writes")
    print("unbound: refused: " + proc.stderr.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
