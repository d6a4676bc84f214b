#!/usr/bin/env python3
"""Benchmark: running a frozen Keras application once, frost-run against TensorFlow's Session.

    bench/run.py [--bin build/bin] [--repeat 3] [--steady 10] [--workdir /tmp/frost-bench-run]

Prints a Markdown section for docs/performance.md ("Running a graph: frost-run").

The model: tf.keras.applications.MobileNetV2(alpha=0.35, weights=None) at 224x224x3 (the
model set's keras_mobilenet_v2 at full size), its logits (no softmax) as output, exported as a SavedModel and frozen by
freeze-graph, once, into --workdir; one random batch of 1 saved as inputs.npz. Measured, in
the same run, interleaved, --repeat times each (median wall time, largest peak RSS, as
freeze_checkpoint.py's measure()):
  frost-run frozen.pb --inputs inputs.npz -o out.npz                (a process: read, run,
                                                                      write)
  python3 bench/run.py --tf-run frozen.pb inputs.npz out_tf.npz      (the same with
      TensorFlow: import it, import the graph, one Session.run, np.savez)
and, inside one process each, the run alone: TensorFlow's first Session.run (it builds its
executor then) and the median of --steady more; Frost's frost.run (parse, run) median of
--steady (needs the Python package: PYTHONPATH=build/python). Both outputs must agree within
1e-4 of their largest magnitude (the model set's TensorFlow tolerance).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import freeze_checkpoint as fc  # noqa: E402

SIZE = 224


def build(work):
    """The SavedModel (child process: this one never imports TensorFlow)."""
    import numpy as np
    import tensorflow as tf
    # Logits: a softmax over random weights is 1/1000 everywhere, which any
    # evaluator would match.
    model = tf.keras.applications.MobileNetV2(alpha=0.35, weights=None,
                                              input_shape=(SIZE, SIZE, 3),
                                              classifier_activation=None)
    model.export(os.path.join(work, "saved_model"), verbose=False)
    x = np.random.default_rng(0).uniform(-1, 1, (1, SIZE, SIZE, 3)).astype(np.float32)
    np.save(os.path.join(work, "x.npy"), x)
    print(json.dumps({"params": int(model.count_params())}))


def tf_session(graph_pb):
    import tensorflow as tf
    v1 = tf.compat.v1
    graph_def = v1.GraphDef.FromString(open(graph_pb, "rb").read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    return g, v1.Session(graph=g)


def tf_run(graph_pb, inputs, out):
    """TensorFlow's run of the frozen graph, as a user scripts it."""
    import numpy as np
    feeds = dict(np.load(inputs))
    outputs = json.load(open(graph_pb + ".outputs.json"))
    g, sess = tf_session(graph_pb)
    values = sess.run(outputs, {k + ":0": v for k, v in feeds.items()})
    np.savez(out, **dict(zip(outputs, values)))


