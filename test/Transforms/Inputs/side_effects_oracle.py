"""Checks which ops merge-duplicate-nodes treats as side-effecting against
TensorFlow's registry.

    side_effects_oracle.py

merge-duplicate-nodes runs on a graph holding two alike nodes of every op the
installed TensorFlow registers as stateful or with a reference input, and two
of some stateless ops: none of the first may merge, all of the second must.

Prints "side effects match TensorFlow on N ops" on success.
"""
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
from tensorflow.core.framework import graph_pb2, op_def_pb2  # noqa: E402
from tensorflow.python.client import pywrap_tf_session  # noqa: E402

STATELESS = ["Const", "Identity", "Neg", "AddV2", "MatMul", "Shape", "Switch", "Merge",
             "Enter", "StatelessRandomUniform", "ScatterNd"]


def fail(message):
    print("MISMATCH " + message)
    sys.exit(1)


def main():
    buf = pywrap_tf_session.TF_GetAllOpList()
    ops = op_def_pb2.OpList()
    ops.ParseFromString(pywrap_tf_session.TF_GetBuffer(buf))
    tf_ops = sorted(o.name for o in ops.op
                    if o.is_stateful or any(a.is_ref for a in o.input_arg))
    checked = len(tf_ops)
    # Ops calling functions need them to pass the verifier: left out here.
    calls = {o.name for o in ops.op if any(a.type in ("func", "list(func)") for a in o.attr)}
    tf_ops = [op for op in tf_ops if op not in calls]
    graph = graph_pb2.GraphDef()
    for op in tf_ops + STATELESS:
        for copy in ("a", "b"):
            node = graph.node.add()
            node.name = "n%s_%s" % (op, copy)
            node.op = op
    with tempfile.TemporaryDirectory() as workdir:
        src, out = os.path.join(workdir, "in.pb"), os.path.join(workdir, "out.pb")
        open(src, "wb").write(graph.SerializeToString())
        subprocess.run(["frost-opt", src, "--pass-pipeline=merge-duplicate-nodes", "--verify-each=false",
                        "-o", out], check=True)
        merged = graph_pb2.GraphDef.FromString(open(out, "rb").read())
    left = {n.name for n in merged.node}
    for op in tf_ops:
        if "n%s_b" % op not in left:
            fail("%s merged" % op)
    for op in STATELESS:
        if "n%s_b" % op in left:
            fail("%s not merged" % op)
    print("side effects match TensorFlow on %d ops" % checked)


if __name__ == "__main__":
    main()
