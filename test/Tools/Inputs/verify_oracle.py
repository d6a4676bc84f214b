#!/usr/bin/env python3
"""frost-verify against TensorFlow: its evaluator's numbers and its findings.

    verify_oracle.py WORKDIR CACHE

Models: TF2 SavedModels of tf2_models.py (built once into CACHE, a directory
kept between runs and keyed by tf2_models.py's text and TensorFlow's version)
and TF1 checkpoints built here (freeze_oracle.py's cases and a CNN with a
fused batch norm), each frozen by freeze-graph (some with --optimize, which
folds batch norms into the convolution's weights). For each:

  frost-verify FROZEN --source MODEL [the freeze's flags] --json
      --save-values DIR
  must pass (a model with outputs Frost cannot compute must fail without
  --allow-unchecked and pass with it); TensorFlow then runs FROZEN (import_graph_def, a Session with
  Grappler and the graph optimizer off) on the inputs Frost fed (DIR's
  index.json) and each output Frost's evaluator computed must agree with
  TensorFlow's within 1e-5 of the output's largest magnitude. One line:
    NAME: frost-verify PASSED, O outputs checked[, K NOT CHECKED]; evaluator
      agrees with TensorFlow (max error E)   (or, with O = 0: nothing to
      compare with TensorFlow)
  and a line per output Frost could not compute (an op without a kernel,
  a while loop): "  NOT CHECKED TENSOR: why".

Broken graphs frost-verify must refuse (exit 1), each printing its findings:
  one_ulp      TF1 mlp's frozen hidden/kernel with element 0 one ulp up
  unfrozen     TF1 mlp frozen with --except hidden/bias, verified without it
               (and with it, which passes)
  bn_scaled    a --optimize'd CNN's folded weights (<conv>_weights) scaled by
               1.01; TensorFlow confirms the outputs change
  small_scaled as quantize_weights left a model: outputs of about 6e-6 (below
               float32's atol of 1e-5) 7% off, the folded weights of a
               --optimize'd conv + batch norm scaled by 1.07; TensorFlow
               confirms the outputs move by 7% and by less than atol
  anchors      a Const of the source (not a variable's) with element 0 moved
               by 0.05 in the frozen graph; the finding names it
Exits 1 on the first disagreement.
"""
import json
import os
import subprocess
import sys

from oracle_support import built_once, findings, load_graph, tf_run

HERE = os.path.dirname(os.path.abspath(__file__))
TF2_MODELS = ["mlp", "cnn_bn", "cond", "embedding", "attention"]
TOLERANCE = 1e-5


class Mismatch(Exception):
    pass


def tf2_fixtures(cache):
    """CACHE/<key>/NAME: the TF2 SavedModels, built once per key."""
    return built_once(cache, os.path.join(HERE, "tf2_models.py"), TF2_MODELS)


# TensorFlow is imported after the fixtures are (possibly) built in their own
# process: freeze_oracle switches this one to TF1 behaviour.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Transforms", "Inputs"))


def tf1_fused_bn_cnn():
    """conv2d (no bias) -> FusedBatchNormV3 in inference mode over trained-
    looking statistics -> relu -> avg_pool -> dense -> softmax."""
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    r = np.random.default_rng(11)
    x = V1.placeholder(tf.float32, [None, 8, 8, 2], name="x")
    kernel = V1.get_variable("conv/kernel", initializer=r.standard_normal((3, 3, 2, 4)).astype(np.float32))
    h = tf.nn.conv2d(x, kernel, strides=1, padding="SAME")
    params = [V1.get_variable("bn/" + n, initializer=v.astype(np.float32)) for n, v in
              (("gamma", r.uniform(0.5, 1.5, 4)), ("beta", r.uniform(-0.5, 0.5, 4)),
               ("moving_mean", r.uniform(-0.3, 0.3, 4)), ("moving_variance", r.uniform(0.5, 2.0, 4)))]
    h, _, _ = V1.nn.fused_batch_norm(h, params[0], params[1], mean=params[2], variance=params[3],
                                     epsilon=1e-3, is_training=False)
    h = tf.nn.avg_pool2d(tf.nn.relu(h), 2, 2, "VALID")
    w = V1.get_variable("dense/kernel", initializer=(0.1 * r.standard_normal((64, 3))).astype(np.float32))
    tf.nn.softmax(tf.matmul(tf.reshape(h, [-1, 64]), w), name="probs")
    return {"outputs": ["probs"]}


