"""A training script's order: TensorFlow imported first, frost after it, in one process (issue
#27). Each script runs in a fresh interpreter (this one imported frost already): it trains and
saves a model with TensorFlow, freezes it with frost, imports the frozen graph into the same
TensorFlow and compares outputs. Skipped without TensorFlow."""
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("tensorflow")

TF1_SCRIPT = """
import tensorflow as tf
import numpy as np
import frost
v1 = tf.compat.v1

prefix = {prefix!r}
graph = tf.Graph()
with graph.as_default():
    x = v1.placeholder(tf.float32, [None, 4], name="x")
    w = v1.get_variable("w", [4, 3], initializer=v1.random_normal_initializer(seed=3))
    b = v1.get_variable("b", [3], initializer=v1.zeros_initializer())
    y = tf.nn.softmax(tf.matmul(x, w) + b, name="y")
    labels = v1.placeholder(tf.float32, [None, 3], name="labels")
    loss = v1.losses.softmax_cross_entropy(labels, tf.matmul(x, w) + b)
    train = v1.train.GradientDescentOptimizer(0.5).minimize(loss)
    saver = v1.train.Saver()
    rng = np.random.RandomState(0)
    data, onehot = rng.rand(32, 4).astype(np.float32), np.eye(3, dtype=np.float32)[rng.randint(0, 3, 32)]
    with v1.Session(graph=graph) as sess:
        sess.run(v1.global_variables_initializer())
        for _ in range(20):
            sess.run(train, {{x: data, labels: onehot}})
        saver.save(sess, prefix)
        expected = sess.run(y, {{x: data}})

def run_frozen(graph_bytes):
    g = tf.Graph()
    with g.as_default():
        v1.import_graph_def(v1.GraphDef.FromString(graph_bytes), name="")
    with v1.Session(graph=g) as sess:
        return sess.run("y:0", {{"x:0": data}})

# Every job of the API, in the process that imported TensorFlow first.
frozen = frost.freeze(prefix, ["y"], verify=True)
got = run_frozen(frozen)
np.testing.assert_array_equal(got, expected)
assert frost.summarize(frozen)["inputs"]
assert frost.verify(frozen, prefix, "y")["passed"] is True
# verify's keywords, and a call after a refused one.
try:
    frost.verify(frozen, prefix, "y", rtol=-1.0)
    raise AssertionError("a negative rtol was taken")
except ValueError:
    pass
try:
    frost.freeze(prefix, ["no_such_node"], verify=True, allow_unchecked=True)
    raise AssertionError("an unknown output was taken")
except frost.FrostError:
    pass
report = frost.verify(frozen, prefix, "y", atol=1e-6, rtol=1e-4, allow_unchecked=True)
assert report["passed"] is True and report["complete"] is True, report
assert [(o["atol"], o["rtol"]) for o in report["numeric"]["outputs"]] == [(1e-6, 1e-4)], report
assert frost.freeze(prefix, ["y"], verify=True, allow_unchecked=True) == frozen
fast = frost.optimize_for_inference(frozen, ["x"], ["y"])
np.testing.assert_allclose(run_frozen(fast), expected, rtol=1e-6)
small = frost.transform(frozen, "strip_unused_nodes fold_constants", ["x"], ["y"])
np.testing.assert_allclose(run_frozen(small), expected, rtol=1e-6)
assert frost.diff(frozen, frozen)["identical"] is True
assert frost.diff(frozen, fast)["identical"] is False
assert [v["name"] for v in frost.inspect_checkpoint(prefix)["variables"]] == ["b", "w"]
# frost.run, many calls in this process, each equal to TensorFlow's run of the frozen graph
# (Frost's softmax is within rounding of TensorFlow's).
g = tf.Graph()
with g.as_default():
    v1.import_graph_def(v1.GraphDef.FromString(frozen), name="")
with v1.Session(graph=g) as sess:
    for start in range(0, 32, 2):
        batch = data[start:start + 2]
        out = frost.run(frozen, {{"x": batch}})
        assert list(out) == ["y:0"] and out["y:0"].dtype == np.float32, out
        np.testing.assert_allclose(out["y:0"], sess.run("y:0", {{"x:0": batch}}), rtol=1e-5, atol=1e-7)
np.testing.assert_allclose(frost.run(prefix, {{"x:0": data}}, "y")["y:0"], expected, rtol=1e-5, atol=1e-7)
assert frost.run(frozen, {{"x": data}}, "y", compare_with=prefix)["y:0"].shape == (32, 3)
try:
    frost.run(frozen, {{"x": data.astype(np.float64)}})
    raise AssertionError("a float64 input was fed to a float32 placeholder")
except frost.FrostError as e:
    assert "float64, but placeholder 'x' is float32" in str(e), e
print("same outputs", got.shape)
"""

