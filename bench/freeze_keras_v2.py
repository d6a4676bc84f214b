#!/usr/bin/env python3
"""Benchmark: freeze a ~100M-parameter Keras 3 SavedModel with Frost and with TensorFlow.

    bench/freeze_keras_v2.py [--frost build/bin/freeze-graph] [--params 100e6] [--repeat 3]
                             [--workdir /tmp/frost-bench-keras-v2]

Prints a Markdown summary for docs/performance.md ("Freezing a 100M-parameter Keras
SavedModel"); writes nothing but the files in --workdir.

1. Builds (once; reused while the plan and --params match) a Keras 3 model with a fixed seed:
   int32 token ids [batch, 16] -> Embedding(V, 512) -> GlobalAveragePooling1D -> 4 Dense(H,
   relu) -> Dense(1000), float32; about 40% of the parameters in the embedding table, the rest
   in the Dense layers (H and V chosen from --params). Exports it with `model.export(DIR)`
   (a TF2 object-based SavedModel, one `serving_default` signature).
2. Warms the page cache (the variables, saved_model.pb, the Frost binary, TensorFlow's import).
3. Runs, --repeat times each, interleaved, and reports the best wall time:
     freeze-graph DIR -o frost.pb -q
     python3 bench/freeze_keras_v2.py --tf-freeze DIR tf.pb: import tensorflow,
       tf.saved_model.load(DIR).signatures["serving_default"],
       convert_variables_to_constants_v2, frozen.graph.as_graph_def() written to tf.pb;
       it prints its own timings (import, load, convert, write), so the time without
       `import tensorflow` is reported too.
4. Checks that the two frozen graphs agree: the same frozen-variable constants (Const nodes
   named as TensorFlow names a loaded function's captures, `unknown`, `unknown_0`, ...) with the
   same dtype, shape and bytes, adding up to the model's parameters; the same values for every
   other Const both have; no variable left. Then imports each graph with
   tf.compat.v1.import_graph_def and runs it in a Session on a random batch (the input
   placeholder is named after the signature's input key); Frost's outputs must equal
   TensorFlow's frozen graph's and match the SavedModel's signature called eagerly (rtol 1e-5).
   Prints the mismatch and exits 1 otherwise. Also reports, without failing, whether the two
   graphs have the same nodes in the same order and how many NodeDefs differ.

Memory: peak RSS is the child's ru_maxrss (os.wait4), the largest over the runs. This process
never imports numpy or TensorFlow (children do: generation, TensorFlow's freezing and the
check), so the measured commands inherit no large high-water mark across fork+exec. ru_maxrss
counts the pages of a memory-mapped file once touched; the anonymous and file-backed peaks are
sampled from /proc/PID/status every 2 ms.
"""

import argparse
import filecmp
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time

MIB = 1 << 20
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAN_VERSION = 1
SEED = 1234
SEQ, EMBED, LAYERS, CLASSES = 16, 512, 4, 1000
MARK = "freeze_keras_v2: "  # prefix of the JSON line a child reports on


# ------------------------------------------------------------- generation

