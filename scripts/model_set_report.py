#!/usr/bin/env python3
"""freeze-graph and frost-verify over the model set
(test/Models/Inputs/model_set.py): what each model's frozen and optimized
graphs contain, what frost-verify checks and what it cannot.

    model_set_report.py [--bin DIR] (--models DIR | --cache DIR) [--work DIR]
                        [--only NAME,...] [--tf-check] [--tamper]
                        [--ratchet FILE] [--json FILE] [--inventory FILE]

--models: a directory model_set.py wrote; --cache: a directory kept between
runs where model_set.py's models are built once, keyed by model_set.py's text
and TensorFlow's version (the oracle tests' cache). For each run of each
model (a signature, a variant such as --keep-functional-control-flow):

  freeze-graph SOURCE [flags] -o RUN.pb --report RUN.report.json
  freeze-graph SOURCE [flags] --optimize -o RUN.opt.pb
  frost-verify RUN.pb --source SOURCE [flags] --json     (and RUN.opt.pb
      with --optimize)

and prints one line
  LABEL: frozen N nodes (K ops), optimized M nodes; verify PASSED|FAILED,
      C of O outputs checked[; NOT CHECKED: Op, ...]
then a summary: runs, outputs checked and NOT CHECKED, and each op lacking a
kernel with the runs whose outputs it leaves unchecked.

--tf-check: TensorFlow (import_graph_def, a Session with Grappler off) runs
  each frozen graph on the model's inputs.npz and must compute the source
  model's expected.npz (strings and integers exactly, floats within 1e-4 of
  the output's largest magnitude): the set itself is sound.
--run-check: frost-run runs each frozen graph on the model's inputs.npz and
  must compute what TensorFlow's run of the same frozen graph computes (the
  --tf-check tolerance: floats within 1e-4 of the output's largest
  magnitude, the rest exactly), for every output frost-verify checked; each
  output it leaves NOT CHECKED must make frost-run fail naming one of the
  ops --ratchet lists for the run (or frost-verify named).
--tamper: the largest float Const of RUN.pb that came from a variable (the
  freeze report's) is scaled by 1.01; frost-verify must exit 1 naming the
  node. Whether the numeric check saw it too is recorded ("numeric: OUT"
  names the first output that moved; "numeric: NOT CHECKED" when the outputs
  it could move are unchecked; "numeric: unmoved" otherwise).
--ratchet FILE: lines "LABEL: TOKEN ..." (# comments): what leaves a run's
  outputs NOT CHECKED today (ops without kernels, or "while-loop" and such for
  the other reasons). A run whose unchecked tokens are not all listed, or a
  listed token that no longer leaves anything unchecked, is a failure: the
  list only shrinks.
--inventory FILE: writes the op inventory (Markdown) there.

Exits 1 when a model fails to freeze, frost-verify FAILS a clean graph, the
TensorFlow check disagrees, a tamper is not caught, or the ratchet does not
hold; the reasons are printed as lines starting "ERROR ".
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# The fixture cache, TensorFlow's run as written and the findings' lines are
# frost-verify's TensorFlow oracle's (test/Tools/Inputs/verify_oracle.py).
sys.path.insert(0, os.path.join(ROOT, "test", "Tools", "Inputs"))
from oracle_support import built_once, findings, load_graph, tf_run  # noqa: E402
GENERATOR = os.path.join(ROOT, "test", "Models", "Inputs", "model_set.py")
KERNELS = os.path.join(ROOT, "lib", "Eval", "Kernels.def")
# Ops frost-verify's graph runner evaluates itself (lib/Verify/GraphRunner.cpp),
# besides Kernels.def's.
RUNNER_OPS = {"Const", "Identity", "NoOp", "Placeholder", "PlaceholderWithDefault",
              "ReadVariableOp", "RefIdentity", "ResourceGather", "GatherV2", "Snapshot",
              "StopGradient",
              # lib/Verify/RunTables.cpp: lookup tables.
              "HashTable", "HashTableV2", "MutableHashTable", "MutableHashTableV2",
              "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "InitializeTable",
              "InitializeTableV2", "LookupTableImport", "LookupTableImportV2", "LookupTableFind",
              "LookupTableFindV2", "LookupTableSize", "LookupTableSizeV2",
              # lib/Verify/GraphRunner.cpp and RunFrames.cpp: v1 control flow.
              "Enter", "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration",
              "LoopCond", "Switch", "RefSwitch", "Merge", "RefMerge", "_SwitchN", "Assert",
              "ResourceGatherNd",
              # lib/Verify/RunCalls.cpp: function calls and functional control flow.
              "PartitionedCall", "StatefulPartitionedCall", "If", "StatelessIf", "Case",
              "StatelessCase", "While", "StatelessWhile",
              # lib/Verify/RunContainers.cpp: TensorLists and TensorArrays.
              "EmptyTensorList", "TensorListReserve", "TensorListFromTensor",
              "TensorListSetItem", "TensorListGetItem", "TensorListStack", "TensorListLength",
              "TensorListElementShape", "TensorListPushBack", "TensorListPopBack",
              "TensorListGather", "TensorListConcat", "TensorListConcatV2", "TensorListSplit",
              "TensorListResize", "TensorArrayV3", "TensorArrayWriteV3", "TensorArrayReadV3",
              "TensorArrayGatherV3", "TensorArrayScatterV3", "TensorArraySizeV3",
              "TensorArrayConcatV3", "TensorArrayCloseV3"}
TF_TOLERANCE = 1e-4
TAMPER_SCALE = 1.01


def cached_models(cache):
    """CACHE/<key>: the model set, built once per key (model_set.py's text and
    the installed TensorFlow)."""
    return built_once(cache, GENERATOR)


def kernel_ops():
    text = open(KERNELS).read()
    return set(re.findall(r'FROST_(?:RUN_)?KERNEL\("([A-Za-z0-9_]+)"', text)) | RUNNER_OPS


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def op_counts(tools, pb):
    """{op: count} over the graph's nodes and its function library's."""
    proc = run([os.path.join(tools, "frost-inspect"), "graph", pb, "--json"])
    if proc.returncode != 0:
        raise RuntimeError("frost-inspect graph %s: %s" % (pb, proc.stderr.strip()))
    info = json.loads(proc.stdout)
    counts = collections.Counter({o["op"]: o["count"] for o in info["ops"]})
    if info.get("functions"):  # frost-inspect counts the library's functions only
        for fn in load_graph(pb).library.function:
            counts.update(n.op for n in fn.node_def)
    return dict(counts), info.get("nodes")


def unchecked_tokens(report):
    """What leaves outputs unchecked: {token: [outputs]} where a token is an
    op without a kernel or a short name for another reason."""
    numeric = report.get("numeric") or {}
    tokens = collections.defaultdict(set)
    for out in numeric.get("outputs", []):
        why = out.get("not_checked")
        if not why:
            continue
        ops = [op for op in numeric.get("no_kernel", {}) if "(%s)" % op in why or op in why]
        if ops:
            for op in ops:
                tokens[op].add(out["tensor"])
        elif "while loop" in why:
            tokens["while-loop"].add(out["tensor"])
        else:
            tokens["other:" + re.sub(r"[^a-z]+", "-", why.lower())[:40].strip("-")].add(out["tensor"])
    return {k: sorted(v) for k, v in tokens.items()}


def verify(tools, frozen, source, flags):
    # NOT CHECKED is held by the ratchet (unchecked.txt), not by the exit code.
    cmd = [os.path.join(tools, "frost-verify"), frozen, "--source", source, "--json",
           "--allow-unchecked"] + flags
    proc = run(cmd)
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        return proc.returncode, None, proc.stderr.strip()
    return proc.returncode, json.loads(proc.stdout), proc.stderr.strip()


def moved(output, after, before):
    """How far `after` moved from `before`, in frost-verify's tolerance for
    the output (atol + rtol * |before| per element; exact outputs: any change
    is infinitely far)."""
    import numpy as np
    a = np.asarray(after, np.float64)
    b = np.asarray(before, np.float64)
    diff = np.abs(a - b)
    if output.get("exact", "atol" not in output):
        return float("inf") if np.any(diff > 0) else 0.0
    allowed = output["atol"] + output["rtol"] * np.abs(b)
    return float(np.max(diff / allowed)) if diff.size else 0.0


# ------------------------------------------------------------ TensorFlow


def disagreement(got, want):
    """None when `got` is `want` (floats: within TF_TOLERANCE of want's largest
    magnitude), else a description."""
    import numpy as np
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if np.issubdtype(want.dtype, np.floating):
        a, b = got.astype(np.float64), want.astype(np.float64)
        scale = max(float(np.max(np.abs(b))), 1e-30) if b.size else 1.0
        err = float(np.max(np.abs(a - b))) / scale if b.size else 0.0
        same_nan = np.array_equal(np.isnan(a), np.isnan(b))
        return None if err <= TF_TOLERANCE and same_nan else "error %.2e" % err
    return None if np.array_equal(got, want) else "values differ"


def init_ops(freeze_report):
    """The initializers freeze-graph kept: init_all_tables when there is one
    (it groups the others)."""
    init = freeze_report.get("initializers", [])
    return [n for n in init if n == "init_all_tables"] or init


def tf_check(frozen, spec, model_dir, suffix, init):
    import numpy as np
    feeds = dict(np.load(os.path.join(model_dir, "inputs%s.npz" % suffix), allow_pickle=True))
    expected = np.load(os.path.join(model_dir, "expected%s.npz" % suffix), allow_pickle=True)
    got = tf_run(load_graph(frozen), feeds, spec["outputs"], init)
    problems = []
    for i, (tensor, value) in enumerate(zip(spec["outputs"], got)):
        why = disagreement(value, expected["out%d" % i])
        if why:
            problems.append("%s: %s" % (tensor, why))
    return problems


def frost_run_check(tools, frozen, spec, model_dir, suffix, init, work, label, res, listed):
    """frost-run on the set's inputs against TensorFlow's run of the same
    frozen graph. The outputs frost-verify checked must agree. Each one it
    left NOT CHECKED either fails, naming an op the ratchet (or frost-verify's
    report) gives for this run, or (the op was the source's only: a
    ResourceGatherNd the frozen graph has as GatherNd) agrees too. Returns the
    problems."""
    import numpy as np
    feeds = dict(np.load(os.path.join(model_dir, "inputs%s.npz" % suffix), allow_pickle=True))
    # numpy's object arrays (Python strings) are pickles: frost-run reads
    # strings as bytes ('S'), as TensorFlow holds them.
    inputs = os.path.join(work, label + ".run-inputs.npz")
    np.savez(inputs, **{k: v.astype(bytes) if v.dtype == object else v for k, v in feeds.items()})
    unchecked = {t.split(":")[0] for t in res.get("not_checked", {})}
    ops = set(listed.get(res["label"], set())) | set(res.get("no_kernel", {}))
    problems, refused = [], 0
    runnable = [t for t in spec["outputs"] if t.split(":")[0] not in unchecked]
    for tensor in [t for t in spec["outputs"] if t.split(":")[0] in unchecked]:
        proc = run([os.path.join(tools, "frost-run"), frozen, "--inputs", inputs,
                    "--outputs", tensor, "-q"])
        if proc.returncode == 0:
            runnable.append(tensor)
            continue
        refused += 1
        named = [op for op in ops if "(%s)" % op in proc.stderr]
        if proc.returncode != 1 or not named or "has no kernel" not in proc.stderr:
            problems.append("%s: NOT CHECKED (%s), but frost-run exited %d: %s" % (
                tensor, ", ".join(sorted(ops)) or "?", proc.returncode, proc.stderr.strip()[-300:]))
    runnable = [t for t in spec["outputs"] if t in runnable]
    if runnable:
        out = os.path.join(work, label + ".run.npz")
        proc = run([os.path.join(tools, "frost-run"), frozen, "--inputs", inputs,
                    "--outputs", ",".join(runnable), "-o", out, "-q"])
        if proc.returncode != 0:
            return problems + ["frost-run failed: %s" % proc.stderr.strip()]
        got = np.load(out)
        want = tf_run(load_graph(frozen), feeds, runnable, init)
        for tensor, value in zip(runnable, want):
            ours = got[tensor if ":" in tensor else tensor + ":0"]
            if np.asarray(value).dtype == object:  # TensorFlow's strings
                value = np.asarray(value).astype(bytes)
            why = disagreement(ours, value)
            if why:
                problems.append("%s: frost-run's %s from TensorFlow's" % (tensor, why))
    res["run_equal"], res["run_refused"] = len(runnable), refused
    return problems


def tamper(tools, frozen, freeze_report, source, flags, work, label, optimized=False):
    """Scales the largest float Const from a variable that scaling changes by
    1.01 (optimized: the largest float Const, folded weights included, which
    no checkpoint holds);
    returns (ok, description). Plain graphs: frost-verify must exit 1 naming
    the node. Optimized graphs: only the numeric check can see it, and must,
    unless the outputs are NOT CHECKED. When the numeric check sees no output
    move, TensorFlow runs both graphs on the inputs frost-verify fed: no
    output may move by more than frost-verify's tolerance for it."""
    import numpy as np
    import tensorflow as tf
    graph = load_graph(frozen)
    floats = (1, 2, 19)  # float, double, half
    consts = {n.name: n for n in graph.node
              if n.op == "Const" and n.attr["value"].tensor.dtype in floats}
    if optimized:
        candidates = [(int(np.prod([d.size for d in n.attr["value"].tensor.tensor_shape.dim])), name)
                      for name, n in consts.items()]
    else:
        candidates = [(int(np.prod(v["shape"])) if v["shape"] else 1, v["name"])
                      for v in freeze_report.get("variables", []) if v["name"] in consts]
    if not candidates:
        return True, "no float weight%s" % ("" if optimized else " from a variable")
    # The largest weight that scaling changes (a fresh PReLU's alphas are
    # all zero, and 1.01 times zero is no tamper).
    for _, name in sorted(candidates, reverse=True):
        value = tf.make_ndarray(consts[name].attr["value"].tensor)
        changed = value * value.dtype.type(TAMPER_SCALE)
        if not np.array_equal(changed, value):
            break
    else:
        return True, "no float weight%s that scaling changes" % ("" if optimized else " from a variable")
    consts[name].attr["value"].tensor.CopyFrom(tf.make_tensor_proto(changed))
    path = os.path.join(work, label + ".tampered.pb")
    flags = flags + (["--optimize"] if optimized else [])
    with open(path, "wb") as f:
        f.write(graph.SerializeToString())
    status, report, err = verify(tools, path, source, flags)
    if report is None:
        return False, "%s: frost-verify crashed (%d): %s" % (name, status, err)
    named = [f for f in report["findings"] if f["node"] == name]
    numeric = [o for o in report["numeric"].get("outputs", []) if o.get("differing")]
    unchecked = [o for o in report["numeric"].get("outputs", []) if o.get("not_checked")]
    if numeric:
        seen = "numeric: %s" % numeric[0]["tensor"]
    elif unchecked:
        seen = "numeric: NOT CHECKED"
    else:
        seen = "numeric: unmoved"
        # TensorFlow runs both graphs on the inputs frost-verify fed: did an
        # output move by more than frost-verify's tolerance for it?
        values = os.path.join(work, label + ".tampered.values")
        shutil.rmtree(values, ignore_errors=True)
        verify(tools, path, source, flags + ["--save-values", values])
        index = json.load(open(os.path.join(values, "index.json")))["values"]
        feeds = {v["tensor"]: np.load(os.path.join(values, v["file"]), allow_pickle=True)
                 for v in index if v["role"] == "input"}
        outs = report["numeric"]["outputs"]
        fetches = [o["tensor"] for o in outs]
        init = init_ops(freeze_report)
        before = tf_run(load_graph(frozen), feeds, fetches, init)
        after = tf_run(graph, feeds, fetches, init)
        worst = max((moved(o, a, b), o["tensor"]) for o, a, b in zip(outs, after, before))
        if worst[0] > 1:
            return False, ("%s: frost-verify's numeric check saw no change, but TensorFlow's %s "
                           "moved by %.2g times its tolerance" % (name, worst[1], worst[0]))
        seen += (" (TensorFlow: %s moves by %.2g of frost-verify's tolerance on its inputs)"
                 % (worst[1], worst[0]))
    what = "%s %s (%d elements) x%.2f" % (name, value.dtype, value.size, TAMPER_SCALE)
    if optimized:
        if status == 1 and not report["passed"]:
            checks = sorted({f["check"] for f in report["findings"]})
            return True, "%s: caught (%s); %s" % (what, ", ".join(checks), seen)
        if status == 0 and not numeric:  # NOT CHECKED (the ratchet's) or confirmed unmoved
            return True, "%s: passes; %s" % (what, seen)
        return False, "%s: exit %d; %s; %s" % (what, status, seen, "; ".join(findings(report)))
    if status != 1 or report["passed"] or not named:
        return False, "%s: NOT CAUGHT (exit %d; %s)" % (what, status, "; ".join(findings(report)))
    return True, "%s: caught, node named (%s); %s" % (what, named[0]["check"], seen)


