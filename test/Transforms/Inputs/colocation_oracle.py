"""Every transform on TF1 graphs whose constants are colocated with variables.

    colocation_oracle.py TRANSFORMS_MD

A TF1 model with reference variables, as TF1 code wrote them: an embedding
lookup (its `axis` Const is colocated with the table, `_class: loc:@emb`), a
convolution followed by a fused batch norm and by a decomposed one (each
variable's `read` Identity is colocated with it) and a dense layer. It is
frozen twice: by freeze-graph from its checkpoint and by TensorFlow's own
convert_variables_to_constants. Every transform the table of TRANSFORMS_MD
(docs/transforms.md) lists as being in Frost then runs alone through
transform-graph on both frozen graphs, and after fold_constants too (which
drops the variables' Consts that other nodes are colocated with). Each result
must import into TensorFlow (its importer refuses a colocation with a missing
node) and compute what the model computes: within float rounding, or within
the quantization step for quantize_weights and round_weights.

Prints "N transforms: M graphs import into TensorFlow and match" on success.
"""
import os
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf1 = tf.compat.v1
tf1.disable_v2_behavior()
tf1.disable_resource_variables()  # TF1's VariableV2 and its colocated reads

INPUTS = ["ids", "x"]
OUTPUTS = ["out"]

# Parameters a transform needs on this model; every other transform runs bare.
PARAMETERS = {
    "remove_attribute": "(attribute_name=_output_shapes)",
    "rename_attribute": "(old_attribute_name=_class, new_attribute_name=_placement)",
    "rename_op": "(old_op_name=AddV2, new_op_name=Add)",
    "remove_nodes": "(op=Identity)",
    "set_device": '(device="/cpu:0")',
    "quantize_weights": "(minimum_size=1)",
    "set_input_shapes": "(batch_size=2)",
}
# How far each may move the output, as a share of the output's range.
TOLERANCE = {"quantize_weights": 0.05, "round_weights": 0.05}


def build(directory):
    rng = np.random.RandomState(7)
    g = tf.Graph()
    with g.as_default():
        ids = tf1.placeholder(tf.int32, [None, 3], name="ids")
        x = tf1.placeholder(tf.float32, [None, 4, 4, 3], name="x")

        def var(name, shape, positive=False):
            value = rng.rand(*shape) + 0.5 if positive else rng.randn(*shape)
            return tf1.get_variable(name, initializer=value.astype(np.float32))

        emb = var("emb", [10, 4])
        e = tf.reduce_mean(tf.nn.embedding_lookup(emb, ids), axis=1)
        conv = tf.nn.conv2d(x, var("conv/w", [1, 1, 3, 4]), [1, 1, 1, 1], "SAME")
        bn, _, _ = tf1.nn.fused_batch_norm(
            conv, var("bn/gamma", [4]), var("bn/beta", [4]), var("bn/moving_mean", [4]),
            var("bn/moving_variance", [4], True), is_training=False, name="bn")
        bn2 = tf.nn.batch_normalization(
            tf.nn.relu(bn), var("bn2/moving_mean", [4]), var("bn2/moving_variance", [4], True),
            var("bn2/beta", [4]), var("bn2/gamma", [4]), 1e-3, name="bn2")
        p = tf.reduce_mean(bn2, axis=[1, 2])
        tf.identity(tf.matmul(e + p, var("dense/w", [4, 2])), name="out")
        # A training step's moving-average update, colocated with its variable.
        mean = [v for v in tf1.global_variables() if v.op.name == "bn/moving_mean"][0]
        tf1.assign(mean, mean * 0.9, name="bn/update_mean")
        saver = tf1.train.Saver()
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            saver.save(sess, os.path.join(directory, "model.ckpt"))
            tf_frozen = tf1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), OUTPUTS)
    colocated = [n.name for n in tf_frozen.node
                 if any(s.startswith(b"loc:@") for s in n.attr["_class"].list.s)]
    if "embedding_lookup/axis" not in colocated or not any("bn" in n for n in colocated):
        fail("the model has no colocated embedding axis or batch norm reads: %s" % colocated)
    path = os.path.join(directory, "tf_frozen.pb")
    with open(path, "wb") as f:
        f.write(tf_frozen.SerializeToString())
    return path


def fail(message):
    print("MISMATCH " + message)
    sys.exit(1)


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail("%s failed (%d): %s" % (" ".join(command), done.returncode, done.stderr.strip()))


def frost_transforms(transforms_md):
    """The TensorFlow transforms docs/transforms.md says Frost has."""
    names = []
    for line in open(transforms_md):
        row = re.match(r"\| `(\w+)` \| (.*?) \|", line)
        if row and "not in Frost" not in row.group(2):
            names.append(row.group(1))
    return names


def run_graph(path, feeds):
    graph_def = tf1.GraphDef()
    with open(path, "rb") as f:
        graph_def.ParseFromString(f.read())
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")  # refuses stale colocations
        with tf1.Session(graph=g) as sess:
            return [sess.run("out:0", f) for f in feeds]


def main():
    transforms = frost_transforms(sys.argv[1])
    if len(transforms) < 25 or "fold_constants" not in transforms:
        fail("transforms.md lists only %s" % transforms)
    rng = np.random.RandomState(3)
    feeds = [{"ids:0": rng.randint(0, 10, [2, 3]), "x:0": rng.randn(2, 4, 4, 3)}
             for _ in range(2)]
    checked = 0
    with tempfile.TemporaryDirectory() as d:
        frozen = {"tensorflow": build(d), "frost": os.path.join(d, "frost_frozen.pb")}
        run(["freeze-graph", os.path.join(d, "model.ckpt"), "--outputs", ",".join(OUTPUTS),
             "-o", frozen["frost"], "-q"])
        for freezer, source in frozen.items():
            want = run_graph(source, feeds)
            for name in transforms:
                for prefix in ("", "fold_constants "):
                    if prefix and name == "fold_constants":
                        continue
                    out = os.path.join(d, "out.pb")
                    listing = prefix + name + PARAMETERS.get(name, "")
                    run(["transform-graph", "--in_graph=" + source, "--out_graph=" + out,
                         "--inputs=" + ",".join(INPUTS), "--outputs=" + ",".join(OUTPUTS),
                         "--transforms=" + listing])
                    have = run_graph(out, feeds)
                    for w, h in zip(want, have):
                        span = float(w.max() - w.min()) or 1.0
                        tolerance = TOLERANCE.get(name, 1e-5) * span
                        if w.shape != h.shape or np.abs(w - h).max() > tolerance:
                            fail("%s, frozen by %s: %s\n  want %s\n  have %s"
                                 % (listing, freezer, "values differ", w, h))
                    checked += 1
    print("%d transforms: %d graphs import into TensorFlow and match" % (len(transforms), checked))


if __name__ == "__main__":
    main()
