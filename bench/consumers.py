#!/usr/bin/env python3
"""Where frozen graphs go: Frost's and TensorFlow's, fed to the consumers people deploy with.

    bench/consumers.py [--bin build/bin] [--cache ~/.cache/frost-fixtures]
                       [--work /tmp/frost-consumers] [--only NAME,...]
                       [--markdown docs/consumers.md]

The models: the model set's (test/Models/Inputs/model_set.py, built once into --cache as the
oracle tests build it) Keras applications at 32x32 (MobileNetV2, a shallow ResNet50, DenseNet
and EfficientNetB0), a Keras LSTM/GRU, TF1 CNNs (batch norms, an Inception block), a TF1
dynamic_rnn LSTM and a TF2 lookup-table model, each with its recorded inputs (a batch of 2) and
the source model's outputs on them (expected.npz).

For each model, five GraphDefs:
  Frost frozen          freeze-graph SOURCE [flags] -o frost.pb
  TensorFlow frozen     TF1: Session restore + convert_variables_to_constants (freeze_graph.py's
                        steps); TF2: tf.saved_model.load + convert_variables_to_constants_v2
  Frost optimized       freeze-graph SOURCE [flags] --optimize -o frost-opt.pb
  TensorFlow optimized  optimize_for_inference_lib.optimize_for_inference on TensorFlow's frozen
                        graph (optimize_for_inference.py's call)
  Frost batch 1         freeze-graph SOURCE [flags] --optimize --batch-size 1 (fed the first row)
each given to:
  TensorFlow            import_graph_def + Session.run (no Grappler)
  OpenCV new / classic  cv2.dnn.readNetFromTensorflow, each engine in its own process (OpenCV
                        crashes on some graphs); 4-D inputs fed NCHW, as its importer wants
  ONNX                  tf2onnx.convert.from_graph_def, then onnxruntime
  TFLite                tf.compat.v1.lite.TFLiteConverter.from_frozen_graph, then the
                        interpreter (inputs resized to the feed)
and two SavedModels:
  Frost                 freeze-graph SOURCE [flags] --emit saved_model
  TensorFlow, by hand   TensorFlow's frozen graph wrapped the usual way (the answer to
                        tensorflow/serving#2074): import_graph_def into a Session,
                        SavedModelBuilder, predict_signature_def, tag serve
each given to tf.saved_model.load (the signature called), TF Serving's signature rules
(signature_def_utils.is_valid_signature), TFLiteConverter.from_saved_model and
`python -m tf2onnx.convert --saved-model` (its main(), in the model's process) + onnxruntime.

A cell is "yes" when the consumer loads the graph and computes the source model's outputs
(floats within 1e-4 of each output's largest magnitude, everything else exactly), "off E"
when it runs but is E away, and "no: WHY" when it refuses or fails. Each model runs in its
own process (a consumer may crash it). Prints the Markdown; --markdown writes it to a file.
TensorFlow, OpenCV, tf2onnx and onnxruntime are oracles here: Frost calls none of them.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import check_saved_model_export as sm  # noqa: E402
import model_set_report as ms  # noqa: E402

MODELS = ["keras_mobilenet_v2", "keras_resnet50_shallow", "keras_densenet_shallow",
          "keras_efficientnet_b0_shallow", "keras_lstm_gru", "tf1_cnn_batch_norm",
          "tf1_inception_block", "tf1_dynamic_rnn_lstm", "lookup_tables"]
GRAPHS = ["Frost frozen", "TensorFlow frozen", "Frost optimized", "TensorFlow optimized",
          "Frost batch 1"]
GRAPH_CONSUMERS = ["TensorFlow", "OpenCV new", "OpenCV classic", "ONNX", "TFLite"]
SAVED_MODELS = ["Frost", "TensorFlow, by hand"]
SAVED_MODEL_CONSUMERS = ["tf.saved_model.load", "Serving rules", "TFLite", "ONNX"]


def first_line(e):
    text = str(e).strip() or type(e).__name__
    for line in text.splitlines():
        if "error" in line.lower() or "Error" in line:
            text = line
            break
    else:
        text = text.splitlines()[0]
    return " ".join(text.split())[:300]


def verdict(got, want):
    """"yes", "off E" or "no: ..." for outputs `got` against `want` (lists), with the model
    set's tolerance (ms.disagreement); strings compared as bytes, and an output of the right
    size but another shape (a consumer that drops or adds unit dimensions) reshaped."""
    import numpy as np
    worst = []
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        if w.dtype == object:
            w = w.astype(bytes)
        if g.dtype == object:
            g = g.astype(bytes)
        if g.shape != w.shape and g.size == w.size:
            g = g.reshape(w.shape)
        why = ms.disagreement(g, w)
        if why and why.startswith("shape"):
            return "no: output " + why
        if why:
            worst.append(why)
    if not worst:
        return "yes"
    errors = [float(w.split()[1]) for w in worst if w.startswith("error ")]
    return "off %.1e" % max(errors) if len(errors) == len(worst) else "off: values differ"


# ------------------------------------------------------------- consumers


def opencv_child(graph, feeds_file, out_file, engine, fetches):
    """In a process of its own: one engine of OpenCV's dnn on one graph."""
    import numpy as np
    import cv2
    feeds = dict(np.load(feeds_file, allow_pickle=True))
    try:
        net = cv2.dnn.readNetFromTensorflow(graph, "", getattr(cv2.dnn, engine))
        for name, x in feeds.items():
            net.setInput(np.ascontiguousarray(x.transpose(0, 3, 1, 2)) if x.ndim == 4 else x,
                         name if len(feeds) > 1 else "")
        # One output: the last layer's (OpenCV drops Identity layers, the names of
        # Keras outputs among them).
        names = fetches.split(",")
        outs = net.forward(names) if len(names) > 1 else [net.forward()]
    except cv2.error as e:
        print(json.dumps({"error": first_line(e)}))
        return
    outs = [np.asarray(o) for o in outs]
    outs = [o.transpose(0, 2, 3, 1) if o.ndim == 4 else o for o in outs]  # NCHW back
    np.savez(out_file, *outs)
    print(json.dumps({"error": None}))


