#!/usr/bin/env python3
"""freeze-graph --batch-size / --input-shape against TensorFlow and OpenCV
(issue #30), over runs of the model set (test/Models/Inputs/model_set.py).

    check_input_shapes.py --bin DIR --cache DIR --work DIR --only NAME,...
        [--opencv NAME,...]

For each run, freeze-graph freezes the model plain and with --batch-size 1
(each also with --optimize), and:
  - the fixed graphs' inputs must have batch 1 and their outputs, run by
    TensorFlow (import_graph_def, a Session with Grappler off) on the first
    example of the set's inputs, must be the source model's outputs for it
    (expected.npz: floats within 1e-4 of the output's largest magnitude);
  - the plain fixed graph must have fewer nodes than the plain graph (the
    shape arithmetic of a batch of unknown size is folded away);
  - for the runs --opencv names, cv2.dnn.readNetFromTensorflow must load the
    optimized fixed graph and compute the same, with every engine this
    OpenCV has (test/Transforms/Inputs/opencv_oracle.py's way).
One line per run; exit 1 on any failure.

TensorFlow is a test oracle only: nothing in Frost calls it.
"""

import argparse
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "Transforms", "Inputs"))
import model_set_report as ms  # noqa: E402
import opencv_oracle  # noqa: E402


def inspect(tools, pb):
    """(node count, {input: shape text}) from frost-inspect graph."""
    out = subprocess.run([os.path.join(tools, "frost-inspect"), "graph", pb],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    nodes = int(next(line for line in out if line.startswith("nodes:")).split()[1])
    start = next(i for i, line in enumerate(out) if line.startswith("inputs ("))
    shapes = {}
    for line in out[start + 1:]:
        if not line.startswith("  "):
            break
        name, rest = line.strip().split(": ", 1)
        shapes[name] = rest.split(" ", 1)[1]
    return nodes, shapes


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", required=True)
    p.add_argument("--cache", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--only", required=True)
    p.add_argument("--opencv", default="")
    args = p.parse_args()
    import numpy as np

    models = ms.cached_models(args.cache)
    opencv = set(filter(None, args.opencv.split(",")))
    os.makedirs(args.work, exist_ok=True)
    failures = 0
    for model_dir, spec, suffix, r in ms.runs_of(models, set(args.only.split(","))):
        label, flags = r["label"], r["flags"]
        source = os.path.join(model_dir, spec["source"])
        feeds = {k: v[:1] for k, v in np.load(os.path.join(model_dir, "inputs%s.npz" % suffix),
                                               allow_pickle=True).items()}
        expected = np.load(os.path.join(model_dir, "expected%s.npz" % suffix), allow_pickle=True)
        graphs = {}
        for variant, extra in [("plain", []), ("b1", ["--batch-size", "1"]),
                               ("opt", ["--optimize"]),
                               ("opt-b1", ["--optimize", "--batch-size", "1"])]:
            graphs[variant] = os.path.join(args.work, "%s.%s.pb" % (label, variant))
            subprocess.run([os.path.join(args.bin, "freeze-graph"), source, "-q", "-o",
                            graphs[variant]] + flags + extra, check=True)
        problems = []
        nodes = {v: inspect(args.bin, g) for v, g in graphs.items()}
        for variant in ("b1", "opt-b1"):
            count, shapes = nodes[variant]
            unfixed = [n for n, s in shapes.items() if not s.startswith("[1")]
            if unfixed:
                problems.append("%s: inputs %s not batch 1" % (variant, ", ".join(unfixed)))
            got = ms.tf_run(ms.load_graph(graphs[variant]), feeds, spec["outputs"], [])
            for i, value in enumerate(got):
                why = ms.disagreement(value, expected["out%d" % i][:1])
                if why:
                    problems.append("%s: TensorFlow's %s: %s" % (variant, spec["outputs"][i],
                                                                  why))
        if nodes["b1"][0] >= nodes["plain"][0]:
            problems.append("batch 1 kept %d of %d nodes" % (nodes["b1"][0], nodes["plain"][0]))
        line = "%s: nodes %d -> %d at batch 1 (optimized %d -> %d); TensorFlow %s" % (
            label, nodes["plain"][0], nodes["b1"][0], nodes["opt"][0], nodes["opt-b1"][0],
            "equal" if not problems else "differs")
        if spec["name"] in opencv:
            version, engines = opencv_oracle.opencv_engines()
            x = next(iter(feeds.values()))
            with tempfile.TemporaryDirectory() as tmp:
                results = opencv_oracle.run_opencv(graphs["opt-b1"], x, engines, tmp)
            for engine, (out, error) in results.items():
                why = error or ms.disagreement(out.reshape(expected["out0"][:1].shape),
                                               expected["out0"][:1])
                if why:
                    problems.append("OpenCV %s %s: %s" % (version, engine, why))
            line += "; OpenCV %s (%s) %s" % (version, ", ".join(
                opencv_oracle.short(e) for e in engines),
                "equal" if not any(p.startswith("OpenCV") for p in problems) else "FAILED")
        print(line + "".join("\n  FAILED: " + p for p in problems))
        failures += bool(problems)
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
