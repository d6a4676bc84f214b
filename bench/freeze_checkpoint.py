#!/usr/bin/env python3
"""Benchmark: freeze a ~1 GiB TF1 training checkpoint with Frost, with freeze_graph.py, and copy it.

    bench/freeze_checkpoint.py [--frost build/bin/freeze-graph] [--runs 3]
                               [--workdir /tmp/frost-bench-freeze]
                               [--reference OLD/freeze-graph] [--cold-runs 2]

Prints a Markdown summary for docs/performance.md ("Freezing a checkpoint").

1. Generates (once; reused while the plan matches) a graph-mode TF1 training model:
   ~260 VariableV2 ref variables (float32 of 1 KiB to 128 MiB, plus float16 and int64 ones)
   adding up to 1 GiB, random values, a GradientDescent train op (gradients/, train/) and a
   Saver (save/). `output` reads every variable, so the frozen graph holds all the weights.
2. Warms the page cache (checkpoint, .meta, the Frost binary, TensorFlow's import).
3. Runs, --runs times each, interleaved, and reports the median wall time:
     cat INDEX DATA > copy                (the floor: moving the checkpoint's bytes once)
     python3 -c "import tensorflow"       (freeze_graph.py's fixed cost, reported apart)
     python3 -m tensorflow.python.tools.freeze_graph --input_meta_graph=PREFIX.meta ...
     freeze-graph PREFIX --outputs output -o frost.pb
       (or, with a frost-opt binary: frost-opt PREFIX.meta --graph-only --emit=pb
        --pass-pipeline='freeze{checkpoint=PREFIX,outputs=output}')
     OLD/freeze-graph ...                 (--reference: a previous release, whose output
                                           must be byte-identical)
   Every output is removed and the file system synced before each run, so no run pays for
   the write-back of the one before. Then, as root, cat and Frost again --cold-runs times
   each after dropping the page cache (echo 3 > /proc/sys/vm/drop_caches), and Frost once
   with --report, whose SHA-256 (computed while writing) must be the file's.
4. Checks that both frozen GraphDefs have the same nodes in the same order, the same NodeDefs
   and the same Const values (dtype, shape, values); prints the mismatch and exits 1 otherwise.

Memory: peak RSS is the child's ru_maxrss (os.wait4). The kernel carries the parent's
high-water mark across fork+exec, so this process never imports numpy or TensorFlow (that
happens in child processes). ru_maxrss counts the pages of a memory-mapped checkpoint once
touched; the anonymous and file-backed peaks are sampled from /proc/PID/status every 2 ms.
"""

import argparse
import filecmp
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

MIB = 1 << 20
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAN_VERSION = 1
WIDTH = {"float32": 4, "float16": 2, "int64": 8}


# ------------------------------------------------------------- generation

def plan(total_mib=1024, embedding_rows=32768):
    """(name, dtype, shape) of every model variable but global_step; deterministic. The largest
    is the embedding, 4 KiB a row (128 MiB by default)."""
    extras = [("stats/counts", "int64", [4096, 64]), ("stats/ids", "int64", [1000]),
              ("mixed/scale", "float16", [1024, 1024]), ("mixed/offset", "float16", [1024])]
    tensors = [("embedding/weights", "float32", [embedding_rows, 1024])]
    size = lambda t: WIDTH[t[1]] * math.prod(t[2])
    budget = total_mib * MIB - sum(size(t) for t in tensors + extras)
    kernels = [[1024, 1024], [2048, 2048], [1024, 4096], [512, 512], [3, 3, 256, 256],
               [2048, 1024], [256, 256], [4096, 512]]
    i = 0
    while budget > 0:
        shape = kernels[i % len(kernels)]
        for t in (("layer%03d/kernel" % i, "float32", shape),
                  ("layer%03d/bias" % i, "float32", shape[-1:])):
            tensors.append(t)
            budget -= size(t)
        i += 1
    return tensors + extras


