#!/usr/bin/env python3
"""Freezes TF1 models with TensorFlow and with freeze-graph and compares them.

    freeze_oracle.py WORKDIR [CASE...]

For each case: builds a graph with tf.compat.v1 (graph mode), trains or
assigns its variables, saves a checkpoint and its .meta with a Saver; then
  TensorFlow: a Session restores the checkpoint (with the Saver the case
      names) and graph_util.convert_variables_to_constants freezes the
      .meta's graph_def, devices cleared, for the outputs (freeze_graph.py's
      steps);
  Frost: freeze-graph model --outputs ... -o frozen.pb [the case's flags].
The two GraphDefs must have the same nodes in the same order with the same
ops, inputs, devices and attributes; constants must hold the same values
(their encodings are compared byte for byte and counted). Both graphs are then
run by TensorFlow on the same inputs and must give identical outputs.
Both must also compute what the restored session computes. Cases nobody can
freeze (a variable missing from the checkpoint) must fail in Frost too, with a
message naming the variable. Cases where TensorFlow's converter raises or
writes a graph that does not import (its known bugs) must be frozen by Frost,
computing what the restored session computes; the differences are listed.
Cases where Frost binds placeholders (--bind is_training=false) and folds the
branches they decide legitimately differ from TensorFlow's graph: Frost's,
run without the bound placeholders, must compute bit for bit what TensorFlow
computes with them fed, and keep no Switch, Merge, training op or bound
placeholder.

Prints one line per case and "froze N models identically to TensorFlow; ..."
at the end; exits 1 with a diff on the first difference.
"""
import difflib
import os
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.core.protobuf import meta_graph_pb2  # noqa: E402
from tensorflow.python.framework import op_def_registry  # noqa: E402

V1 = tf.compat.v1
V1.disable_v2_behavior()
V1.logging.set_verbosity(V1.logging.ERROR)

RNG = np.random.default_rng(4)
# Bound cases run graphs as written: Grappler and the classic optimizer fold
# and reorder float arithmetic differently where a bound graph has constants
# and TensorFlow's has placeholders.
AS_WRITTEN = V1.ConfigProto()
AS_WRITTEN.graph_options.rewrite_options.disable_meta_optimizer = True
AS_WRITTEN.graph_options.optimizer_options.opt_level = V1.OptimizerOptions.L0
AS_WRITTEN.graph_options.optimizer_options.do_constant_folding = False
STATS = {"constants": 0, "identical": 0}


class Mismatch(Exception):
    pass


# ------------------------------------------------------------------ cases
#
# A case builds its graph in the default graph and returns a dict:
#   outputs   node names to freeze for
#   feeds     {placeholder name: numpy value} to run the frozen graphs with
#   prepare   f(sess) run after initialization, before saving (training)
#   saver     the Saver that writes the checkpoint (default: Saver())
#   restorer  the Saver TensorFlow restores with before freezing (default: saver)
#   flags     more freeze-graph flags (--rename, --ema)
#   fails     the case cannot be frozen: both must fail; Frost's message must
#             contain this text
#   write     f(prefix) writes the checkpoint instead of `saver` (a model
#             trained elsewhere)
#   expect    {output: value} the frozen graphs must compute
#   consts    {Const node: value} Frost's frozen graph must hold
#   tf_fails  TensorFlow's convert_variables_to_constants raises this; Frost
#             must freeze the model and compute what the restored session does
#   improves  {node: (attribute, why)}: where Frost deliberately differs
#             from TensorFlow because TensorFlow's result is broken; the
#             attribute must differ, and TensorFlow's graph must fail to
#             import (Frost's is run and checked instead). The attribute "op"
#             means the node's op is rewritten: it must differ, and the node
#             keeps those of TensorFlow's attributes the new op has
#   bound     {placeholder: value} Frost binds (flags: --bind): TensorFlow's
#             frozen graph is run with these fed, Frost's without them, and
#             must give bit-identical outputs; Frost's graph must keep no
#             Switch, Merge, Assign*, Ref* op nor the bound placeholders
#   tf_unimportable  TensorFlow's frozen graph does not import, failing with
#             this text (with improves: checked; with bound: the restored
#             session, fed the bound values, is the oracle instead)


def case_seeds():
    v1 = V1.Variable([1.0], name="v1")
    v2 = V1.Variable([2.0], name="v2")
    V1.add(v1, v2, name="add")
    return {"outputs": ["add"], "expect": {"add": [3.0]}}


