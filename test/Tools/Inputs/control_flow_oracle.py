#!/usr/bin/env python3
"""frost-verify's graph runner on control flow and calls, against TensorFlow.

    control_flow_oracle.py WORKDIR

Models (tiny, built here; TensorFlow is the oracle only):
  tf1_control_flow     freeze_oracle's case: a v1 cond and a v1 while loop
                       over resource variables
  tf1_control_flow_v2  the same with If/While calling library functions
  tf1_function_call    a tf.function (StatefulPartitionedCall) reading a
                       captured variable
  tf1_dynamic_rnn      TF1 dynamic_rnn over an LSTMCell (a v1 while loop,
                       TensorArrayV3 scatter/read/write/gather)
  tf1_decoder          a greedy seq2seq-like decoder: tf.while_loop with
                       TensorArrays (write, read of the unstacked inputs,
                       stack, concat, size), ArgMax fed back through Gather
  tf1_nested_loops     a v1 while loop inside another
  tf2_control_flow     a TF2 SavedModel: tf.function with tf.while_loop
                       (While + TensorList of a tf.TensorArray), tf.cond,
                       tf.switch_case and a jit_compile=True call
                       (StatefulPartitionedCall with _XlaMustCompile)
For each: freeze-graph, then frost-verify FROZEN --source MODEL must pass with
every output checked (none NOT CHECKED), and the values its runner computed
for both graphs (the frozen graph, and the source as loaded: calls, If, Case,
While and v1 loops with the checkpoint's variables) must be TensorFlow's
(the frozen graph run by a Session without Grappler) within 1e-5 of each
output's largest magnitude. One line per model:
  NAME: O outputs checked, source and frozen agree with TensorFlow (max error E)
  ops run: the control-flow and call ops of the source and frozen graphs
Exits 1 on the first disagreement.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "Transforms", "Inputs"))
TOLERANCE = 1e-5
CONTROL_OPS = {"Enter", "Exit", "NextIteration", "LoopCond", "Merge", "Switch", "If",
               "StatelessIf", "Case", "StatelessCase", "While", "StatelessWhile",
               "PartitionedCall", "StatefulPartitionedCall"}


def build_tf2(out):
    """A TF2 SavedModel with functional control flow and an XLA call."""
    import numpy as np
    import tensorflow as tf

    class M(tf.Module):
        def __init__(self):
            r = np.random.default_rng(5)
            self.w = tf.Variable(r.standard_normal((3, 3)).astype(np.float32))
            self.b = tf.Variable(r.standard_normal(3).astype(np.float32))

        @tf.function(jit_compile=True)
        def cell(self, h, x):
            return tf.tanh(tf.matmul(h, self.w) + x + self.b)

        @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32),
                                      tf.TensorSpec([], tf.int32)])
        def __call__(self, x, k):
            steps = tf.TensorArray(tf.float32, size=4)

            def body(i, h, steps):
                h = self.cell(h, x)
                return i + 1, h, steps.write(i, h)

            _, h, steps = tf.while_loop(lambda i, h, s: i < 4, body,
                                        [tf.constant(0), tf.zeros([2, 3]), steps])
            picked = tf.switch_case(k, [lambda: h * 2.0, lambda: h - self.b,
                                        lambda: tf.reduce_sum(steps.stack(), 0)])
            out = tf.cond(tf.reduce_sum(x) > 0, lambda: picked + 1.0, lambda: picked * self.w[0])
            return {"out": out, "steps": steps.stack()}

    m = M()
    tf.saved_model.save(m, out, signatures=m.__call__)


def tf1_dynamic_rnn():
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    x = V1.placeholder(tf.float32, [2, 5, 3], name="x")
    # TensorFlow's legacy cell and dynamic_rnn (tf.compat.v1.nn.rnn_cell
    # needs Keras 2).
    from tensorflow.python.ops import rnn, rnn_cell_impl
    cell = rnn_cell_impl.LSTMCell(4, initializer=V1.glorot_uniform_initializer(seed=3))
    outputs, state = rnn.dynamic_rnn(cell, x, dtype=tf.float32)
    tf.identity(outputs, name="outputs")
    tf.identity(state.h, name="h")
    return {"outputs": ["outputs", "h"],
            "feeds": {"x": np.random.default_rng(1).standard_normal((2, 5, 3)).astype(np.float32)}}


def tf1_decoder():
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    r = np.random.default_rng(2)
    x = V1.placeholder(tf.float32, [2, 3], name="x")
    bias_seq = V1.placeholder(tf.float32, [4, 2, 6], name="bias_seq")
    emb = V1.get_variable("emb", initializer=r.standard_normal((6, 3)).astype(np.float32))
    w_h = V1.get_variable("w_h", initializer=(0.5 * r.standard_normal((3, 3))).astype(np.float32))
    w_o = V1.get_variable("w_o", initializer=r.standard_normal((3, 6)).astype(np.float32))
    biases = tf.TensorArray(tf.float32, size=4).unstack(bias_seq)
    tokens = tf.TensorArray(tf.int32, size=4)
    logits_ta = tf.TensorArray(tf.float32, size=4, element_shape=[2, 6])

    def body(t, h, tokens, logits_ta):
        logits = tf.matmul(h, w_o) + biases.read(t)
        token = tf.argmax(logits, axis=1, output_type=tf.int32)
        h = tf.tanh(tf.gather(emb, token) + tf.matmul(h, w_h))
        return t + 1, h, tokens.write(t, token), logits_ta.write(t, logits)

    _, h, tokens, logits_ta = tf.while_loop(
        lambda t, *_: t < 4, body, [tf.constant(0), tf.tanh(x), tokens, logits_ta])
    tf.identity(tf.transpose(tokens.stack()), name="tokens")
    tf.identity(logits_ta.concat(), name="logits")
    tf.identity(tf.cast(tokens.size(), tf.float32) * h, name="h")
    return {"outputs": ["tokens", "logits", "h"],
            "feeds": {"x": r.standard_normal((2, 3)).astype(np.float32),
                      "bias_seq": r.standard_normal((4, 2, 6)).astype(np.float32)}}


def tf1_nested_loops():
    import numpy as np
    import tensorflow as tf
    V1 = tf.compat.v1
    x = V1.placeholder(tf.float32, [3], name="x")
    scale = V1.get_variable("scale", initializer=np.float32([0.5, 1.5, -1.0]))

    def outer(i, acc):
        inner = tf.while_loop(lambda j, a: j < i + 1, lambda j, a: (j + 1, a * scale + 1.0),
                              [tf.constant(0), acc])[1]
        return i + 1, inner

    tf.identity(tf.while_loop(lambda i, a: i < 3, outer, [tf.constant(0), x])[1], name="y")
    return {"outputs": ["y"], "feeds": {"x": np.float32([1.0, -2.0, 0.25])}}


def ops_of(path):
    import verify_oracle as vo
    if path.endswith(".meta"):
        from tensorflow.core.protobuf import meta_graph_pb2
        g = meta_graph_pb2.MetaGraphDef.FromString(open(path, "rb").read()).graph_def
    else:
        g = vo.load_graph(path)
    ops = {n.op for n in g.node}
    for f in g.library.function:
        ops |= {n.op for n in f.node_def}
    return {op for op in ops if op in CONTROL_OPS or op.startswith(("TensorArray", "TensorList"))
            or op in ("EmptyTensorList", "_SwitchN")}


def check(name, source, flags, workdir, source_graph=None):
    import numpy as np
    import verify_oracle as vo
    frozen = os.path.join(workdir, name + ".pb")
    values = os.path.join(workdir, name + ".values")
    vo.freeze(source, flags, frozen)
    status, report = vo.verify(frozen, source, flags, values)
    unchecked = [o for o in report["numeric"]["outputs"] if "not_checked" in o]
    if status != 0 or not report["passed"] or unchecked or not report["numeric"]["outputs"]:
        raise vo.Mismatch("%s: frost-verify fails or leaves outputs unchecked:\n  %s" % (
            name, "\n  ".join(vo.findings(report) +
                              ["%s: %s" % (o["tensor"], o["not_checked"]) for o in unchecked])))
    index = json.load(open(os.path.join(values, "index.json")))["values"]
    load = {role: {v["tensor"]: np.load(os.path.join(values, v["file"]))
                   for v in index if v["role"] == role} for role in ("input", "frozen", "source")}
    fetches = sorted(load["frozen"])
    worst = 0.0
    for tensor, want in zip(fetches, vo.tf_run(vo.load_graph(frozen), load["input"], fetches)):
        for role in ("frozen", "source"):
            e = vo.error(load[role][tensor], np.asarray(want))
            if not e <= TOLERANCE:
                raise vo.Mismatch("%s: %s: Frost's runner computes %r on the %s graph, "
                                  "TensorFlow %r (error %g)"
                                  % (name, tensor, load[role][tensor], role, want, e))
            worst = max(worst, e)
    print("%s: %d outputs checked, source and frozen agree with TensorFlow (max error %.1e)"
          % (name, len(fetches), worst))
    ran = sorted(ops_of(frozen) | (ops_of(source_graph) if source_graph else set()))
    print("  ops run: %s" % " ".join(ran))


def main():
    if sys.argv[1] == "--tf2":
        build_tf2(sys.argv[2])
        return
    workdir = sys.argv[1]
    os.makedirs(workdir, exist_ok=True)
    saved = os.path.join(workdir, "tf2_control_flow")
    subprocess.run([sys.executable, __file__, "--tf2", saved], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import freeze_oracle as fo  # TF1 behaviour from here on
    import verify_oracle as vo
    try:
        check("tf2_control_flow", saved, [], workdir)
        for name, builder in [("control_flow", fo.case_control_flow),
                              ("control_flow_v2", fo.case_control_flow_v2),
                              ("function_call", fo.case_function_call),
                              ("dynamic_rnn", tf1_dynamic_rnn), ("decoder", tf1_decoder),
                              ("nested_loops", tf1_nested_loops)]:
            _, spec, prefix = fo.build(name, builder, os.path.join(workdir, "tf1"))
            flags = ["--outputs", ",".join(spec["outputs"])] + spec.get("flags", [])
            check("tf1_" + name, prefix, flags, workdir, prefix + ".meta")
    except vo.Mismatch as e:
        print("MISMATCH " + str(e))
        sys.exit(1)


if __name__ == "__main__":
    main()