def tf1_small_outputs():
    """conv2d (no bias) -> FusedBatchNormV3 with gamma ~1e-5 and beta 0: the
    outputs are about 6e-6, below float32's atol (1e-5)."""
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    r = np.random.default_rng(5)
    x = V1.placeholder(tf.float32, [1, 4, 4, 2], name="x")
    kernel = V1.get_variable("conv/kernel", initializer=r.standard_normal((3, 3, 2, 3)).astype(np.float32))
    h = tf.nn.conv2d(x, kernel, strides=1, padding="SAME")
    params = [V1.get_variable("bn/" + n, initializer=v.astype(np.float32)) for n, v in
              (("gamma", r.uniform(1.5e-6, 2.5e-6, 3)), ("beta", np.zeros(3)),
               ("moving_mean", np.zeros(3)), ("moving_variance", r.uniform(2.0, 4.0, 3)))]
    h, _, _ = V1.nn.fused_batch_norm(h, params[0], params[1], mean=params[2], variance=params[3],
                                     epsilon=1e-3, is_training=False)
    tf.identity(h, name="y")
    return {"outputs": ["y"]}


def tf1_anchors():
    """y = x * w + anchors: anchors a Const of the source, w a variable."""
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    x = V1.placeholder(tf.float32, [4], name="x")
    w = V1.get_variable("w", initializer=np.float32([1.0, 2.0, 3.0, 4.0]))
    anchors = tf.constant(np.float32([0.1, 0.2, 0.3, 0.4]), name="anchors")
    tf.add(x * w, anchors, name="y")
    return {"outputs": ["y"]}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def freeze(source, flags, out):
    proc = run(["freeze-graph", source, "-o", out, "-q"] + flags)
    if proc.returncode != 0:
        raise Mismatch("freeze-graph %s %s failed:\n%s" % (source, " ".join(flags), proc.stderr))


def verify(frozen, source, flags, values=None):
    """(exit status, the JSON report)."""
    cmd = ["frost-verify", frozen, "--source", source, "--json"] + flags
    if values:
        cmd += ["--save-values", values]
    proc = run(cmd)
    if proc.returncode not in (0, 1) or not proc.stdout:
        raise Mismatch("%s failed (%d):\n%s" % (" ".join(cmd), proc.returncode, proc.stderr))
    return proc.returncode, json.loads(proc.stdout)


def error(got, want):
    """|got - want| relative to want's largest magnitude (exact for
    non-floats)."""
    import numpy as np
    if got.dtype != want.dtype or got.shape != want.shape:
        return float("inf")
    if not np.issubdtype(want.dtype, np.inexact):
        return 0.0 if np.array_equal(got, want) else float("inf")
    a, b = got.astype(np.float64), want.astype(np.float64)
    scale = np.max(np.abs(b)) if b.size else 0.0
    diff = np.max(np.abs(a - b)) if b.size else 0.0
    return float(diff / scale) if scale > 0 else float(diff)


def saved_values(values):
    """frost-verify --save-values DIR's inputs and frozen graph's outputs, by
    tensor name."""
    import numpy as np
    index = json.load(open(os.path.join(values, "index.json")))["values"]
    load = {role: {v["tensor"]: np.load(os.path.join(values, v["file"]))
                   for v in index if v["role"] == role} for role in ("input", "frozen")}
    return load["input"], load["frozen"]