def case_partial_restore():
    # Saver([v1]): v2 is never restored ("Attempting to use uninitialized
    # value v2" in TensorFlow).
    v1 = V1.Variable([1.0], name="v1")
    v2 = V1.Variable([2.0], name="v2")
    V1.add(v1, v2, name="add")
    return {"outputs": ["add"], "saver": V1.train.Saver([v1]),
            "fails": "variable 'v2'"}


def case_renamed_by_saver():
    # Saver({"v1": other_v1}): the graph's own Saver says which key feeds
    # which variable; Frost reads that from the restore subgraph.
    other_v1 = V1.Variable([1.5], name="other-v1")
    v2 = V1.Variable([2.0], name="v2")
    V1.multiply(other_v1, v2, name="mul")
    return {"outputs": ["mul"], "saver": V1.train.Saver({"v1": other_v1, "v2": v2}),
            "consts": {"other-v1": [1.5]}}


def case_renamed_by_map():
    # The checkpoint comes from another graph whose variable was named v1;
    # this graph calls it other-v1 and has a plain Saver: rename-variables.
    other_v1 = V1.Variable([0.0], name="other-v1")
    v2 = V1.Variable([2.0], name="v2")
    V1.multiply(other_v1, v2, name="mul")

    def write(prefix):
        with tf.Graph().as_default():
            a = V1.Variable([4.25], name="v1")
            b = V1.Variable([2.0], name="v2")
            with V1.Session() as sess:
                sess.run(V1.global_variables_initializer())
                V1.train.Saver([a, b]).save(sess, prefix, write_meta_graph=False)

    return {"outputs": ["mul"], "write": write,
            "restorer": V1.train.Saver({"v1": other_v1, "v2": v2}),
            "flags": ["--rename", "other-v1:v1"], "expect": {"mul": [8.5]}}


def case_ema():
    # ExponentialMovingAverage(0.9): the shadow starts at v's initial value 0;
    # after v = 1 and one apply step it holds 0.1 (0.0999999..).
    v = V1.Variable([0.0], name="v")
    w = V1.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
    step = V1.train.get_or_create_global_step()
    ema = V1.train.ExponentialMovingAverage(0.9)
    update = ema.apply([v, w])
    x = V1.placeholder(tf.float32, [None, 2], name="x")
    step_f = tf.cast(step, tf.float32)
    y = tf.matmul(x, w) * v + step_f
    tf.identity(y, name="y")

    def prepare(sess):
        sess.run([V1.assign(v, [1.0]), V1.assign(w, [[2.0, 0.0], [0.0, 2.0]]),
                  V1.assign(step, 7)])
        sess.run(update)

    return {"outputs": ["y"], "prepare": prepare,
            "restorer": V1.train.Saver(ema.variables_to_restore()),
            "flags": ["--ema"], "feeds": {"x": RNG.random((3, 2), np.float32)},
            # 0.9 * initial + 0.1 * trained; global_step keeps its own value.
            "consts": {"v": [0.1], "w": [[1.1, 1.8], [2.7, 3.8]], "global_step": 7}}


def dense(x, units, name, activation=None):
    """A TF1 dense layer (tf.layers is gone with Keras 3): ref variables."""
    with V1.variable_scope(name):
        kernel = V1.get_variable("kernel", [x.shape[-1], units],
                                 initializer=V1.glorot_uniform_initializer(seed=len(name)))
        bias = V1.get_variable("bias", [units],
                               initializer=V1.random_uniform_initializer(-0.1, 0.1, seed=3))
        y = tf.nn.bias_add(tf.matmul(x, kernel), bias)
        return activation(y) if activation else y


def case_mlp():
    x = V1.placeholder(tf.float32, [None, 8], name="x")
    h = dense(x, 16, "hidden", tf.nn.relu)
    logits = dense(h, 4, "logits")
    tf.nn.softmax(logits, name="probs")
    loss = tf.reduce_mean(tf.square(logits))
    train = V1.train.AdamOptimizer(0.01).minimize(loss)

    def prepare(sess):
        for _ in range(3):
            sess.run(train, {x: RNG.random((5, 8), np.float32)})

    return {"outputs": ["probs"], "prepare": prepare,
            "feeds": {"x": RNG.random((4, 8), np.float32)}}


