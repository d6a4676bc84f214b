"""fold_constants on real frozen graphs, checked against TensorFlow.

    fold_constants_oracle.py [--shared-data DIR] MODEL...

MODEL: tf1-cnn (a TF1 CNN with a decomposed batch norm and a reshape computed
from shapes, frozen by graph_util.convert_variables_to_constants), mobilenetv2
(Keras, alpha 0.35, 96x96), resnet50 (Keras, weights=None), transformer (a
Keras MultiHeadAttention block), the last three frozen with
convert_variables_to_constants_v2; shared-data (tf2onnx's frozen.pb).

Each graph goes through `transform-graph --transforms=fold_constants` with its
input and output. Then:
- every Const fold_constants made (`<producer>/_k__cf__k`) must equal what
  TensorFlow computes for the tensor it replaced in the original graph,
  bitwise (lib/Eval computes as TensorFlow's x86 kernels do, rsqrt's
  hardware approximation included: both run on this machine);
- the folded graph must import into TensorFlow and compute the original's
  outputs on random inputs (within 1e-5, relative).
Prints, per model, the node counts before and after and how many constants
were checked; exits 1 on the first difference.
"""
import argparse
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402

tf1 = tf.compat.v1
CONFIG = tf1.ConfigProto()
CONFIG.graph_options.rewrite_options.disable_meta_optimizer = True


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def freeze_v2(model, shape):
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec(shape, tf.float32))
    frozen = convert_variables_to_constants_v2(fn)
    return (frozen.graph.as_graph_def(), frozen.inputs[0].op.name, frozen.outputs[0].op.name,
            shape)


def tf1_cnn():
    rng = np.random.RandomState(1)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 8, 8, 3], name="input")
        w = tf1.Variable(rng.randn(3, 3, 3, 4).astype(np.float32), name="w")
        # Weight standardisation on constants once frozen: folds.
        w_std = (w - tf.reduce_mean(w)) / tf.sqrt(tf.reduce_mean(tf.square(w)) + 1e-5)
        h = tf.nn.conv2d(x, w_std, strides=1, padding="SAME")
        mean = tf1.Variable(rng.randn(4).astype(np.float32), name="mean")
        var = tf1.Variable(rng.rand(4).astype(np.float32) + 0.5, name="var")
        gamma = tf1.Variable(rng.rand(4).astype(np.float32) + 0.5, name="gamma")
        beta = tf1.Variable(rng.randn(4).astype(np.float32), name="beta")
        h = tf.nn.relu(tf.nn.batch_normalization(h, mean, var, beta, gamma, 1e-3))
        # The flattened size from static shapes: Shape/Prod of known dims fold.
        flat = tf.reshape(h, tf.stack([-1, tf.reduce_prod(tf.shape(h)[1:])]))
        dense = tf1.Variable(rng.randn(8 * 8 * 4, 5).astype(np.float32), name="dense")
        tf.nn.softmax(tf.matmul(flat, dense * tf.constant(0.5)), name="probs")
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            frozen = tf1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["probs"])
    return frozen, "input", "probs", [2, 8, 8, 3]


def transformer():
    inp = tf.keras.Input([8, 16])
    att = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=8)(inp, inp)
    h = tf.keras.layers.LayerNormalization()(inp + att)
    out = tf.keras.layers.LayerNormalization()(h + tf.keras.layers.Dense(16)(
        tf.keras.layers.Dense(32, activation="relu")(h)))
    return freeze_v2(tf.keras.Model(inp, out), [1, 8, 16])


def shared_data(root):
    path = os.path.join(root, "tf2onnx-regression", "graphdef", "frozen.pb")
    return graph_pb2.GraphDef.FromString(open(path, "rb").read()), "X", "pred", [4, 1]


