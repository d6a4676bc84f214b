"""Checks frost-opt's graph_transforms passes against TensorFlow.

    graph_transforms_oracle.py PASS

A TF1 graph with what graph_transforms' users feed it: Identity and
CheckNumerics nodes, control dependencies, a tf.cond whose branches are bare
constants (they hang off the branch pivots by control inputs), a tf.while_loop,
a Split read through `:1`, and the same computation built twice. PASS (one of
the transforms below) runs on it through frost-opt; the result must import
into TensorFlow and give exactly (bit for bit) what the original gives on the
same inputs, for both predicate values and several batches. Each pass must
also have done its work (nodes removed, merged, renamed, ordered), and where
graph_transforms' behaviour is fully described by its source (node order of
sort_by_execution_order, names of obfuscate_names) Frost's output must equal
a Python emulation of it; where graph_transforms breaks this graph
(remove_nodes bypasses the cond's pivots: wrong values; remove_control_
dependencies takes the loop's constants out of its frame: an error), the
emulation must show it.

Prints "PASS matches TensorFlow on N cases" on success.
"""
import os
import random
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402

tf1 = tf.compat.v1
tf1.disable_v2_behavior()  # TF1 control flow: Switch/Merge, not If/While

# Run graphs as written: Grappler and the classic optimizer reorder float
# arithmetic differently depending on what is fetched and what is constant.
CONFIG = tf1.ConfigProto()
CONFIG.graph_options.rewrite_options.disable_meta_optimizer = True
CONFIG.graph_options.optimizer_options.opt_level = tf1.OptimizerOptions.L0
CONFIG.graph_options.optimizer_options.do_constant_folding = False

INPUTS = ["x", "pred"]
OUTPUTS = ["out"]


def build():
    rng = np.random.RandomState(3)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 4], name="x")
        pred = tf1.placeholder(tf.bool, [], name="pred")
        w = tf.constant(rng.randn(4, 4).astype(np.float32), name="w")
        h = tf.identity(tf.matmul(x, w), name="h")
        h = tf.debugging.check_numerics(h, "h is not finite", name="check")
        # The same computation twice, from equal constants.
        b1 = tf.constant(np.arange(4, dtype=np.float32), name="b1")
        b2 = tf.constant(np.arange(4, dtype=np.float32), name="b2")
        y1 = tf.nn.relu(h + b1, name="y1")
        y2 = tf.nn.relu(h + b2, name="y2")
        # A cond whose branches are constants: only the pivots' control
        # inputs decide which one reaches the Merge.
        k = tf.cond(pred, lambda: tf.constant(2.0), lambda: tf.constant(-3.0), name="k")
        k = tf.identity(k, name="k_id")
        with tf.control_dependencies([tf.debugging.assert_all_finite(y1, "y1")]):
            y1 = tf.identity(y1, name="y1_checked")
        # A while loop with a constant in its body.
        _, acc = tf1.while_loop(lambda i, a: i < 3,
                                lambda i, a: (i + 1, tf.identity(a * 0.5 + 1.0)),
                                [tf.constant(0), y2], name="loop")
        parts = tf.split(acc, 2, axis=1, name="split")
        second = tf.identity(parts[1], name="second")
        tf.identity(tf.concat([y1 * k, second, parts[0]], 1), name="out")
    return g.as_graph_def()


def fail(message):
    print("MISMATCH " + message)
    sys.exit(1)


def run_graph(graph_def, feeds):
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        with tf1.Session(graph=g, config=CONFIG) as sess:
            return [sess.run("out:0", feed) for feed in feeds]


def frost(graph_def, pipeline):
    with tempfile.TemporaryDirectory() as workdir:
        src, out = os.path.join(workdir, "in.pb"), os.path.join(workdir, "out.pb")
        open(src, "wb").write(graph_def.SerializeToString())
        subprocess.run(["frost-opt", src, "--pass-pipeline=" + pipeline, "-o", out],
                       check=True, stderr=subprocess.DEVNULL)
        return graph_pb2.GraphDef.FromString(open(out, "rb").read())


