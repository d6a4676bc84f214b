"""optimize-for-inference's graphs run in OpenCV's dnn module, checked against TensorFlow.

    opencv_oracle.py [--tool CMD] [--no-tensorflow-path] MODEL...

MODEL: small (Conv2D+BatchNorm+ReLU, Flatten, Dense+BatchNorm; 16x16x3),
mobilenetv2 (Keras, alpha 0.35, 96x96, weights=None), resnet50 (Keras,
64x64, weights=None), both without the final softmax so that the outputs are
logits and not ~1/1000 each, mixed (Conv2D+BatchNorm+ReLU, pooling, Dense
under the Keras policy 'mixed_float16'), mixed_mobilenetv2 (that MobileNetV2
under 'mixed_float16', a float32 output). Every BatchNormalization gets random
moving mean (U(-.5,.5)), variance (U(.5,1.5)), gamma (U(.5,1.5)) and beta
(U(-.5,.5)), every bias a random value, so no folding is trivial. Each model
is frozen by convert_variables_to_constants_v2 and goes through
`optimize-for-inference --input_names x --output_names Identity
--frozen_graph=true`. Then:
- the optimized graph must compute the frozen graph's output in TensorFlow
  (within 1e-2 * max(1, max|TensorFlow|) for mixed models: their weights are
  folded and rounded in half);
- cv2.dnn.readNetFromTensorflow must load it and, fed the same input as an
  NCHW blob (OpenCV's TensorFlow importer takes 4-D inputs as NCHW and turns
  NHWC graphs into NCHW layers; a 4-D output comes back NCHW), give that
  output, with every engine this OpenCV has (5.x: the new and the classic
  one, each in its own process: OpenCV crashes on some graphs);
- within max|OpenCV - TensorFlow| <= 1e-4 * max(1, max|TensorFlow|): 1e-4
  absolute for outputs up to 1, relative to the largest output beyond.
Mixed models: OpenCV's TensorFlow importer has no working Cast (4.x: no Cast
layer; 5.0: its Cast layer lacks 'outputType'), so it refuses even x ->
float16 -> float32 alone, which this script checks: the default optimized
graph, which keeps the model's half arithmetic, may be refused for Cast and
for nothing else. What must hold is the README's answer: `optimize-for-inference
--compute_in_float32` (Frost's: half computed in float32) leaves no Cast, no
half or bfloat16 type and no batch norm, computes TensorFlow's
mixed-precision output in TensorFlow, and loads and matches it in OpenCV,
within 1e-2 * max(1, max|TensorFlow|) (float16 rounding).

For information only (never a failure) it also gives TensorFlow's own
optimize_for_inference, alone and followed by Grappler's constant folding, to
OpenCV and prints what OpenCV says. Prints one line per model (then the
TensorFlow lines, indented); exits 1 on the first failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

TOLERANCE = 1e-4
MIXED_TOLERANCE = 1e-2


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def scaled_diff(got, want):
    import numpy as np
    return float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))), \
        max(1.0, float(np.max(np.abs(want))))


# --- OpenCV, in a child process that imports neither TensorFlow nor Keras ----

def opencv_child(graph, x_file, out_file, engine):
    import numpy as np
    import cv2
    x = np.load(x_file)
    try:
        if engine == "default":
            net = cv2.dnn.readNetFromTensorflow(graph)
        else:
            net = cv2.dnn.readNetFromTensorflow(graph, "", getattr(cv2.dnn, engine))
        net.setInput(np.ascontiguousarray(x.transpose(0, 3, 1, 2)) if x.ndim == 4 else x)
        out = np.asarray(net.forward())
    except cv2.error as e:
        lines = [line for line in str(e).splitlines() if "error:" in line]
        text = lines[-1] if lines else str(e).strip()
        print(json.dumps({"error": text[text.find("error:"):] if "error:" in text else text}))
        return
    if out.ndim == 4:
        out = out.transpose(0, 2, 3, 1)  # OpenCV's NCHW back to the graph's NHWC
    np.save(out_file, out)
    print(json.dumps({"error": None}))


def opencv_engines():
    import cv2
    if hasattr(cv2.dnn, "ENGINE_NEW") and hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        return cv2.__version__, ["ENGINE_NEW", "ENGINE_CLASSIC"]
    return cv2.__version__, ["default"]


def run_opencv(graph, x, engines, tmp):
    """{engine: (output or None, error or None)}."""
    import numpy as np
    x_file = os.path.join(tmp, "x.npy")
    np.save(x_file, x)
    env = dict(os.environ, OPENCV_LOG_LEVEL="SILENT")
    results = {}
    for engine in engines:
        out_file = os.path.join(tmp, "opencv_out.npy")
        if os.path.exists(out_file):
            os.remove(out_file)
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--opencv-child",
                            graph, x_file, out_file, engine],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if p.returncode < 0:
            results[engine] = (None, "OpenCV crashed (signal %d)" % -p.returncode)
            continue
        # OpenCV prints some notes of its own to stdout, without a newline.
        start = p.stdout.rfind('{"error"')
        if p.returncode != 0 or start < 0:
            results[engine] = (None, "OpenCV child failed: " + (p.stderr.strip().splitlines() or
                                                                  [p.stdout.strip()])[-1])
            continue
        error = json.loads(p.stdout[start:].splitlines()[0])["error"]
        results[engine] = (None, error) if error else (np.load(out_file), None)
    return results


def short(engine):
    return {"ENGINE_NEW": "new", "ENGINE_CLASSIC": "classic"}.get(engine, engine)


# --- TensorFlow -------------------------------------------------------------

def tensorflow():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    return tf


def randomize(model, rng):
    import numpy as np
    tf = tensorflow()
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            for var, low, high in ((layer.moving_mean, -.5, .5), (layer.moving_variance, .5, 1.5),
                                   (layer.gamma, .5, 1.5), (layer.beta, -.5, .5)):
                if var is not None:
                    var.assign(rng.uniform(low, high, var.shape).astype(np.float32))
        bias = getattr(layer, "bias", None)
        if bias is not None and not isinstance(layer, tf.keras.layers.BatchNormalization):
            bias.assign(rng.uniform(-.5, .5, bias.shape).astype(np.float32))


def freeze_v2(model, shape):
    """fold_constants_oracle's, imported when needed: the OpenCV children
    this script starts import no TensorFlow."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from fold_constants_oracle import freeze_v2 as freeze
    return freeze(model, shape)