def case_resource():
    x = V1.placeholder(tf.float32, [None, 3], name="x")
    w = V1.get_variable("w", initializer=RNG.random((3, 2), np.float32), use_resource=True)
    b = V1.get_variable("b", initializer=np.float32([0.5, -0.5]), use_resource=True)
    tf.nn.bias_add(tf.matmul(x, w), b, name="y")
    return {"outputs": ["y"], "feeds": {"x": RNG.random((2, 3), np.float32)}}


def case_embedding():
    ids = V1.placeholder(tf.int32, [None], name="ids")
    emb = V1.get_variable("emb", initializer=RNG.random((6, 3), np.float32),
                          use_resource=True)
    look = tf.nn.embedding_lookup(emb, ids, name="look")
    pairs = V1.placeholder(tf.int64, [None, 2], name="pairs")
    table = V1.get_variable("table", initializer=RNG.random((4, 5), np.float32),
                            use_resource=True)
    picked = tf.gather_nd(table, pairs, name="picked")
    tf.identity(look, name="out_look")
    tf.identity(picked, name="out_picked")
    return {"outputs": ["out_look", "out_picked"],
            "feeds": {"ids": np.int32([0, 5, 2, 2]), "pairs": np.int64([[0, 1], [3, 4]])}}


def case_dtypes():
    # (No scalar string: TensorFlow cannot freeze one, session.run returns a
    # bare `bytes` that make_tensor_proto's caller asks for a shape.)
    s = V1.Variable([b"frost", b"", b"\x00bytes"], name="s")
    one_s = V1.Variable([b"scalar"], name="one_s")
    n = V1.Variable(np.int64([1, -2, 3 << 40]), name="n")
    k = V1.Variable(np.int64(9), name="k")
    flags = V1.Variable([True, False, True], name="flags")
    h = V1.Variable(np.float16([0.5, 1.5]), name="h")
    d = V1.Variable(np.float64(2.25), name="d")
    i8 = V1.Variable(np.int8([-3, 4]), name="i8")
    tf.strings.join([s, tf.tile(one_s, [3])], separator="|", name="joined")
    tf.identity(n * k, name="scaled")
    tf.logical_not(flags, name="not_flags")
    tf.identity(tf.cast(h, tf.float64) * d + tf.cast(i8, tf.float64), name="mixed")
    return {"outputs": ["joined", "scaled", "not_flags", "mixed"]}


def case_partitioned():
    x = V1.placeholder(tf.float32, [None, 4], name="x")
    w = V1.get_variable("w", [10, 4], partitioner=V1.fixed_size_partitioner(3),
                        initializer=V1.random_normal_initializer(seed=4))
    e = V1.get_variable("e", [7, 2], partitioner=V1.fixed_size_partitioner(3, axis=1),
                        initializer=V1.random_uniform_initializer(seed=5))
    tf.matmul(x, tf.transpose(w), name="y")
    tf.identity(tf.reduce_sum(e, axis=1), name="esum")
    return {"outputs": ["y", "esum"], "feeds": {"x": RNG.random((2, 4), np.float32)}}


def case_control_flow():
    # TF1 control flow (Switch/Merge/Enter/Exit) over resource variables: the
    # handles flow through Switch and Enter, whose T becomes float.
    x = V1.placeholder(tf.float32, [], name="x")
    flag = V1.placeholder(tf.bool, [], name="flag")
    a = V1.get_variable("a", initializer=3.0, use_resource=True)
    b = V1.get_variable("b", initializer=np.float32([1.0, 2.0]), use_resource=True)
    c = tf.cond(flag, lambda: a.read_value() * x, lambda: a.read_value() - x)
    total = tf.while_loop(lambda i, acc: i < 3,
                          lambda i, acc: (i + 1, acc + b.read_value() * c),
                          [tf.constant(0), tf.zeros([2])])[1]
    tf.identity(total, name="total")
    return {"outputs": ["total"], "feeds": {"x": np.float32(2.0), "flag": True}}


def case_control_flow_v2():
    # The same with TF2 control flow (If / While calling library functions):
    # the functions' resource arguments become float, the functions renamed.
    V1.enable_control_flow_v2()
    try:
        spec = case_control_flow()
    finally:
        V1.disable_control_flow_v2()
    spec["improves"] = {"while": ("_output_shapes", "TensorFlow retypes the While's "
                                  "resource loop variable but leaves its _output_shapes")}
    return spec