def run_opencv(graph, feeds, fetches, want, engine, tmp):
    import numpy as np
    if any(v.dtype == object for v in feeds.values()):
        return "no: string inputs"
    feeds_file, out_file = os.path.join(tmp, "feeds.npz"), os.path.join(tmp, "opencv.npz")
    np.savez(feeds_file, **feeds)
    if os.path.exists(out_file):
        os.remove(out_file)
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--opencv-child", graph,
                        feeds_file, out_file, engine, ",".join(t.split(":")[0] for t in fetches)],
                       capture_output=True, text=True, env=dict(os.environ, OPENCV_LOG_LEVEL="SILENT"))
    if p.returncode < 0:
        return "no: OpenCV crashed (signal %d)" % -p.returncode
    start = p.stdout.rfind('{"error"')
    if p.returncode != 0 or start < 0:
        return "no: " + first_line(p.stderr or p.stdout)
    error = json.loads(p.stdout[start:].splitlines()[0])["error"]
    if error:
        return "no: " + error
    got = np.load(out_file)
    return verdict([got["arr_%d" % i] for i in range(len(fetches))], want)


def tensor(name):
    return name if ":" in name else name + ":0"


def run_onnx_model(model_bytes, feeds, output_names, want):
    import numpy as np
    import onnxruntime
    session = onnxruntime.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])
    inputs = {i.name: i for i in session.get_inputs()}
    feed = {}
    for name, value in feeds.items():
        key = next((k for k in (name, tensor(name)) if k in inputs), None)
        if key is None:
            return "no: onnxruntime has no input %s (it has %s)" % (name, ", ".join(inputs))
        feed[key] = value.astype(np.str_) if value.dtype == object else value
    got = session.run(output_names, feed)
    return verdict(got, want)


