#!/usr/bin/env python3
"""Freezes the tf2_models.py fixtures with freeze-graph and compares the
result with TensorFlow's convert_variables_to_constants_v2 (tf_frozen.pb).

    freeze_tf2_oracle.py FIXTURES FREEZE_GRAPH OUTDIR

For each model (and each extra signature), prints one line:
  NAME: outputs identical|within 1e-6 (...); nodes: same N as TensorFlow, same order[; file byte-identical]
  NAME: outputs ...; nodes: K of TensorFlow's N differ (+A only in Frost's, -B only in TensorFlow's, C changed) [op histogram of the differences]
The outputs are those of Frost's graph run in TensorFlow on random inputs,
against the SavedModel's signature called eagerly. Nodes are compared by
name: op, data inputs in order, control inputs as a set, attributes; node
order is compared only when the nodes are the same. Exit 1 when a
Frost graph fails to freeze or its outputs differ.
"""
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tf2_models  # noqa: E402  (sets TF's logging before importing it)
from tensorflow.core.framework import graph_pb2  # noqa: E402


def load(path):
    g = graph_pb2.GraphDef()
    with open(path, "rb") as f:
        g.ParseFromString(f.read())
    return g


def key_of(node):
    data = [i for i in node.input if not i.startswith("^")]
    control = sorted(i for i in node.input if i.startswith("^"))
    attrs = sorted((k, v.SerializeToString(deterministic=True)) for k, v in node.attr.items())
    return (node.op, tuple(data), tuple(control), tuple(attrs))


def compare_nodes(ours, theirs):
    a = {n.name: n for n in ours.node}
    b = {n.name: n for n in theirs.node}
    only_ours = sorted(set(a) - set(b))
    only_theirs = sorted(set(b) - set(a))
    changed = sorted(n for n in set(a) & set(b) if key_of(a[n]) != key_of(b[n]))
    if not (only_ours or only_theirs or changed):
        same_order = [n.name for n in ours.node] == [n.name for n in theirs.node]
        return "same %d as TensorFlow, %s" % (len(b), "same order" if same_order else "in another order")
    ops = collections.Counter()
    for n in only_ours:
        ops["+" + a[n].op] += 1
    for n in only_theirs:
        ops["-" + b[n].op] += 1
    top = ", ".join("%s %d" % (op, c) for op, c in sorted(ops.items(), key=lambda x: (-x[1], x[0]))[:6])
    return "%d of TensorFlow's %d differ (+%d only in Frost's, -%d only in TensorFlow's, %d changed) [%s]" % (
        len(only_ours) + len(only_theirs) + len(changed), len(b), len(only_ours),
        len(only_theirs), len(changed), top)


def main(fixtures, freeze_graph, outdir):
    ok = True
    os.makedirs(outdir, exist_ok=True)
    for name in sorted(os.listdir(fixtures)):
        model = os.path.join(fixtures, name)
        specs = sorted(f for f in os.listdir(model) if f.startswith("spec") and f.endswith(".json"))
        for spec_file in specs:
            with open(os.path.join(model, spec_file)) as f:
                spec = json.load(f)
            sig = spec["signature"]
            label = name if spec_file == "spec.json" else "%s[%s]" % (name, sig)
            out = os.path.join(outdir, label.replace("[", ".").replace("]", "") + ".pb")
            cmd = [freeze_graph, os.path.join(model, "saved_model"), "--signature", sig, "-o", out,
                   "-q", "--verify", "--allow-unchecked"]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                print("%s: FREEZE FAILED: %s" % (label, run.stderr.strip().splitlines()[-1:]))
                ok = False
                continue
            good, line = tf2_models.check(model, out, spec_file, label)
            ok &= good
            result = line.split(": ", 1)[1]
            reference = os.path.join(model, "tf_frozen%s.pb" % ("" if sig == "serving_default" else "." + sig))
            nodes = compare_nodes(load(out), load(reference)) if os.path.exists(reference) \
                else "TensorFlow could not freeze it"
            if os.path.exists(reference):
                with open(out, "rb") as a, open(reference, "rb") as b:
                    if a.read() == b.read():
                        nodes += "; file byte-identical"
            print("%s: outputs %s; nodes: %s" % (label, result, nodes))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
