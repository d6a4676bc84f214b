"""Frost's static shapes against TensorFlow's shape inference.

    shapes_oracle.py MODEL...

MODEL: ops (a graph of the ops Frost has shape rules for: convolutions and
pooling in both layouts with strides, dilations and every padding, matrix
products, batch norm, the shape-moving ops with constant operands, and
Shape/Size/Rank on their results, from placeholders of fully and partly
known shapes), tf1-cnn and mobilenetv2 (as in fold_constants_oracle.py).

TensorFlow's static shapes are those tf.Graph gives each imported tensor
(its C++ ShapeRefiner, with constant propagation). Frost's are the
`_output_shapes` of `frost-opt --pass-pipeline=fold-constants,add-output-shapes`,
for every node both graphs have. Then:
- a dimension both know must be equal (a conflict fails);
- a dimension TensorFlow knows and Frost does not is a miss, counted;
- every Shape, ShapeN, Size and Rank node fold_constants can replace
  (TensorFlow's MaybeReplaceShapeOp rules: its input's shape fully known; for
  Rank, its rank) must be folded by Frost, and no other.
Prints per model the tensors compared, conflicts, misses and folded shape ops.
"""
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fold_constants_oracle  # noqa: E402

tf1 = tf.compat.v1
SHAPE_OPS = ("Shape", "ShapeN", "Size", "Rank")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def ops_graph():
    rng = np.random.RandomState(3)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2, 17, 15, 3], name="x")
        part = tf1.placeholder(tf.float32, [None, 9, 4], name="part")
        nchw = tf1.placeholder(tf.float32, [1, 3, 12, 10], name="nchw")

        def c(shape):
            return tf.constant(rng.randn(*shape).astype(np.float32))

        outs = []
        h = tf.nn.conv2d(x, c([3, 3, 3, 8]), strides=[1, 2, 2, 1], padding="VALID")
        h2 = tf.nn.conv2d(x, c([5, 3, 3, 4]), strides=[1, 3, 2, 1], padding="SAME",
                          dilations=[1, 1, 1, 1])
        h3 = tf.nn.conv2d(x, c([3, 3, 3, 2]), strides=1, padding=[[0, 0], [1, 2], [0, 3], [0, 0]],
                          dilations=2)
        d = tf.nn.depthwise_conv2d(x, c([3, 3, 3, 2]), strides=[1, 1, 1, 1], padding="VALID",
                                   dilations=[2, 2])
        p = tf.nn.max_pool2d(h, ksize=3, strides=2, padding="SAME")
        a = tf.nn.avg_pool2d(h2, ksize=[2, 3], strides=[1, 2], padding="VALID")
        n = tf.nn.conv2d(nchw, c([3, 3, 3, 5]), strides=[1, 1, 2, 2], padding="SAME",
                         data_format="NCHW")
        np_ = tf.nn.max_pool2d(n, ksize=2, strides=2, padding="VALID", data_format="NCHW")
        bn = tf1.nn.fused_batch_norm(h, c([8]), c([8]), c([8]), c([8]), is_training=False)[0]
        bias = tf.nn.bias_add(tf.nn.relu(bn), c([8]))
        flat = tf.reshape(bias, [2, -1])
        mm = tf.matmul(flat, c([flat.shape[1], 6]))
        mmt = tf.matmul(c([2, 5]), mm, transpose_a=True)
        bmm = tf.matmul(tf.reshape(part, [-1, 9, 4]), c([3, 1, 4, 2]))
        t = tf.transpose(p, [0, 3, 1, 2])
        s = t[:, 1:5:2, ..., tf.newaxis, -1]
        cat = tf.concat([a, a * 2.0], axis=-1)
        st = tf.stack([mm, mm, mm], axis=1)
        sq = tf.squeeze(tf.expand_dims(mm, 0), [0])
        red = tf.reduce_mean(cat, axis=[1, 2], keepdims=True)
        red2 = tf.reduce_sum(part, axis=1)
        pad = tf.pad(d, [[0, 0], [1, 1], [2, 0], [0, 0]])
        tile = tf.tile(mm, [2, 3])
        gat = tf.gather(mm, [0, 1, 1], axis=0)
        sp = tf.split(cat, 2, axis=3)
        un = tf.unstack(st, axis=1)
        br = part + c([1, 4])
        sel = tf.where(br > 0.0, br, tf.zeros_like(br))
        cast = tf.cast(sel, tf.int32)
        outs += [h3, np_, s, sq, red, red2, pad, tile, gat, sp[1], un[2], cast, mmt, bmm]
        for i, o in enumerate(outs):
            # The raw ops: tf.shape and its kin give a constant already when
            # the static shape is known.
            tf.raw_ops.Shape(input=o, name="shape_%d" % i)
            tf.raw_ops.Size(input=o, name="size_%d" % i)
            tf.raw_ops.Rank(input=o, name="rank_%d" % i)
        tf.raw_ops.ShapeN(input=[h, part], name="shape_n")
        tf.identity_n(outs, name="outs")
    return g.as_graph_def(), ["x", "part", "nchw"]