def generate(prefix, total_mib=1024, embedding_rows=32768):
    import tensorflow as tf
    v1 = tf.compat.v1
    v1.disable_v2_behavior()  # graph mode, ref variables (VariableV2)
    v1.set_random_seed(7)
    step = v1.train.get_or_create_global_step()
    variables = []
    for i, (name, dtype, shape) in enumerate(plan(total_mib, embedding_rows)):
        if dtype == "int64":
            init = v1.random_uniform_initializer(-1000, 1000, seed=i)
        else:
            init = v1.random_normal_initializer(stddev=0.05, seed=i)
        variables.append(v1.get_variable(name, shape, getattr(tf, dtype), init,
                                         trainable=dtype == "float32", use_resource=False))
    # A small model on top, and a term per variable so `output` needs every one of them.
    features = v1.placeholder(tf.float32, [None, 1024], name="features")
    logits = tf.nn.bias_add(tf.matmul(features, variables[1]), variables[2])
    sums = [tf.reduce_sum(tf.cast(v, tf.float32)) for v in variables + [step]]
    output = tf.identity(tf.add_n(sums) + tf.reduce_sum(logits), name="output")
    loss = tf.square(output * 1e-6, name="loss")
    v1.train.GradientDescentOptimizer(1e-4).minimize(
        loss, global_step=step, var_list=v1.trainable_variables(), name="train")
    saver = v1.train.Saver()
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        saver.save(sess, prefix)
    counts = {}
    for v in variables + [step]:
        counts[v.dtype.base_dtype.name] = counts.get(v.dtype.base_dtype.name, 0) + 1
    return {"plan": PLAN_VERSION, "variables": counts,
            "nodes": len(v1.get_default_graph().as_graph_def().node)}


# ----------------------------------------------------------- verification

def verify(tf_path, frost_path, allowed_left=()):
    """Problems found comparing the two frozen GraphDefs: node names and order, NodeDefs, the
    library and versions. A Const's TensorProto may be encoded differently if its dtype,
    shape and values are equal. Only `allowed_left` may stay variables."""
    import numpy as np
    from tensorflow.core.framework import graph_pb2
    from tensorflow.python.framework import tensor_util

    def differences(x, y):  # between two NodeDefs, but for the Const value
        out = ["%s %r vs %r" % (f, getattr(x, f), getattr(y, f)) for f in ("op", "input", "device")
               if getattr(x, f) != getattr(y, f)]
        text = lambda n, k: str(n.attr[k]).replace("\n", " ").strip() if k in n.attr else "(none)"
        for k in sorted((set(x.attr) | set(y.attr)) - ({"value"} if x.op == "Const" else set())):
            if text(x, k) != text(y, k):
                out.append("attr %s: %s vs %s" % (k, text(x, k), text(y, k)))
        return out

    a, b = (graph_pb2.GraphDef.FromString(open(p, "rb").read()) for p in (tf_path, frost_path))
    problems, consts, const_bytes = [], 0, 0
    names_a, names_b = [n.name for n in a.node], [n.name for n in b.node]
    if names_a != names_b:
        i = next(k for k, (x, y) in enumerate(zip(names_a + ["(end)"], names_b + ["(end)"])) if x != y)
        problems.append("node names differ: freeze_graph.py wrote %d nodes, Frost %d; first "
                        "difference at node #%d: %s vs %s" % (len(names_a), len(names_b), i,
                        (names_a + ["(end)"])[i], (names_b + ["(end)"])[i]))
    for x, y in zip(a.node, b.node) if not problems else ():
        diff = differences(x, y)
        if diff:
            problems.append("node %s (freeze_graph.py vs Frost): %s" % (x.name, "; ".join(diff)))
        elif x.op == "Const":
            consts += 1
            tx, ty = x.attr["value"].tensor, y.attr["value"].tensor
            const_bytes += len(tx.tensor_content)
            if tx.SerializeToString() != ty.SerializeToString():
                va, vb = tensor_util.MakeNdarray(tx), tensor_util.MakeNdarray(ty)
                if va.dtype != vb.dtype or va.shape != vb.shape or not np.array_equal(va, vb):
                    problems.append("Const %s: values differ (%s%s vs %s%s)" % (
                        x.name, va.dtype, list(va.shape), vb.dtype, list(vb.shape)))
    for field in ("versions", "library"):
        if getattr(a, field).SerializeToString() != getattr(b, field).SerializeToString():
            problems.append("GraphDef.%s differs" % field)
    left = [n.name for g in (a, b) for n in g.node
            if n.op in ("VariableV2", "VarHandleOp") and n.name not in allowed_left]
    if left:
        problems.append("variables left unfrozen: %s" % ", ".join(left[:5]))
    return {"nodes": len(names_b), "consts": consts, "const_bytes": const_bytes,
            "problems": problems}


# ------------------------------------------------------------ measurement

def rss_kib(pid):
    """(RssAnon, RssFile) of a running process, KiB."""
    try:
        with open("/proc/%d/status" % pid) as f:
            status = dict(line.split(":", 1) for line in f)
        return int(status["RssAnon"].split()[0]), int(status["RssFile"].split()[0])
    except (OSError, KeyError):  # gone, or a zombie
        return 0, 0


