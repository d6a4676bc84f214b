"""transform-graph's insert_logging run in TensorFlow.

    insert_logging_oracle.py TRANSFORM_GRAPH

A TF1 graph (x [2,6] -> MatMul -> BiasAdd -> Split into 2 -> AddV2 of both
halves -> Relu "out"), written as a MetaGraph (its op list gives every op's
output types), goes through `transform-graph --transforms=insert_logging(
op=Split, op=MatMul, show_op=true, show_name=true, message="hi;",
first_n=-1, summarize=4) --outputs=out`. The result must import into
TensorFlow, compute the original's output bit for bit, and, run in a new
process, make each Print write its line to stderr: ";Split;;
split__print__;hi;" followed by the tensors it takes (ports
0 and 1 for the Split: Print writes the tensors after its first input), and
the same for the MatMul; no other node logs.
Prints one line on success.
"""
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def child(graph_file, x_file, out_file):
    """Runs a GraphDef on x, in a process of its own (Print writes to its stderr)."""
    import numpy as np
    import tensorflow as tf
    from tensorflow.core.framework import graph_pb2
    tf1 = tf.compat.v1
    graph_def = graph_pb2.GraphDef.FromString(open(graph_file, "rb").read())
    config = tf1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        with tf1.Session(graph=g, config=config) as sess:
            np.save(out_file, sess.run("out:0", {"x:0": np.load(x_file)}))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        return
    tool = sys.argv[1]
    import numpy as np
    import tensorflow as tf
    tf1 = tf.compat.v1
    rng = np.random.RandomState(4)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2, 6], name="x")
        h = tf.matmul(x, tf.constant(rng.randn(6, 4).astype(np.float32), name="w"), name="mm")
        h = tf.nn.bias_add(h, tf.constant(rng.randn(4).astype(np.float32), name="b"), name="ba")
        a, b = tf.split(h, 2, axis=1, name="split")
        tf.nn.relu(tf.raw_ops.AddV2(x=a, y=b, name="add"), name="out")
        meta = tf1.train.export_meta_graph(graph=g)
    xv = rng.randn(2, 6).astype(np.float32)
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        paths = {k: os.path.join(tmp, k) for k in ("in.meta", "orig.pb", "logged.pb", "x.npy")}
        open(paths["in.meta"], "wb").write(meta.SerializeToString())
        open(paths["orig.pb"], "wb").write(meta.graph_def.SerializeToString())
        np.save(paths["x.npy"], xv)
        p = subprocess.run([tool, "--in_graph=" + paths["in.meta"], "--out_graph=" + paths["logged.pb"],
                            "--outputs=out",
                            '--transforms=insert_logging(op=Split, op=MatMul, show_op=true, '
                            'show_name=true, message="hi;", summarize=4)'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail("transform-graph exits %d: %s" % (p.returncode, p.stderr.strip()))
        results = {}
        for name in ("orig.pb", "logged.pb"):
            out = os.path.join(tmp, name + ".npy")
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", paths[name],
                                paths["x.npy"], out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
            if r.returncode != 0:
                fail("%s does not run in TensorFlow: %s" % (name, r.stderr.strip().splitlines()[-1]))
            results[name] = (np.load(out), r.stderr)
        want, quiet = results["orig.pb"]
        got, log = results["logged.pb"]
        if not np.array_equal(want, got):
            fail("the logged graph computes another output (max diff %g)"
                 % float(np.max(np.abs(want - got))))
        lines = [l for l in log.splitlines() if "__print__" in l]
        split = [l for l in lines if l.startswith(";Split;;split__print__;hi;")]
        mm = [l for l in lines if l.startswith(";MatMul;;mm__print__;hi;")]
        if len(split) != 1 or len(mm) != 1 or len(lines) != 2:
            fail("expected one Split and one MatMul Print line, got: %s" % lines)
        # Print writes its data list: the Split's ports 0 and 1, two [2,2] tensors.
        depth, tensors = 0, 0
        for ch in split[0]:
            depth += {"[": 1, "]": -1}.get(ch, 0)
            tensors += ch == "]" and depth == 0
        if tensors != 2 or "__print__" in quiet:
            fail("the Split's Print line is not two tensors: %s" % split[0])
        print("insert_logging: %d Print lines, %s; outputs equal" % (len(lines), split[0][:40]))


if __name__ == "__main__":
    main()