def run_onnx(graph_def, feeds, fetches, want):
    import tf2onnx
    try:
        model, _ = tf2onnx.convert.from_graph_def(
            graph_def, input_names=[tensor(k) for k in feeds], output_names=[tensor(t) for t in fetches])
    except Exception as e:  # noqa: BLE001 - a refusal is the finding
        return "no: tf2onnx: " + first_line(e)
    try:
        return run_onnx_model(model.SerializeToString(), feeds, [tensor(t) for t in fetches], want)
    except Exception as e:  # noqa: BLE001
        return "no: onnxruntime: " + first_line(e)


def run_tflite_model(content, feeds, want, outputs_by_name):
    import tensorflow as tf
    interpreter = tf.lite.Interpreter(model_content=content)
    details = {d["name"]: d for d in interpreter.get_input_details()}
    for name, value in feeds.items():
        interpreter.resize_tensor_input(details[name]["index"], list(value.shape))
    interpreter.allocate_tensors()
    for name, value in feeds.items():
        interpreter.set_tensor(details[name]["index"], value)
    interpreter.invoke()
    outs = {d["name"]: d["index"] for d in interpreter.get_output_details()}
    return verdict([interpreter.get_tensor(outs[n]) for n in outputs_by_name], want)


def run_tflite(graph_file, feeds, fetches, want):
    import tensorflow as tf
    names = [t.split(":")[0] for t in fetches]
    try:
        converter = tf.compat.v1.lite.TFLiteConverter.from_frozen_graph(
            graph_file, list(feeds), names,
            {k: [None if i == 0 else d for i, d in enumerate(v.shape)] for k, v in feeds.items()})
        content = converter.convert()
    except Exception as e:  # noqa: BLE001
        return "no: converter: " + first_line(e)
    try:
        return run_tflite_model(content, feeds, want, names)
    except Exception as e:  # noqa: BLE001
        return "no: interpreter: " + first_line(e)


def run_tf(graph_def, feeds, fetches, want, init):
    try:
        return verdict(ms.tf_run(graph_def, feeds, fetches, init), want)
    except Exception as e:  # noqa: BLE001
        return "no: " + first_line(e)


# ------------------------------------------------------- TensorFlow's graphs


def tf_frozen(model_dir, spec, flags, keys):
    """TensorFlow's frozen GraphDef: (graph_def, {feed name: input key}, [output tensors])."""
    import tensorflow as tf
    V1 = tf.compat.v1
    source = os.path.join(model_dir, spec["source"])
    if spec["kind"] == "tf1":
        outputs = [t.split(":")[0] for t in spec["outputs"]]
        with tf.Graph().as_default() as g, V1.Session(graph=g) as sess:
            saver = V1.train.import_meta_graph(source + ".meta", clear_devices=True)
            saver.restore(sess, source)
            frozen = V1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), outputs)
        return frozen, {k: k for k in spec["inputs"]}, list(spec["outputs"])
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)
    loaded = tf.saved_model.load(source)  # held: the signature reads its variables
    fn = loaded.signatures[sm.signature_key(flags)]
    frozen = convert_variables_to_constants_v2(fn)
    placeholders = [t.name.split(":")[0] for t in frozen.inputs if t.dtype != tf.resource]
    # The signature's argument names are the placeholders' (Keras: the Input's name).
    feeds = {p: p for p in placeholders}
    # The frozen function's outputs: the signature's, flattened (keys sorted).
    by_key = dict(zip(sorted(fn.structured_outputs), frozen.outputs))
    outputs = [by_key[k].name for k in keys]
    return frozen.graph.as_graph_def(), feeds, outputs


