#!/usr/bin/env python3
"""Benchmark: freeze and optimize for inference, `freeze-graph --optimize` against TensorFlow's tools.

    bench/freeze_optimize.py [--frost build/bin/freeze-graph] [--repeat 3]
                             [--models checkpoint,keras] [--workdir /tmp/frost-bench-freeze-optimize]
                             [--checkpoint-workdir /tmp/frost-bench-freeze]
                             [--keras-workdir /tmp/frost-bench-keras-v2] [--params 100e6]

Prints a Markdown section for docs/performance.md ("Freezing and optimizing"); writes nothing but
the files in the work directories.

1. Takes the two models of bench/freeze_checkpoint.py (a 1 GiB TF1 training checkpoint) and
   bench/freeze_keras_v2.py (a 100M-parameter Keras 3 SavedModel), generating them first with
   those scripts' code unless they are cached in their work directories.
2. Warms the page cache (the models, the Frost binary, TensorFlow's import).
3. Runs, --repeat times each, interleaved (model by model: TensorFlow, then Frost), and reports
   the median wall time and the largest peak RSS of the runs:
     Frost, one process and one write:
       freeze-graph PREFIX --outputs output --optimize -o frost.pb -q       (checkpoint)
       freeze-graph SAVED_MODEL --optimize -o frost.pb -q                   (SavedModel)
     TensorFlow, what its users run today, two processes; time = the sum of the two steps'
     wall times, peak RSS = the larger of the two:
       python3 -m tensorflow.python.tools.freeze_graph ... (as freeze_checkpoint.py runs it), or
       python3 bench/freeze_keras_v2.py --tf-freeze (tf.saved_model.load,
         convert_variables_to_constants_v2, write; as freeze_keras_v2.py runs it), then
       python3 -m tensorflow.python.tools.optimize_for_inference --input frozen.pb
         --output opt.pb --input_names ... --output_names ... [--placeholder_type_enum 3]
     optimize_for_inference.py turns every input into a Placeholder of --placeholder_type_enum,
     float32 unless told: the Keras model's int32 `ids` needs --placeholder_type_enum=3.
4. Checks the two optimized graphs: each imports with tf.compat.v1.import_graph_def and runs in
   a Session on one random batch; Frost's outputs must match TensorFlow's (rtol 1e-5, atol
   1e-5 times the largest output magnitude); prints the mismatch and exits 1 otherwise. Reports
   the node counts (and ops) of both.

Memory: peak RSS is the child's ru_maxrss (os.wait4; bench/freeze_checkpoint.py's measure()).
This process never imports numpy or TensorFlow (children do), so the measured commands inherit
no large high-water mark across fork+exec.
"""

import argparse
import collections
import json
import os
import platform
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import freeze_checkpoint  # noqa: E402
import freeze_keras_v2  # noqa: E402
from freeze_checkpoint import MIB, REPO, child, measure, warm  # noqa: E402

SEED = 20251125
DT_INT32 = 3  # tensorflow.DataType


# ----------------------------------------------------------------- check