def case_function_call():
    # A tf.function called in a TF1 graph: StatefulPartitionedCall with the
    # captured variable's handle as an input.
    x = V1.placeholder(tf.float32, [None, 2], name="x")
    k = V1.get_variable("k", initializer=np.float32([[1.0, 2.0], [3.0, 4.0]]),
                        use_resource=True)

    @tf.function
    def scale(v):
        return tf.matmul(v, k) + 1.0

    tf.identity(scale(x), name="y")
    return {"outputs": ["y"], "feeds": {"x": RNG.random((3, 2), np.float32)}}


def case_cond_on_variable():
    # tf.cond on a bool variable: the variable's value reaches a Switch's
    # predicate input, where TensorFlow's retyping raises.
    flag = V1.Variable(True, name="flag")
    x = V1.placeholder(tf.float32, [], name="x")
    tf.identity(tf.cond(flag, lambda: x * 2.0, lambda: x - 1.0), name="y")
    return {"outputs": ["y"], "feeds": {"x": np.float32(5.0)},
            "tf_fails": "is out of range for node(cond/Switch).attr(T)"}


def case_scalar_string():
    # session.run returns a bare `bytes` for a scalar string variable, which
    # TensorFlow's converter then asks for a shape.
    word = V1.Variable(b"frost", name="word")
    tf.strings.join([word, "!"], name="shout")
    return {"outputs": ["shout"], "tf_fails": "'bytes' object has no attribute 'shape'"}


def case_gather_batch_dims():
    # ResourceGather with batch_dims = 1: TensorFlow refuses; Frost writes
    # GatherV2(axis = batch_dims = 1).
    from tensorflow.python.ops import gen_resource_variable_ops  # noqa: E402
    table = V1.get_variable("table", initializer=RNG.random((2, 3, 4), np.float32),
                            use_resource=True)
    ids = V1.placeholder(tf.int32, [2, 2], name="ids")
    tf.identity(gen_resource_variable_ops.resource_gather(table.handle, ids, dtype=tf.float32,
                                                          batch_dims=1), name="picked")
    return {"outputs": ["picked"], "feeds": {"ids": np.int32([[2, 0], [1, 1]])},
            "tf_fails": "batch_dims must be 0 for freeze_graph"}


def batch_norm(x, is_training, name, decay=0.9, epsilon=1e-3):
    """Classic TF1 batch normalization over NHWC: batch statistics when
    training, updating the moving averages (AssignSub on ref variables, under
    the cond, as control dependencies of the statistics), else the moving
    statistics."""
    with V1.variable_scope(name):
        depth = x.shape[-1]
        gamma = V1.get_variable("gamma", [depth], initializer=V1.ones_initializer())
        beta = V1.get_variable("beta", [depth], initializer=V1.zeros_initializer())
        moving_mean = V1.get_variable("moving_mean", [depth], trainable=False,
                                      initializer=V1.zeros_initializer())
        moving_variance = V1.get_variable("moving_variance", [depth], trainable=False,
                                          initializer=V1.ones_initializer())

        def batch_statistics():
            mean, variance = tf.nn.moments(x, [0, 1, 2])
            update_mean = V1.assign_sub(moving_mean, (moving_mean - mean) * (1 - decay),
                                        name="update_mean")
            update_variance = V1.assign_sub(moving_variance,
                                            (moving_variance - variance) * (1 - decay),
                                            name="update_variance")
            with tf.control_dependencies([update_mean, update_variance]):
                return tf.identity(mean), tf.identity(variance)

        mean, variance = tf.cond(is_training, batch_statistics,
                                 lambda: (moving_mean.value(), moving_variance.value()))
        return tf.nn.batch_normalization(x, mean, variance, beta, gamma, epsilon)