def tf_optimized(graph_def, feeds, outputs):
    from tensorflow.python.tools import optimize_for_inference_lib
    from tensorflow.python.framework import dtypes
    types = []
    by_name = {n.name: n for n in graph_def.node}
    for name in feeds:
        types.append(by_name[name].attr["dtype"].type if name in by_name else dtypes.float32.as_datatype_enum)
    return optimize_for_inference_lib.optimize_for_inference(
        graph_def, list(feeds), [t.split(":")[0] for t in outputs], types)


def wrap_by_hand(graph_def, feeds, outputs, keys, export):
    """The usual answer to "how do I serve a frozen graph": a TF1 SavedModelBuilder."""
    import tensorflow as tf
    V1 = tf.compat.v1
    with tf.Graph().as_default() as g, V1.Session(graph=g) as sess:
        tf.graph_util.import_graph_def(graph_def, name="")
        inputs = {k: g.get_tensor_by_name(tensor(k)) for k in feeds}
        outs = {k: g.get_tensor_by_name(tensor(t)) for k, t in zip(keys, outputs)}
        builder = V1.saved_model.Builder(export)
        builder.add_meta_graph_and_variables(
            sess, [V1.saved_model.tag_constants.SERVING], signature_def_map={
                "serving_default": V1.saved_model.signature_def_utils.predict_signature_def(
                    inputs, outs)}, strip_default_attrs=True)
        builder.save()


# --------------------------------------------------------------- SavedModels


def saved_model_cells(export, feeds, keys, want, key):
    """The consumers of a SavedModel, as scripts/check_saved_model_export.py runs them."""
    from tensorflow.python.saved_model import loader_impl, signature_def_utils
    cells = {}
    for consumer, outputs in (("tf.saved_model.load", sm.v2_outputs),
                              ("TFLite", sm.tflite_outputs), ("ONNX", sm.onnx_outputs)):
        try:
            cells[consumer] = verdict(outputs(export, key, feeds, keys), want)
        except BaseException as e:  # noqa: BLE001 - a refusal is the finding
            cells[consumer] = "no: " + first_line(e)
    meta = loader_impl.parse_saved_model(export).meta_graphs[0]
    bad = [k for k, s in meta.signature_def.items()
           if not k.startswith("__") and not signature_def_utils.is_valid_signature(s)]
    cells["Serving rules"] = "no: invalid %s" % ", ".join(bad) if bad else "yes"
    return cells


# --------------------------------------------------------------- one model


def first_row(feeds, want):
    """Batch 1: the first row of every batched input and output."""
    import numpy as np
    rows = {k: v[:1] for k, v in feeds.items()}
    return rows, [np.asarray(w)[:1] if np.ndim(w) and np.shape(w)[0] == 2 else w for w in want]


