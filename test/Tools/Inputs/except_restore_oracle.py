#!/usr/bin/env python3
"""A frozen graph too big for protobuf: freeze-graph's --except suggestion,
and the graph it leaves, restored from the original checkpoint by TensorFlow.

    except_restore_oracle.py WORKDIR [--skip-refusal] [--except-list SCENARIO=LIST]...

Models (built here, small: variables of 64, 32, 2 KiB and 32 bytes, whose
values are in the checkpoint only, never in the graph):
  tf1_ref       TF1 graph mode, ref variables (VariableV2), a Saver checkpoint
  tf1_resource  the same with use_resource=True (VarHandleOp)
  tf2_module    a tf.Module's tf.Variables saved by tf.saved_model.save
Each is frozen twice with a lowered --protobuf-size-limit:
  1 byte over   the limit is one byte under the full frozen graph: leaving the
                biggest variable unfrozen must be enough
  2 needed      the limit lies between the sizes of the graphs frozen with
                the biggest one and the two biggest left unfrozen (measured
                here with --except at the default limit), above the input's
First half: freeze-graph must exit 1, write no file and print one stderr
line (-q) with `--except LIST`; LIST must be the variables that are needed,
biggest first (the same node names a full freeze reports). Second half:
freeze-graph --except LIST at the same limit must succeed, write a graph
within it whose variables are exactly LIST (VariableV2, or VarHandleOps
that are distinct variables in TensorFlow: not one container and
shared_name); TensorFlow imports it, restores LIST's variables from the
ORIGINAL checkpoint (tf.raw_ops.RestoreV2, then tf.compat.v1.assign or
tf.raw_ops.AssignVariableOp: the recipe for users; for ref variables also
a Saver over their tensors) and runs it in a Session: the output must be
the original model's (TF2: the module called eagerly; within 1e-6).

--skip-refusal skips the first half and uses the expected lists;
--except-list SCENARIO=LIST (a scenario as printed, e.g. "tf2_module, 2
needed=unknown,unknown_0") skips it for that scenario with LIST.

Prints one line per scenario (then freeze-graph's refusal, indented); exits 1
after printing what differed.
"""
import argparse
import json
import os
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

V1 = tf.compat.v1
# name: shape; the variables' sizes differ by 2x and more, so the biggest
# are known and the limits below leave no doubt about how many are needed.
VARIABLES = {"big": (128, 128), "mid": (128, 64), "small": (64, 8), "bias": (8,)}
BY_SIZE = sorted(VARIABLES, key=lambda n: -int(np.prod(VARIABLES[n])))


class Mismatch(Exception):
    pass


def tf1_model(work, use_resource):
    """model/model.ckpt{.meta,.index,.data}; the graph holds random
    initializers, not the values."""
    x_value = np.random.default_rng(1).standard_normal((3, 128)).astype(np.float32)
    with tf.Graph().as_default():
        x = V1.placeholder(tf.float32, [None, 128], name="x")
        v = {n: V1.get_variable(n, shape, initializer=V1.random_normal_initializer(seed=i),
                                use_resource=use_resource)
             for i, (n, shape) in enumerate(VARIABLES.items())}
        h = tf.tanh(tf.matmul(x, v["big"]))
        h = tf.tanh(tf.matmul(h, v["mid"]))
        tf.add(tf.matmul(h, v["small"]), v["bias"], name="out")
        saver = V1.train.Saver()
        with V1.Session() as sess:
            sess.run(V1.global_variables_initializer())
            prefix = saver.save(sess, os.path.join(work, "model", "model.ckpt"))
            y = sess.run("out:0", {"x:0": x_value})
    return {"source": prefix, "flags": ["--outputs", "out"], "checkpoint": prefix,
            "x": x_value, "y": y, "fetch": "out:0"}