def small():
    tf = tensorflow()
    layers = tf.keras.layers
    inp = tf.keras.Input([16, 16, 3])
    h = layers.ReLU()(layers.BatchNormalization()(layers.Conv2D(8, 3, padding="same")(inp)))
    h = layers.BatchNormalization()(layers.Dense(10)(layers.Flatten()(h)))
    return tf.keras.Model(inp, h), [1, 16, 16, 3]


def mixed():
    tf = tensorflow()
    layers = tf.keras.layers
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inp = tf.keras.Input([16, 16, 3])
        h = layers.ReLU()(layers.BatchNormalization()(layers.Conv2D(8, 3, padding="same")(inp)))
        h = layers.Dense(10)(layers.GlobalAveragePooling2D()(h))
        out = layers.Activation("linear", dtype="float32")(h)
        return tf.keras.Model(inp, out), [1, 16, 16, 3]
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


def mixed_mobilenetv2():
    tf = tensorflow()
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        base = tf.keras.applications.MobileNetV2(
            input_shape=(96, 96, 3), alpha=0.35, weights=None, classifier_activation=None)
        out = tf.keras.layers.Activation("linear", dtype="float32")(base.output)
        return tf.keras.Model(base.input, out), [1, 96, 96, 3]
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


def build(name):
    import numpy as np
    tf = tensorflow()
    tf.keras.utils.set_random_seed(1)
    if name == "small":
        model, shape = small()
    elif name == "mixed":
        model, shape = mixed()
    elif name == "mixed_mobilenetv2":
        model, shape = mixed_mobilenetv2()
    elif name == "mobilenetv2":
        model, shape = tf.keras.applications.MobileNetV2(
            input_shape=(96, 96, 3), alpha=0.35, weights=None,
            classifier_activation=None), [1, 96, 96, 3]
    elif name == "resnet50":
        model, shape = tf.keras.applications.ResNet50(
            input_shape=(64, 64, 3), weights=None, classifier_activation=None), [1, 64, 64, 3]
    else:
        fail("unknown model " + name)
    randomize(model, np.random.RandomState(2))
    return freeze_v2(model, shape)


def run_tf(graph_def, fetch, feed):
    tf = tensorflow()
    tf1 = tf.compat.v1
    config = tf1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        with tf1.Session(graph=g, config=config) as sess:
            return sess.run(fetch, feed)