def case_cnn_batch_norm():
    # conv2d -> batch norm (is_training) -> relu -> max_pool -> dense ->
    # softmax, trained with the default is_training=True, so the moving
    # statistics move. Freezing for probs keeps the cond's training branch:
    # its AssignSub and the RefSwitch feeding it the moving average, which
    # TensorFlow's converter turns into a float Const and then cannot import
    # ("expected float_ref"). Without flags Frost writes exactly that graph;
    # --strip-training-ops rewrites the four ref ops as users do by hand, and
    # the graph imports and computes, fed is_training=False, what the
    # restored session does.
    x = V1.placeholder(tf.float32, [None, 8, 8, 1], name="x")
    is_training = V1.placeholder_with_default(True, [], name="is_training")
    with V1.variable_scope("conv"):
        kernel = V1.get_variable("kernel", [3, 3, 1, 4],
                                 initializer=V1.glorot_uniform_initializer(seed=1))
        bias = V1.get_variable("bias", [4],
                               initializer=V1.random_uniform_initializer(-0.1, 0.1, seed=2))
        h = tf.nn.bias_add(tf.nn.conv2d(x, kernel, strides=1, padding="SAME"), bias)
    h = tf.nn.relu(batch_norm(h, is_training, "bn"))
    h = tf.nn.max_pool2d(h, 2, 2, "VALID")
    logits = dense(tf.reshape(h, [-1, 4 * 4 * 4]), 3, "logits")
    tf.nn.softmax(logits, name="probs")
    labels = V1.placeholder(tf.int32, [None], name="labels")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))
    train = V1.train.GradientDescentOptimizer(0.1).minimize(loss)

    def prepare(sess):
        for _ in range(3):
            sess.run(train, {x: RNG.random((6, 8, 8, 1), np.float32),
                             labels: RNG.integers(0, 3, 6)})
        mean, variance = sess.run(V1.get_collection(V1.GraphKeys.GLOBAL_VARIABLES,
                                                    "bn/moving_"))
        if (mean == 0).any() or (variance == 1).any():
            raise Mismatch("cnn: training left the moving statistics at their initial values")

    return {"outputs": ["probs"], "prepare": prepare, "flags": ["--strip-training-ops"],
            "feeds": {"x": RNG.random((5, 8, 8, 1), np.float32), "is_training": False},
            "tf_unimportable": "expected float_ref",
            "improves": {"bn/cond/update_mean/Switch": ("op", "RefSwitch -> Switch"),
                         "bn/cond/update_mean": ("op", "AssignSub -> Sub"),
                         "bn/cond/update_variance/Switch": ("op", "RefSwitch -> Switch"),
                         "bn/cond/update_variance": ("op", "AssignSub -> Sub")}}


def case_cnn_batch_norm_bound():
    # The same model frozen with is_training bound to false: the cond folds to
    # its moving-statistics branch, the updates and their RefSwitch go with
    # the training branch. TensorFlow's frozen graph (the same as above) does
    # not import, so the restored session fed is_training=False is the oracle.
    spec = case_cnn_batch_norm()
    del spec["improves"], spec["feeds"]["is_training"]
    spec.update(flags=["--bind", "is_training=false"], bound={"is_training": False})
    return spec


CASES = [("seeds", case_seeds), ("partial_restore", case_partial_restore),
         ("renamed_by_saver", case_renamed_by_saver), ("renamed_by_map", case_renamed_by_map),
         ("ema", case_ema), ("mlp", case_mlp), ("resource", case_resource),
         ("embedding", case_embedding), ("dtypes", case_dtypes),
         ("partitioned", case_partitioned), ("control_flow", case_control_flow),
         ("control_flow_v2", case_control_flow_v2), ("function_call", case_function_call),
         ("cond_on_variable", case_cond_on_variable), ("scalar_string", case_scalar_string),
         ("gather_batch_dims", case_gather_batch_dims),
         ("cnn_batch_norm", case_cnn_batch_norm),
         ("cnn_batch_norm_bound", case_cnn_batch_norm_bound)]


# ------------------------------------------------------------ machinery

def build(name, builder, workdir):
    """Builds, trains and saves the case; returns (graph, spec, prefix)."""
    graph = tf.Graph()
    prefix = os.path.join(workdir, name, "model")
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    with graph.as_default():
        V1.set_random_seed(7)
        spec = builder()
        saver = spec.get("saver") or V1.train.Saver()
        spec.setdefault("restorer", saver)
        with V1.Session(graph=graph) as sess:
            sess.run(V1.global_variables_initializer())
            if "prepare" in spec:
                spec["prepare"](sess)
            if "write" in spec:
                spec["write"](prefix)
                saver.export_meta_graph(prefix + ".meta")
            else:
                saver.save(sess, prefix)
    return graph, spec, prefix


