#!/usr/bin/env python3
"""Benchmark: transform-graph's fold_constants + remove_nodes + strip_unused_nodes
against Grappler's constant folding, on a generated graph and on ResNet50.

Graphs:
- generated, N nodes: blocks of `y = x * Identity((a + b) * a)` summed into a
  chain of Adds, with an unused Neg per block: per block two Consts, three
  foldable nodes, two computed ones and one unused;
- Keras ResNet50 (weights=None), frozen with convert_variables_to_constants_v2.

Frost: `transform-graph --transforms='fold_constants(ignore_errors=true)
remove_nodes(op=Identity) strip_unused_nodes'` (read, verify, the passes with
verification after each, write). TensorFlow: `tf_optimizer.OptimizeGraph`
with only `constfold` (Grappler's constant folding, as TensorFlow runs it
before inference), timed from parsing the GraphDef to writing the result, in a
process whose import of TensorFlow is not counted. Prints a Markdown table:
wall time, peak RSS, nodes before and after, constant nodes after, ratios.

usage: bench/fold_constants.py [--transform-graph build/bin/transform-graph]
           [--sizes 100000,1000000] [--no-resnet] [--runs 3]
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prune_chain import best_of, field, measure, varint  # noqa: E402,F401

GRAPPLER = r"""
import os, resource, sys, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
from tensorflow.core.framework import graph_pb2
from tensorflow.core.protobuf import config_pb2, rewriter_config_pb2
from tensorflow.python.grappler import tf_optimizer
src, output, dst, report = sys.argv[1:5]
start = time.perf_counter()
g = graph_pb2.GraphDef.FromString(open(src, "rb").read())
with tf.Graph().as_default() as graph:
    tf.compat.v1.import_graph_def(g, name="")
    graph.add_to_collection("train_op", graph.get_operation_by_name(output))
    meta = tf.compat.v1.train.export_meta_graph(graph=graph)
config = config_pb2.ConfigProto()
rw = config.graph_options.rewrite_options
rw.optimizers[:] = ["constfold"]
rw.meta_optimizer_iterations = rewriter_config_pb2.RewriterConfig.ONE
rw.min_graph_nodes = -1
out = tf_optimizer.OptimizeGraph(config, meta)
open(dst, "wb").write(out.SerializeToString())
open(report, "w").write(str(time.perf_counter() - start))
"""

COUNT = r"""
import sys
from tensorflow.core.framework import graph_pb2
g = graph_pb2.GraphDef.FromString(open(sys.argv[1], "rb").read())
print(len(g.node), sum(1 for n in g.node if n.op == "Const"))
"""

RESNET = r"""
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
model = tf.keras.applications.ResNet50(weights=None)
fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
    tf.TensorSpec([1, 224, 224, 3], tf.float32))
frozen = convert_variables_to_constants_v2(fn).graph.as_graph_def()
open(sys.argv[1], "wb").write(frozen.SerializeToString())
print(fn.outputs[0].op.name, fn.inputs[0].op.name)
"""


def node(name, op, inputs=(), attrs=b""):
    body = field(1, name.encode()) + field(2, op.encode())
    for i in inputs:
        body += field(3, i.encode())
    return field(1, body + attrs)


def attr(key, value):
    return field(5, field(1, key.encode()) + field(2, value))


FLOAT = attr("T", varint(6 << 3) + varint(1))  # AttrValue.type = DT_FLOAT


def const(name, values):
    import struct
    shape = field(2, field(2, varint(1 << 3) + varint(len(values))))  # tensor_shape { dim { size } }
    tensor = varint(1 << 3) + varint(1) + shape + field(4, struct.pack("<%df" % len(values), *values))
    return node(name, "Const", (), attr("dtype", varint(6 << 3) + varint(1)) +
                attr("value", field(8, tensor)))


def make_graph(path, total):
    """About `total` nodes; returns the output's name."""
    blocks = max(total // 8, 1)
    with open(path, "wb") as f:
        f.write(node("x", "Placeholder", (), attr("dtype", varint(6 << 3) + varint(1))))
        acc = "x"
        for i in range(blocks):
            f.write(const("a%d" % i, [i, 1, 2, 3]))
            f.write(const("b%d" % i, [1, i, 3, 4]))
            f.write(node("s%d" % i, "AddV2", ["a%d" % i, "b%d" % i], FLOAT))
            f.write(node("m%d" % i, "Mul", ["s%d" % i, "a%d" % i], FLOAT))
            f.write(node("i%d" % i, "Identity", ["m%d" % i], FLOAT))
            f.write(node("y%d" % i, "Mul", ["x", "i%d" % i], FLOAT))
            f.write(node("acc%d" % i, "AddV2", [acc, "y%d" % i], FLOAT))
            f.write(node("u%d" % i, "Neg", ["a%d" % i], FLOAT))
            acc = "acc%d" % i
    return acc


def counts(path):
    out = subprocess.run([sys.executable, "-c", COUNT, path], check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--transform-graph", default="build/bin/transform-graph")
    p.add_argument("--sizes", default="100000,1000000")
    p.add_argument("--no-resnet", action="store_true")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()

    print("| graph | nodes | Frost wall | Frost peak RSS | Frost nodes after (Const) | "
          "Grappler constfold wall | Grappler peak RSS | Grappler nodes after (Const) | "
          "time Grappler/Frost | RSS Grappler/Frost |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        graphs = []
        for size in [int(s) for s in args.sizes.split(",") if s]:
            path = os.path.join(tmp, "gen%d.pb" % size)
            graphs.append(("generated", path, make_graph(path, size), "x"))
        if not args.no_resnet:
            path = os.path.join(tmp, "resnet50.pb")
            out = subprocess.run([sys.executable, "-c", RESNET, path], check=True,
                                 capture_output=True, text=True).stdout.split()
            graphs.append(("ResNet50 (frozen)", path, out[0], out[1]))
        for label, path, output, inputs in graphs:
            before = counts(path)
            frost_out = os.path.join(tmp, "frost.pb")
            frost = best_of(args.runs, [
                args.transform_graph, "--in_graph=" + path, "--out_graph=" + frost_out,
                "--inputs=" + inputs, "--outputs=" + output,
                "--transforms=fold_constants(ignore_errors=true) remove_nodes(op=Identity) "
                "strip_unused_nodes"])
            tf_out, tf_time = os.path.join(tmp, "tf.pb"), os.path.join(tmp, "tf.time")
            grappler = best_of(1, [sys.executable, "-c", GRAPPLER, path, output, tf_out, tf_time])
            inner = float(open(tf_time).read())
            fa, ga = counts(frost_out), counts(tf_out)
            print("| %s | %d | %.2f s | %.0f MiB | %d (%d) | %.2f s | %.0f MiB | %d (%d) | %.1fx | %.1fx |"
                  % (label, before[0], frost[0], frost[1], fa[0], fa[1], inner, grappler[1],
                     ga[0], ga[1], inner / frost[0], grappler[1] / frost[1]), flush=True)


if __name__ == "__main__":
    main()