def measure(cmd, log, must_fail=False):
    """Wall seconds, ru_maxrss, sampled peak RssAnon and RssFile (KiB); output to log. The
    command must succeed, or with must_fail exit non-zero."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.sync()  # the previous run's write-back is not this run's cost
    start = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, fd, 1), (os.POSIX_SPAWN_DUP2, fd, 2)])
    os.close(fd)
    anon = mapped = 0
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        now = rss_kib(pid)
        anon, mapped = max(anon, now[0]), max(mapped, now[1])
        time.sleep(0.002)
    wall = time.perf_counter() - start
    if (os.waitstatus_to_exitcode(status) != 0) != must_fail:
        sys.stderr.write(open(log, errors="replace").read()[-3000:])
        raise SystemExit("%s %s (exit status %d)" % (cmd[0], "succeeded, but must fail" if must_fail else "failed", os.waitstatus_to_exitcode(status)))
    return wall, usage.ru_maxrss, anon, mapped


def child(mode, args, log, script=__file__):
    """Runs script (this one by default) in a TensorFlow mode (its memory must not be inherited
    by the measured commands); returns the JSON its last line of output holds."""
    with open(log, "w") as err:
        proc = subprocess.run([sys.executable, script, mode] + args, stdout=subprocess.PIPE,
                              stderr=err, text=True)
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        sys.stderr.write(open(log, errors="replace").read()[-3000:])
        raise SystemExit("%s %s failed (exit status %d)" % (script, mode, proc.returncode))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def prepare(workdir, total_mib=1024, embedding_rows=32768):
    """The model in workdir, generated first unless model.json there shows the current plan:
    (checkpoint prefix, model.json's facts, the checkpoint's index and data files)."""
    work = lambda name: os.path.join(workdir, name)
    prefix = work("model.ckpt")
    model = json.load(open(work("model.json"))) if os.path.exists(work("model.json")) else {}
    shape = [total_mib, embedding_rows]
    if (model.get("plan") != PLAN_VERSION or model.get("shape", [1024, 32768]) != shape
            or not os.path.exists(prefix + ".meta")):
        print("generating the model with TensorFlow in %s ..." % workdir, file=sys.stderr)
        os.makedirs(workdir, exist_ok=True)
        for f in os.listdir(workdir):
            os.remove(work(f))
        start = time.perf_counter()
        model = child("--generate", [prefix, str(total_mib), str(embedding_rows)],
                      work("log.generate"))
        model["shape"] = shape
        with open(work("model.json"), "w") as f:
            json.dump(model, f)
        print("generated in %.1f s" % (time.perf_counter() - start), file=sys.stderr)
    ckpt = [work(f) for f in sorted(os.listdir(workdir))
            if f.startswith("model.ckpt.index") or f.startswith("model.ckpt.data-")]
    return prefix, model, ckpt


def warm(files):
    """Warms the page cache (dropping it needs root): files, and TensorFlow's own (an import)."""
    subprocess.run(["cat"] + files, stdout=subprocess.DEVNULL, check=True)
    subprocess.run([sys.executable, "-c", "import tensorflow"], capture_output=True, check=True)


def freeze_graph_command(prefix, out):
    """TensorFlow's freeze_graph.py on the model, as its users run it."""
    return [sys.executable, "-m", "tensorflow.python.tools.freeze_graph",
            "--input_meta_graph=" + prefix + ".meta", "--input_binary=true",
            "--input_checkpoint=" + prefix, "--output_node_names=output", "--output_graph=" + out]