def check(spec):
    """Imports and runs the two optimized graphs of spec on one random batch: node counts and
    how far Frost's outputs are from TensorFlow's."""
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import numpy as np
    import tensorflow as tf
    from tensorflow.core.framework import graph_pb2

    rng = np.random.default_rng(SEED)
    shape = spec["shape"]
    if spec["dtype"] == "int32":
        batch = rng.integers(0, spec["high"], shape).astype(np.int32)
    else:
        batch = rng.standard_normal(shape).astype(np.float32)
    result = {"problems": [], "nodes": {}, "ops": {}, "batch": "%s%s" % (spec["dtype"], shape)}
    outputs = {}
    for label in ("TensorFlow", "Frost"):
        with open(spec[label], "rb") as f:
            graph_def = graph_pb2.GraphDef.FromString(f.read())
        result["nodes"][label] = len(graph_def.node)
        result["ops"][label] = collections.Counter(n.op for n in graph_def.node).most_common()
        try:
            with tf.Graph().as_default() as graph:
                tf.compat.v1.import_graph_def(graph_def, name="")
                with tf.compat.v1.Session(graph=graph) as sess:
                    outputs[label] = sess.run(spec["fetch"], {spec["feed"]: batch})
        except Exception as e:  # noqa: BLE001 (reported, not raised)
            result["problems"].append("%s's optimized graph (%s) does not run: %s: %s"
                                      % (label, spec[label], type(e).__name__, str(e)[:500]))
        del graph_def
    if result["problems"]:
        return result
    pairs = list(zip(outputs["TensorFlow"], outputs["Frost"]))
    scale = max(float(np.max(np.abs(x))) for x, _ in pairs)
    atol = 1e-5 * scale
    result.update({
        "shapes": [list(x.shape) for x, _ in pairs],
        "identical": all(x.shape == y.shape and np.array_equal(x, y) for x, y in pairs),
        "max_abs": max(float(np.max(np.abs(x - y))) for x, y in pairs),
        "max_rel": max(float(np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-30))) for x, y in pairs),
        "scale": scale, "atol": atol})
    if not all(x.shape == y.shape and np.allclose(y, x, rtol=1e-5, atol=atol) for x, y in pairs):
        result["problems"].append(
            "outputs differ: Frost's %s vs TensorFlow's %s, max abs difference %g (atol %g), "
            "max relative %g" % ([list(y.shape) for _, y in pairs], result["shapes"],
                                 result["max_abs"], atol, result["max_rel"]))
    return result


# ---------------------------------------------------------------- models

def optimize_command(frozen, out, inputs, outputs, placeholder_type=None):
    """TensorFlow's optimize_for_inference.py on a frozen GraphDef."""
    cmd = [sys.executable, "-m", "tensorflow.python.tools.optimize_for_inference",
           "--input", frozen, "--output", out, "--input_names", ",".join(inputs),
           "--output_names", ",".join(outputs)]
    return cmd + (["--placeholder_type_enum", str(placeholder_type)] if placeholder_type else [])


def checkpoint_model(args):
    prefix, model, ckpt = freeze_checkpoint.prepare(args.checkpoint_workdir)
    return {
        "key": "checkpoint", "files": [prefix + ".meta"] + ckpt,
        "label": "1 GiB TF1 checkpoint (%d variables)" % sum(model["variables"].values()),
        "size": sum(os.path.getsize(f) for f in ckpt),
        "frost": [args.frost, prefix, "--outputs", "output", "--optimize"],
        "tf_freeze": lambda out: freeze_checkpoint.freeze_graph_command(prefix, out),
        "io": lambda log: (["features"], ["output"], None),
        "check": {"feed": "features:0", "dtype": "float32", "shape": [8, 1024],
                  "fetch": ["output:0"]},
    }


def keras_model(args):
    saved_model, model, files = freeze_keras_v2.prepare(args.keras_workdir, args.params)

    def io(log):  # the names convert_variables_to_constants_v2 gave the inputs and outputs
        names = freeze_keras_v2.reported(log)
        return (list(names["inputs"].values()), [t.split(":")[0] for t in names["outputs"]],
                DT_INT32)
    return {
        "key": "keras", "files": files,
        "label": "100M-parameter Keras SavedModel (%d parameters)" % model["params"],
        "size": sum(os.path.getsize(f) for f in files if "/variables/" in f),
        "frost": [args.frost, saved_model, "--optimize"],
        "tf_freeze": lambda out: [sys.executable, freeze_keras_v2.__file__, "--tf-freeze",
                                  saved_model, out],
        "io": io,
        "check": {"feed": "ids:0", "dtype": "int32", "shape": [8, freeze_keras_v2.SEQ],
                  "high": model["vocab"], "fetch": ["Identity:0"]},
    }


# ----------------------------------------------------------- measurement