def tf_freeze(graph, spec, prefix):
    """(TensorFlow's frozen graph or None, its error or None, the restored
    session's own outputs or None)."""
    meta = meta_graph_pb2.MetaGraphDef.FromString(open(prefix + ".meta", "rb").read())
    for node in meta.graph_def.node:
        node.device = ""
    reference = None
    try:
        # The session is fed what Frost binds, too.
        with V1.Session(graph=graph, config=AS_WRITTEN if "bound" in spec else None) as sess:
            spec["restorer"].restore(sess, prefix)
            reference = sess.run([graph.get_tensor_by_name(o + ":0") for o in spec["outputs"]],
                                 {graph.get_tensor_by_name(k + ":0"): v
                                  for k, v in session_feeds(spec).items()})
            return V1.graph_util.convert_variables_to_constants(
                sess, meta.graph_def, spec["outputs"]), None, reference
    except Exception as e:  # noqa: BLE001 - any TensorFlow failure
        lines = str(e).splitlines()
        return None, next((l.strip() for l in lines if "uninitialized" in l), lines[0]), reference


def session_feeds(spec):
    return dict(spec.get("feeds", {}), **spec.get("bound", {}))


def frost_freeze(spec, prefix):
    out = prefix + ".frost.pb"
    # --verify: freeze-graph checks its graph against the model as frost-verify
    # does and writes nothing when a check fails; --allow-unchecked: outputs its
    # evaluator cannot compute (a while loop) are TensorFlow's to check here.
    proc = subprocess.run(["freeze-graph", prefix, "--outputs", ",".join(spec["outputs"]),
                           "-o", out, "--verify", "--allow-unchecked"] + spec.get("flags", []),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        if os.path.exists(out):
            raise Mismatch("freeze-graph failed but left %s behind" % out)
        return None, proc.stderr
    return graph_pb2.GraphDef.FromString(open(out, "rb").read()), proc.stderr


def canonical_function_name(name):
    return re.sub(r"_frozen_\d+$", "_frozen", name)


def canonical_text(message):
    """Text form with converted functions' numbers (TensorFlow uses a
    process-global counter) left out."""
    return re.sub(r"_frozen_\d+", "_frozen", str(message))


def compare_graphs(name, want, got, improves=None):
    improves = improves or {}
    want_names = [n.name for n in want.node]
    got_names = [n.name for n in got.node]
    if want_names != got_names:
        raise Mismatch("%s: node lists differ\n  tensorflow: %s\n  frost:      %s"
                       % (name, want_names, got_names))
    for a, b in zip(want.node, got.node):
        where = "%s: node '%s'" % (name, a.name)
        rewritten = improves.get(a.name, ("",))[0] == "op"
        if rewritten and a.op == b.op:
            raise Mismatch("%s: expected op %s to be rewritten" % (where, a.op))
        for field in ("op", "input", "device"):
            if getattr(a, field) != getattr(b, field) and not (rewritten and field == "op"):
                raise Mismatch("%s: %s differs\n  tensorflow: %s\n  frost:      %s"
                               % (where, field, getattr(a, field), getattr(b, field)))
        # A rewritten node drops the attributes its new op does not have
        # (AssignSub's use_locking on Sub); "_class" and the like stay.
        keys = sorted(k for k in a.attr if not rewritten or k.startswith("_")
                      or k in {d.name for d in op_def_registry.get(b.op).attr})
        if keys != sorted(b.attr):
            raise Mismatch("%s: attributes differ\n  tensorflow: %s\n  frost:      %s"
                           % (where, keys, sorted(b.attr)))
        for key in keys:
            va, vb = a.attr[key], b.attr[key]
            if improves.get(a.name, ("",))[0] == key:
                if va == vb:
                    raise Mismatch("%s: expected '%s' to differ from TensorFlow's" % (where, key))
                continue
            if key == "value" and a.op == "Const":
                compare_tensors(where, va.tensor, vb.tensor)
            elif canonical_text(va) != canonical_text(vb):
                raise Mismatch("%s: attribute '%s' differs\n  tensorflow: %s\n  frost:      %s"
                               % (where, key, va, vb))
    fa = {canonical_function_name(f.signature.name): f for f in want.library.function}
    fb = {canonical_function_name(f.signature.name): f for f in got.library.function}
    if sorted(fa) != sorted(fb):
        raise Mismatch("%s: function libraries differ: %s vs %s" % (name, sorted(fa), sorted(fb)))
    for fname in fa:
        ta, tb = canonical_text(fa[fname]), canonical_text(fb[fname])
        if ta != tb:
            diff = "\n".join(difflib.unified_diff(ta.splitlines(), tb.splitlines(),
                                                  "tensorflow", "frost", lineterm=""))
            raise Mismatch("%s: function '%s' differs:\n%s" % (name, fname, diff))


def compare_tensors(where, a, b):
    STATS["constants"] += 1
    if a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True):
        STATS["identical"] += 1
        return
    va, vb = tf.make_ndarray(a), tf.make_ndarray(b)
    same = va.dtype == vb.dtype and va.shape == vb.shape and (
        np.array_equal(va, vb) if va.dtype == object
        else np.array_equal(va.view(np.uint8), vb.view(np.uint8)))
    if not same:
        raise Mismatch("%s: constant values differ\n  tensorflow: %r\n  frost:      %r"
                       % (where, va, vb))
    print("  note: %s: same value, other encoding\n    tensorflow: %s\n    frost: %s"
          % (where, a, b))