# ------------------------------------------------------------ main


def runs_of(models, only):
    for name in sorted(os.listdir(models)):
        d = os.path.join(models, name)
        if not os.path.isdir(d) or (only and name not in only):
            continue
        specs = [f for f in os.listdir(d) if re.fullmatch(r"spec(\..+)?\.json", f)]
        for spec_file in sorted(specs, key=lambda f: (f != "spec.json", f)):
            spec = json.load(open(os.path.join(d, spec_file)))
            suffix = spec_file[len("spec"):-len(".json")]
            for r in spec["runs"]:
                yield d, spec, suffix, r


def read_ratchet(path):
    listed = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            label, _, tokens = line.partition(":")
            listed[label.strip()] = set(tokens.split())
    return listed


def inventory(results, have):
    """Markdown: each run's op counts, then the ops lacking kernels."""
    lines = ["# Model set: op inventory (issue #29)", "",
             "Generated by `scripts/model_set_report.py --cache ~/.cache/frost-fixtures "
             "--inventory docs/model-set.md` over test/Models/Inputs/model_set.py.",
             "Ops without a Kernels.def line (nor handled by the graph runner) are in **bold**.",
             "", "## Ops lacking kernels, by how many runs' frozen or optimized graphs use them",
             ""]
    users = collections.defaultdict(set)
    blocking = collections.defaultdict(set)
    for r in results:
        for op in set(r.get("ops", {})) | set(r.get("opt_ops", {})):
            if op not in have:
                users[op].add(r["label"])
        for token in r.get("unchecked", {}):
            blocking[token].add(r["label"])
    lacking = sorted(set(users) | set(blocking), key=lambda o: (-len(users[o] | blocking[o]), o))
    if lacking:
        lines.append("| op | runs using it | runs frost-verify leaves NOT CHECKED for it |")
        lines.append("|---|---|---|")
    else:
        lines.append("None: every op of every run has a kernel, and no run leaves an output "
                     "NOT CHECKED.")
    for op in lacking:
        lines.append("| %s | %d: %s | %d: %s |" % (
            op, len(users[op]), ", ".join(sorted(users[op])), len(blocking[op]),
            ", ".join(sorted(blocking[op]))))
    lines += ["", "## Runs", "",
              "| run | frozen nodes | optimized nodes | verify | outputs checked | NOT CHECKED (why) |",
              "|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %s | %s | %s | %s | %s/%s | %s |" % (
            r["label"], r.get("nodes", "-"), r.get("opt_nodes", "-"), r.get("verdict", "-"),
            r.get("checked", 0), r.get("outputs", 0),
            ", ".join(sorted(r.get("unchecked", {}))) or "-"))
    lines += ["", "## Ops of each run's frozen graph (count)", ""]
    for r in results:
        ops = r.get("ops", {})
        lines.append("- **%s** (%d ops, %d nodes): %s" % (
            r["label"], len(ops), sum(ops.values()),
            ", ".join(("**%s**" if op not in have else "%s") % op + " %d" % n
                      for op, n in sorted(ops.items()))))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--models")
    g.add_argument("--cache")
    p.add_argument("--work")
    p.add_argument("--only", default="")
    p.add_argument("--tf-check", action="store_true")
    p.add_argument("--run-check", action="store_true")
    p.add_argument("--tamper", action="store_true")
    p.add_argument("--ratchet")
    p.add_argument("--json")
    p.add_argument("--inventory")
    args = p.parse_args()

    start = time.time()
    models = args.models or cached_models(args.cache)
    work = args.work or os.path.join(models, "..", "report")
    os.makedirs(work, exist_ok=True)
    tools = args.bin
    only = set(filter(None, args.only.split(",")))
    have = kernel_ops()
    errors, results = [], []
    listed = read_ratchet(args.ratchet) if args.ratchet else {}

    for model_dir, spec, suffix, r in runs_of(models, only):
        label = r["label"]
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", label)
        source = os.path.join(model_dir, spec["source"])
        flags = r["flags"]
        res = {"label": label, "model": spec["name"], "kind": spec["kind"]}
        results.append(res)
        frozen = os.path.join(work, safe + ".pb")
        optimized = os.path.join(work, safe + ".opt.pb")
        freeze_report = os.path.join(work, safe + ".report.json")
        proc = run([os.path.join(tools, "freeze-graph"), source, "-o", frozen, "-q",
                    "--report", freeze_report] + flags)
        if proc.returncode != 0:
            res["verdict"] = "FREEZE FAILED"
            errors.append("%s: freeze-graph failed: %s" % (label, proc.stderr.strip()))
            print("%s: freeze-graph FAILED: %s" % (label, proc.stderr.strip().splitlines()[-1:]))
            continue
        res["ops"], res["nodes"] = op_counts(tools, frozen)
        proc = run([os.path.join(tools, "freeze-graph"), source, "-o", optimized, "-q",
                    "--optimize"] + flags)
        if proc.returncode != 0:
            errors.append("%s: freeze-graph --optimize failed: %s" % (label, proc.stderr.strip()))
        else:
            res["opt_ops"], res["opt_nodes"] = op_counts(tools, optimized)

        status, report, err = verify(tools, frozen, source, flags)
        if report is None:
            res["verdict"] = "VERIFY CRASHED"
            errors.append("%s: frost-verify exit %d: %s" % (label, status, err))
            print("%s: frost-verify exit %d: %s" % (label, status, err))
            continue
        res["verdict"] = "PASSED" if status == 0 and report["passed"] else "FAILED"
        if res["verdict"] == "FAILED":
            errors.append("%s: frost-verify FAILED:\n  %s" % (label, "\n  ".join(findings(report))))
        outs = report["numeric"].get("outputs", [])
        res["outputs"] = len(outs)
        res["checked"] = sum(1 for o in outs if not o.get("not_checked"))
        res["unchecked"] = unchecked_tokens(report)
        res["not_checked"] = {o["tensor"]: o["not_checked"] for o in outs if o.get("not_checked")}
        res["no_kernel"] = report["numeric"].get("no_kernel", {})
        if "opt_ops" in res:
            ostatus, oreport, oerr = verify(tools, optimized, source, flags + ["--optimize"])
            if oreport is None or ostatus != 0 or not oreport["passed"]:
                res["opt_verdict"] = "FAILED"
                errors.append("%s: frost-verify --optimize: exit %d %s" % (
                    label, ostatus, "\n  ".join(findings(oreport)) if oreport else oerr))
            else:
                res["opt_verdict"] = "PASSED"
                res["opt_unchecked"] = unchecked_tokens(oreport)

        line = "%s: frozen %d nodes (%d ops), optimized %s nodes; verify %s%s, %d of %d outputs checked" % (
            label, res["nodes"], len(res["ops"]), res.get("opt_nodes", "-"), res["verdict"],
            "" if res.get("opt_verdict", "PASSED") == "PASSED" else " (optimized FAILED)",
            res["checked"], res["outputs"])
        if res["unchecked"]:
            line += "; NOT CHECKED: " + ", ".join(sorted(res["unchecked"]))
        if args.tf_check:
            problems = tf_check(frozen, spec, model_dir, suffix,
                                init_ops(json.load(open(freeze_report))))
            res["tf_check"] = problems or "agrees"
            if problems:
                errors.append("%s: TensorFlow's run of the frozen graph differs from the source: %s"
                              % (label, "; ".join(problems)))
                line += "; TensorFlow DIFFERS"
            else:
                line += "; TensorFlow agrees"
        if args.run_check:
            problems = frost_run_check(tools, frozen, spec, model_dir, suffix,
                                       init_ops(json.load(open(freeze_report))), work, safe, res,
                                       listed)
            if problems:
                errors.append("%s: frost-run: %s" % (label, "; ".join(problems)))
                line += "; frost-run DIFFERS"
            else:
                line += "; frost-run: %d equal TensorFlow's, %d refused naming the op" % (
                    res["run_equal"], res["run_refused"])
        print(line, flush=True)
        if args.tamper:
            report = json.load(open(freeze_report))
            ok, text = tamper(tools, frozen, report, source, flags, work, safe)
            res["tamper"] = text
            print("  tamper: " + text, flush=True)
            if not ok:
                errors.append("%s: tamper: %s" % (label, text))
            if "opt_ops" in res:
                ok, text = tamper(tools, optimized, report, source, flags, work, safe + ".opt", True)
                res["tamper_optimized"] = text
                print("  tamper --optimize: " + text, flush=True)
                if not ok:
                    errors.append("%s: tamper --optimize: %s" % (label, text))

    # Summary.
    outputs = sum(r.get("outputs", 0) for r in results)
    checked = sum(r.get("checked", 0) for r in results)
    print("summary: %d models, %d runs, %d outputs: %d checked, %d NOT CHECKED"
          % (len({r["model"] for r in results}), len(results), outputs, checked, outputs - checked))
    blocking = collections.defaultdict(set)
    for r in results:
        for token in r.get("unchecked", {}):
            blocking[token].add(r["label"])
    for token in sorted(blocking, key=lambda t: (-len(blocking[t]), t)):
        print("  lacking: %s (%d runs: %s)" % (token, len(blocking[token]),
                                              ", ".join(sorted(blocking[token]))))
    missing = collections.Counter()
    for r in results:
        for op in set(r.get("ops", {})) | set(r.get("opt_ops", {})):
            if op not in have:
                missing[op] += 1
    print("  ops without a kernel line, by runs using them: %s" % ", ".join(
        "%s %d" % (op, n) for op, n in sorted(missing.items(), key=lambda x: (-x[1], x[0]))))

    if args.ratchet:
        for r in results:
            want = listed.get(r["label"], set())
            got = set(r.get("unchecked", {}))
            for token in sorted(got - want):
                errors.append("%s: NOT CHECKED because of %s, which %s does not list"
                              % (r["label"], token, os.path.basename(args.ratchet)))
            for token in sorted(want - got):
                errors.append("%s: %s no longer leaves an output NOT CHECKED: remove it from %s"
                              % (r["label"], token, os.path.basename(args.ratchet)))
        for label in sorted(set(listed) - {r["label"] for r in results}):
            if not only:
                errors.append("%s: listed in %s but not in the model set"
                              % (label, os.path.basename(args.ratchet)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if args.inventory:
        with open(args.inventory, "w") as f:
            f.write(inventory(results, have))
    for e in errors:
        print("ERROR " + e)
    print("%d errors in %.0f s" % (len(errors), time.time() - start))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