class Module(tf.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(2)
        for n, shape in VARIABLES.items():
            setattr(self, n, tf.Variable(rng.standard_normal(shape).astype(np.float32), name=n))

    @tf.function(input_signature=[tf.TensorSpec([None, 128], tf.float32, name="x")])
    def __call__(self, x):
        h = tf.tanh(tf.matmul(x, self.big))
        h = tf.tanh(tf.matmul(h, self.mid))
        return {"out": tf.matmul(h, self.small) + self.bias}


def tf2_model(work):
    x_value = np.random.default_rng(1).standard_normal((3, 128)).astype(np.float32)
    module = Module()
    path = os.path.join(work, "saved_model")
    tf.saved_model.save(module, path, signatures=module.__call__)
    return {"source": path, "flags": ["--signature", "serving_default"],
            "checkpoint": os.path.join(path, "variables", "variables"),
            "x": x_value, "y": module(tf.constant(x_value))["out"].numpy()}


def freeze_graph(model, out, *flags):
    if os.path.exists(out):
        os.remove(out)
    cmd = ["freeze-graph", model["source"]] + model["flags"] + ["-o", out, "-q"] + list(flags)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc, " ".join(cmd)


def freeze_ok(model, out, *flags):
    proc, cmd = freeze_graph(model, out, *flags)
    if proc.returncode != 0 or not os.path.exists(out):
        raise Mismatch("%s failed (%d):\n%s" % (cmd, proc.returncode, proc.stderr))
    return os.path.getsize(out)


def variables_of(graph_def):
    return {n.name: n.op for n in graph_def.node if n.op in ("VariableV2", "VarHandleOp")}


def shared_resources(graph_def):
    """VarHandleOps a Session would give one variable: the same container and
    shared_name (an empty shared_name is a name too, not the node's)."""
    seen = {}
    for n in graph_def.node:
        if n.op == "VarHandleOp":
            seen.setdefault((n.attr["container"].s, n.attr["shared_name"].s), []).append(n.name)
    return ["%s (shared_name '%s')" % (", ".join(names), name.decode())
            for (_, name), names in seen.items() if len(names) > 1]


def refused_list(model, out, limit):
    """First half: the one stderr line's --except list, and the line."""
    proc, cmd = freeze_graph(model, out, "--protobuf-size-limit", str(limit))
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    problems = []
    if proc.returncode != 1:
        problems.append("exit code %d, not 1" % proc.returncode)
    if os.path.exists(out):
        problems.append("wrote %s" % out)
    if len(lines) != 1:
        problems.append("%d stderr lines, not 1" % len(lines))
    found = [m.group(1) for m in re.finditer(r"--except '([^']*)'", proc.stderr)]
    if len(found) != 1:
        problems.append("%d `--except LIST` suggestions, not 1" % len(found))
    if problems:
        raise Mismatch("%s: %s; stderr:\n%s" % (cmd, "; ".join(problems), proc.stderr))
    return found[0].split(", "), lines[0]


def restore_and_run(model, frozen, keys, use_saver=False):
    """The recipe: import the graph, restore the variables left in it from the
    original checkpoint, run it. `keys`: {variable node: checkpoint key}."""
    graph_def = V1.GraphDef.FromString(open(frozen, "rb").read())
    with tf.Graph().as_default() as graph:
        V1.import_graph_def(graph_def, name="")
        if use_saver:  # ref variables only: a Saver takes their tensors
            saver = V1.train.Saver({k: graph.get_tensor_by_name(n + ":0") for n, k in keys.items()})
        else:
            handles = [graph.get_tensor_by_name(n + ":0") for n in keys]
            values = tf.raw_ops.RestoreV2(
                prefix=model["checkpoint"], tensor_names=list(keys.values()),
                shape_and_slices=[""] * len(keys),
                dtypes=[h.op.get_attr("dtype") for h in handles])
            restore = [tf.raw_ops.AssignVariableOp(resource=h, value=v) if h.dtype == tf.resource
                       else V1.assign(h, v) for h, v in zip(handles, values)]
        with V1.Session(graph=graph) as sess:
            if use_saver:
                saver.restore(sess, model["checkpoint"])
            else:
                sess.run(restore)
            return sess.run(model["fetch"], {"x:0": model["x"]})


def op_error(e):
    """A TensorFlow error's node and message, without the stack traces."""
    text = e.message.split("Original stack trace")[0]
    lines = [line.strip() for line in text.splitlines() if line.strip()
             and not line.startswith(("Graph execution error", "Detected at", "  "))
             and not line.strip().startswith(("[[", "File "))]
    return " ".join(lines)


def compare(y, want):
    if y.shape == want.shape and np.array_equal(y, want):
        return "identical"
    if y.shape == want.shape and np.allclose(y, want, rtol=1e-6, atol=1e-6):
        return "within 1e-6"
    diff = np.max(np.abs(y - want)) if y.shape == want.shape else \
        "(shapes %s, %s)" % (y.shape, want.shape)
    raise Mismatch("outputs differ from the original model's: max abs difference %s\n"
                   " got %s\nwant %s" % (diff, y, want))


def prepare(name, model, work):
    """The frozen graph's variables and their checkpoint keys, and the
    scenarios: [(label, limit, the variables needed, biggest first)]."""
    full = os.path.join(work, "full.pb")
    report = os.path.join(work, "full.json")
    size = freeze_ok(model, full, "--report", report)
    with open(report) as f:
        rep = json.load(f)
    # The frozen graph's variable nodes and their checkpoint keys (TF2:
    # "unknown", "unknown_0", ... for <attribute>/.ATTRIBUTES/VARIABLE_VALUE).
    keys = {v["name"]: v["checkpoint_key"] for v in rep["variables"]}
    node_of = {k.split("/")[0]: n for n, k in keys.items()}
    if sorted(node_of) != sorted(VARIABLES):
        raise Mismatch("%s: the report's variables %s are not the model's" % (name, keys))
    model.setdefault("fetch", rep["outputs"][0]["node"] + ":0")
    biggest = [node_of[a] for a in BY_SIZE]
    size_one = freeze_ok(model, os.path.join(work, "one.pb"), "--except", biggest[0])
    size_two = freeze_ok(model, os.path.join(work, "two.pb"), "--except", ",".join(biggest[:2]))
    # The input (a .meta or saved_model.pb) must fit the limits too.
    input_size = os.path.getsize(model["source"] + ".meta" if name.startswith("tf1")
                                 else os.path.join(model["source"], "saved_model.pb"))
    limit_two = (size_one + max(size_two, input_size)) // 2
    if not (size_two <= limit_two < size_one and input_size <= limit_two < size - 1):
        raise Mismatch("%s: no room for a limit needing 2 variables (sizes %d, %d, %d, input %d)"
                       % (name, size, size_one, size_two, input_size))
    return keys, [("1 byte over", size - 1, biggest[:1]), ("2 needed", limit_two, biggest[:2])]


def scenario(name, model, work, keys, label, limit, want, overrides, skip_refusal):
    """One line: what was suggested, what fits, what TensorFlow computes."""
    title = "%s, %s" % (name, label)
    out = os.path.join(work, label.replace(" ", "_") + ".pb")
    refusal = ""
    if title in overrides:
        suggested, how = overrides.pop(title), "given"
    elif skip_refusal:
        suggested, how = want, "expected"
    else:
        (suggested, refusal), how = refused_list(model, out, limit), "suggested"
        if suggested != want:
            raise Mismatch("%s: freeze-graph suggests --except %s, not the %d biggest "
                           "variables, biggest first: %s"
                           % (title, ",".join(suggested), len(want), ",".join(want)))
    unknown = [n for n in suggested if n not in keys]
    if unknown:
        raise Mismatch("%s: --except %s names no variable of the graph: %s"
                       % (title, ",".join(suggested), ", ".join(unknown)))
    report = out + ".json"
    written = freeze_ok(model, out, "--protobuf-size-limit", str(limit),
                        "--except", ",".join(suggested), "--report", report)
    graph_def = V1.GraphDef.FromString(open(out, "rb").read())
    left = variables_of(graph_def)
    want_op = "VariableV2" if name == "tf1_ref" else "VarHandleOp"
    if left != {n: want_op for n in suggested}:
        raise Mismatch("%s: --except %s left the variables %s, not these as %s"
                       % (title, ",".join(suggested), left, want_op))
    aliased = shared_resources(graph_def)
    if aliased:
        raise Mismatch("%s: --except %s left VarHandleOps that are one variable in TensorFlow: %s"
                       % (title, ",".join(suggested), "; ".join(aliased)))
    # The report of that run says where the variables left keep their values:
    # the keys a full freeze read them from.
    excepted = {v["name"]: v["checkpoint_key"]
                for v in json.load(open(report)).get("unfrozen_variables", [])}
    if excepted != {n: keys[n] for n in suggested}:
        raise Mismatch("%s: the report's unfrozen_variables %s are not %s"
                       % (title, excepted, {n: keys[n] for n in suggested}))
    try:
        results = [compare(restore_and_run(model, out, excepted), model["y"])]
        if name == "tf1_ref":
            results.append(compare(restore_and_run(model, out, excepted, use_saver=True),
                                   model["y"]))
    except tf.errors.OpError as e:
        raise Mismatch("%s: TensorFlow fails restoring --except %s from the checkpoint and "
                       "running: %s" % (title, ",".join(suggested),
                                       op_error(e)))
    except Mismatch as e:
        raise Mismatch("%s: --except %s restored from the checkpoint: %s"
                       % (title, ",".join(suggested), e))
    return ("%s: %s --except %s; it fits (%d of %d bytes); restored from the checkpoint: "
            "outputs %s%s" % (title, how, ",".join(suggested), written, limit,
                              ", with a Saver ".join(results),
                              "\n  freeze-graph refused: " + refusal if refusal else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workdir")
    parser.add_argument("--skip-refusal", action="store_true")
    parser.add_argument("--except-list", action="append", default=[], metavar="SCENARIO=LIST")
    args = parser.parse_args()
    overrides = dict(o.rsplit("=", 1) for o in args.except_list)
    for o in overrides:
        overrides[o] = overrides[o].split(",")
    builders = (("tf1_ref", lambda w: tf1_model(w, False)),
                ("tf1_resource", lambda w: tf1_model(w, True)),
                ("tf2_module", tf2_model))
    failed = False
    for name, build in builders:
        work = os.path.join(args.workdir, name)
        os.makedirs(work, exist_ok=True)
        model = build(work)
        try:
            keys, cases = prepare(name, model, work)
        except Mismatch as e:
            print("MISMATCH %s" % e, flush=True)
            failed = True
            continue
        for label, limit, want in cases:
            try:
                print(scenario(name, model, work, keys, label, limit, want, overrides,
                               args.skip_refusal), flush=True)
            except Mismatch as e:
                print("MISMATCH %s" % e, flush=True)
                failed = True
    if overrides:
        print("MISMATCH no scenario named %s" % ", ".join(overrides))
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
