#!/usr/bin/env python3
"""Freezes ../shared/data/tf-serving's models with freeze-graph and with
TensorFlow's freeze_graph.py, compares the graphs and runs them.

    freeze_saved_models.py SHARED_DATA WORKDIR

SavedModels (tag serve), for a signature:
  Frost: freeze-graph DIR --signature NAME -o frost.pb
  TensorFlow: freeze_graph.freeze_graph(input_saved_model_dir=DIR,
      output_node_names=the signature's output nodes, devices cleared).
The GraphDefs must be the same (freeze_oracle.compare_graphs: nodes in order,
ops, inputs, devices, attributes, Const bytes). TensorFlow then runs both,
feeding the signature's input tensor x:0 with [1, 2, 5] (an Identity of a
ParseExample, not a Placeholder: a TF1 session feeds any tensor), and they
must give bit-identical outputs, printed with repr() for the .test to hold
against ../shared/data/README.md. get_counter (saved_model_counter) takes no
input; its output must be the counter's value in the checkpoint.

session_bundle_half_plus_two: a legacy export.meta beside a V1 checkpoint
`export`, frozen with --outputs y. TensorFlow's freeze_graph cannot freeze it
as it is: it refuses the meta graph's tensorflow_version "0.12.head"; given a
copy without it, it leaves the legacy `Variable` ops a and b in place (it
reads their values but converts only VariableV2 and VarHandleOp) and its graph
fails when run. Both failures are checked. The oracle is TensorFlow freezing a
copy whose Variables are VariableV2 (the op that replaced Variable, the same
attributes): Frost's graph must be the same, and both must compute what the
session restoring export.meta computes.

Prints one line per model; exits 1 with "MISMATCH ..." on the first difference.
"""
import os
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# compare_graphs and its Mismatch, shared with the TF1 freezing oracle (which
# imports TensorFlow with v2 behaviour off, as needed here too).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Transforms", "Inputs"))
import freeze_oracle  # noqa: E402
from freeze_oracle import Mismatch, compare_graphs  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.core.protobuf import meta_graph_pb2  # noqa: E402
from tensorflow.python.tools import freeze_graph, saved_model_utils  # noqa: E402

V1 = tf.compat.v1
X = [1.0, 2.0, 5.0]

SAVED_MODELS = [("saved_model_half_plus_two_cpu", "serving_default"),
                ("saved_model_half_plus_three", "serving_default"),
                ("saved_model_counter", "get_counter")]


