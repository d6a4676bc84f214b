# Writes tables.pbtxt, tables-uninit.pbtxt and tables-dup.pbtxt (frost-verify-runner-tables.test)
# with TensorFlow's gen_lookup_ops and prints TensorFlow's values and errors for them.
import tensorflow as tf
from tensorflow.python.ops import gen_lookup_ops as g
V1=tf.compat.v1
V1.disable_eager_execution()
with tf.Graph().as_default() as gr:
    words=g.hash_table_v2(key_dtype=tf.string, value_dtype=tf.int64, shared_name="words", name="words")
    wi=g.initialize_table_v2(words, tf.constant(["cat","dog","fish"]), tf.constant([0,1,2],tf.int64), name="words_init")
    tf.identity(g.lookup_table_find_v2(words, tf.constant([["dog","lion"],["cat","fish"]]), tf.constant(-1,tf.int64)), name="word_ids")
    tf.identity(g.lookup_table_size_v2(words), name="words_size")
    old=g.hash_table(key_dtype=tf.int64, value_dtype=tf.double, name="old")
    oi=g.initialize_table(old, tf.constant([1,2],tf.int64), tf.constant([0.5,1.5],tf.double), name="old_init")
    tf.identity(g.lookup_table_find(old, tf.constant([2,3],tf.int64), tf.constant(-1.0,tf.double)), name="old_values")
    mut=g.mutable_hash_table_v2(key_dtype=tf.int64, value_dtype=tf.string, name="mut")
    mi=g.lookup_table_import_v2(mut, tf.constant([1,1,2],tf.int64), tf.constant(["a","b","c"]), name="mut_import")
    tf.identity(g.lookup_table_find_v2(mut, tf.constant([1,2,9],tf.int64), tf.constant("?")), name="mut_values")
    tf.identity(g.lookup_table_size_v2(mut), name="mut_size")
    vec=g.mutable_hash_table_of_tensors_v2(key_dtype=tf.int64, value_dtype=tf.float32, value_shape=[2], name="vec")
    vi=g.lookup_table_import_v2(vec, tf.constant([5,6],tf.int64), tf.constant([[1.,2.],[3.,4.]]), name="vec_import")
    tf.identity(g.lookup_table_find_v2(vec, tf.constant([6,7],tf.int64), tf.constant([0.,-1.])), name="vec_values")
    tf.group(wi, oi, mi, vi, name="init_all_tables")
    gd=gr.as_graph_def()
    open("tables.pbtxt","w").write(str(gd))
    with V1.Session() as s:
        s.run("init_all_tables")
        for n in ["word_ids","words_size","old_values","mut_values","mut_size","vec_values"]:
            print(n, s.run(n+":0").tolist())

# Variants: the frozen graph TensorFlow's freeze_graph writes (initializers
# dropped), and an initializer with a repeated key of another value.
drop = {"words_init", "old_init", "mut_import", "vec_import", "init_all_tables"}
uninit = type(gd)()
uninit.CopyFrom(gd)
del uninit.node[:]
uninit.node.extend([n for n in gd.node if n.name not in drop])
open("tables-uninit.pbtxt", "w").write(str(uninit))
with tf.Graph().as_default() as gr:
    V1.import_graph_def(uninit, name="")
    with V1.Session() as s:
        try:
            s.run("word_ids:0")
        except tf.errors.OpError as e:
            print("uninit:", e.message.split("\n")[0])
with tf.Graph().as_default() as gr:
    words=g.hash_table_v2(key_dtype=tf.string, value_dtype=tf.int64, shared_name="words", name="words")
    wi=g.initialize_table_v2(words, tf.constant(["cat","dog","cat"]), tf.constant([0,1,5],tf.int64), name="words_init")
    tf.identity(g.lookup_table_find_v2(words, tf.constant(["dog"]), tf.constant(-1,tf.int64)), name="word_ids")
    tf.group(wi, name="init_all_tables")
    open("tables-dup.pbtxt","w").write(str(gr.as_graph_def()))
    with V1.Session() as s:
        try:
            s.run("init_all_tables")
        except tf.errors.OpError as e:
            print("dup:", e.message.split("\n")[0])
