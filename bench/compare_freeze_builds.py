#!/usr/bin/env python3
"""Benchmark: two freeze-graph builds side by side on the freeze benchmarks' models.

    bench/compare_freeze_builds.py --before OLD/bin/freeze-graph --after NEW/bin/freeze-graph
                                   [--runs 5]

Freezes, interleaved (alternating which goes first) and --runs times each, the models that bench/freeze_checkpoint.py
(1 GiB TF1 checkpoint, /tmp/frost-bench-freeze) and bench/freeze_keras_v2.py (100M-parameter
Keras SavedModel, /tmp/frost-bench-keras-v2) generate; run those first. Reports the median wall
time, the median CPU time (user + system) and the peak RSS (ru_maxrss of the child, os.wait4) of
each build, the ratios, and whether the two outputs are byte-identical. --workdir on a tmpfs
(/dev/shm) keeps the disk's writeback of the 1 GiB output out of the times. Prints a Markdown table for docs/performance.md.
"""
import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import time

CASES = [
    ("1 GiB TF1 checkpoint (freeze_checkpoint.py)", "/tmp/frost-bench-freeze/model.ckpt",
     ["--outputs", "output"]),
    ("100M-parameter Keras SavedModel (freeze_keras_v2.py)", "/tmp/frost-bench-keras-v2/saved_model",
     []),
]


def run(binary, model, extra, out):
    start = time.perf_counter()
    proc = subprocess.Popen([binary, model, *extra, "-o", out, "-q"])
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit("%s failed on %s (status %d)" % (binary, model, status))
    return seconds, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", default="/tmp/frost-bench-compare")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    print("| model | before s | after s | after/before | before CPU s | after CPU s | after/before "
          "| before MiB | after MiB | output |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for title, model, extra in CASES:
        if not os.path.exists(model) and not os.path.exists(model + ".index"):
            print("| %s | not generated: run its bench script first | | | | | | | | |" % title)
            continue
        outs = {side: os.path.join(args.workdir, side + ".pb") for side in ("before", "after")}
        times = {"before": [], "after": []}
        cpu = {"before": [], "after": []}
        rss = {"before": [], "after": []}
        run(args.after, model, extra, outs["after"])  # warm the page cache
        for i in range(args.runs):
            # Alternate who goes first: a run pays for the previous one's writeback.
            for side in (("before", "after") if i % 2 == 0 else ("after", "before")):
                binary = args.before if side == "before" else args.after
                seconds, peak, cpu_seconds = run(binary, model, extra, outs[side])
                times[side].append(seconds)
                cpu[side].append(cpu_seconds)
                rss[side].append(peak)
        b, a = statistics.median(times["before"]), statistics.median(times["after"])
        bc, ac = statistics.median(cpu["before"]), statistics.median(cpu["after"])
        same = filecmp.cmp(outs["before"], outs["after"], shallow=False)
        print("| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %.0f | %.0f | %s |" % (
            title, b, a, a / b, bc, ac, ac / bc, max(rss["before"]), max(rss["after"]),
            "byte-identical" if same else "DIFFERENT"))
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