def steady(graph_pb, inputs, repeat):
    """In one process: TensorFlow's first run and median later run; frost.run's median."""
    import time
    import numpy as np
    feeds = dict(np.load(inputs))
    outputs = json.load(open(graph_pb + ".outputs.json"))
    result = {}
    g, sess = tf_session(graph_pb)
    tf_feeds = {k + ":0": v for k, v in feeds.items()}
    start = time.perf_counter()
    want = sess.run(outputs, tf_feeds)
    result["tf_first"] = time.perf_counter() - start
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        sess.run(outputs, tf_feeds)
        times.append(time.perf_counter() - start)
    result["tf_steady"] = statistics.median(times)
    try:
        import frost
    except ImportError:
        print(json.dumps(result))
        return
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        got = frost.run(graph_pb, feeds, outputs)
        times.append(time.perf_counter() - start)
    result["frost"] = statistics.median(times)
    scale = max(float(np.max(np.abs(w))) for w in want)
    result["max_diff"] = max(float(np.max(np.abs(got[t] - w))) for t, w in zip(outputs, want)) / scale
    print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(fc.REPO, "build", "bin"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--steady", type=int, default=10)
    parser.add_argument("--workdir", default="/tmp/frost-bench-run")
    args = parser.parse_args()
    work = lambda name: os.path.join(args.workdir, name)
    os.makedirs(args.workdir, exist_ok=True)
    frozen, inputs = work("frozen.pb"), work("inputs.npz")
    if not os.path.exists(inputs):
        info = fc.child("--build", [args.workdir], work("log.build"), __file__)
        json.dump(info, open(work("model.json"), "w"))
        subprocess.run([os.path.join(args.bin, "freeze-graph"), work("saved_model"), "-o", frozen,
                        "-q"], check=True)
        summary = json.loads(subprocess.run(
            [os.path.join(args.bin, "frost-inspect"), "graph", frozen, "--json"], check=True,
            capture_output=True, text=True).stdout)
        [placeholder] = [i["name"] for i in summary["inputs"]]
        json.dump([o["name"] + ":0" for o in summary["outputs"]],
                  open(frozen + ".outputs.json", "w"))
        subprocess.run([sys.executable, "-c", "import numpy as np, sys; "
                        "np.savez(sys.argv[1], **{sys.argv[2]: np.load(sys.argv[3])})",
                        inputs, placeholder, work("x.npy")], check=True)
    model = json.load(open(work("model.json")))
    fc.warm([frozen, inputs])
    runs = [
        ("frost-run", [os.path.join(args.bin, "frost-run"), frozen, "--inputs", inputs, "-o",
                       work("out.npz"), "-q"]),
        ("TensorFlow: import, Session.run, np.savez",
         [sys.executable, os.path.abspath(__file__), "--tf-run", frozen, inputs,
          work("out_tf.npz")]),
    ]
    results = {name: [] for name, _ in runs}
    for _ in range(args.repeat):
        for name, cmd in runs:
            results[name].append(fc.measure(cmd, work("log.bench-run")))
    inner = fc.child("--steady", [frozen, inputs, str(args.steady)], work("log.steady"), __file__)
    nodes = json.loads(subprocess.run([os.path.join(args.bin, "frost-inspect"), "graph", frozen,
                                       "--json"], check=True, capture_output=True,
                                      text=True).stdout)["nodes"]

    print("## Running a graph: frost-run\n")
    print("bench/run.py: Keras MobileNetV2 (alpha 0.35, weights=None, %d parameters) at "
          "batch 1, %dx%dx3, logits, frozen by freeze-graph (%d nodes); warm page cache; median of %d "
          "interleaved runs, peak RSS the largest; ratios TensorFlow / Frost.\n"
          % (model["params"], SIZE, SIZE, nodes, args.repeat))
    print("| command (a process: outputs written as .npz) | wall s | peak RSS MiB |")
    print("|---|---|---|")
    walls, rss = {}, {}
    for name, _ in runs:
        walls[name] = statistics.median(r[0] for r in results[name])
        rss[name] = max(r[1] for r in results[name]) / 1024
        print("| %s | %.2f | %.0f |" % (name, walls[name], rss[name]))
    tf_name = runs[1][0]
    print("\nWhole process: TensorFlow takes %.1fx frost-run's time and %.1fx its memory.\n"
          % (walls[tf_name] / walls["frost-run"], rss[tf_name] / rss["frost-run"]))
    print("| the run alone, in one process | s |")
    print("|---|---|")
    print("| TensorFlow Session.run, first (builds its executor) | %.3f |" % inner["tf_first"])
    print("| TensorFlow Session.run, median of %d more | %.3f |" % (args.steady,
                                                                 inner["tf_steady"]))
    if "frost" in inner:
        print("| frost.run (parse the graph, run), median of %d | %.3f |" % (args.steady,
                                                                         inner["frost"]))
        print("\nRun alone: frost.run takes %.1fx TensorFlow's first run and %.1fx a later one; "
              "outputs agree within %.1e of their largest magnitude."
              % (inner["frost"] / inner["tf_first"], inner["frost"] / inner["tf_steady"],
                 inner["max_diff"]))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--build":
        build(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "--tf-run":
        tf_run(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "--steady":
        steady(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