def plan(params):
    """(vocabulary, hidden width, exact parameter count) for about `params` parameters: 60% in
    the Dense layers (width a multiple of 128), the rest in the embedding table."""
    dense = lambda h: (EMBED * h + h) + (LAYERS - 1) * (h * h + h) + (h * CLASSES + CLASSES)
    hidden = 128
    while dense(hidden + 128) <= 0.6 * params:
        hidden += 128
    vocab = max(1000, int((params - dense(hidden)) // EMBED))
    return vocab, hidden, vocab * EMBED + dense(hidden)


def generate(saved_model, params):
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import keras
    vocab, hidden, count = plan(params)
    keras.utils.set_random_seed(SEED)
    ids = keras.Input((SEQ,), dtype="int32", name="ids")
    x = keras.layers.Embedding(vocab, EMBED, name="embedding")(ids)
    x = keras.layers.GlobalAveragePooling1D(name="pool")(x)
    for i in range(LAYERS):
        x = keras.layers.Dense(hidden, activation="relu", name="dense%d" % i)(x)
    out = keras.layers.Dense(CLASSES, name="logits")(x)
    model = keras.Model(ids, out, name="keras_v2_bench")
    assert model.count_params() == count, (model.count_params(), count)
    sys.path.insert(0, os.path.join(REPO, "test", "Tools", "Inputs"))
    from tf2_models import sorted_export_variables  # the fixtures' deterministic export
    with sorted_export_variables():
        model.export(saved_model, verbose=False)
    return {"plan": PLAN_VERSION, "keras": keras.__version__, "params_target": params,
            "params": count, "vocab": vocab,
            "hidden": hidden, "variables": len(model.weights),
            "layers": "Embedding(%d, %d) -> GlobalAveragePooling1D -> %d x Dense(%d, relu) -> "
                      "Dense(%d)" % (vocab, EMBED, LAYERS, hidden, CLASSES)}


# -------------------------------------------------- TensorFlow's freezing

def tf_freeze(saved_model, out):
    """What a user of TensorFlow runs; prints its own timings as a JSON line."""
    start = time.perf_counter()
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)
    imported = time.perf_counter()
    model = tf.saved_model.load(saved_model)  # kept alive: fn holds its variables weakly
    fn = model.signatures["serving_default"]
    loaded = time.perf_counter()
    frozen = convert_variables_to_constants_v2(fn)
    graph_def = frozen.graph.as_graph_def()
    converted = time.perf_counter()
    with open(out, "wb") as f:
        f.write(graph_def.SerializeToString())
    written = time.perf_counter()
    args, kwargs = fn.structured_input_signature
    keys = sorted(kwargs)  # the order of the function's inputs (flattened dict)
    print(MARK + json.dumps({
        "import": imported - start, "load": loaded - imported, "convert": converted - loaded,
        "write": written - converted, "after_import": written - imported,
        "inputs": {k: t.op.name for k, t in zip(keys, frozen.inputs)},
        "outputs": [t.name for t in frozen.outputs]}), flush=True)


# ----------------------------------------------------------- verification

def verify(saved_model, tf_path, frost_path, io):
    """Problems found comparing the two frozen GraphDefs and running them."""
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import numpy as np
    import tensorflow as tf
    from tensorflow.core.framework import graph_pb2
    from tensorflow.python.framework import tensor_util

    graphs = {}
    for label, path in (("TensorFlow", tf_path), ("Frost", frost_path)):
        with open(path, "rb") as f:
            graphs[label] = graph_pb2.GraphDef.FromString(f.read())
    a, b = graphs["TensorFlow"], graphs["Frost"]
    problems = []
    captured = re.compile(r"unknown(_\d+)?$")
    consts = {label: {n.name: n.attr["value"].tensor for n in g.node if n.op == "Const"}
              for label, g in graphs.items()}
    frozen = {label: {k: v for k, v in c.items() if captured.match(k)} for label, c in consts.items()}
    if set(frozen["TensorFlow"]) != set(frozen["Frost"]):
        problems.append("frozen variables differ: only TensorFlow's %s; only Frost's %s" % (
            sorted(set(frozen["TensorFlow"]) - set(frozen["Frost"]))[:5],
            sorted(set(frozen["Frost"]) - set(frozen["TensorFlow"]))[:5]))
    stats = {"variables": len(frozen["Frost"]), "variable_bytes": 0, "elements": 0,
             "identical_protos": 0, "other_consts": 0}
    for name in sorted(set(consts["TensorFlow"]) & set(consts["Frost"])):
        tx, ty = consts["TensorFlow"][name], consts["Frost"][name]
        same_proto = tx.SerializeToString() == ty.SerializeToString()
        if not same_proto:
            va, vb = tensor_util.MakeNdarray(tx), tensor_util.MakeNdarray(ty)
            if va.dtype != vb.dtype or va.shape != vb.shape or va.tobytes() != vb.tobytes():
                problems.append("Const %s: values differ (TensorFlow %s%s, Frost %s%s)" % (
                    name, va.dtype, list(va.shape), vb.dtype, list(vb.shape)))
                continue
        if name in frozen["Frost"]:
            value = tensor_util.MakeNdarray(ty)
            stats["variable_bytes"] += value.nbytes
            stats["elements"] += value.size
            stats["identical_protos"] += same_proto
        else:
            stats["other_consts"] += 1
    # Informational: the rest of the graph, node for node.
    same_order = [n.name for n in a.node] == [n.name for n in b.node]
    nodes_b = {n.name: n for n in b.node}
    encoding = other = 0
    for x in a.node:
        y = nodes_b.get(x.name)
        if y is None or x.SerializeToString(deterministic=True) == y.SerializeToString(
                deterministic=True):
            continue
        if x.op == y.op == "Const" and list(x.input) == list(y.input) and x.device == y.device \
                and set(x.attr) == set(y.attr) and all(
                    x.attr[k] == y.attr[k] for k in x.attr if k != "value"):
            encoding += 1  # equal values (checked above), encoded differently
        else:
            other += 1
    stats["graph"] = {"same_names_in_order": same_order, "const_encoding": encoding,
                      "other_differences": other,
                      "names_only_in_one": len({n.name for n in a.node} ^ set(nodes_b)),
                      "fields": [f for f in ("versions", "library") if getattr(a, f).SerializeToString(
                          deterministic=True) != getattr(b, f).SerializeToString(deterministic=True)],
                      "versions": [str(g.versions).replace("\n", " ").strip() for g in (a, b)]}
    if stats["elements"] != io["params"]:
        problems.append("the frozen variables hold %d values, the model has %d parameters"
                        % (stats["elements"], io["params"]))
    for label, g in graphs.items():
        left = [n.name for n in g.node if n.op in ("VarHandleOp", "VariableV2",
                                                   "ReadVariableOp", "ResourceGather")]
        if left:
            problems.append("%s's graph still has variables: %s" % (label, ", ".join(left[:5])))

    # Run both frozen graphs, and the SavedModel's signature eagerly, on one random batch.
    (key, placeholder), = io["inputs"].items()
    rng = np.random.default_rng(SEED)
    vocab = io["vocab"]
    batch = rng.integers(0, vocab, (8, SEQ)).astype(np.int32)
    results = {}
    for label, g in graphs.items():
        with tf.Graph().as_default() as graph:
            tf.compat.v1.import_graph_def(g, name="")
            with tf.compat.v1.Session(graph=graph) as sess:
                results[label] = sess.run(io["outputs"], {placeholder + ":0": batch})
    model = tf.saved_model.load(saved_model)
    eager = model.signatures["serving_default"](**{key: tf.constant(batch)})
    eager = [eager[k].numpy() for k in sorted(eager)]
    same = all(x.shape == y.shape and np.array_equal(x, y)
               for x, y in zip(results["TensorFlow"], results["Frost"]))
    if not same:
        diff = max(float(np.max(np.abs(x - y))) for x, y in zip(results["TensorFlow"], results["Frost"]))
        problems.append("outputs differ: Frost's graph vs TensorFlow's, max abs difference %g" % diff)
    eager_diff = max(float(np.max(np.abs(x - y) / (np.abs(y) + 1e-6)))
                     for x, y in zip(results["Frost"], eager))
    if not all(np.allclose(x, y, rtol=1e-5, atol=1e-6) for x, y in zip(results["Frost"], eager)):
        problems.append("Frost's outputs differ from the signature called eagerly (max rel %g)"
                        % eager_diff)
    stats.update({"nodes": {label: len(g.node) for label, g in graphs.items()},
                  "outputs_identical": same, "eager_max_rel": eager_diff,
                  "batch": list(batch.shape), "output_shape": list(results["Frost"][0].shape),
                  "problems": problems})
    return stats


# ------------------------------------------------------------ measurement

# measure(cmd, log) -> (wall s, ru_maxrss, peak RssAnon, peak RssFile) and warm(files):
# bench/freeze_checkpoint.py's.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from freeze_checkpoint import measure, warm  # noqa: E402


def reported(log):
    """The JSON line a child printed (after the marker) into log."""
    for line in reversed(open(log, errors="replace").read().splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    raise SystemExit("no report in %s" % log)


def child(mode, args, log):
    """Runs this script in a TensorFlow mode (its memory must not be inherited by the measured
    commands); returns its JSON answer."""
    with open(log, "w") as out:
        proc = subprocess.run([sys.executable, __file__, mode] + args, stdout=out,
                              stderr=subprocess.STDOUT)
    try:
        return reported(log)
    except SystemExit:
        sys.stderr.write(open(log, errors="replace").read()[-3000:])
        raise SystemExit("%s %s failed (exit status %d); see %s"
                         % (__file__, mode, proc.returncode, log))


def prepare(workdir, params):
    """The SavedModel in workdir, built first unless model.json there shows the current plan and
    params: (its directory, model.json's facts, its files)."""
    work = lambda name: os.path.join(workdir, name)
    saved_model = work("saved_model")
    model = json.load(open(work("model.json"))) if os.path.exists(work("model.json")) else {}
    if (model.get("plan") != PLAN_VERSION or model.get("params_target") != params
            or not os.path.exists(os.path.join(saved_model, "saved_model.pb"))):
        print("building the Keras model (%.3g parameters) in %s ..." % (params, workdir),
              file=sys.stderr)
        os.makedirs(workdir, exist_ok=True)
        subprocess.run(["rm", "-rf", saved_model, work("model.json")], check=True)
        start = time.perf_counter()
        model = child("--generate", [saved_model, repr(params)], work("log.generate"))
        with open(work("model.json"), "w") as f:
            json.dump(model, f)
        print("built and exported in %.1f s" % (time.perf_counter() - start), file=sys.stderr)
    files = [os.path.join(root, f) for root, _, names in os.walk(saved_model) for f in names]
    return saved_model, model, files


def main():
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    if len(sys.argv) == 4 and sys.argv[1] == "--generate":
        print(MARK + json.dumps(generate(sys.argv[2], float(sys.argv[3]))))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--tf-freeze":
        tf_freeze(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "--verify":
        result = verify(sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5]))
        print(MARK + json.dumps(result))
        return 1 if result["problems"] else 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frost", default=os.path.join(REPO, "build", "bin", "freeze-graph"),
                        help="the freeze-graph binary (default: build/bin/freeze-graph)")
    parser.add_argument("--params", type=float, default=100e6,
                        help="target parameter count (default: 100e6)")
    parser.add_argument("--workdir", default="/tmp/frost-bench-keras-v2",
                        help="where the SavedModel and the frozen graphs go (the model is "
                        "reused between runs)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each tool, interleaved; the best time is reported")
    args = parser.parse_args()
    if not os.access(args.frost, os.X_OK):
        parser.error("no freeze-graph binary at %s (build it, or give --frost)" % args.frost)
    began = time.perf_counter()
    work = lambda name: os.path.join(args.workdir, name)

    saved_model, model, files = prepare(args.workdir, args.params)
    variables_bytes = sum(os.path.getsize(f) for f in files if "/variables/" in f)
    graph_bytes = os.path.getsize(os.path.join(saved_model, "saved_model.pb"))
    warm([args.frost] + files)

    tf_out, frost_out = work("tf.pb"), work("frost.pb")
    cases = [
        ("TensorFlow", [sys.executable, os.path.abspath(__file__), "--tf-freeze", saved_model,
                        tf_out], tf_out),
        ("Frost", [args.frost, saved_model, "-o", frost_out, "-q"], frost_out),
    ]
    print("Frost: %s" % args.frost, file=sys.stderr)
    results = {name: [] for name, _, _ in cases}
    inner = []
    for run in range(args.repeat):
        for name, cmd, out in cases:
            if os.path.exists(out):
                os.remove(out)
            log = work("log." + name)
            results[name].append(measure(cmd, log))
            if not os.path.exists(out):
                raise SystemExit("%s wrote no %s; see %s" % (name, out, log))
            if name == "TensorFlow":
                inner.append(reported(log))
        print("run %d/%d: %s" % (run + 1, args.repeat, ", ".join(
            "%s %.2f s" % (n, r[-1][0]) for n, r in results.items())), file=sys.stderr)

    io = {"inputs": inner[-1]["inputs"], "outputs": inner[-1]["outputs"], "vocab": model["vocab"],
          "params": model["params"]}
    verdict = child("--verify", [saved_model, tf_out, frost_out, json.dumps(io)],
                    work("log.verify"))
    if verdict["problems"]:
        print("MISMATCH between TensorFlow (%s) and Frost (%s):" % (tf_out, frost_out))
        for p in verdict["problems"][:20]:
            print("  " + p)
        return 1
    size = {"TensorFlow": os.path.getsize(tf_out), "Frost": os.path.getsize(frost_out)}
    same = filecmp.cmp(tf_out, frost_out, shallow=False)

    def describe(g):
        if g["names_only_in_one"] or not g["same_names_in_order"]:
            return "node names differ (%d in one graph only) or are in another order" \
                % g["names_only_in_one"]
        text = "the same nodes in the same order, %d NodeDefs differing only in how an equal " \
            "Const value is encoded and %d otherwise" % (g["const_encoding"], g["other_differences"])
        if "versions" in g["fields"]:
            text += ", versions {%s} (TensorFlow) vs {%s} (Frost)" % tuple(g["versions"])
        if "library" in g["fields"]:
            text += ", different function libraries"
        return text

    best = {n: min(r[0] for r in runs) for n, runs in results.items()}
    peak = {n: [max(r[k] for r in runs) / 1024 for k in (1, 2, 3)] for n, runs in results.items()}
    # TensorFlow's own timings are those of its fastest run, so the rows add up to its wall time.
    fastest = min(range(args.repeat), key=lambda i: results["TensorFlow"][i][0])
    best_inner = inner[fastest]
    tf_wall, frost_wall = best["TensorFlow"], best["Frost"]
    tf_work = best_inner["after_import"]
    rest = tf_wall - best_inner["import"] - tf_work
    lines = [
        "Model: Keras %s, %d parameters (%.1f MiB float32) in %d variables: %s. SavedModel "
        "(`model.export`): saved_model.pb %.1f MiB, variables %.1f MiB. Frozen: TensorFlow %d "
        "nodes, Frost %d; %d frozen variables (%.1f MiB, %d of them with byte-identical "
        "TensorProtos) and %d other constants equal value for value; %s; outputs on a %s batch %s, "
        "and %s the signature called eagerly; the files are %s."
        % (model.get("keras", "3"), model["params"], model["params"] * 4 / MIB, model["variables"],
           model["layers"], graph_bytes / MIB, variables_bytes / MIB, verdict["nodes"]["TensorFlow"],
           verdict["nodes"]["Frost"], verdict["variables"], verdict["variable_bytes"] / MIB,
           verdict["identical_protos"], verdict["other_consts"], describe(verdict["graph"]),
           "x".join(map(str, verdict["batch"])),
           "identical" if verdict["outputs_identical"] else "NOT identical",
           "equal to" if verdict["eager_max_rel"] == 0 else
           "within %.1g (relative) of" % verdict["eager_max_rel"],
           "byte-identical" if same else "not byte-identical (%d vs %d bytes)"
           % (size["TensorFlow"], size["Frost"])),
        "Machine: %s, %d CPUs, load average %.1f at the end; %s; warm page cache (best of %d "
        "interleaved runs; peak RSS: the largest of the runs)."
        % (platform.machine(), os.cpu_count(), os.getloadavg()[0], platform.platform(),
           args.repeat),
        "TensorFlow: `%s` (load, convert_variables_to_constants_v2, write). Frost: `%s`."
        % (" ".join(["python3", "bench/freeze_keras_v2.py"] + cases[0][1][2:]),
           " ".join(cases[1][1])),
        "",
        "| tool | wall (s) | TensorFlow/Frost | peak RSS (MiB) | peak anon RSS (MiB) "
        "| peak file RSS (MiB) | output (MiB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
        "| TensorFlow (whole process) | %.3f | %.1fx | %.1f | %.1f | %.1f | %.1f |"
        % (tf_wall, tf_wall / frost_wall, *peak["TensorFlow"], size["TensorFlow"] / MIB),
        "| TensorFlow without `import tensorflow` | %.3f | %.1fx | | | | |"
        % (tf_work, tf_work / frost_wall),
        "| &nbsp;&nbsp;`import tensorflow` | %.3f | | | | | |" % best_inner["import"],
        "| &nbsp;&nbsp;`tf.saved_model.load` | %.3f | | | | | |" % best_inner["load"],
        "| &nbsp;&nbsp;convert_variables_to_constants_v2 + as_graph_def | %.3f | | | | | |"
        % best_inner["convert"],
        "| &nbsp;&nbsp;serialize + write | %.3f | | | | | |" % best_inner["write"],
        "| &nbsp;&nbsp;the rest (interpreter start-up and exit) | %.3f | | | | | |" % rest,
        "| `freeze-graph` | %.3f | 1.0x | %.1f | %.1f | %.1f | %.1f |"
        % (frost_wall, *peak["Frost"], size["Frost"] / MIB),
        "",
        "Peak RSS, TensorFlow/Frost: %.1fx (ru_maxrss), %.1fx (anonymous). Runs (wall s): "
        "TensorFlow %s (without its import: %s); Frost %s. ru_maxrss includes this script's own %.0f MiB (inherited "
        "across fork+exec); the 2 ms samples can miss short peaks, and the anonymous and file "
        "peaks need not coincide."
        % (peak["TensorFlow"][0] / peak["Frost"][0],
           peak["TensorFlow"][1] / max(peak["Frost"][1], 0.1),
           ", ".join("%.2f" % r[0] for r in results["TensorFlow"]),
           ", ".join("%.2f" % r["after_import"] for r in inner),
           ", ".join("%.2f" % r[0] for r in results["Frost"]),
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    ]
    print("\n".join(lines))
    print("benchmark took %.0f s" % (time.perf_counter() - began), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