def frost_transform_graph(graph_def, transforms):
    """transform-graph, as TensorFlow's transform_graph is called."""
    with tempfile.TemporaryDirectory() as workdir:
        src, out = os.path.join(workdir, "in.pb"), os.path.join(workdir, "out.pb")
        open(src, "wb").write(graph_def.SerializeToString())
        subprocess.run(["transform-graph", "--in_graph=" + src, "--out_graph=" + out,
                        "--inputs=" + ",".join(INPUTS), "--outputs=" + ",".join(OUTPUTS),
                        "--transforms=" + transforms], check=True, stderr=subprocess.DEVNULL)
        return graph_pb2.GraphDef.FromString(open(out, "rb").read())


def node_name(text):
    return text.lstrip("^").split(":")[0]


def tf_sort_by_execution_order(graph_def):
    """graph_transforms' SortByExecutionOrder (transform_utils.cc), emulated."""
    nodes = list(graph_def.node)
    index = {n.name: i for i, n in enumerate(nodes)}
    pending, consumers, ready = [], [[] for _ in nodes], []
    for i, n in enumerate(nodes):
        if n.op in ("Merge", "RefMerge", "_XlaMerge"):
            pending.append(sum(1 for s in n.input if s.startswith("^")) + 1)
        else:
            pending.append(len(n.input))
        if not n.input:
            ready.append(i)
        for s in n.input:
            consumers[index[node_name(s)]].append(i)
    order = []
    while ready:
        i = ready.pop()
        order.append(nodes[i].name)
        for c in consumers[i]:
            pending[c] -= 1
            if pending[c] == 0:
                ready.append(c)
    return order


def tf_obfuscated_names(graph_def, kept):
    """graph_transforms' ObfuscateNames naming, emulated."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz" "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names, counter = [], 0
    for n in graph_def.node:
        if n.name in kept:
            names.append(n.name)
            continue
        while True:
            value, name = counter, ""
            while True:
                name = digits[value % 62] + name
                value //= 62
                if value <= 0:
                    break
            counter += 1
            if name not in kept:
                break
        names.append(name)
    return names


def tf_remove_nodes(graph_def, ops, kept):
    """graph_transforms' remove_nodes (remove_nodes.cc), emulated for nodes
    with one data input: readers of `n` or `n:0` read its input, `^n`
    becomes `^input`, its control inputs are dropped."""
    out = graph_pb2.GraphDef()
    out.CopyFrom(graph_def)
    changed = True
    while changed:
        changed = False
        for n in out.node:
            data = [s for s in n.input if not s.startswith("^")]
            if n.op not in ops or len(data) != 1 or n.name in kept:
                continue
            for m in out.node:
                for i, s in enumerate(m.input):
                    if s in (n.name, n.name + ":0"):
                        m.input[i] = data[0]
                    elif s == "^" + n.name:
                        m.input[i] = "^" + node_name(data[0])
            out.node.remove(n)
            changed = True
            break
    return out


def tf_remove_control_dependencies(graph_def):
    """graph_transforms' remove_control_dependencies, emulated."""
    out = graph_pb2.GraphDef()
    out.CopyFrom(graph_def)
    for n in out.node:
        data = [s for s in n.input if not s.startswith("^")]
        del n.input[:]
        n.input.extend(data)
    return out


def breaks(graph_def, feeds, want):
    """Whether a graph fails or computes something else than `want`."""
    try:
        have = run_graph(graph_def, feeds)
    except tf.errors.OpError:
        return True
    return any(w.tobytes() != h.tobytes() for w, h in zip(want, have))


def count_ops(graph_def, op):
    return sum(1 for n in graph_def.node if n.op == op)


