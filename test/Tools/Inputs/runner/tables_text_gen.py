# Writes tables-text.pbtxt (frost-verify-runner-tables.test): a table
# initialized from a text file named by a Const, "@DIR@/vocab.txt" (the test
# substitutes its directory), with TensorFlow's gen_lookup_ops.
import tensorflow as tf
from tensorflow.python.ops import gen_lookup_ops as g
V1 = tf.compat.v1
V1.disable_eager_execution()
with tf.Graph().as_default() as gr:
    x = V1.placeholder(tf.float32, [3], name="x")
    words = g.hash_table_v2(key_dtype=tf.string, value_dtype=tf.int64, name="vocab")
    init = g.initialize_table_from_text_file_v2(
        words, tf.constant("@DIR@/vocab.txt"), key_index=-2, value_index=-1, name="vocab_init")
    ids = g.lookup_table_find_v2(words, tf.constant(["dog", "lion", "fish"]),
                                 tf.constant(-1, tf.int64))
    tf.identity(ids, name="ids")
    tf.identity(x * tf.cast(ids, tf.float32), name="scaled")
    tf.group(init, name="init_all_tables")
    open("tables-text.pbtxt", "w").write(str(gr.as_graph_def()))
