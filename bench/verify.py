#!/usr/bin/env python3
"""Benchmark: what checking a frozen graph costs, Frost against doing it with TensorFlow.

    bench/verify.py [--bin build/bin] [--repeat 3] [--workdir /tmp/frost-bench-freeze]

Prints a Markdown section for docs/performance.md ("Verifying a frozen graph").

The model is bench/freeze_checkpoint.py's (a 1 GiB TF1 training checkpoint, generated there
and cached in --workdir). Measured, interleaved, --repeat times each (median wall time,
largest peak RSS, as freeze_checkpoint.py's measure()):
  freeze-graph PREFIX --outputs output -o frozen.pb -q             (freezing alone)
  freeze-graph ... --verify                                        (freezing and checking)
  frost-verify frozen_tf.pb --source PREFIX --outputs output -q    (checking TensorFlow's
                                                                    freeze_graph.py output)
  TensorFlow, the way its users check today: one Python process restores the checkpoint
  into the training graph, runs `output` on a random batch, imports the frozen graph, runs
  it on the same batch and compares (this script's --tf-check mode).
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import freeze_checkpoint as fc  # noqa: E402


def tf_check(prefix, frozen):
    """TensorFlow's way: both graphs run on one batch; prints {"max_abs_diff": ...}."""
    import numpy as np
    import tensorflow as tf
    v1 = tf.compat.v1
    v1.disable_eager_execution()
    x = np.random.default_rng(0).uniform(-1, 1, (1, 1024)).astype(np.float32)
    with v1.Session(graph=tf.Graph()) as sess:
        saver = v1.train.import_meta_graph(prefix + ".meta")
        saver.restore(sess, prefix)
        want = sess.run("output:0", {"features:0": x})
    graph_def = v1.GraphDef.FromString(open(frozen, "rb").read())
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with v1.Session(graph=g) as sess:
            got = sess.run("output:0", {"features:0": x})
    print(json.dumps({"max_abs_diff": float(np.max(np.abs(np.asarray(got) - np.asarray(want))))}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(fc.REPO, "build", "bin"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", default="/tmp/frost-bench-freeze")
    args = parser.parse_args()
    work = lambda name: os.path.join(args.workdir, name)
    prefix, model, ckpt = fc.prepare(args.workdir)
    tf_frozen = work("frozen_tf.pb")
    if not os.path.exists(tf_frozen):
        fc.measure(fc.freeze_graph_command(prefix, tf_frozen), work("log.freeze_graph.py"))
    fc.warm(ckpt + [prefix + ".meta", tf_frozen])
    freeze = [os.path.join(args.bin, "freeze-graph"), prefix, "--outputs", "output", "-q", "-o"]
    runs = [
        ("freeze-graph (freezing alone)", freeze + [work("bench_frozen.pb")]),
        ("freeze-graph --verify", freeze + [work("bench_verified.pb"), "--verify"]),
        ("frost-verify on freeze_graph.py's output",
         [os.path.join(args.bin, "frost-verify"), tf_frozen, "--source", prefix, "--outputs",
          "output", "-q"]),
        ("TensorFlow: both graphs run in a Session",
         [sys.executable, os.path.abspath(__file__), "--tf-check", prefix, tf_frozen]),
    ]
    results = {name: [] for name, _ in runs}
    for _ in range(args.repeat):
        for name, cmd in runs:
            results[name].append(fc.measure(cmd, work("log.bench-verify")))
    base_wall = statistics.median(r[0] for r in results[runs[0][0]])
    base_rss = max(r[1] for r in results[runs[0][0]])
    print("## Verifying a frozen graph\n")
    ckpt_mib = sum(os.path.getsize(f) for f in ckpt) / fc.MIB
    print("bench/verify.py on bench/freeze_checkpoint.py's model (%d nodes, a %.0f MiB "
          "checkpoint); warm page cache; median of %d interleaved runs, peak RSS the largest. "
          "Ratios to freezing alone.\n" % (model["nodes"], ckpt_mib, args.repeat))
    print("| command | wall s | x freezing | peak RSS MiB | x freezing |")
    print("|---|---|---|---|---|")
    for name, _ in runs:
        wall = statistics.median(r[0] for r in results[name])
        rss = max(r[1] for r in results[name])
        print("| %s | %.2f | %.2fx | %.0f | %.2fx |" % (name, wall, wall / base_wall, rss / 1024,
                                                     rss / base_rss))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--tf-check":
        tf_check(sys.argv[2], sys.argv[3])
    else:
        main()