def check_model(name, source, flags, workdir):
    """Freezes, verifies and compares Frost's evaluator with TensorFlow."""
    import numpy as np
    frozen = os.path.join(workdir, name + ".pb")
    values = os.path.join(workdir, name + ".values")
    freeze(source, flags, frozen)
    status, report = verify(frozen, source, flags, values)
    allowed = ""
    if not report["complete"] and not report["findings"]:
        # Outputs NOT CHECKED fail the verdict unless allowed.
        if status != 1 or report["passed"]:
            raise Mismatch("%s: frost-verify passes outputs it did not check" % name)
        status, report = verify(frozen, source, flags + ["--allow-unchecked"], values)
        allowed = " --allow-unchecked (exit 1 without)"
    if status != 0 or not report["passed"]:
        raise Mismatch("%s: frost-verify fails:\n  %s" % (name, "\n  ".join(findings(report))))
    feeds, frost = saved_values(values)
    fetches = sorted(frost)
    worst = 0.0
    for tensor, want in zip(fetches, tf_run(load_graph(frozen), feeds, fetches)):
        e = error(frost[tensor], np.asarray(want))
        if not e <= TOLERANCE:
            raise Mismatch("%s: %s: Frost's evaluator computes %r, TensorFlow %r (error %g)"
                           % (name, tensor, frost[tensor], want, e))
        worst = max(worst, e)
    outputs = report["numeric"]["outputs"]
    if not outputs:
        raise Mismatch("%s: frost-verify compared no output" % name)
    unchecked = [o for o in outputs if "not_checked" in o]
    if len(fetches) != len(outputs) - len(unchecked):
        raise Mismatch("%s: %d values saved for %d outputs checked"
                       % (name, len(fetches), len(outputs) - len(unchecked)))
    print("%s: frost-verify%s PASSED, %d outputs checked%s; %s"
          % (name, allowed, len(fetches), ", %d NOT CHECKED" % len(unchecked) if unchecked else "",
             "evaluator agrees with TensorFlow (max error %.1e)" % worst if fetches
             else "nothing to compare with TensorFlow"))
    for o in unchecked:
        print("  NOT CHECKED %s: %s" % (o["tensor"], o["not_checked"]))
    return frozen


def expect_refused(label, frozen, source, flags):
    status, report = verify(frozen, source, flags)
    if status != 1 or report["passed"]:
        raise Mismatch("%s: frost-verify passed %s" % (label, frozen))
    print("%s: frost-verify exit 1" % label)
    for line in findings(report):
        print("  " + line)
    return report


def edit_const(graph_def, name, change):
    """`graph_def` with Const `name`'s value replaced by change(value)."""
    import tensorflow as tf
    edited = type(graph_def)()
    edited.CopyFrom(graph_def)
    node = next(n for n in edited.node if n.name == name)
    value = tf.make_ndarray(node.attr["value"].tensor)
    node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(change(value.copy())))
    return edited, value


def write(graph_def, path):
    with open(path, "wb") as f:
        f.write(graph_def.SerializeToString())


def one_ulp(frozen, source, flags, node, workdir):
    import numpy as np

    def up(v):
        v.flat[0] = np.nextafter(v.flat[0], np.float32(np.inf))
        return v

    edited, before = edit_const(load_graph(frozen), node, up)
    path = os.path.join(workdir, "one_ulp.pb")
    write(edited, path)
    after = np.nextafter(before.flat[0], np.float32(np.inf))
    print("one_ulp: %s element 0 %r -> %r (%d elements)"
          % (node, float(before.flat[0]), float(after), before.size))
    expect_refused("one_ulp", path, source, flags)


def unfrozen(source, flags, variable, workdir):
    path = os.path.join(workdir, "unfrozen.pb")
    freeze(source, flags + ["--except", variable], path)
    status, report = verify(path, source, flags + ["--except", variable])
    if status != 0:
        raise Mismatch("unfrozen: frost-verify --except %s fails:\n  %s"
                       % (variable, "\n  ".join(findings(report))))
    print("unfrozen: frozen with --except %s: frost-verify --except %s PASSED"
          % (variable, variable))
    expect_refused("unfrozen: without --except", path, source, flags)


def bn_scaled(label, frozen, source, flags, workdir, factor=1.01):
    import numpy as np
    graph = load_graph(frozen)
    folded = [n.name for n in graph.node if n.op == "Const" and n.name.endswith("_weights")]
    if len(folded) != 1:
        raise Mismatch("%s: expected one folded <conv>_weights Const, found %s" % (label, folded))
    edited, _ = edit_const(graph, folded[0], lambda v: (v * np.float32(factor)).astype(v.dtype))
    path = os.path.join(workdir, label + ".pb")
    write(edited, path)
    # TensorFlow sees the change: the outputs move well beyond rounding.
    feeds, frost = saved_values(frozen[:-len(".pb")] + ".values")
    fetches = sorted(frost)
    after, before = tf_run(edited, feeds, fetches), tf_run(graph, feeds, fetches)
    moved = max(error(np.asarray(a), np.asarray(b)) for a, b in zip(after, before))
    if not moved > 1e-4:
        raise Mismatch("%s: scaling %s by %g moves TensorFlow's outputs by %g only"
                       % (label, folded[0], factor, moved))
    largest = max(float(np.max(np.abs(b))) for b in before)
    change = max(float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) for a, b in zip(after, before))
    print("%s: %s scaled by %g; TensorFlow's outputs move by %.1e (largest output %.1e, "
          "largest change %.1e)" % (label, folded[0], factor, moved, largest, change))
    return expect_refused(label, path, source, flags)


