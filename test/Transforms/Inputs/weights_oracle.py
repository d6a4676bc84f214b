"""quantize_weights and round_weights on a real model, run in TensorFlow.

    weights_oracle.py

Keras MobileNetV2 (alpha 0.35, 96x96, random weights, frozen with
convert_variables_to_constants_v2) goes through `optimize-for-inference`,
then `transform-graph --transforms=quantize_weights` and, separately,
`round_weights`. Checked:
- quantize_weights: the file is at most 0.3 of the optimized one (float
  weights become bytes: about 4x smaller), every float Const of 1024
  elements or more is gone, and the graph imports and runs in TensorFlow,
  its output within 0.1 of the float graph's (relative to the output's
  range: eight-bit weights are an approximation);
- round_weights: the file is as large, but gzip compresses it to at most
  0.5 of what it makes of the optimized one, and its output is within 0.1
  likewise.
Prints the sizes and ratios.
"""
import gzip
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

tf1 = tf.compat.v1


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(path, inp, out, x):
    g = graph_pb2.GraphDef.FromString(open(path, "rb").read())
    with tf.Graph().as_default() as graph:
        tf1.import_graph_def(g, name="")
        with tf1.Session(graph=graph) as sess:
            return sess.run(out + ":0", {inp + ":0": x}), g


def main():
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.applications.MobileNetV2(input_shape=(96, 96, 3), alpha=0.35, weights=None,
                                              classifier_activation=None)
    # Trained-like batch norms, so activations neither vanish nor explode.
    rng = np.random.RandomState(3)
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            gamma, beta, mean, var = layer.get_weights()
            layer.set_weights([rng.uniform(0.5, 1.5, gamma.shape).astype(np.float32),
                               rng.normal(0, 0.1, beta.shape).astype(np.float32),
                               rng.normal(0, 0.1, mean.shape).astype(np.float32),
                               rng.uniform(0.5, 1.5, var.shape).astype(np.float32)])
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec([1, 96, 96, 3], tf.float32))
    frozen = convert_variables_to_constants_v2(fn)
    inp, out = frozen.inputs[0].op.name, frozen.outputs[0].op.name
    x = np.random.RandomState(7).rand(1, 96, 96, 3).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        paths = {k: os.path.join(tmp, k + ".pb") for k in ("frozen", "opt", "quant", "round")}
        open(paths["frozen"], "wb").write(frozen.graph.as_graph_def().SerializeToString())
        subprocess.run(["optimize-for-inference", "--input=" + paths["frozen"],
                        "--output=" + paths["opt"], "--input_names=" + inp,
                        "--output_names=" + out], check=True)
        for name in ("quant", "round"):
            transform = "quantize_weights" if name == "quant" else "round_weights"
            subprocess.run(["transform-graph", "--in_graph=" + paths["opt"],
                            "--out_graph=" + paths[name], "--inputs=" + inp, "--outputs=" + out,
                            "--transforms=" + transform], check=True)
        want, _ = run(paths["opt"], inp, out, x)
        scale = float(np.max(want) - np.min(want)) or 1.0
        sizes = {k: os.path.getsize(p) for k, p in paths.items()}
        gz = {k: len(gzip.compress(open(paths[k], "rb").read())) for k in ("opt", "round")}

        got, quant = run(paths["quant"], inp, out, x)
        big = [n.name for n in quant.node if n.op == "Const" and n.attr["dtype"].type == 1
               and np.prod([d.size for d in n.attr["value"].tensor.tensor_shape.dim]) >= 1024]
        if big:
            fail("quantize_weights left float constants of 1024 elements or more: %s" % big[:3])
        if sizes["quant"] > 0.3 * sizes["opt"]:
            fail("quantized graph is %d bytes, the float one %d" % (sizes["quant"], sizes["opt"]))
        err = float(np.max(np.abs(got - want))) / scale
        if err > 0.1:
            fail("quantized output differs by %.3g of the output's range" % err)
        print("quantize_weights: %d -> %d bytes (%.2fx smaller), output within %.3f of its range"
              % (sizes["opt"], sizes["quant"], sizes["opt"] / sizes["quant"], err))

        got, _ = run(paths["round"], inp, out, x)
        if gz["round"] > 0.5 * gz["opt"]:
            fail("round_weights: gzip makes %d bytes of it, %d of the float graph"
                 % (gz["round"], gz["opt"]))
        err = float(np.max(np.abs(got - want))) / scale
        if err > 0.1:
            fail("rounded output differs by %.3g of the output's range" % err)
        print("round_weights: gzip %d -> %d bytes (%.2fx smaller), output within %.3f of its range"
              % (gz["opt"], gz["round"], gz["opt"] / gz["round"], err))


if __name__ == "__main__":
    main()