def frost_freeze(model, flags, out):
    proc = subprocess.run(["freeze-graph", model, "-o", out, "--verify", "--allow-unchecked"] + flags,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise Mismatch("freeze-graph %s %s failed:\n%s" % (model, " ".join(flags), proc.stderr))
    return graph_pb2.GraphDef.FromString(open(out, "rb").read())


def tf_freeze(out, output_nodes, **model):
    """freeze_graph.py's freeze_graph() on a fresh default graph (it imports
    into the default graph), read back from the file it writes."""
    with tf.Graph().as_default():
        freeze_graph.freeze_graph(
            input_graph=None, input_saver=None, input_binary=True,
            input_checkpoint=model.pop("input_checkpoint", None),
            output_node_names=",".join(output_nodes), restore_op_name=None,
            filename_tensor_name=None, output_graph=out, clear_devices=True,
            initializer_nodes="", **model)
    return graph_pb2.GraphDef.FromString(open(out, "rb").read())


def compare(name, want, got):
    """compare_graphs, returning how many constants it compared."""
    before = freeze_oracle.STATS["constants"]
    compare_graphs(name, want, got)
    return freeze_oracle.STATS["constants"] - before


def shaped(graph, tensor, values):
    """values as the tensor wants them: [3] or [3, 1]."""
    rank = graph.get_tensor_by_name(tensor).shape.rank
    return np.float32(values).reshape([-1] + [1] * ((rank or 1) - 1))


def run(graph_def, fetches, inputs):
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
        feeds = {t: shaped(g, t, v) for t, v in inputs.items()}
        with V1.Session(graph=g) as sess:
            return sess.run(fetches, feeds)


def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def values(array):
    return "[%s]" % ", ".join(repr(float(v)) for v in np.ravel(array))


def check_saved_model(root, workdir, folder, signature):
    model = os.path.join(root, folder, "00000123")
    sig = saved_model_utils.get_meta_graph_def(model, "serve").signature_def[signature]
    outputs = [sig.outputs[k].name for k in sorted(sig.outputs)]
    got = frost_freeze(model, ["--signature", signature],
                       os.path.join(workdir, folder + ".frost.pb"))
    want = tf_freeze(os.path.join(workdir, folder + ".tf.pb"),
                     [t.split(":")[0] for t in outputs],
                     input_saved_model_dir=model, saved_model_tags="serve")
    consts = compare(folder, want, got)
    inputs = {sig.inputs[k].name: X for k in sorted(sig.inputs)}
    tf_out, frost_out = run(want, outputs, inputs), run(got, outputs, inputs)
    for tensor, a, b in zip(outputs, tf_out, frost_out):
        if not same(a, b):
            raise Mismatch("%s: %s differs\n  tensorflow: %r\n  frost:      %r"
                           % (folder, tensor, a, b))
    fed = ", ".join("%s=%s" % (t, values(v)) for t, v in inputs.items())
    computed = "; ".join("%s%s = %s" % (o, "(%s)" % fed if fed else "", values(r))
                         for o, r in zip(outputs, frost_out))
    if not inputs:
        # Nothing to feed: the output is a frozen variable, whose value must
        # be the checkpoint's.
        reader = tf.train.load_checkpoint(os.path.join(model, "variables", "variables"))
        for tensor, r in zip(outputs, frost_out):
            saved = np.asarray(reader.get_tensor(tensor.split(":")[0]))
            if not same(saved, np.asarray(r)):
                raise Mismatch("%s: %s is %r, the checkpoint holds %r"
                               % (folder, tensor, r, saved))
        computed += ", the checkpoint's"
    print("%s: %s: %d nodes, same graph as TensorFlow's freeze_graph (%d constants), "
          "same outputs: %s" % (folder, signature, len(got.node), consts, computed))


def check_session_bundle(root, workdir):
    folder = os.path.join(root, "session_bundle_half_plus_two", "00000123")
    meta_path = os.path.join(folder, "export.meta")
    # A V1 checkpoint's files: TensorFlow wants them named, not the prefix.
    shards = os.path.join(folder, "export-?????-of-?????")
    got = frost_freeze(meta_path, ["--outputs", "y"], os.path.join(workdir, "bundle.frost.pb"))

    try:
        tf_freeze(os.path.join(workdir, "bundle.tf.pb"), ["y"], input_meta_graph=meta_path,
                  input_checkpoint=shards)
        raise Mismatch("session_bundle: TensorFlow's freeze_graph reads export.meta after all")
    except Exception as e:  # noqa: BLE001 - packaging's InvalidVersion
        if "Invalid version: '0.12.head'" not in str(e):
            raise
        refused = str(e)
    # The same without the version string TensorFlow refuses: it leaves the
    # Variables, and its graph cannot run.
    meta = meta_graph_pb2.MetaGraphDef.FromString(open(meta_path, "rb").read())
    meta.meta_info_def.ClearField("tensorflow_version")
    cleared = os.path.join(workdir, "export.meta")
    open(cleared, "wb").write(meta.SerializeToString())
    left = tf_freeze(os.path.join(workdir, "bundle.tf-variable.pb"), ["y"],
                     input_meta_graph=cleared, input_checkpoint=shards)
    variables = [n.name for n in left.node if n.op == "Variable"]
    if variables != ["a", "b"]:
        raise Mismatch("session_bundle: TensorFlow left %s as Variable, not a and b" % variables)
    try:
        run(left, ["y:0"], {"x:0": X})
        raise Mismatch("session_bundle: TensorFlow's frozen graph runs after all")
    except V1.errors.FailedPreconditionError as e:
        failure = re.search(r"Attempting to use uninitialized value \w+", str(e)).group(0)

    # With the Variables made VariableV2 (the op that replaced Variable, with
    # the same attributes), TensorFlow converts them: that is the oracle.
    for node in meta.graph_def.node:
        if node.op == "Variable":
            node.op = "VariableV2"
    renamed = os.path.join(workdir, "export.v2.meta")
    open(renamed, "wb").write(meta.SerializeToString())
    want = tf_freeze(os.path.join(workdir, "bundle.tf.pb"), ["y"], input_meta_graph=renamed,
                     input_checkpoint=shards)
    consts = compare("session_bundle", want, got)

    # Both graphs compute what the session restoring export.meta computes.
    with tf.Graph().as_default() as g, V1.Session(graph=g) as sess:
        V1.train.import_meta_graph(cleared).restore(sess, shards)
        reference = sess.run("y:0", {"x:0": shaped(g, "x:0", X)})
    for who, graph_def in (("TensorFlow's", want), ("Frost's", got)):
        y = run(graph_def, ["y:0"], {"x:0": X})[0]
        if not same(y, reference):
            raise Mismatch("session_bundle: %s y is %r, the restored session computes %r"
                           % (who, y, reference))
    print("session_bundle_half_plus_two: TensorFlow's freeze_graph fails (%s); without the "
          "version, it leaves %s as Variable (%s)" % (refused, ", ".join(variables), failure))
    print("session_bundle_half_plus_two: %d nodes, same graph as TensorFlow's freeze_graph with "
          "the Variables made VariableV2 (%d constants), same outputs: y:0(x:0=%s) = %s, "
          "the restored session's" % (len(got.node), consts, values(X), values(y)))


def main():
    data, workdir = sys.argv[1], sys.argv[2]
    root = os.path.join(data, "tf-serving")
    try:
        for folder, signature in SAVED_MODELS:
            check_saved_model(root, workdir, folder, signature)
        check_session_bundle(root, workdir)
    except Mismatch as e:
        print("MISMATCH " + str(e))
        sys.exit(1)


if __name__ == "__main__":
    main()