def anchors(frozen, source, flags, workdir):
    """anchors[0] += 0.05 in the frozen graph; TensorFlow's output moves."""
    import numpy as np

    def move(v):
        v.flat[0] += np.float32(0.05)
        return v

    graph = load_graph(frozen)
    edited, _ = edit_const(graph, "anchors", move)
    path = os.path.join(workdir, "anchors.pb")
    write(edited, path)
    feeds, frost = saved_values(frozen[:-len(".pb")] + ".values")
    fetches = sorted(frost)
    moved = max(error(np.asarray(a), np.asarray(b)) for a, b in
                zip(tf_run(edited, feeds, fetches), tf_run(graph, feeds, fetches)))
    print("anchors: anchors[0] += 0.05; TensorFlow's output moves by %.1e" % moved)
    expect_refused("anchors", path, source, flags)


def main():
    workdir, cache = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    tf2 = tf2_fixtures(cache)
    import freeze_oracle as fo  # TF1 behaviour from here on

    try:
        frozen = {}
        for name in TF2_MODELS:
            saved = os.path.join(tf2, name, "saved_model")
            frozen[name] = check_model(name, saved, [], workdir)
        saved = os.path.join(tf2, "cnn_bn", "saved_model")
        frozen["cnn_bn_optimized"] = check_model("cnn_bn_optimized", saved, ["--optimize"], workdir)

        tf1 = {}
        for name, builder in [("mlp", fo.case_mlp), ("cnn_batch_norm_bound", fo.case_cnn_batch_norm_bound),
                              ("control_flow", fo.case_control_flow),
                              ("gather_batch_dims", fo.case_gather_batch_dims),
                              ("fused_bn_cnn", tf1_fused_bn_cnn),
                              ("small_outputs", tf1_small_outputs), ("anchors", tf1_anchors)]:
            _, spec, prefix = fo.build(name, builder, os.path.join(workdir, "tf1"))
            tf1[name] = (prefix, ["--outputs", ",".join(spec["outputs"])] + spec.get("flags", []))
        for name, optimize in [("mlp", False), ("cnn_batch_norm_bound", True),
                               ("control_flow", False), ("gather_batch_dims", False),
                               ("fused_bn_cnn", True), ("small_outputs", True),
                               ("anchors", False)]:
            prefix, flags = tf1[name]
            flags = flags + (["--optimize"] if optimize else [])
            label = "tf1_" + name + ("_optimized" if optimize else "")
            frozen[label] = check_model(label, prefix, flags, workdir)
            tf1[name] = (prefix, flags)

        one_ulp(frozen["tf1_mlp"], *tf1["mlp"], "hidden/kernel", workdir)
        unfrozen(*tf1["mlp"], "hidden/bias", workdir)
        bn_scaled("bn_scaled", frozen["cnn_bn_optimized"],
                  os.path.join(tf2, "cnn_bn", "saved_model"), ["--optimize"], workdir)
        bn_scaled("fused_bn_scaled", frozen["tf1_fused_bn_cnn_optimized"],
                  *tf1["fused_bn_cnn"], workdir)
        report = bn_scaled("small_scaled", frozen["tf1_small_outputs_optimized"],
                           *tf1["small_outputs"], workdir, factor=1.07)
        if not all(o.get("below_atol") for o in report["numeric"]["outputs"]):
            raise Mismatch("small_scaled: outputs not reported below atol")
        anchors(frozen["tf1_anchors"], *tf1["anchors"], workdir)
    except Mismatch as e:
        print("MISMATCH " + str(e))
        sys.exit(1)


if __name__ == "__main__":
    main()