def build(name, shared):
    tf.keras.utils.set_random_seed(1)
    if name == "tf1-cnn":
        return tf1_cnn()
    if name == "mobilenetv2":
        return freeze_v2(tf.keras.applications.MobileNetV2(
            input_shape=(96, 96, 3), alpha=0.35, weights=None), [1, 96, 96, 3])
    if name == "resnet50":
        return freeze_v2(tf.keras.applications.ResNet50(weights=None), [1, 224, 224, 3])
    if name == "transformer":
        return transformer()
    if name == "shared-data":
        return shared_data(shared)
    fail("unknown model " + name)


def run(graph_def, fetches, feed):
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        with tf1.Session(graph=g, config=CONFIG) as sess:
            return sess.run(fetches, feed)


def ulps(a, b):
    """Largest distance in units in the last place between two float arrays
    (NaN and NaN are 0 apart)."""
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    if a.size == 0:
        return 0
    width = a.dtype.itemsize * 8
    signed = {16: np.int16, 32: np.int32, 64: np.int64}[width]

    def ordered(x):  # monotonic in the float's value; Python ints cannot overflow
        return [v if v >= 0 else -(1 << (width - 1)) - v
                for v in x.view(signed).ravel().tolist()]
    nan = np.isnan(a.astype(np.float64)).ravel() & np.isnan(b.astype(np.float64)).ravel()
    return max(0 if n else abs(x - y) for x, y, n in zip(ordered(a), ordered(b), nan))


def check(name, shared):
    original, inp, out, shape = build(name, shared)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.pb"), os.path.join(tmp, "out.pb")
        open(src, "wb").write(original.SerializeToString())
        subprocess.run(["transform-graph", "--in_graph=" + src, "--out_graph=" + dst,
                        "--inputs=" + inp, "--outputs=" + out,
                        "--transforms=fold_constants"], check=True)
        folded = graph_pb2.GraphDef.FromString(open(dst, "rb").read())

    rng = np.random.RandomState(7)
    feed = {inp + ":0": rng.randn(*shape).astype(np.float32)}
    by_name = {n.name: n for n in original.node}
    made = {n.name: n for n in folded.node if n.op == "Const" and "__cf__" in n.name}
    # Which original tensor each new Const stands for: the same reader's
    # same input, in the original graph.
    replaced = {}
    for n in folded.node:
        for i, text in enumerate(n.input):
            if text in made and n.name in by_name and i < len(by_name[n.name].input):
                tensor = by_name[n.name].input[i]
                replaced[text] = tensor if ":" in tensor else tensor + ":0"
    missing = set(made) - set(replaced)
    if missing:
        fail("%s: folded constants read by no node of the original: %s" % (name, sorted(missing)))
    names = sorted(replaced)
    want = run(original, [replaced[c] for c in names], feed) if names else []
    worst = 0
    for c, w in zip(names, want):
        got = tf.make_ndarray(made[c].attr["value"].tensor)
        w = np.asarray(w)
        if got.shape != w.shape or got.dtype != w.dtype:
            fail("%s: %s (for %s) is %s %s, TensorFlow computes %s %s"
                 % (name, c, replaced[c], got.dtype, got.shape, w.dtype, w.shape))
        if got.dtype.kind == "f":
            u = ulps(got, w)
            worst = max(worst, u)
            if u > 0:
                fail("%s: %s (for %s) differs from TensorFlow by %d ulp" % (name, c, replaced[c], u))
        elif not np.array_equal(got, w):
            fail("%s: %s (for %s) differs from TensorFlow: %s vs %s" % (name, c, replaced[c], got, w))

    a = run(original, out + ":0", feed)
    b = run(folded, out + ":0", feed)
    if not np.allclose(a, b, rtol=1e-5, atol=1e-6):
        fail("%s: outputs differ by up to %g" % (name, np.max(np.abs(a - b))))
    print("%s: %d -> %d nodes, %d folded constants equal TensorFlow's (max %d ulp), outputs equal"
          % (name, len(original.node), len(folded.node), len(names), worst))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shared-data", default="")
    p.add_argument("models", nargs="+")
    args = p.parse_args()
    for name in args.models:
        check(name, args.shared_data)


if __name__ == "__main__":
    main()
