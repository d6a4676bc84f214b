"""Writes list-concat.pbtxt: TensorListSplit, TensorListResize and
TensorListConcat(V2) over x = [[1, 2], [3, 4], [5, 6]] (TensorFlow's raw ops
in a tf.Graph), and prints TensorFlow's run of each output, which
frost-verify-runner-lists.test expects.

    python3 list_concat_gen.py list-concat.pbtxt
"""
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np, tensorflow as tf
R = tf.raw_ops
g = tf.Graph()
with g.as_default():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]], name="x")
    es = tf.constant([-1, 2], name="element_shape")
    none = tf.constant([], tf.int64, name="no_leading_dims")
    split = R.TensorListSplit(tensor=x, element_shape=es, lengths=tf.constant([1, 2], tf.int64), name="split")
    back = R.TensorListConcatV2(input_handle=split, element_shape=es, leading_dims=none, element_dtype=tf.float32, name="split_concat")
    tf.identity(back[0], name="rejoined"); tf.identity(back[1], name="rejoined_lengths")
    res = R.TensorListReserve(element_shape=es, num_elements=3, element_dtype=tf.float32, name="reserve")
    res = R.TensorListSetItem(input_handle=res, index=1, item=tf.constant([[7., 8.]]), name="set")
    c = R.TensorListConcatV2(input_handle=res, element_shape=es, leading_dims=tf.constant([2, 1, 1], tf.int64), element_dtype=tf.float32, name="reserve_concat")
    tf.identity(c[0], name="padded"); tf.identity(c[1], name="padded_lengths")
    short = R.TensorListResize(input_handle=split, size=1, name="shrink")
    tf.identity(R.TensorListConcatV2(input_handle=short, element_shape=es, leading_dims=none, element_dtype=tf.float32)[0], name="shrunk")
    longer = R.TensorListResize(input_handle=split, size=3, name="grow")
    tf.identity(R.TensorListConcatV2(input_handle=longer, element_shape=es, leading_dims=tf.constant([0, 0, 2], tf.int64), element_dtype=tf.float32)[0], name="grown")
    rows = R.TensorListFromTensor(tensor=tf.reshape(x, [3, 1, 2]), element_shape=tf.constant([1, 2]), name="rows")
    rows = R.TensorListResize(input_handle=rows, size=4, name="rows_grow")
    tf.identity(R.TensorListConcatV2(input_handle=rows, element_shape=tf.constant([-1, 2]), leading_dims=none, element_dtype=tf.float32)[0], name="inferred")
    tf.identity(R.TensorListConcat(input_handle=split, element_dtype=tf.float32, element_shape=[None, 2])[0], name="concat_v1")
    tf.identity(R.TensorListConcatV2(input_handle=res, element_shape=es, leading_dims=none, element_dtype=tf.float32)[0], name="inferred_from_set")
    tf.identity(R.TensorListConcatV2(input_handle=longer, element_shape=es, leading_dims=none, element_dtype=tf.float32)[0], name="missing_leading_dims")
    bad = R.TensorListSplit(tensor=x, element_shape=es, lengths=tf.constant([1, 1], tf.int64), name="bad_split")
    tf.identity(R.TensorListLength(input_handle=bad), name="unused_rows")
    neg = R.TensorListResize(input_handle=split, size=tf.constant(-1), name="negative_resize")
    tf.identity(R.TensorListLength(input_handle=neg), name="negative_size")
gd = g.as_graph_def()
open(sys.argv[1], "w").write(str(gd))
with tf.compat.v1.Session(graph=g) as s:
    for n in ["rejoined", "rejoined_lengths", "padded", "padded_lengths", "shrunk", "grown", "inferred", "concat_v1"]:
        print(n, s.run(n + ":0").tolist())
    try:
        print("inferred_from_set", s.run("inferred_from_set:0").tolist())
        s.run("missing_leading_dims:0")
    except Exception as e:
        print("ERR", str(e).splitlines()[0])
    for n in ["unused_rows", "negative_size"]:
        try:
            s.run(n + ":0")
        except Exception as e:
            print("ERR", n, [l for l in str(e).splitlines() if "Error" in l or "Unused" in l or "expects" in l][:2])
