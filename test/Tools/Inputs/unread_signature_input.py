#!/usr/bin/env python3
"""A TF1 SavedModel whose signature has an input the frozen outputs do not
need, exported by freeze-graph --emit saved_model, then served by TensorFlow.

    unread_signature_input.py FREEZE_GRAPH WORKDIR

The source: serving_default takes a ([?,2]) and b ([?,3]) and gives
ya = a @ w (w all ones, a variable) and yb = 2 * b. Frozen for ya alone, the
graph has no use for b, but a client of the signature still sends it (TF
Serving refuses a request naming an input its signature lacks). Prints the
signature's inputs as tf.saved_model.load reads them, and ya computed by it
and by TF1's loader, both fed a = [[1, 2]] and b; by hand ya = [[3, 3]].
TensorFlow is a test oracle only.
"""
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

V1 = tf.compat.v1


def build(path):
    with tf.Graph().as_default(), V1.Session() as sess:
        a = V1.placeholder(tf.float32, [None, 2], name="a")
        b = V1.placeholder(tf.float32, [None, 3], name="b")
        w = V1.get_variable("w", initializer=tf.ones([2, 2]))
        ya = tf.identity(tf.matmul(a, w), name="ya")
        yb = tf.identity(b * 2.0, name="yb")
        sess.run(V1.global_variables_initializer())
        builder = V1.saved_model.Builder(path)
        builder.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
            "serving_default": V1.saved_model.predict_signature_def(
                {"a": a, "b": b}, {"ya": ya, "yb": yb})})
        builder.save()


def main(freeze_graph, work):
    source, export = os.path.join(work, "tf1"), os.path.join(work, "export")
    build(source)
    subprocess.run([freeze_graph, source, "--signature", "serving_default", "--outputs", "ya",
                    "--emit", "saved_model", "-o", export], check=True)
    a, b = np.array([[1, 2]], np.float32), np.ones([1, 3], np.float32)
    fn = tf.saved_model.load(export).signatures["serving_default"]
    print("inputs:", ", ".join("%s %s" % (k, v.shape) for k, v in
                               sorted(fn.structured_input_signature[1].items())))
    print("outputs:", ", ".join(sorted(fn.structured_outputs)))
    print("tf.saved_model.load: ya =", fn(a=tf.constant(a), b=tf.constant(b))["ya"].numpy().tolist())
    with V1.Session(graph=tf.Graph()) as sess:
        sig = V1.saved_model.loader.load(sess, ["serve"], export).signature_def["serving_default"]
        ya = sess.run(sig.outputs["ya"].name, {sig.inputs["a"].name: a, sig.inputs["b"].name: b})
    print("TF1 loader: ya =", ya.tolist())


if __name__ == "__main__":
    main(*sys.argv[1:])