def tf_optimize_for_inference(graph_def, inp, out):
    tf = tensorflow()
    from tensorflow.python.tools import optimize_for_inference_lib
    return optimize_for_inference_lib.optimize_for_inference(
        graph_def, [inp], [out], tf.float32.as_datatype_enum)


def grappler_constfold(graph_def, out):
    tf = tensorflow()
    from tensorflow.core.protobuf import config_pb2, rewriter_config_pb2
    from tensorflow.python.grappler import tf_optimizer
    with tf.Graph().as_default() as g:
        tf.compat.v1.import_graph_def(graph_def, name="")
        meta = tf.compat.v1.train.export_meta_graph(graph=g)
    meta.collection_def["train_op"].node_list.value.append(out)
    config = config_pb2.ConfigProto()
    config.graph_options.rewrite_options.optimizers[:] = ["constfold"]
    config.graph_options.rewrite_options.meta_optimizer_iterations = \
        rewriter_config_pb2.RewriterConfig.ONE
    return tf_optimizer.OptimizeGraph(config, meta)


def describe(results, want, tolerance):
    """(all passed, text) for run_opencv's results against TensorFlow's output."""
    ok, parts = True, []
    for engine, (got, error) in results.items():
        if error:
            ok = False
            parts.append("%s refuses: %s" % (short(engine), error))
        elif got.shape != want.shape:
            ok = False
            parts.append("%s gives shape %s, TensorFlow %s" % (short(engine), got.shape, want.shape))
        else:
            diff, scale = scaled_diff(got, want)
            ok = ok and diff <= tolerance * scale
            parts.append("%s max diff %.2g" % (short(engine), diff))
    return ok, "; ".join(parts)


def cast_probe(engines, tmp):
    """What OpenCV says about x -> Cast(float16) -> Cast(float32) -> Relu."""
    import numpy as np
    tf = tensorflow()
    tf1 = tf.compat.v1
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [1, 4, 4, 3], name="x")
        tf.nn.relu(tf.cast(tf.cast(x, tf.float16), tf.float32), name="out")
    path = os.path.join(tmp, "cast_probe.pb")
    open(path, "wb").write(g.as_graph_def().SerializeToString())
    return run_opencv(path, np.ones([1, 4, 4, 3], np.float32), engines, tmp)


def refused_for_cast(error):
    return error is not None and ("Cast" in error or "outputType" in error)