def one_model(args, name):
    import numpy as np
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    model_dir = os.path.join(ms.cached_models(args.cache), name)
    spec = json.load(open(os.path.join(model_dir, "spec.json")))
    run = spec["runs"][0]
    flags = run["flags"]
    source = os.path.join(model_dir, spec["source"])
    feeds = dict(np.load(os.path.join(model_dir, "inputs.npz"), allow_pickle=True))
    expected = np.load(os.path.join(model_dir, "expected.npz"), allow_pickle=True)
    want = [expected["out%d" % i] for i in range(len(spec["outputs"]))]
    keys = spec.get("output_keys") or [t.split(":")[0] for t in spec["outputs"]]
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=work)
    result = {"graphs": {}, "saved_models": {}, "nodes": {}}

    def freeze(out, *more):
        report = out + ".report.json"
        p = subprocess.run([os.path.join(args.bin, "freeze-graph"), source, "-q", "-o", out,
                            "--report", report, *flags, *more], capture_output=True, text=True)
        if p.returncode != 0:
            return None, "no: freeze-graph: " + first_line(p.stderr)
        return ms.init_ops(json.load(open(report))), None

    graphs = {}  # label -> (file, feeds, fetches, want, init) or an error
    for label, more in (("Frost frozen", []), ("Frost optimized", ["--optimize"]),
                        ("Frost batch 1", ["--optimize", "--batch-size", "1"])):
        out = os.path.join(work, label.split()[1] + ".pb")
        init, error = freeze(out, *more)
        if error:
            graphs[label] = error
            continue
        f, w = (feeds, want) if label != "Frost batch 1" else first_row(feeds, want)
        graphs[label] = (out, f, list(spec["outputs"]), w, init)
    try:
        frozen, names, outputs = tf_frozen(model_dir, spec, flags, keys)
        tf_feeds = {n: feeds[k] for n, k in names.items()}
        path = os.path.join(work, "tf-frozen.pb")
        open(path, "wb").write(frozen.SerializeToString())
        graphs["TensorFlow frozen"] = (path, tf_feeds, outputs, want, [])
        try:
            optimized = tf_optimized(frozen, tf_feeds, outputs)
            path = os.path.join(work, "tf-optimized.pb")
            open(path, "wb").write(optimized.SerializeToString())
            graphs["TensorFlow optimized"] = (path, tf_feeds, outputs, want, [])
        except Exception as e:  # noqa: BLE001
            graphs["TensorFlow optimized"] = "no: optimize_for_inference: " + first_line(e)
    except Exception as e:  # noqa: BLE001
        frozen = None
        graphs["TensorFlow frozen"] = graphs["TensorFlow optimized"] = (
            "no: TensorFlow's freezing: " + first_line(e))

    for label in GRAPHS:
        g = graphs[label]
        if isinstance(g, str):
            result["graphs"][label] = {c: g for c in GRAPH_CONSUMERS}
            continue
        path, f, fetches, w, init = g
        graph_def = ms.load_graph(path)
        result["nodes"][label] = len(graph_def.node)
        cells = {"TensorFlow": run_tf(graph_def, f, fetches, w, init)}
        for engine in ("ENGINE_NEW", "ENGINE_CLASSIC"):
            cells["OpenCV " + ms_short(engine)] = run_opencv(path, f, fetches, w, engine, tmp)
        # The consumers below run no initializer: a table left for one is refused by them.
        cells["ONNX"] = run_onnx(graph_def, f, fetches, w)
        cells["TFLite"] = run_tflite(path, f, fetches, w)
        result["graphs"][label] = cells

    key = sm.signature_key(flags)
    frost_sm = os.path.join(work, "frost-saved-model")
    p = subprocess.run([os.path.join(args.bin, "freeze-graph"), source, "-q", "--emit",
                        "saved_model", "-o", frost_sm, *flags], capture_output=True, text=True)
    sm_keys = keys if spec["kind"] == "tf2" else [k.split(":")[0] for k in keys]
    if p.returncode != 0:
        result["saved_models"]["Frost"] = {c: "no: " + first_line(p.stderr)
                                           for c in SAVED_MODEL_CONSUMERS}
    else:
        result["saved_models"]["Frost"] = saved_model_cells(frost_sm, feeds, sm_keys, want, key)
    if frozen is None:
        result["saved_models"]["TensorFlow, by hand"] = {
            c: graphs["TensorFlow frozen"] for c in SAVED_MODEL_CONSUMERS}
    else:
        tf_sm = os.path.join(work, "tf-saved-model")
        subprocess.run(["rm", "-rf", tf_sm], check=True)
        _, tf_feeds, outputs = graphs["TensorFlow frozen"][:3]
        wrap_by_hand(frozen, tf_feeds, outputs, sm_keys, tf_sm)
        result["saved_models"]["TensorFlow, by hand"] = saved_model_cells(
            tf_sm, tf_feeds, sm_keys, want, "serving_default")
    print(json.dumps(result))