def drop_caches():
    """Empties the page cache (root only): the next run reads the checkpoint from disk."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def sha256_file(path):
    import hashlib
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def frost_command(binary, prefix, out):
    if os.path.basename(binary).startswith("frost-opt"):
        return [binary, prefix + ".meta", "--graph-only", "--emit=pb", "-o", out,
                "--pass-pipeline=freeze{checkpoint=%s,outputs=output}" % prefix]
    return [binary, prefix, "--outputs", "output", "-o", out]


def main():
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    if len(sys.argv) == 5 and sys.argv[1] == "--generate":
        print(json.dumps(generate(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
        return 0
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--verify":
        result = verify(sys.argv[2], sys.argv[3], sys.argv[4].split(",") if len(sys.argv) == 5 else ())
        print(json.dumps(result))
        return 1 if result["problems"] else 0
    bindir = os.path.join(REPO, "build", "bin")
    default = os.path.join(bindir, "freeze-graph")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frost", default=default if os.path.exists(default)
                        else os.path.join(bindir, "frost-opt"),
                        help="freeze-graph, or frost-opt with the freeze pipeline (default: "
                        "build/bin/freeze-graph if built, else build/bin/frost-opt)")
    parser.add_argument("--workdir", default="/tmp/frost-bench-freeze")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--reference", help="a previous release's freeze-graph: timed too, and "
                        "its output must be byte-identical to --frost's")
    parser.add_argument("--cold-runs", type=int, default=2,
                        help="runs of cat and Frost after dropping the page cache (root only)")
    args = parser.parse_args()
    began = time.perf_counter()
    work = lambda name: os.path.join(args.workdir, name)

    prefix, model, ckpt = prepare(args.workdir)
    ckpt_bytes = sum(os.path.getsize(f) for f in ckpt)
    warm([prefix + ".meta", args.frost] + ckpt)

    tool = os.path.basename(args.frost)
    how = "frost-opt fallback, `freeze` pipeline" if tool.startswith("frost-opt") else "freeze-graph"
    tf_out, frost_out = work("frozen_tf.pb"), work("frozen_frost.pb")
    copy_out, ref_out = work("copy.bin"), work("frozen_reference.pb")
    copy_cmd = ["/bin/sh", "-c", 'exec cat "$@" > "%s"' % copy_out, "cat"] + ckpt
    cases = [
        ("cat", copy_cmd, copy_out),
        ("import tensorflow", [sys.executable, "-c", "import tensorflow"], None),
        ("freeze_graph.py", freeze_graph_command(prefix, tf_out), tf_out),
        (tool, frost_command(args.frost, prefix, frost_out), frost_out),
    ]
    if args.reference:
        cases.append(("reference", frost_command(args.reference, prefix, ref_out), ref_out))
    print("Frost: %s (%s)" % (args.frost, how), file=sys.stderr)
    results = {name: [] for name, _, _ in cases}
    for run in range(args.runs):
        for name, cmd, out in cases:
            if out and os.path.exists(out):
                os.remove(out)
            results[name].append(measure(cmd, work("log." + name.replace(" ", "_"))))
            if out and not os.path.exists(out):  # freeze_graph.py exits 0 on some failures
                raise SystemExit("%s wrote no %s; see %s" % (name, out, work("log." + name)))
        print("run %d/%d: %s" % (run + 1, args.runs, ", ".join(
            "%s %.2f s" % (n, r[-1][0]) for n, r in results.items())), file=sys.stderr)

    cold = {}
    if args.cold_runs and os.geteuid() == 0:
        for run in range(args.cold_runs):
            for name, cmd, out in (cases[0], cases[3]):
                if os.path.exists(out):
                    os.remove(out)
                drop_caches()
                cold.setdefault(name, []).append(measure(cmd, work("log.cold")))
        warm([prefix + ".meta", args.frost] + ckpt)
    report = work("report.json")
    report_run = measure(frost_command(args.frost, prefix, frost_out) + ["--report", report],
                         work("log.report"))
    hashed = json.load(open(report))["output"]["sha256"]
    if hashed != sha256_file(frost_out):
        print("--report's sha256 %s is not the file's %s" % (hashed, sha256_file(frost_out)))
        return 1
    identical_to_reference = None
    if args.reference:
        identical_to_reference = filecmp.cmp(frost_out, ref_out, shallow=False)
        if not identical_to_reference:
            print("MISMATCH: %s and the reference's %s differ" % (frost_out, ref_out))
            return 1

    verdict = child("--verify", [tf_out, frost_out], work("log.verify"))
    if verdict["problems"]:
        print("MISMATCH between freeze_graph.py (%s) and Frost (%s):" % (tf_out, frost_out))
        for p in verdict["problems"][:20]:
            print("  " + p)
        return 1
    size = {"freeze_graph.py": os.path.getsize(tf_out), tool: os.path.getsize(frost_out)}
    same = filecmp.cmp(tf_out, frost_out, shallow=False)

    med = {n: statistics.median(r[0] for r in runs) for n, runs in results.items()}
    peak = {n: [max(r[k] for r in runs) / 1024 for k in (1, 2, 3)] for n, runs in results.items()}
    tf_wall, frost_wall, import_wall = med["freeze_graph.py"], med[tool], med["import tensorflow"]
    copy_wall = med["cat"]
    largest = max(WIDTH[d] * math.prod(shape) for _, d, shape in plan())
    lines = [
        "Model: %d VariableV2 variables (%s), a GradientDescent training graph of %d nodes "
        "(.meta %.1f MiB); checkpoint %.1f MiB (index + data). Frozen: %d nodes, %d Const "
        "(%.1f MiB of values), equal node for node and value for value; the files are %s."
        % (sum(model["variables"].values()),
           ", ".join("%d %s" % (n, d) for d, n in sorted(model["variables"].items())),
           model["nodes"], os.path.getsize(prefix + ".meta") / MIB, ckpt_bytes / MIB,
           verdict["nodes"], verdict["consts"], verdict["const_bytes"] / MIB,
           "byte-identical" if same else "not byte-identical (%d vs %d bytes), but equal once "
           "parsed" % (size["freeze_graph.py"], size[tool])),
        "Machine: %s, %d CPUs, load average %.1f at the end; %s; warm page cache (median of %d "
        "interleaved runs). Frost (%s): `%s`."
        % (platform.machine(), os.cpu_count(), os.getloadavg()[0], platform.platform(),
           args.runs, how, " ".join(cases[3][1])),
        "",
        "| tool | wall (s) | speedup vs freeze_graph.py | peak RSS (MiB) | peak anon RSS (MiB) "
        "| peak file RSS (MiB) | output (MiB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]

    def row(label, name, ratio):
        return "| %s | %.3f | %s | %.1f | %.1f | %.1f | %s |" % (
            label, med[name], ratio, *peak[name], "%.1f" % (size[name] / MIB) if name in size else "")
    lines += [row("`cat` of the checkpoint files into one file", "cat", "%.1fx" % (tf_wall / copy_wall)),
              row("`freeze_graph.py` (whole process)", "freeze_graph.py", "1.0x"),
              "| `freeze_graph.py` minus `import tensorflow` | %.3f | | | | | |"
              % (tf_wall - import_wall),
              row("`import tensorflow` alone", "import tensorflow", ""),
              row("`%s`" % tool, tool, "%.1fx" % (tf_wall / frost_wall))]
    if args.reference:
        lines.append(row("previous release (`%s`)" % args.reference, "reference",
                         "%.1fx" % (tf_wall / med["reference"])))
    lines.append("| `%s --report` (hashing while writing; one run) | %.3f | %.1fx | %.1f | | | |"
                 % (tool, report_run[0], tf_wall / report_run[0], report_run[1] / 1024))
    for name in cold:
        lines.append("| %s, cold page cache (median of %d) | %.3f | | %.1f | | | |" % (
            "`cat`" if name == "cat" else "`%s`" % tool, len(cold[name]),
            statistics.median(r[0] for r in cold[name]),
            max(r[1] for r in cold[name]) / 1024))
    whole, inner = tf_wall / frost_wall, (tf_wall - import_wall) / frost_wall
    limit = largest / MIB + 64
    rss, anon, mapped = peak[tool]
    met = lambda ok: "met" if ok else "NOT met"
    lines += [
        "",
        "Goals: Frost within 1.2x of `cat`: %.2fx warm (%s)%s. At least 50x faster than "
        "freeze_graph.py: %.1fx for the whole process (%s); %.1fx against freeze_graph.py "
        "without its `import tensorflow`. Frost peak RSS at most the largest tensor + 64 MiB = "
        "%.0f MiB, page cache of mapped files included: ru_maxrss %.1f MiB (%s); sampled "
        "anonymous peak %.1f MiB, file-backed peak %.1f MiB. `--report`'s SHA-256 is the "
        "file's%s."
        % (frost_wall / copy_wall, met(frost_wall <= 1.2 * copy_wall),
           "; cold %.2fx" % (statistics.median(r[0] for r in cold[tool]) /
                             statistics.median(r[0] for r in cold["cat"])) if cold else
           "; cold not measured (needs root)",
           whole, met(whole >= 50), inner, limit, rss, met(rss <= limit), anon, mapped,
           "; the output is byte-identical to the previous release's" if identical_to_reference
           else ""),
        "ru_maxrss counts every touched page of the memory-mapped checkpoint (file pages: page "
        "cache the kernel can reclaim) and is at least this script's own %.0f MiB (inherited "
        "across fork+exec); the 2 ms samples can miss short peaks, and the anonymous and file "
        "peaks need not coincide." % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    ]
    print("\n".join(lines))
    print("benchmark took %.0f s" % (time.perf_counter() - began), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