def run_tensorflow(m, work):
    """Both of TensorFlow's steps, each a process: [(wall, ru_maxrss KiB) per step], commands."""
    frozen, out = work(m["key"] + ".tf_frozen.pb"), work(m["key"] + ".tf_opt.pb")
    logs = [work("log.%s.tf_freeze" % m["key"]), work("log.%s.tf_optimize" % m["key"])]
    for f in (frozen, out):
        if os.path.exists(f):
            os.remove(f)
    cmds = [m["tf_freeze"](frozen)]
    steps = [measure(cmds[0], logs[0])]
    cmds.append(optimize_command(frozen, out, *m["io"](logs[0])))
    steps.append(measure(cmds[1], logs[1]))
    for f, log in zip((frozen, out), logs):  # the tools exit 0 on some failures
        if not os.path.exists(f):
            raise SystemExit("TensorFlow wrote no %s; see %s" % (f, log))
    return [s[:2] for s in steps], cmds


def run_frost(m, work):
    out, log = work(m["key"] + ".frost.pb"), work("log.%s.frost" % m["key"])
    if os.path.exists(out):
        os.remove(out)
    cmd = m["frost"] + ["-o", out, "-q"]
    wall, rss = measure(cmd, log)[:2]
    if not os.path.exists(out):
        raise SystemExit("Frost wrote no %s; see %s" % (out, log))
    return (wall, rss), cmd


def shown(cmd):
    """cmd as a shell line, with `python3` and paths relative to the repository."""
    return " ".join("python3" if a == sys.executable else
                    os.path.relpath(a, REPO) if a.startswith(REPO + os.sep) else a for a in cmd)


