#!/usr/bin/env python3
"""freeze-graph --emit saved_model against TensorFlow's SavedModel consumers
(issue #30), over runs of the model set (test/Models/Inputs/model_set.py).

    check_saved_model_export.py --bin DIR --cache DIR --work DIR
        [--only NAME,...] [--optimize] [--tflite NAME,...] [--onnx NAME,...]

For each run (a TF1 checkpoint frozen for --outputs, or a TF2 SavedModel's
signature), freeze-graph writes a SavedModel (and, with --optimize, another
from --optimize), and TensorFlow must:
  - load it with tf.saved_model.load and compute, through the signature, what
    the source model computed on the set's inputs (expected.npz: strings and
    integers exactly, floats within 1e-4 of the output's largest magnitude);
  - load it with TF1's tf.compat.v1.saved_model.loader.load into a Session
    and compute the same from the signature's tensor names;
  - find every signature valid as TF Serving checks them
    (signature_def_utils.is_valid_signature);
  - list the signatures with `saved_model_cli show --all` (the command for
    the first run, the function it calls for the others).
For the runs --tflite names, TFLiteConverter.from_saved_model must convert
the SavedModel and the interpreter's signature runner must compute the same
(floats within 1e-4); for the runs --onnx names, `python -m tf2onnx.convert
--saved-model` must convert it and onnxruntime compute the same. For TF1
runs (frozen for --outputs), the frozen GraphDef is also written as a SavedModel by optimize-for-inference
--saved_model and transform-graph --saved_model, and loaded as above. One
line per SavedModel and check; exit 1 on any failure.

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import argparse
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_set_report as ms  # noqa: E402


def signature_key(run_flags):
    """The signature frozen (--signature NAME), else serving_default."""
    if "--signature" in run_flags:
        return run_flags[run_flags.index("--signature") + 1]
    return "serving_default"


def output_keys(spec, run_flags):
    """The signature's output key of each expected output, in order."""
    if spec.get("output_keys"):
        return spec["output_keys"]
    # serving_default of a TF1 freeze: the outputs as --outputs names them.
    names = run_flags[run_flags.index("--outputs") + 1].split(",")
    return names


def v2_outputs(export, key, feeds, keys):
    """The signature's outputs `keys`, called after tf.saved_model.load."""
    import tensorflow as tf
    fn = tf.saved_model.load(export).signatures[key]
    got = fn(**{k: tf.constant(v) for k, v in feeds.items()})
    return [got[k].numpy() for k in keys]


def compared(outputs, keys, expected):
    return [(k, ms.disagreement(v, expected["out%d" % i]))
            for i, (k, v) in enumerate(zip(keys, outputs))]


def check_v2(export, key, feeds, keys, expected):
    return compared(v2_outputs(export, key, feeds, keys), keys, expected)


def check_v1(export, key, feeds, keys, expected):
    import tensorflow as tf
    tf1 = tf.compat.v1
    with tf1.Session(graph=tf.Graph()) as sess:
        meta = tf1.saved_model.loader.load(sess, ["serve"], export)
        sig = meta.signature_def[key]
        fetched = sess.run([sig.outputs[k].name for k in keys],
                           {sig.inputs[k].name: v for k, v in feeds.items()})
    return [(k, ms.disagreement(v, expected["out%d" % i]))
            for i, (k, v) in enumerate(zip(keys, fetched))]


def check_signatures(export, cli, process):
    """The signatures TF Serving would refuse; whether saved_model_cli lists
    them all (when `cli`): `saved_model_cli show --all` itself when
    `process`, else the function it runs, in this process (TensorFlow
    starts once)."""
    import contextlib
    import io
    from tensorflow.python.saved_model import loader_impl, signature_def_utils
    from tensorflow.python.tools import saved_model_cli
    meta = loader_impl.parse_saved_model(export).meta_graphs[0]
    keys = [k for k in meta.signature_def if not k.startswith("__")]
    bad = [k for k in keys if not signature_def_utils.is_valid_signature(meta.signature_def[k])]
    if not cli:
        return bad, True
    if process:
        proc = subprocess.run(["saved_model_cli", "show", "--dir", export, "--all"],
                              capture_output=True, text=True)
        ok, text = proc.returncode == 0, proc.stdout
    else:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            saved_model_cli._show_all(export)
        ok, text = True, out.getvalue()
    return bad, ok and all("signature_def['%s']" % k in text for k in keys)


def tflite_outputs(export, key, feeds, keys):
    """TFLiteConverter.from_saved_model, then the interpreter's signature runner."""
    import tensorflow as tf
    converter = tf.lite.TFLiteConverter.from_saved_model(export, signature_keys=[key])
    interpreter = tf.lite.Interpreter(model_content=converter.convert())
    got = interpreter.get_signature_runner(key)(**feeds)
    return [got[k] for k in keys]


def check_tflite(export, key, feeds, keys, expected):
    return compared(tflite_outputs(export, key, feeds, keys), keys, expected)