KERAS_SCRIPT = """
import tensorflow as tf
import numpy as np
import frost

export = {export!r}
rng = np.random.RandomState(1)
data = rng.rand(16, 5).astype(np.float32)
target = rng.rand(16, 2).astype(np.float32)
inputs = tf.keras.Input((5,), name="features")
hidden = tf.keras.layers.Dense(8, activation="relu")(inputs)
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(hidden))
model.compile(optimizer="sgd", loss="mse")
model.fit(data, target, epochs=2, verbose=0)
model.export(export, verbose=False)
expected = model(data).numpy()

frozen = frost.freeze(export, signature="serving_default")
summary = frost.summarize(frozen)
[placeholder], [output] = summary["inputs"], summary["outputs"]
g = tf.Graph()
with g.as_default():
    tf.compat.v1.import_graph_def(tf.compat.v1.GraphDef.FromString(frozen), name="")
with tf.compat.v1.Session(graph=g) as sess:
    got = sess.run(output["name"] + ":0", {{placeholder["name"] + ":0": data}})
np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
# frost.run on the SavedModel itself, its input named by the signature's key.
[ran] = frost.run(export, {{"features": data}}).values()
np.testing.assert_allclose(ran, got, rtol=1e-5, atol=1e-6)
print("same outputs", expected.shape)
"""

# A text-preprocessing graph (regular expressions, UTF-8 substrings) run by frost.run beside
# TensorFlow: its RE2 and the one TensorFlow exports differ in version, so frost's must stay
# its own.
TEXT_SCRIPT = """
import tensorflow as tf
import numpy as np
import frost
v1 = tf.compat.v1

graph = tf.Graph()
with graph.as_default():
    text = v1.placeholder(tf.string, [None], name="text")
    clean = tf.strings.regex_replace(tf.strings.lower(text), r"[^a-z0-9 ]+", "")
    clean = tf.strings.regex_replace(clean, r"\\s+", " ")
    dates = tf.strings.regex_replace(text, r"(\\d+)-(\\d+)-(\\d+)", r"\\3/\\2/\\1", name="dates")
    tf.identity(clean, name="clean")
    tf.strings.regex_full_match(text, r"[A-Za-z ]+", name="alpha")
    pattern = v1.placeholder_with_default(tf.constant("o+"), [], name="pattern")
    tf.strings.regex_replace(text, pattern, "0", name="zeros")
    tf.strings.substr(text, -3, 2, unit="UTF8_CHAR", name="tail")
    tf.strings.length(text, unit="UTF8_CHAR", name="chars")
data = np.array([b"Hello,  World!", b"caf\\xc3\\xa9 2026-11-28", b"foo\\tbar", b"\\xe6\\x97\\xa5\\xe6\\x9c\\xac\\xe8\\xaa\\x9e"], dtype=object)
names = ["clean:0", "dates:0", "alpha:0", "zeros:0", "tail:0", "chars:0"]
with v1.Session(graph=graph) as sess:
    expected = sess.run(names, {{"text:0": data}})
graph_def = graph.as_graph_def().SerializeToString()
got = frost.run(graph_def, {{"text": data}}, names)
assert list(got) == names, list(got)
for name, want in zip(names, expected):
    np.testing.assert_array_equal(got[name], want, err_msg=name)
# An invalid pattern fed at run time: TensorFlow's message, through RE2's own words.
try:
    frost.run(graph_def, {{"text": data, "pattern": np.array(b"(o")}}, ["zeros:0"])
    raise AssertionError("an invalid pattern was taken")
except frost.FrostError as e:
    assert "Invalid pattern: (o, error: missing ): (o" in str(e), e
print("same outputs", len(names))
"""


def run_script(source):
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(source)], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
    assert r.returncode == 0, r.stderr[-3000:]
    assert "same outputs" in r.stdout


def test_tf1_training_script_imports_tensorflow_first(tmp_path):
    run_script(TF1_SCRIPT.format(prefix=str(tmp_path / "model.ckpt")))


def test_keras_training_script_imports_tensorflow_first(tmp_path):
    run_script(KERAS_SCRIPT.format(export=str(tmp_path / "export")))


def test_text_preprocessing_beside_tensorflow():
    run_script(TEXT_SCRIPT.format())