def check(name, tool, tf_path, version, engines):
    import numpy as np
    from tensorflow.core.framework import graph_pb2, types_pb2
    frozen, inp, out, shape = build(name)
    x = np.random.RandomState(3).uniform(-1, 1, shape).astype(np.float32)
    want = run_tf(frozen, out + ":0", {inp + ":0": x})
    scale = max(1.0, float(np.max(np.abs(want))))
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "frozen.pb"), os.path.join(tmp, "optimized.pb")
        open(src, "wb").write(frozen.SerializeToString())
        p = subprocess.run(tool + ["--input", src, "--output", dst, "--input_names", inp,
                                   "--output_names", out, "--frozen_graph=true"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail("%s: optimize-for-inference exits %d: %s" % (name, p.returncode, p.stderr.strip()))
        optimized = graph_pb2.GraphDef.FromString(open(dst, "rb").read())
        mine = run_tf(optimized, out + ":0", {inp + ":0": x})
        diff, _ = scaled_diff(mine, want)
        limit = MIXED_TOLERANCE if name.startswith("mixed") else TOLERANCE
        if mine.shape != want.shape or diff > limit * scale:
            fail("%s: the optimized graph computes, in TensorFlow, the frozen one's output within "
                 "%.3g only" % (name, diff))
        casts = sum(n.op == "Cast" for n in optimized.node)
        head = "%s: %d -> %d nodes%s, output scale %.3g, OpenCV %s" % (
            name, len(frozen.node), len(optimized.node),
            " (%d Cast)" % casts if casts else "", scale, version)
        results = run_opencv(dst, x, engines, tmp)
        if name.startswith("mixed"):
            # The default graph keeps the model's half arithmetic and its casts:
            # OpenCV may refuse it for its Cast nodes (as it refuses
            # x->float16->float32 alone), for nothing else.
            probe = cast_probe(engines, tmp)
            default = []
            for engine, (got, error) in results.items():
                if error is None:
                    ok, text = describe({engine: (got, error)}, want, MIXED_TOLERANCE)
                    if not ok:
                        fail("%s: OpenCV: %s (limit %.2g)" % (name, text, MIXED_TOLERANCE * scale))
                    default.append(text)
                elif not refused_for_cast(error):
                    fail("%s: OpenCV %s refuses the optimized graph for something else than "
                         "Cast: %s" % (name, short(engine), error))
                elif not refused_for_cast(probe[engine][1]):
                    fail("%s: OpenCV %s runs x->float16->float32 but refuses the optimized "
                         "graph: %s" % (name, short(engine), error))
                else:
                    default.append("%s refuses Cast, as it does x->float16->float32 alone (%s)"
                                   % (short(engine), error))
            # What the README promises: --compute_in_float32 makes a mixed-precision
            # graph load and compute in OpenCV, whatever OpenCV does with casts.
            widened = os.path.join(tmp, "float32.pb")
            p = subprocess.run(tool + ["--input", src, "--output", widened, "--input_names", inp,
                                       "--output_names", out, "--compute_in_float32"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                fail("%s: optimize-for-inference --compute_in_float32 exits %d: %s"
                     % (name, p.returncode, p.stderr.strip()))
            graph = graph_pb2.GraphDef.FromString(open(widened, "rb").read())
            left = [n.name for n in graph.node if n.op in ("Cast", "FusedBatchNorm", "FusedBatchNormV3",
                                                          "Rsqrt")]
            if left:
                fail("%s: --compute_in_float32 leaves Cast or batch norm nodes: %s" % (name, left[:5]))
            small = {types_pb2.DT_HALF, types_pb2.DT_BFLOAT16}
            halves = [n.name for n in graph.node
                      if any(v.type in small or small & set(v.list.type) for v in n.attr.values())]
            if halves:
                fail("%s: --compute_in_float32 leaves half or bfloat16 types: %s"
                     % (name, halves[:5]))
            diff, _ = scaled_diff(run_tf(graph, out + ":0", {inp + ":0": x}), want)
            if diff > MIXED_TOLERANCE * scale:
                fail("%s: --compute_in_float32 computes, in TensorFlow, the mixed-precision "
                     "output within %.3g only" % (name, diff))
            ok, text = describe(run_opencv(widened, x, engines, tmp), want, MIXED_TOLERANCE)
            if not ok:
                fail("%s: with --compute_in_float32, OpenCV: %s (limit %.2g)"
                     % (name, text, MIXED_TOLERANCE * scale))
            print("%s; by default: %s; with --compute_in_float32 (%d nodes, no Cast, no half, "
                  "batch norms folded): %s (float16 rounding, limit %.2g)"
                  % (head, "; ".join(default), len(graph.node), text, MIXED_TOLERANCE * scale))
        else:
            ok, text = describe(results, want, TOLERANCE)
            if not ok:
                fail("%s: OpenCV: %s (limit %.2g)" % (name, text, TOLERANCE * scale))
            print("%s: %s (limit %.2g)" % (head, text, TOLERANCE * scale))

        if tf_path:
            tf_opt = tf_optimize_for_inference(frozen, inp, out)
            folded = grappler_constfold(tf_opt, out)
            for label, graph in (("optimize_for_inference", tf_opt),
                                 ("optimize_for_inference + Grappler constfold", folded)):
                path = os.path.join(tmp, "tf.pb")
                open(path, "wb").write(graph.SerializeToString())
                ok, text = describe(run_opencv(path, x, engines, tmp), want, TOLERANCE)
                print("  tensorflow's %s (%d nodes): %s: %s"
                      % (label, len(graph.node), "OpenCV runs it" if ok else "not usable", text))
        sys.stdout.flush()


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--opencv-child":
        opencv_child(*sys.argv[2:])
        return
    p = argparse.ArgumentParser()
    p.add_argument("--tool", default="optimize-for-inference",
                   help="the optimize-for-inference command (words split on blanks)")
    p.add_argument("--no-tensorflow-path", action="store_true",
                   help="skip giving TensorFlow's own optimized graphs to OpenCV")
    p.add_argument("models", nargs="+")
    args = p.parse_args()
    version, engines = opencv_engines()
    for name in args.models:
        check(name, args.tool.split(), not args.no_tensorflow_path, version, engines)


if __name__ == "__main__":
    main()