def run_graph(graph_def, spec, feeds=None, config=None):
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
        feeds = {g.get_tensor_by_name(k + ":0"): v
                 for k, v in (spec.get("feeds", {}) if feeds is None else feeds).items()}
        fetches = [g.get_tensor_by_name(o + ":0") for o in spec["outputs"]]
        with V1.Session(graph=g, config=config) as sess:
            return sess.run(fetches, feeds)


def same_outputs(a, b):
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a.shape == b.shape and list(a.ravel()) == list(b.ravel())
    return np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype


def check_case(name, builder, workdir):
    graph, spec, prefix = build(name, builder, workdir)
    want, tf_error, reference = tf_freeze(graph, spec, prefix)
    got, stderr = frost_freeze(spec, prefix)
    if "tf_fails" in spec:
        # TensorFlow cannot freeze it; Frost must, computing what the restored
        # session computes.
        if tf_error is None or spec["tf_fails"] not in tf_error:
            raise Mismatch("%s: expected TensorFlow to fail with %r, got %r"
                           % (name, spec["tf_fails"], tf_error))
        if got is None:
            raise Mismatch("%s: freeze-graph failed:\n%s" % (name, stderr))
        for output, b, r in zip(spec["outputs"], run_graph(got, spec), reference):
            if not same_outputs(b, r):
                raise Mismatch("%s: output '%s' is %r, the session computes %r"
                               % (name, output, b, r))
        print("%s: TensorFlow fails (%s); Frost freezes it: %d nodes, outputs as the session's"
              % (name, tf_error[:70], len(got.node)))
        return "beyond"
    if "fails" in spec:
        if tf_error is None:
            raise Mismatch("%s: TensorFlow froze a case expected to fail" % name)
        if got is not None:
            raise Mismatch("%s: TensorFlow failed (%s) but Frost froze it" % (name, tf_error))
        if spec["fails"] not in stderr:
            raise Mismatch("%s: Frost's error does not name %s:\n%s"
                           % (name, spec["fails"], stderr))
        print("%s: both refuse: TensorFlow: %s | Frost: %s"
              % (name, tf_error[:90], stderr.strip().splitlines()[-1].strip()[:120]))
        return "refused"
    if tf_error is not None:
        raise Mismatch("%s: TensorFlow failed: %s" % (name, tf_error))
    if got is None:
        raise Mismatch("%s: freeze-graph failed:\n%s" % (name, stderr))
    if "bound" in spec:
        return check_bound(name, spec, want, got, reference)
    compare_graphs(name, want, got, spec.get("improves"))
    checked = []
    for node in got.node:
        if node.name in spec.get("consts", {}):
            value = tf.make_ndarray(node.attr["value"].tensor)
            if not np.allclose(value, spec["consts"][node.name]):
                raise Mismatch("%s: constant '%s' is %r, expected %r"
                               % (name, node.name, value, spec["consts"][node.name]))
            checked.append("%s=%s" % (node.name, np.array2string(value.ravel(), precision=8)))
    if checked:
        print("%s: constants %s" % (name, " ".join(checked)))
    frost_out = run_graph(got, spec)
    if "improves" in spec:
        try:
            run_graph(want, spec)
            raise Mismatch("%s: TensorFlow's frozen graph imports after all" % name)
        except ValueError as e:
            if spec.get("tf_unimportable", "") not in str(e):
                raise
            print("%s: TensorFlow's frozen graph does not import (%s); Frost's does: %s"
                  % (name, spec.get("tf_unimportable") or str(e).splitlines()[0][:80],
                     "; ".join("%s %s" % (n, w) for n, (_, w) in spec["improves"].items())))
        tf_out = reference
    else:
        tf_out = run_graph(want, spec)
    for output, a, b, r in zip(spec["outputs"], tf_out, frost_out, reference):
        if not same_outputs(a, r):
            raise Mismatch("%s: TensorFlow's frozen graph computes %r, the session %r"
                           % (name, a, r))
        if not same_outputs(a, b):
            raise Mismatch("%s: output '%s' differs\n  tensorflow: %r\n  frost:      %r"
                           % (name, output, a, b))
        if output in spec.get("expect", {}) and not np.allclose(a, spec["expect"][output]):
            raise Mismatch("%s: output '%s' is %r, expected %r"
                           % (name, output, a, spec["expect"][output]))
    print("%s: %d nodes, same graph%s and outputs (%s)"
          % (name, len(got.node), " but the fix above" if "improves" in spec else "",
             ", ".join("%s=%s" % (o, np.array2string(np.asarray(v).ravel()[:4], precision=7))
                                             for o, v in zip(spec["outputs"], frost_out))))
    return "fixed" if "improves" in spec else "identical"