def opencv_probes():
    """What OpenCV's classic engine says of two lone ops, against TensorFlow: a 3x3 SAME
    DepthwiseConv2dNative over a 1x1 and a 2x2 input (the 32x32 Keras MobileNetV2 and
    EfficientNet reach 1x1 in their last blocks), and a constant added to the input itself
    at batch 1 and 2 (an EfficientNet's Rescaling and Normalization)."""
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    rng = np.random.default_rng(1)
    cases = {}
    for size in (1, 2):
        with tf.Graph().as_default() as g:
            x = V1.placeholder(tf.float32, [1, size, size, 8], name="x")
            w = tf.constant(rng.standard_normal((3, 3, 8, 1)), tf.float32)
            tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", name="out")
        cases["depthwise %dx%d" % (size, size)] = (g, [1, size, size, 8])
    for batch in (1, 2):
        with tf.Graph().as_default() as g:
            x = V1.placeholder(tf.float32, [None, 4, 4, 3], name="x")
            tf.add(x, tf.constant([0.5, -1.0, 2.0]), name="out")
        cases["input + constant, batch %d" % batch] = (g, [batch, 4, 4, 3])
    said = {}
    for name, (g, shape) in cases.items():
        feed = rng.standard_normal(shape).astype(np.float32)
        with V1.Session(graph=g) as sess:
            want = sess.run("out:0", {"x:0": feed})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "probe.pb")
            open(path, "wb").write(g.as_graph_def().SerializeToString())
            said[name] = run_opencv(path, {"x": feed}, ["out"], [want], "ENGINE_CLASSIC", tmp)
    print(json.dumps(said))


def ms_short(engine):
    return {"ENGINE_NEW": "new", "ENGINE_CLASSIC": "classic"}[engine]


# ------------------------------------------------------------------ report


def cell_text(value, notes):
    if value in ("yes",) or value.startswith("off"):
        return value
    why = value[len("no: "):] if value.startswith("no: ") else value
    if why not in notes:
        notes.append(why)
    return "no [%d]" % (notes.index(why) + 1)


def said(verdict_text):
    """A probe's verdict, an OpenCV refusal shortened to the function that raised it."""
    if not verdict_text.startswith("no: "):
        return verdict_text
    return "refused in %s" % verdict_text.split("in function")[-1].strip(" '")


