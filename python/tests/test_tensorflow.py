"""TensorFlow as the oracle: a TF1 model trained-and-saved by TensorFlow, frozen in Python by
frost, imported with tf.import_graph_def and run, gives what the session gave and what
TensorFlow's own convert_variables_to_constants gives. Skipped without TensorFlow."""
import numpy as np
import pytest

import frost

tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """prefix, its graph, the input batch, the session's outputs and TF's own frozen graph."""
    prefix = str(tmp_path_factory.mktemp("tf") / "model.ckpt")
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = v1.get_variable("w", [3, 2], initializer=v1.random_normal_initializer(seed=1))
        b = v1.get_variable("b", [2], initializer=v1.constant_initializer(0.25))
        scale = v1.constant(2.0, name="scale")
        y = tf.identity(tf.tanh(tf.matmul(x, w) + b) * scale, name="y")
        ema = tf.train.ExponentialMovingAverage(0.5)
        with tf.control_dependencies([v1.assign_add(w, tf.ones_like(w))]):
            train = ema.apply([w, b])
        saver = v1.train.Saver()
        batch = np.random.RandomState(0).rand(4, 3).astype(np.float32)
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            saver.save(sess, prefix)
            expected = sess.run(y, {x: batch})
            tf_frozen = v1.graph_util.convert_variables_to_constants(
                sess, graph.as_graph_def(), ["y"])
    return prefix, graph, batch, expected, tf_frozen


def run_frozen(graph_def, batch):
    if isinstance(graph_def, bytes):
        graph_def = v1.GraphDef.FromString(graph_def)
    g = tf.Graph()
    with g.as_default():
        v1.import_graph_def(graph_def, name="")
    with v1.Session(graph=g) as sess:
        return sess.run("y:0", {"x:0": batch})


def test_round_trip(trained):
    prefix, _, batch, expected, tf_frozen = trained
    frozen = frost.freeze(prefix, ["y"])
    np.testing.assert_array_equal(run_frozen(frozen, batch), expected)
    np.testing.assert_array_equal(run_frozen(tf_frozen, batch), expected)


def test_graph_objects_are_accepted(trained):
    prefix, graph, batch, expected, _ = trained
    with graph.as_default():
        meta = v1.train.export_meta_graph()
    for model in (graph.as_graph_def(), graph, meta):
        # A GraphDef object in, a GraphDef object out (the caller's own class), holding what
        # the same model as bytes gives.
        frozen = frost.freeze(model, ["y"], checkpoint=prefix)
        assert isinstance(frozen, v1.GraphDef), type(frozen)
        message = model.as_graph_def() if isinstance(model, tf.Graph) else model
        as_bytes = frost.freeze(message.SerializeToString(deterministic=True), ["y"],
                                checkpoint=prefix)
        assert frozen == v1.GraphDef.FromString(as_bytes)
        np.testing.assert_array_equal(run_frozen(frozen, batch), expected)
    # Text asks for text; a file gives None.
    text = frost.freeze(graph, ["y"], checkpoint=prefix, text=True)
    assert isinstance(text, bytes) and text.startswith(b"node {")


def test_ema_round_trip(trained):
    """ema=True freezes the shadows: y computed from the averaged w and b."""
    prefix, graph, batch, _, _ = trained
    reader = tf.train.load_checkpoint(prefix)
    w = reader.get_tensor("w/ExponentialMovingAverage")
    b = reader.get_tensor("b/ExponentialMovingAverage")
    # TensorFlow's kernels, not numpy's: numpy's BLAS rounds the sums its own way.
    expected = (tf.tanh(tf.matmul(batch, w) + b) * 2.0).numpy()
    got = run_frozen(frost.freeze(prefix, ["y"], ema=True), batch)
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_transform_of_tensorflows_graph_def(trained):
    """transform() takes TF's own frozen GraphDef object; the result still runs the same."""
    _, _, batch, expected, tf_frozen = trained
    out = frost.transform(tf_frozen, "fold_constants strip_unused_nodes sort_by_execution_order",
                          inputs=["x"], outputs=["y"])
    assert isinstance(out, v1.GraphDef), type(out)
    np.testing.assert_array_equal(run_frozen(out, batch), expected)
    fast = frost.optimize_for_inference(tf_frozen, ["x"], ["y"])
    assert isinstance(fast, v1.GraphDef), type(fast)
    np.testing.assert_allclose(run_frozen(fast, batch), expected, rtol=1e-6)
    assert frost.summarize(tf_frozen)["inputs"][0]["name"] == "x"


def test_tf2_saved_model(tmp_path):
    """A TF2 SavedModel (a tf.Module with variables) frozen by signature: the CLI's bytes, and
    the frozen graph computes what the module computes."""
    from conftest import run

    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.5, -2.0], [0.5, 3.0]], name="w")
            self.b = tf.Variable([0.25, -0.75], name="b")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def __call__(self, x):
            return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b)}

    module = Dense()
    export = tmp_path / "saved_model"
    tf.saved_model.save(module, str(export), signatures={"serving_default": module.__call__})
    cli = tmp_path / "cli.pb"
    r = run("freeze-graph", export, "--signature", "serving_default", "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    frozen = frost.freeze(export, signature="serving_default")
    assert frozen == cli.read_bytes()
    summary = frost.summarize(frozen)
    (x,) = [i["name"] for i in summary["inputs"]]
    (y,) = [o["name"] for o in summary["outputs"]]
    batch = np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)
    g = tf.Graph()
    with g.as_default():
        v1.import_graph_def(v1.GraphDef.FromString(frozen), name="")
    with v1.Session(graph=g) as sess:
        got = sess.run(y + ":0", {x + ":0": batch})
    np.testing.assert_array_equal(got, module(tf.constant(batch))["y"].numpy())