def check_bound(name, spec, want, got, reference):
    """Frost bound placeholders and folded the branches they decide, so its
    graph differs from TensorFlow's by design: outputs are compared instead,
    Frost's run without the bound placeholders, TensorFlow's fed them."""
    left = sorted({n.op for n in got.node
                   if n.op in ("Switch", "Merge") or n.op.startswith(("Assign", "Ref"))}
                  | {n.name for n in got.node if n.name in spec["bound"]})
    if left:
        raise Mismatch("%s: Frost's graph keeps %s" % (name, ", ".join(left)))
    # The frozen variables both graphs keep must hold the same bytes.
    theirs = {n.name: n for n in want.node if n.op == "Const"}
    for node in got.node:
        if node.op == "Const" and node.name in theirs:
            compare_tensors("%s: node '%s'" % (name, node.name),
                            theirs[node.name].attr["value"].tensor, node.attr["value"].tensor)
    fed = ", ".join("%s=%s" % kv for kv in spec["bound"].items())
    if "tf_unimportable" in spec:
        try:
            run_graph(want, spec, session_feeds(spec), AS_WRITTEN)
            raise Mismatch("%s: TensorFlow's frozen graph imports after all" % name)
        except ValueError as e:
            if spec["tf_unimportable"] not in str(e):
                raise
            print("%s: TensorFlow's frozen graph does not import (%s); the restored session "
                  "fed %s is the oracle" % (name, spec["tf_unimportable"], fed))
        tf_out = reference
    else:
        tf_out = run_graph(want, spec, session_feeds(spec), AS_WRITTEN)
    frost_out = run_graph(got, spec, config=AS_WRITTEN)
    for output, a, b in zip(spec["outputs"], tf_out, frost_out):
        if not same_outputs(a, b):
            raise Mismatch("%s: output '%s' differs\n  tensorflow (%s): %r\n  frost:      %r"
                           % (name, output, fed, a, b))
    print("%s: %d nodes (TensorFlow's: %d), no Switch/Merge left, outputs as TensorFlow's "
          "with %s fed (%s)"
          % (name, len(got.node), len(want.node), fed,
             ", ".join("%s=%s" % (o, np.array2string(np.asarray(v).ravel()[:4], precision=7))
                       for o, v in zip(spec["outputs"], frost_out))))
    return "bound"


def main():
    workdir = sys.argv[1]
    wanted = set(sys.argv[2:])
    counts = {"identical": 0, "fixed": 0, "refused": 0, "beyond": 0, "bound": 0}
    try:
        for name, builder in CASES:
            if wanted and name not in wanted:
                continue
            counts[check_case(name, builder, workdir)] += 1
    except Mismatch as e:
        print("MISMATCH " + str(e))
        sys.exit(1)
    print("%d constants, %d byte-identical to TensorFlow's encoding"
          % (STATS["constants"], STATS["identical"]))
    print("froze %d models identically to TensorFlow; %d alike but for a fix TensorFlow lacks; "
          "%d with placeholders bound, computing what TensorFlow does fed them; "
          "%d that TensorFlow cannot freeze; %d refused by both"
          % (counts["identical"], counts["fixed"], counts["bound"], counts["beyond"],
             counts["refused"]))


if __name__ == "__main__":
    main()