def build(name):
    if name == "ops":
        return ops_graph()
    tf.keras.utils.set_random_seed(1)
    graph_def, inp, _, _ = fold_constants_oracle.build(name, "")
    return graph_def, [inp]


def tf_shapes(graph_def):
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        return {op.name: [t.shape for t in op.outputs] for op in g.get_operations()}


def frost_shapes(graph_def, inputs):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.pb"), os.path.join(tmp, "out.pb")
        open(src, "wb").write(graph_def.SerializeToString())
        pipeline = "fold-constants{inputs=%s},add-output-shapes" % ";".join(inputs)
        subprocess.run(["frost-opt", src, "--pass-pipeline=" + pipeline, "-o", dst], check=True)
        out = graph_pb2.GraphDef.FromString(open(dst, "rb").read())
    shapes = {}
    for n in out.node:
        if "_output_shapes" in n.attr:
            shapes[n.name] = [None if s.unknown_rank else [d.size for d in s.dim]
                              for s in n.attr["_output_shapes"].list.shape]
    return out, shapes


def check(name):
    graph_def, inputs = build(name)
    want = tf_shapes(graph_def)
    folded, got = frost_shapes(graph_def, inputs)
    compared = conflicts = misses = 0
    for node, shapes in sorted(got.items()):
        if node not in want:
            continue
        for port, (w, g) in enumerate(zip(want[node], shapes)):
            compared += 1
            if w.rank is None:
                continue
            if g is None:
                misses += max(w.rank, 1)
                print("miss: %s: %s:%d: TensorFlow knows %s" % (name, node, port, w))
                continue
            if len(g) != w.rank:
                fail("%s: %s:%d has rank %d in TensorFlow, %d in Frost" % (name, node, port, w.rank, len(g)))
            for i, (wd, gd) in enumerate(zip(w.as_list(), g)):
                if wd is not None and gd >= 0 and wd != gd:
                    conflicts += 1
                    print("conflict: %s: %s:%d dim %d: TensorFlow %d, Frost %d" % (name, node, port, i, wd, gd))
                elif wd is not None and gd < 0:
                    misses += 1
                    print("miss: %s: %s:%d dim %d: TensorFlow knows %d" % (name, node, port, i, wd))
    # Which shape ops TensorFlow's fold_constants can replace.
    kept = {n.name for n in folded.node if n.op in SHAPE_OPS}
    by_name = {n.name: n for n in graph_def.node}
    foldable, unfoldable = set(), set()
    for n in graph_def.node:
        if n.op not in SHAPE_OPS:
            continue
        shapes = []
        for text in n.input:
            if text.startswith("^"):
                continue
            src, _, port = text.partition(":")
            shapes.append(want[src][int(port or 0)])
        ok = all(s.rank is not None for s in shapes) if n.op == "Rank" else \
            all(s.is_fully_defined() for s in shapes)
        (foldable if ok else unfoldable).add(n.name)
    wrongly_kept = sorted(foldable & kept)
    wrongly_folded = sorted(unfoldable - kept)
    if wrongly_kept:
        fail("%s: TensorFlow folds, Frost keeps: %s" % (name, wrongly_kept))
    if wrongly_folded:
        fail("%s: Frost folds, TensorFlow keeps: %s" % (name, wrongly_folded))
    if conflicts:
        fail("%s: %d conflicting dimensions" % (name, conflicts))
    del by_name
    print("%s: %d tensors compared, 0 conflicts, %d misses; %d of %d shape ops folded as TensorFlow folds them"
          % (name, compared, misses, len(foldable), len(foldable) + len(unfoldable)))


def main():
    for name in sys.argv[1:]:
        check(name)


if __name__ == "__main__":
    main()