def onnx_outputs(export, key, feeds, keys):
    """`python -m tf2onnx.convert --saved-model EXPORT --signature_def KEY` (its main(), in
    this process: TensorFlow starts once), then onnxruntime, fed by the signature's input
    names; tf2onnx names the ONNX outputs by the signature's keys."""
    import numpy as np
    import onnxruntime
    import tf2onnx.convert
    out = export.rstrip("/") + ".onnx"
    if os.path.exists(out):
        os.remove(out)
    argv = sys.argv
    sys.argv = ["tf2onnx.convert", "--saved-model", export, "--signature_def", key,
                "--output", out]
    try:
        tf2onnx.convert.main()
    except SystemExit as e:  # its argument errors
        raise RuntimeError("tf2onnx exited %s" % e.code) from e
    finally:
        sys.argv = argv
    session = onnxruntime.InferenceSession(out, providers=["CPUExecutionProvider"])
    return session.run(keys, {k: v.astype(np.str_) if v.dtype == object else v
                              for k, v in feeds.items()})


def check_onnx(export, key, feeds, keys, expected):
    return compared(onnx_outputs(export, key, feeds, keys), keys, expected)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", required=True)
    p.add_argument("--cache", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--only", default="")
    p.add_argument("--optimize", action="store_true")
    p.add_argument("--tflite", default="")
    p.add_argument("--onnx", default="")
    args = p.parse_args()
    import numpy as np

    models = ms.cached_models(args.cache)
    only = set(filter(None, args.only.split(",")))
    tflite = set(filter(None, args.tflite.split(",")))
    onnx = set(filter(None, args.onnx.split(",")))
    os.makedirs(args.work, exist_ok=True)
    failures, cli_ran = 0, False
    for model_dir, spec, suffix, r in ms.runs_of(models, only):
        label, flags = r["label"], r["flags"]
        if "--keep-functional-control-flow" in flags:
            continue
        source = os.path.join(model_dir, spec["source"])
        feeds = dict(np.load(os.path.join(model_dir, "inputs%s.npz" % suffix),
                             allow_pickle=True))
        expected = np.load(os.path.join(model_dir, "expected%s.npz" % suffix), allow_pickle=True)
        key, keys = signature_key(flags), output_keys(spec, flags)
        tool = lambda name, *argv: [os.path.join(args.bin, name), *argv]  # noqa: E731
        exports = [(label, tool("freeze-graph", source, "-q", "--emit", "saved_model", "-o",
                                os.path.join(args.work, label), *flags))]
        if args.optimize:
            exports.append((label + "-optimized", tool(
                "freeze-graph", source, "-q", "--emit", "saved_model", "--optimize", "-o",
                os.path.join(args.work, label + "-optimized"), *flags)))
        if "--outputs" in flags:
            frozen = os.path.join(args.work, label + ".pb")
            subprocess.run(tool("freeze-graph", source, "-q", "-o", frozen, *flags), check=True)
            inputs, outputs = ",".join(spec["inputs"]), ",".join(keys)
            exports.append((label + "-optimize-for-inference", tool(
                "optimize-for-inference", "--input", frozen, "--saved_model", "-q",
                "--output", os.path.join(args.work, label + "-ofi"), "--input_names", inputs,
                "--output_names", outputs)))
            exports.append((label + "-transform-graph", tool(
                "transform-graph", "--in_graph", frozen, "--saved_model", "-q",
                "--out_graph", os.path.join(args.work, label + "-tg"), "--inputs", inputs,
                "--outputs", outputs, "--transforms",
                "fold_constants(ignore_errors=true) fold_batch_norms strip_unused_nodes")))
        for index, (name, argv) in enumerate(exports):
            export = argv[argv.index("-o" if "-o" in argv else "--output" if "--output" in argv
                                     else "--out_graph") + 1]
            proc = subprocess.run(argv, capture_output=True, text=True)
            if proc.returncode != 0:
                print("%s: %s FAILED: %s" % (name, os.path.basename(argv[0]),
                                             proc.stderr.strip()))
                failures += 1
                continue
            checks = [("tf.saved_model.load", check_v2), ("TF1 loader", check_v1)]
            if spec["name"] in tflite:
                checks.append(("TFLite", check_tflite))
            if spec["name"] in onnx:
                checks.append(("ONNX", check_onnx))
            for what, check in checks:
                try:
                    problems = [(k, why) for k, why in check(export, key, feeds, keys, expected)
                                if why]
                except Exception as e:  # noqa: BLE001 - any refusal is the finding
                    problems = [("", "%s: %s" % (type(e).__name__, str(e).splitlines()[0]
                                                 if str(e) else ""))]
                print("%s: %s: %s" % (name, what, "; ".join("%s %s" % p for p in problems)
                                      if problems else "equal"))
                failures += bool(problems)
            # The command starts TensorFlow anew: once; its function for the other runs.
            bad, listed = check_signatures(export, cli=index == 0, process=not cli_ran)
            cli_ran = cli_ran or index == 0
            print("%s: signatures %s%s" % (
                name, "invalid: " + ", ".join(bad) if bad else "valid",
                "" if index else "; saved_model_cli " + ("lists them" if listed else "FAILED")))
            failures += bool(bad) + (not listed)
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
