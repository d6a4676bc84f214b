#!/usr/bin/env python3
"""Benchmark: freeze a 4 GiB checkpoint whose largest variable is 1.5 GiB (frozen: over 2 GiB).

    bench/freeze_over_2gib.py [--frost build/bin/freeze-graph] [--runs 1]
                              [--workdir /tmp/frost-bench-freeze-4g] [--with-tensorflow-failure]

Prints a Markdown summary for docs/performance.md ("Freezing over 2 GiB").

The model is bench/freeze_checkpoint.py's, 4096 MiB with a 1.5 GiB embedding (generated once,
reused while the plan matches). Frozen whole it would be a 4 GiB GraphDef, which protobuf (and so
TensorFlow) cannot parse. In one interleaved run, --runs times each (median wall time):
  cat INDEX DATA > copy                          the floor: moving the checkpoint's bytes once
  freeze-graph PREFIX --outputs output -o F      must refuse: exit 1, no F, one line naming the
                                                 size and the `--except LIST` that fits
  freeze-graph ... --except LIST                 the way out it suggests
  freeze_graph.py ... --variable_names_denylist=LIST
                                                 TensorFlow's tool given the same way out
  (--with-tensorflow-failure: freeze_graph.py without it too, which fails after building the
   4 GiB graph in memory; off by default, it needs ~18 GiB)
Both frozen graphs must then be equal node for node and value for value (LIST left variables).
"""

import argparse
import os
import platform
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import freeze_checkpoint as fc  # noqa: E402

TOTAL_MIB = 4096
EMBEDDING_ROWS = 393216  # x 1024 float32 = 1.5 GiB


def main():
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    default = os.path.join(fc.REPO, "build", "bin", "freeze-graph")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frost", default=default)
    parser.add_argument("--workdir", default="/tmp/frost-bench-freeze-4g")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--with-tensorflow-failure", action="store_true")
    args = parser.parse_args()
    began = time.perf_counter()
    work = lambda name: os.path.join(args.workdir, name)

    prefix, model, ckpt = fc.prepare(args.workdir, TOTAL_MIB, EMBEDDING_ROWS)
    ckpt_bytes = sum(os.path.getsize(f) for f in ckpt)
    fc.warm([prefix + ".meta", args.frost] + ckpt)

    frozen, tf_out, copy_out = work("frozen_frost.pb"), work("frozen_tf.pb"), work("copy.bin")
    refuse = fc.frost_command(args.frost, prefix, frozen) + ["-q"]
    # The refusal names the way out; every later run takes it.
    for stale in (frozen, tf_out, copy_out):
        if os.path.exists(stale):
            os.remove(stale)
    fc.measure(refuse, work("log.refusal"), must_fail=True)
    said = open(work("log.refusal"), errors="replace").read().strip().splitlines()
    found = re.search(r"--except '([^']*)'", said[-1]) if said else None
    if len(said) != 1 or not found or os.path.exists(frozen):
        print("freeze-graph did not refuse in one line with an --except list, or left %s:\n%s"
              % (frozen, "\n".join(said)))
        return 1
    except_list = found.group(1).replace(" ", "")
    cases = [
        ("cat", ["/bin/sh", "-c", 'exec cat "$@" > "%s"' % copy_out, "cat"] + ckpt, copy_out, False),
        ("freeze-graph (refuses)", refuse, None, True),
        ("freeze-graph --except", refuse + ["--except", except_list], frozen, False),
        ("freeze_graph.py --variable_names_denylist",
         fc.freeze_graph_command(prefix, tf_out) + ["--variable_names_denylist=" + except_list],
         tf_out, False),
    ]
    if args.with_tensorflow_failure:
        cases.append(("freeze_graph.py (fails)", fc.freeze_graph_command(prefix, work("no.pb")),
                      None, True))
    results = {name: [] for name, _, _, _ in cases}
    for run in range(args.runs):
        for name, cmd, out, must_fail in cases:
            if out and os.path.exists(out):
                os.remove(out)
            results[name].append(fc.measure(cmd, work("log." + re.sub(r"\W+", "_", name)),
                                            must_fail=must_fail))
            if name == "cat":  # 4 GiB of page cache the others should not compete with
                os.remove(copy_out)
        print("run %d/%d: %s" % (run + 1, args.runs, ", ".join(
            "%s %.2f s" % (n, r[-1][0]) for n, r in results.items())), file=sys.stderr)
    if os.path.exists(copy_out):
        os.remove(copy_out)

    verdict = fc.child("--verify", [tf_out, frozen, except_list], work("log.verify"))
    if verdict["problems"]:
        print("MISMATCH between freeze_graph.py (%s) and Frost (%s):" % (tf_out, frozen))
        for p in verdict["problems"][:20]:
            print("  " + p)
        return 1

    med = {n: statistics.median(r[0] for r in runs) for n, runs in results.items()}
    peak = {n: max(r[1] for r in runs) / 1024 for n, runs in results.items()}
    size = os.path.getsize(frozen)
    largest = fc.WIDTH["float32"] * 1024 * EMBEDDING_ROWS
    lines = [
        "Model: %d variables, checkpoint %.1f MiB (largest variable %.1f MiB). Frozen whole it "
        "would be over protobuf's 2 GiB limit; freeze-graph refused in one line (exit 1, no "
        "file): `%s`"
        % (sum(model["variables"].values()), ckpt_bytes / fc.MIB, largest / fc.MIB,
           said[-1].strip()),
        "With that `--except %s` the frozen graph is %.1f MiB; freeze_graph.py given the same "
        "variable_names_denylist writes the same graph (%d nodes, %d Const, equal node for node "
        "and value for value)." % (except_list, size / fc.MIB, verdict["nodes"], verdict["consts"]),
        "Machine: %s, %d CPUs, %s; warm page cache, output removed and file system synced before "
        "each run (median of %d interleaved)." % (platform.machine(), os.cpu_count(),
                                                  platform.platform(), args.runs),
        "",
        "| command | wall (s) | peak RSS (MiB) |",
        "|---|---:|---:|",
    ]
    lines += ["| %s | %.3f | %.1f |" % (n, med[n], peak[n]) for n in med]
    frost, tf = med["freeze-graph --except"], med["freeze_graph.py --variable_names_denylist"]
    limit = largest / fc.MIB + 64
    lines += [
        "",
        "freeze-graph refuses in %.2f s; with the way out it takes %.2fx the time of `cat` of the "
        "whole checkpoint (it writes %.0f%% of its bytes) and is %.1fx faster than freeze_graph.py; "
        "peak RSS %.1f MiB (goal: at most the largest tensor + 64 MiB = %.0f MiB: %s)."
        % (med["freeze-graph (refuses)"], frost / med["cat"], 100.0 * size / ckpt_bytes, tf / frost,
           peak["freeze-graph --except"], limit,
           "met" if peak["freeze-graph --except"] <= limit else "NOT met"),
    ]
    print("\n".join(lines))
    print("benchmark took %.0f s" % (time.perf_counter() - began), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
