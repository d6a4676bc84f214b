#!/usr/bin/env python3
"""A TF2 signature that writes a variable (`self.count.assign_add(1)`) besides
computing its output, frozen by freeze-graph.

    side_effects_oracle.py WORKDIR

Without --drop-variable-writes freeze-graph must refuse (no output file) with
one line naming the op, the variable and the signature (printed). With it, it
warns and writes a graph that a fresh TensorFlow process, with the SavedModel
directory removed, imports and runs: its output must be bit-identical to the
signature called eagerly. TensorFlow's convert_variables_to_constants_v2
fails on the same signature (its re-import of the frozen graph; printed).
"""
import os
import shutil
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import convert_to_constants  # noqa: E402

RUN_FROZEN = r"""
import sys, numpy as np, tensorflow as tf
graph_def = tf.compat.v1.GraphDef.FromString(open(sys.argv[1], "rb").read())
with tf.Graph().as_default() as g:
    tf.graph_util.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=g) as sess:
        y = sess.run("Identity:0", {"x:0": np.load(sys.argv[2])})
np.save(sys.argv[3], y)
"""


class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.5, -2.0], [0.25, 3.0]], name="w")
        self.count = tf.Variable(0, dtype=tf.int64, name="count")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def __call__(self, x):
        self.count.assign_add(1)
        return {"y": tf.matmul(x, self.w)}


def import_error(graph_def):
    try:
        with tf.Graph().as_default():
            tf.graph_util.import_graph_def(graph_def, name="")
        return "imports"
    except ValueError as e:
        return str(e).splitlines()[0]


def main():
    work = sys.argv[1]
    model_dir = os.path.join(work, "counter")
    module = Counter()
    tf.saved_model.save(module, model_dir, signatures=module.__call__)
    x = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
    np.save(os.path.join(work, "x.npy"), x)
    loaded = tf.saved_model.load(model_dir)
    eager = loaded.signatures["serving_default"](x=tf.constant(x))["y"]
    try:
        frozen = convert_to_constants.convert_variables_to_constants_v2(
            loaded.signatures["serving_default"])
        print("tensorflow: " + import_error(frozen.graph.as_graph_def()))
    except (ValueError, tf.errors.InvalidArgumentError) as e:
        print("tensorflow fails: " + str(e).splitlines()[0])

    refused = os.path.join(work, "refused.pb")
    proc = subprocess.run(["freeze-graph", model_dir, "-o", refused], capture_output=True,
                          text=True)
    if proc.returncode == 0 or os.path.exists(refused):
        print("MISMATCH freeze-graph wrote a graph whose writes cannot import")
        sys.exit(1)
    print("frost refuses: " + proc.stderr.strip().splitlines()[-1])

    out = os.path.join(work, "frozen.pb")
    proc = subprocess.run(["freeze-graph", model_dir, "-o", out, "--drop-variable-writes",
                           "--verify", "--allow-unchecked"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("MISMATCH freeze-graph --drop-variable-writes failed:\n" + proc.stderr)
        sys.exit(1)
    for line in proc.stderr.splitlines():
        if line.startswith("warning:"):
            print("frost warns: " + line)
    shutil.rmtree(model_dir)
    result = os.path.join(work, "y.npy")
    subprocess.run([sys.executable, "-c", RUN_FROZEN, out, os.path.join(work, "x.npy"), result],
                   check=True)
    y = np.load(result)
    same = y.dtype == eager.numpy().dtype and np.array_equal(y, eager.numpy())
    print("frost: runs without the SavedModel; y %s the eager call's"
          % ("bit-identical to" if same else "DIFFERS from"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