def main():
    pass_name = sys.argv[1]
    original = build()
    protect = "inputs=%s,outputs=%s" % (";".join(INPUTS), ";".join(OUTPUTS))
    source = original
    if pass_name == "remove-nodes":
        got = frost(original, "remove-nodes{op=Identity;CheckNumerics,%s}" % protect)
        if count_ops(got, "CheckNumerics") != 0:
            fail("a CheckNumerics is left")
        if count_ops(got, "Identity") >= count_ops(original, "Identity"):
            fail("no Identity removed")
    elif pass_name == "strip-unused-nodes":
        # `h` (an Identity) becomes a [None, 4] float Placeholder: fed with
        # the value the original computes there, the outputs are the same.
        got = frost(original, 'strip-unused-nodes{inputs=h;pred,outputs=out,shape="-1,4"}')
        if any(n.name == "w" for n in got.node):
            fail("the input's own inputs were kept")
        h_node = [n for n in got.node if n.name == "h"][0]
        if h_node.op != "Placeholder" or list(h_node.input):
            fail("h is no Placeholder")
    elif pass_name == "merge-duplicate-nodes":
        got = frost(original, "merge-duplicate-nodes{%s}" % protect)
        names = {n.name for n in got.node}
        if "b2" in names or "y2" in names:
            fail("the duplicate constant and relu were not merged")
    elif pass_name == "sort-by-execution-order":
        shuffled = graph_pb2.GraphDef()
        shuffled.CopyFrom(original)
        nodes = list(shuffled.node)
        random.Random(5).shuffle(nodes)
        del shuffled.node[:]
        shuffled.node.extend(nodes)
        source = shuffled
        got = frost(shuffled, "sort-by-execution-order")
        want = tf_sort_by_execution_order(shuffled)
        if [n.name for n in got.node] != want:
            fail("order differs from graph_transforms'")
    elif pass_name == "obfuscate-names":
        got = frost(original, "obfuscate-names{%s}" % protect)
        want = tf_obfuscated_names(original, set(INPUTS + OUTPUTS))
        if [n.name for n in got.node] != want:
            fail("names differ from graph_transforms'")
    elif pass_name == "remove-control-dependencies":
        got = frost(original, "remove-control-dependencies")
        before = sum(1 for n in original.node for s in n.input if s.startswith("^"))
        after = sum(1 for n in got.node for s in n.input if s.startswith("^"))
        if not 0 < after < before:
            fail("expected some control inputs removed and the pivots' kept (%d -> %d)"
                 % (before, after))
    elif pass_name == "transform-graph":
        # The transforms of graph_transforms' README that Frost has, as the
        # README spells them.
        got = frost_transform_graph(original, """
            add_default_attributes
            remove_nodes(op=Identity, op=CheckNumerics)
            fold_constants(ignore_errors=true)
            merge_duplicate_nodes
            sort_by_execution_order""")
        if count_ops(got, "CheckNumerics") != 0:
            fail("a CheckNumerics is left")
        if any(n.name in ("b2", "y2") for n in got.node):
            fail("the duplicate constant and relu were not merged")
        if got.versions.producer != original.versions.producer:
            fail("versions not kept")
    else:
        fail("unknown pass " + pass_name)

    rng = np.random.RandomState(11)
    feeds = []
    for pred in (False, True):
        for _ in range(3):
            feeds.append({"x:0": rng.randn(2, 4).astype(np.float32), "pred:0": pred})
    want = run_graph(source, feeds)
    if pass_name == "strip-unused-nodes":
        with tf.Graph().as_default() as g:
            tf1.import_graph_def(original, name="")
            with tf1.Session(graph=g, config=CONFIG) as sess:
                feeds = [{"h:0": sess.run("h:0", f), "pred:0": f["pred:0"]} for f in feeds]
    # Where graph_transforms breaks this graph, Frost's pass must differ.
    if pass_name == "remove-nodes":
        tf_version = tf_remove_nodes(original, {"Identity", "CheckNumerics"},
                                     set(INPUTS + OUTPUTS))
        if not breaks(tf_version, feeds, want):
            fail("graph_transforms' remove_nodes no longer breaks the cond")
    if pass_name == "remove-control-dependencies":
        if not breaks(tf_remove_control_dependencies(original), feeds, want):
            fail("graph_transforms' remove_control_dependencies no longer breaks the loop")
    have = run_graph(got, feeds)
    for i, (w, h) in enumerate(zip(want, have)):
        if w.tobytes() != h.tobytes():
            fail("case %d\n  tensorflow: %s\n  frost:      %s" % (i, w, h))
    print("%s matches TensorFlow on %d cases" % (pass_name, len(feeds)))


if __name__ == "__main__":
    main()