def main():
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        result = check(json.loads(sys.argv[2]))
        print(json.dumps(result))
        return 1 if result["problems"] else 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frost", default=os.path.join(REPO, "build", "bin", "freeze-graph"),
                        help="the freeze-graph binary (default: build/bin/freeze-graph)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each tool, interleaved; the median time is reported")
    parser.add_argument("--models", default="checkpoint,keras",
                        help="comma list of checkpoint (1 GiB TF1) and keras (100M parameters)")
    parser.add_argument("--workdir", default="/tmp/frost-bench-freeze-optimize",
                        help="where the frozen and optimized graphs go")
    parser.add_argument("--checkpoint-workdir", default="/tmp/frost-bench-freeze",
                        help="bench/freeze_checkpoint.py's --workdir (the model is reused)")
    parser.add_argument("--keras-workdir", default="/tmp/frost-bench-keras-v2",
                        help="bench/freeze_keras_v2.py's --workdir (the model is reused)")
    parser.add_argument("--params", type=float, default=100e6,
                        help="the Keras model's parameters (bench/freeze_keras_v2.py's --params)")
    args = parser.parse_args()
    if not os.access(args.frost, os.X_OK):
        parser.error("no freeze-graph binary at %s (build it, or give --frost)" % args.frost)
    began, load_before = time.perf_counter(), os.getloadavg()[0]
    os.makedirs(args.workdir, exist_ok=True)
    work = lambda name: os.path.join(args.workdir, name)
    makers = {"checkpoint": checkpoint_model, "keras": keras_model}
    models = [makers[k](args) for k in args.models.split(",")]
    warm([args.frost] + [f for m in models for f in m["files"]])

    runs = {m["key"]: {"tf": [], "frost": []} for m in models}
    commands = {}
    for run in range(args.repeat):
        for m in models:
            steps, tf_cmds = run_tensorflow(m, work)
            frost, frost_cmd = run_frost(m, work)
            runs[m["key"]]["tf"].append(steps)
            runs[m["key"]]["frost"].append(frost)
            commands[m["key"]] = tf_cmds + [frost_cmd]
            print("run %d/%d, %s: TensorFlow %.2f + %.2f s, Frost %.2f s" % (
                run + 1, args.repeat, m["key"], steps[0][0], steps[1][0], frost[0]),
                file=sys.stderr)

    checks, failed = {}, False
    for m in models:
        spec = dict(m["check"], TensorFlow=work(m["key"] + ".tf_opt.pb"),
                    Frost=work(m["key"] + ".frost.pb"))
        checks[m["key"]] = child("--check", [json.dumps(spec)], work("log.%s.check" % m["key"]),
                                 script=os.path.abspath(__file__))
        for p in checks[m["key"]]["problems"]:
            print("MISMATCH (%s): %s" % (m["key"], p))
            failed = True
    if failed:
        return 1

    lines = ["| model | Frost wall (s) | TensorFlow wall (s) | TF/Frost | Frost peak RSS (MiB) "
             "| TensorFlow peak RSS (MiB) | TF/Frost | nodes Frost / TF | output MiB Frost / TF |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for m in models:
        r, c = runs[m["key"]], checks[m["key"]]
        frost_wall = statistics.median(w for w, _ in r["frost"])
        tf_wall = statistics.median(s[0][0] + s[1][0] for s in r["tf"])
        step_wall = [statistics.median(s[i][0] for s in r["tf"]) for i in (0, 1)]
        step_rss = [max(s[i][1] for s in r["tf"]) / 1024 for i in (0, 1)]
        frost_rss, tf_rss = max(x for _, x in r["frost"]) / 1024, max(step_rss)
        size = {k: os.path.getsize(work(m["key"] + f)) / MIB
                for k, f in (("Frost", ".frost.pb"), ("TF", ".tf_opt.pb"), ("frozen", ".tf_frozen.pb"))}
        lines.append("| %s | %.3f | %.2f | %.1fx | %.0f | %.0f | %.1fx | %d / %d | %.1f / %.1f |" % (
            m["label"], frost_wall, tf_wall, tf_wall / frost_wall, frost_rss, tf_rss,
            tf_rss / frost_rss, c["nodes"]["Frost"], c["nodes"]["TensorFlow"], size["Frost"],
            size["TF"]))
        ops = lambda label: ", ".join("%d %s" % (n, op) for op, n in c["ops"][label])
        notes.append(
            "- %s: TensorFlow's steps (median) %.2f s freezing + %.2f s optimize_for_inference.py "
            "(its input, the frozen graph: %.1f MiB), peak RSS %.0f and %.0f MiB. Runs (wall s): "
            "Frost %s; TensorFlow %s. Optimized graphs: Frost %s; TensorFlow %s. Outputs on a %s "
            "batch: %s. Commands: `%s`, then `%s`; Frost `%s`." % (
                m["label"], step_wall[0], step_wall[1], size["frozen"], step_rss[0], step_rss[1],
                ", ".join("%.2f" % w for w, _ in r["frost"]),
                ", ".join("%.2f+%.2f" % (s[0][0], s[1][0]) for s in r["tf"]),
                ops("Frost"), ops("TensorFlow"), c["batch"],
                "identical" if c["identical"] else "max abs difference %.3g (largest |output| "
                "%.3g), max relative %.2g" % (c["max_abs"], c["scale"], c["max_rel"]),
                *(shown(cmd) for cmd in commands[m["key"]])))
    command = " ".join(["python3 bench/freeze_optimize.py", "--repeat %d" % args.repeat] + [
        "--%s %s" % (a.replace("_", "-"), getattr(args, a)) for a in ("models", "params")
        if getattr(args, a) != parser.get_default(a)])
    print("\n".join([
        "## Freezing and optimizing (freeze-graph --optimize)",
        "",
        "Freezing a model and optimizing it for inference, from the model on disk to the optimized "
        "GraphDef written: Frost in one process and one write (`freeze-graph --optimize`), "
        "TensorFlow as its users do it, freezing (freeze_graph.py, or "
        "convert_variables_to_constants_v2 for a TF2 SavedModel) and then optimize_for_inference.py, "
        "two processes, each with its own `import tensorflow`. TensorFlow's time is the sum of the "
        "two steps' wall times, its peak RSS the larger of the two (each the process's ru_maxrss). "
        "Both optimized graphs are imported and run in TensorFlow on one random batch and compared "
        "(rtol 1e-5).",
        "",
        "```",
        command,
        "```",
        "",
        "Machine: %s, %d CPUs, load average %.1f at the start and %.1f at the end; %s; warm page "
        "cache; median of %d interleaved runs, peak RSS the largest of the runs (this script's own "
        "ru_maxrss, %.0f MiB, is inherited across fork+exec: a floor for every figure)."
        % (platform.machine(), os.cpu_count(), load_before, os.getloadavg()[0],
           platform.platform(), args.repeat,
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        ""] + lines + [""] + notes))
    print("benchmark took %.0f s" % (time.perf_counter() - began), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