def markdown(results, versions, probe):
    lines = [
        "# Consumers of frozen graphs, measured",
        "",
        "Generated by `bench/consumers.py` (issue #30): the same models frozen and optimized by",
        "Frost and by TensorFlow's tools, each graph given to the consumers people deploy with,",
        "and each model exported as a serving SavedModel by Frost (`--emit saved_model`) and by",
        "hand from TensorFlow's frozen graph (the usual `SavedModelBuilder` recipe). \"yes\": the",
        "consumer loads it and computes the source model's outputs on the recorded inputs (floats",
        "within 1e-4 of the output's largest magnitude); \"off E\": it runs but is E away; \"no",
        "[n]\": it refuses or fails, for note n's reason. Versions: %s." % versions,
        "",
        "Frost batch 1 is `--optimize --batch-size 1`, fed the first row (TensorFlow's tools",
        "cannot fix a shape). Every consumer but TensorFlow runs no initializer, so a graph with",
        "lookup tables is refused by them whoever froze it.",
        "",
        "## GraphDefs",
        "",
    ]
    notes = []
    header = "| model | graph | nodes | " + " | ".join(GRAPH_CONSUMERS) + " |"
    lines += [header, "|" + "---|" * (3 + len(GRAPH_CONSUMERS))]
    for name, r in results.items():
        if "crashed" in r:
            lines.append("| %s | | | %s |" % (name, cell_text("no: " + r["crashed"], notes)))
            continue
        for label in GRAPHS:
            cells = r["graphs"][label]
            lines.append("| %s | %s | %s | %s |" % (
                name, label, r["nodes"].get(label, ""),
                " | ".join(cell_text(cells[c], notes) for c in GRAPH_CONSUMERS)))
    lines += ["", "## SavedModels", "",
              "| model | SavedModel | " + " | ".join(SAVED_MODEL_CONSUMERS) + " |",
              "|" + "---|" * (2 + len(SAVED_MODEL_CONSUMERS))]
    for name, r in results.items():
        if "crashed" in r:
            continue
        for label in SAVED_MODELS:
            cells = r["saved_models"][label]
            lines.append("| %s | %s | %s |" % (
                name, label, " | ".join(cell_text(cells[c], notes) for c in SAVED_MODEL_CONSUMERS)))
    lines += ["", "## Reading the table", "",
              "- OpenCV's dnn reads TensorFlow's frozen and optimized Keras graphs not at all: "
              "Keras 3's batch norms stay decomposed (Rsqrt), which optimize_for_inference "
              "cannot fold. Frost's optimized graphs fold them and load.",
              "- Frost's optimized MobileNetV2 and EfficientNet load in OpenCV but compute wrongly "
              "because of OpenCV: at 32x32 their last blocks run a 3x3 depthwise convolution over "
              "a 1x1 input, which OpenCV computes wrongly even alone (measured in this run: a "
              "lone 3x3 SAME depthwise convolution over a 1x1 input is %s, over a 2x2 input %s). "
              "At the sizes these networks are used (MobileNetV2 at 96x96 in "
              "test/Transforms/optimize-for-inference-vs-opencv.test) they match."
              % (probe.get("depthwise 1x1", "?"), probe.get("depthwise 2x2", "?")),
              "- Frost removed what made OpenCV refuse its optimized graphs: a Const spelled with "
              "no values (all zeros; pass spell-out-constants), Keras' IdentityN activations "
              "(remove-training-nodes splices them) and squeeze-and-excite Reshapes whose shape "
              "is computed from the batch (infer-reshape-dimension). OpenCV still stops on the "
              "EfficientNet at batch 2: it cannot add a constant to its input at a batch over 1 "
              "(measured in this run: a lone x + c on a [1,4,4,3] input is %s; on a [2,4,4,3] "
              "one, %s). At batch 1 it loads, and meets the depthwise problem above."
              % tuple(said(probe.get("input + constant, batch %d" % b, "?")) for b in (1, 2)),
              "- A lookup-table model frozen by TensorFlow does not run even in TensorFlow: "
              "convert_variables_to_constants_v2 keeps the tables but not their initializers. "
              "Frost keeps the initializers (and `__saved_model_init_op` in its SavedModel).",
              "- While loops (RNNs), MaxPoolWithArgmax, string inputs and hash tables are what "
              "OpenCV, TFLite's builtin ops and tf2onnx lack, whoever froze the graph.",
              "", "## Notes", ""]
    lines += ["%d. %s" % (i + 1, n.replace("|", "\\|")) for i, n in enumerate(notes)]
    return "\n".join(lines) + "\n"


def versions():
    import importlib.metadata as m
    return ", ".join("%s %s" % (p, m.version(p)) for p in (
        "tensorflow-cpu", "opencv-python-headless", "tf2onnx", "onnxruntime"))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--opencv-child":
        return opencv_child(*sys.argv[2:7])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=os.path.join(REPO, "build", "bin"))
    p.add_argument("--cache", default=os.path.expanduser("~/.cache/frost-fixtures"))
    p.add_argument("--work", default="/tmp/frost-consumers")
    p.add_argument("--only", default="")
    p.add_argument("--markdown")
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        return one_model(args, args.one)
    if args.probe:
        return opencv_probes()
    names = [n for n in MODELS if not args.only or n in args.only.split(",")]
    results = {}
    for name in names:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--bin", args.bin,
                               "--cache", args.cache, "--work", args.work, "--one", name],
                              capture_output=True, text=True)
        last = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not last:
            tail = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
            results[name] = {"crashed": "the model's process failed: " + tail[:300]}
        else:
            results[name] = json.loads(last[-1])
        print("%s: done" % name, file=sys.stderr)
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--probe"],
                          capture_output=True, text=True)
    probe_lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    probe = json.loads(probe_lines[-1]) if probe_lines else {}
    text = markdown(results, versions(), probe)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
