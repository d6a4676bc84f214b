#!/usr/bin/env python3
"""Builds small TF2 (and one TF1) SavedModels as fixtures for freezing, with
TensorFlow's own frozen graph and ground-truth outputs beside each.

    tf2_models.py OUTDIR [NAME ...]            build the models (all by default)
    tf2_models.py --check OUTDIR/NAME FROZEN.pb [--spec FILE]
                  [--placeholder KEY=NODE ...] [--output KEY=TENSOR ...]
                  [--init-op NODE ...]

For each model NAME, OUTDIR/NAME/ holds:
  saved_model/   the SavedModel (Keras 3 models: model.export(); tf.Modules:
                 tf.saved_model.save(); tf1_lookup_table: SavedModelBuilder).
  tf_frozen.pb   TensorFlow's frozen graph of the signature: for TF2 models
                 convert_variables_to_constants_v2(loaded.signatures[SIG])
                 (default arguments: control flow lowered to v1 ops); for
                 tf1_lookup_table, TF1's graph_util.convert_variables_to_constants
                 for the signature's output node. If TensorFlow fails,
                 tf_frozen.error holds the exception instead.
  spec.json      {"signature", "inputs": [{"key", "placeholder", "dtype",
                 "shape"}], "outputs": [{"key", "tensor"}] (in the frozen
                 function's output order), "inputs_file", "expected_file",
                 and for tf1_lookup_table "init_op" (the table initializer
                 nodes, which a frozen graph must keep and which are run
                 before the outputs) and "main_op" (the SavedModel's main_op,
                 a NoOp grouping them)}.
  tf_frozen_with_init.pb  (tf1_lookup_table) TF1's freezing with the init
                 ops named as outputs too, as one keeps tables in TF1.
  inputs.npz     deterministic inputs, by signature input key (batch of 3).
  expected.npz   the loaded signature function called eagerly on them.
A model with more signatures has a spec.SIG.json (with tf_frozen.SIG.pb,
inputs.SIG.npz, expected.SIG.npz) for each signature besides serving_default.

--check runs FROZEN.pb (imported into a new graph, in a tf.compat.v1.Session,
feeding the spec's placeholders; Frost's output uses the same names) on the
inputs and compares with the expected outputs, printing one line:
  NAME: identical
  NAME: within 1e-6 (max rel R, max abs A)
  NAME: MISMATCH ...
and exiting 1 on a mismatch or when the graph cannot be imported or run. The
spec's "init_op" nodes are run first; one missing from the graph is a failure
(the lookups would say "Table not initialized").

Deterministic: fixed seeds, oneDNN off (TF_ENABLE_ONEDNN_OPTS=0, which also
keeps the import quiet), Keras's exported variables in name order, the hash
table's uuid and fingerprint.pb's uuid derived from seeds, every SavedModel
built before any is frozen. Two runs give the same files except lstm's,
gru's and nms_padded's tf_frozen.pb: TensorFlow's own freezing of a while loop is not
deterministic (lift_to_graph breaks the loop's cycle at an arbitrary op, so
the number and order of "unused_control_flow_input" Placeholders it leaves
vary). Function names in the SavedModels depend on what was traced before,
so building a subset of the models may name them differently.
"""
import argparse
import collections
import contextlib
import json
import os
import random
import shutil
import sys
import time
import uuid

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

tf.get_logger().setLevel("ERROR")
try:
    from absl import logging as absl_logging
    absl_logging.set_verbosity(absl_logging.ERROR)
except ImportError:  # pragma: no cover
    pass

V1 = tf.compat.v1
SEED = 1234
BATCH = 3
RTOL = ATOL = 1e-6


def keras():
    """Keras 3 (tf.keras is Keras 3 with TensorFlow 2.16+; tf_keras is not
    needed)."""
    import keras as k
    return k


def seed_everything(seed=SEED):
    keras().utils.set_random_seed(seed)  # python, numpy and tf seeds
    tf.random.set_seed(seed)
    np.random.seed(seed)


def rng(name):
    """A numpy generator per model, so inputs do not depend on what else ran."""
    return np.random.default_rng([SEED, sum(map(ord, name))])


@contextlib.contextmanager
def sorted_export_variables():
    """Keras's export lists the variables a traced function uses in
    FuncGraph.variables order, which varies from run to run (it follows
    object ids); that order numbers the SavedModel's objects and checkpoint
    keys and the loaded functions' captures. Sorted by name here so the
    files are the same every run. A private Keras function: without it, the
    export is left as it is."""
    try:
        from keras.src.export import saved_model_export_archive as archive
        original = archive._list_variables_used_by_fns
    except (ImportError, AttributeError):
        yield
        return

    def by_name(fns):
        trainable, non_trainable = original(fns)
        return (sorted(trainable, key=lambda v: v.name),
                sorted(non_trainable, key=lambda v: v.name))

    archive._list_variables_used_by_fns = by_name
    try:
        yield
    finally:
        archive._list_variables_used_by_fns = original


@contextlib.contextmanager
def seeded_uuid4(seed=SEED):
    """uuid.uuid4 from a seeded generator (StaticHashTable names its table
    "hash_table_<uuid4>" in graph mode)."""
    gen = random.Random(seed)
    original = uuid.uuid4
    uuid.uuid4 = lambda: uuid.UUID(int=gen.getrandbits(128), version=4)
    try:
        yield
    finally:
        uuid.uuid4 = original


def export_keras(model, path):
    with sorted_export_variables():
        model.export(path, format="tf_saved_model", verbose=False)


# --------------------------------------------------------------------------
# Models. Each builder writes the SavedModel to `path` and returns a dict:
#   signatures: [SIG, ...] (first: the one spec.json describes)
#   inputs: {SIG: {key: ndarray}}
#   tf1: optional TF1 freezing info ({"outputs": [node names], "init_op": [...]})


def build_mlp(path, r):
    k = keras()
    model = k.Sequential([
        k.Input((8,), name="features"),
        k.layers.Dense(16, activation="relu"),
        k.layers.Dropout(0.5),
        k.layers.Dense(4, activation="softmax"),
    ], name="mlp")
    export_keras(model, path)
    x = r.standard_normal((BATCH, 8)).astype(np.float32)
    return {"inputs": {"serving_default": {"features": x}}}


def build_cnn_bn(path, r):
    k = keras()
    inp = k.Input((16, 16, 3), name="image")
    x = k.layers.Conv2D(8, 3)(inp)
    bn = k.layers.BatchNormalization()
    x = bn(x)
    x = k.layers.ReLU()(x)
    x = k.layers.MaxPooling2D()(x)
    x = k.layers.Flatten()(x)
    out = k.layers.Dense(5)(x)
    model = k.Model(inp, out, name="cnn_bn")
    # One SGD step on random data (updates the moving statistics a little,
    # momentum 0.99), then clearly non-trivial BN parameters and statistics
    # so inference differs from training-mode normalisation.
    model.compile(optimizer=k.optimizers.SGD(0.01), loss="mse")
    model.train_on_batch(r.standard_normal((4, 16, 16, 3)).astype(np.float32),
                         r.standard_normal((4, 5)).astype(np.float32))
    gamma, beta, mean, var = (w.numpy() for w in
                              (bn.gamma, bn.beta, bn.moving_mean, bn.moving_variance))
    bn.set_weights([
        r.uniform(0.5, 1.5, gamma.shape).astype(np.float32),
        r.uniform(-0.5, 0.5, beta.shape).astype(np.float32),
        (mean + r.uniform(-0.3, 0.3, mean.shape)).astype(np.float32),
        (var * r.uniform(0.5, 2.0, var.shape)).astype(np.float32),
    ])
    export_keras(model, path)
    x = r.standard_normal((BATCH, 16, 16, 3)).astype(np.float32)
    return {"inputs": {"serving_default": {"image": x}}}


def build_embedding(path, r):
    k = keras()
    inp = k.Input((10,), dtype="int32", name="tokens")
    x = k.layers.Embedding(50, 8)(inp)
    x = k.layers.GlobalAveragePooling1D()(x)
    out = k.layers.Dense(3)(x)
    export_keras(k.Model(inp, out, name="embedding"), path)
    tokens = r.integers(0, 50, (BATCH, 10)).astype(np.int32)
    return {"inputs": {"serving_default": {"tokens": tokens}}}


def _build_rnn(path, r, layer, name):
    k = keras()
    inp = k.Input((7, 4), name="sequence")
    x = layer(inp)
    out = k.layers.Dense(2)(x)
    export_keras(k.Model(inp, out, name=name), path)
    x = r.standard_normal((BATCH, 7, 4)).astype(np.float32)
    return {"inputs": {"serving_default": {"sequence": x}}}


def build_lstm(path, r):
    return _build_rnn(path, r, keras().layers.LSTM(6), "lstm")


def build_gru(path, r):
    return _build_rnn(path, r, keras().layers.GRU(6, return_sequences=False), "gru")


class TwoSignatures(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale_var = tf.Variable(tf.random.normal([4]), name="scale")
        self.bias = tf.Variable(tf.random.normal([4]), name="bias")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def f1(self, x):
        return x * self.scale_var + self.bias  # a bare tensor: key "output_0"

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="a"),
                                  tf.TensorSpec([None, 4], tf.float32, name="b")])
    def f2(self, a, b):
        return {"sum": a + b * self.scale_var,
                "product": a * b * self.bias}


def build_module_two_signatures(path, r):
    m = TwoSignatures()
    tf.saved_model.save(m, path, signatures={"serving_default": m.f1, "scale": m.f2})
    f32 = lambda: r.standard_normal((BATCH, 4)).astype(np.float32)  # noqa: E731
    return {"inputs": {"serving_default": {"x": f32()},
                       "scale": {"a": f32(), "b": f32()}}}


class CondModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.random.normal([4, 3]), name="w")
        self.w2 = tf.Variable(tf.random.normal([4, 3]), name="w2")
        self.b = tf.Variable(tf.random.normal([3]), name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def __call__(self, x):
        return tf.cond(tf.reduce_sum(x) > 0,
                       lambda: x @ self.w,
                       lambda: x @ self.w2 + self.b)


def build_cond(path, r):
    m = CondModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    # Both branches matter; a fixture has one batch, so make its sum positive
    # (the frozen graph still holds both). --check on a negative batch can be
    # done by hand with other inputs.
    x = r.standard_normal((BATCH, 4)).astype(np.float32)
    if x.sum() <= 0:
        x = -x
    return {"inputs": {"serving_default": {"x": x}}}


class ResourceGatherModule(tf.Module):
    """Not one of the requested eight: Keras 3's Embedding reads the whole
    table (ReadVariableOp + GatherV2), so this is the ResourceGather case."""

    def __init__(self):
        super().__init__()
        self.table = tf.Variable(tf.random.normal([50, 8]), name="table")

    @tf.function(input_signature=[tf.TensorSpec([None, 10], tf.int32, name="ids")])
    def __call__(self, ids):
        return {"embedded": tf.reduce_mean(tf.nn.embedding_lookup(self.table, ids), axis=1)}


def build_resource_gather(path, r):
    m = ResourceGatherModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    ids = r.integers(0, 50, (BATCH, 10)).astype(np.int32)
    return {"inputs": {"serving_default": {"ids": ids}}}


class NestedCallsModule(tf.Module):
    """tf.functions calling tf.functions: nested inlining, a control
    dependency, and calls that read a variable (Grappler's strict input
    semantics add input_control_nodes to them)."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.random.normal([4]), name="w")

    @tf.function
    def inner(self, v):
        return tf.negative(v) * self.w

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def __call__(self, x):
        with tf.control_dependencies([tf.identity(x, name="dep")]):
            s = tf.square(x)
        return self.inner(s) + self.inner(x)


def build_nested_calls(path, r):
    m = NestedCallsModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    return {"inputs": {"serving_default": {"x": r.standard_normal((BATCH, 4)).astype(np.float32)}}}


class LookupTableModule(tf.Module):
    """A TF2 tf.lookup table captured by the signature: TensorFlow's
    convert_variables_to_constants_v2 leaves its handle a resource
    Placeholder (the frozen graph cannot run); Frost builds the table and
    its initializer into the graph, run as init_all_tables."""

    def __init__(self):
        super().__init__()
        self.table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(["a", "b", "c"],
                                                tf.constant([1, 2, 3], tf.int64)),
            default_value=-1)
        self.scale = tf.Variable(3, dtype=tf.int64, name="scale")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
    def __call__(self, words):
        return {"ids": self.table.lookup(words) * self.scale}


def build_tf2_lookup_table(path, r):
    m = LookupTableModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    words = r.permutation(np.array([b"c", b"zz", b"a", b"b"], dtype="S2"))
    return {"inputs": {"serving_default": {"words": words}}, "init_op": ["init_all_tables"]}


def build_tf1_lookup_table(path, r):
    graph = tf.Graph()
    with graph.as_default():
        V1.set_random_seed(SEED)
        words = V1.placeholder(tf.string, [None], name="words")
        with seeded_uuid4():
            table = tf.lookup.StaticHashTable(
                tf.lookup.KeyValueTensorInitializer(
                    tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64)),
                default_value=-1)
        ids = table.lookup(words)
        # A TF1 (VariableV2) variable, as a TF1 program would make it.
        scale = V1.get_variable("scale", initializer=tf.constant(2.5), use_resource=False)
        scores = tf.multiply(tf.cast(ids, tf.float32), scale, name="scores")
        init_tables = V1.tables_initializer()
        with V1.Session(graph=graph) as sess:
            sess.run(V1.global_variables_initializer())
            sess.run(init_tables)
            builder = V1.saved_model.Builder(path)
            sig = V1.saved_model.predict_signature_def({"words": words}, {"scores": scores})
            builder.add_meta_graph_and_variables(
                sess, [V1.saved_model.tag_constants.SERVING],
                signature_def_map={"serving_default": sig},
                main_op=init_tables, strip_default_attrs=True)
            builder.save()
        table_inits = [op.name for op in graph.get_collection(V1.GraphKeys.TABLE_INITIALIZERS)]
    # Two known words and an unknown one (default -1), shuffled.
    words = r.permutation(np.array([b"c", b"zz", b"a"], dtype="S2"))
    return {"inputs": {"serving_default": {"words": words}},
            "tf1": {"outputs": ["scores"], "init_op": table_inits,
                    "main_op": init_tables.name}}


def build_normalization(path, r):
    """Keras's Normalization keeps its mean and variance as plain tensors
    (adapt()ed ones too, in finalize_state), which the exported function
    captures as constants. A zero mean (an EfficientNet's, never adapted) is
    a splat, which Grappler would spell with no value; TensorFlow writes
    captured constants after Grappler, as make_tensor_proto spells them."""
    k = keras()
    given = k.layers.Normalization(mean=[0.5, -1.0, 2.0, 0.0], variance=[4.0, 1.0, 0.25, 9.0])
    adapted = k.layers.Normalization()
    adapted.adapt(r.standard_normal((32, 6)).astype(np.float32) * 3.0 + 1.0)
    zero_mean = k.layers.Normalization(mean=[0.0] * 6, variance=[2.0] * 6)
    inp = k.Input((4,), name="features")
    x = zero_mean(k.layers.Dense(6)(given(inp)))
    out = k.layers.Dense(3)(adapted(x))
    export_keras(k.Model(inp, out, name="normalization"), path)
    x = r.standard_normal((BATCH, 4)).astype(np.float32)
    return {"inputs": {"serving_default": {"features": x}}}


def build_attention(path, r):
    """A small transformer block: a sinusoidal position encoding held as a
    plain tensor (captured as a constant), MultiHeadAttention and
    LayerNormalization."""
    k = keras()

    class PositionEncoding(k.layers.Layer):
        def __init__(self, length, depth, **kwargs):
            super().__init__(**kwargs)
            i = np.arange(depth)
            angle = np.arange(length)[:, None] / 10000.0 ** (i // 2 * 2 / depth)
            self.encoding = k.ops.convert_to_tensor(
                np.where(i % 2, np.cos(angle), np.sin(angle)).astype(np.float32))

        def call(self, x):
            return x + self.encoding

    inp = k.Input((5, 8), name="tokens")
    x = PositionEncoding(5, 8)(inp)
    x = k.layers.MultiHeadAttention(num_heads=2, key_dim=4)(x, x)
    x = k.layers.LayerNormalization()(k.layers.Add()([inp, x]))
    out = k.layers.Dense(2)(k.layers.GlobalAveragePooling1D()(x))
    export_keras(k.Model(inp, out, name="attention"), path)
    x = r.standard_normal((BATCH, 5, 8)).astype(np.float32)
    return {"inputs": {"serving_default": {"tokens": x}}}


class CapturedConstantModule(tf.Module):
    """A plain tensor captured by the signature, by a nested tf.function
    (which reads a variable too) and by both branches of a tf.cond."""

    def __init__(self):
        super().__init__()
        self.c = tf.constant([1.0, 2.0, 3.0, 4.0])
        self.w = tf.Variable(tf.random.normal([4]), name="w")

    @tf.function
    def inner(self, v):
        return v * self.c + self.w

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def __call__(self, x):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * self.c, lambda: x - self.c * self.w)
        return self.inner(y) + self.c


def build_captured_constant(path, r):
    m = CapturedConstantModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    x = r.standard_normal((BATCH, 4)).astype(np.float32)
    if x.sum() <= 0:  # as in build_cond
        x = -x
    return {"inputs": {"serving_default": {"x": x}}}


class NmsPaddedModule(tf.Module):
    """tf.image.non_max_suppression_padded with pad_to_max_output_size: its
    tf.conds' functions use ops (Split, All, Equal, Tile, ...) that TensorFlow
    2.21 leaves out of the SavedModel's stripped_op_list, so numbering their
    outputs needs TensorFlow's standard OpDefs (issue 28)."""

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="boxes"),
                                  tf.TensorSpec([None], tf.float32, name="scores")])
    def __call__(self, boxes, scores):
        indices, valid = tf.image.non_max_suppression_padded(
            boxes, scores, max_output_size=5, iou_threshold=0.5, pad_to_max_output_size=True)
        return {"indices": indices, "valid": valid}


def build_nms_padded(path, r):
    m = NmsPaddedModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    # Eight boxes, some overlapping (so some are suppressed), distinct scores.
    corners = r.uniform(0, 8, (8, 2)).astype(np.float32)
    boxes = np.concatenate([corners, corners + r.uniform(1, 4, (8, 2)).astype(np.float32)], axis=1)
    scores = r.permutation(8).astype(np.float32) / 8
    return {"inputs": {"serving_default": {"boxes": boxes, "scores": scores}}}


class UnlistedOpsModule(tf.Module):
    """tf.split, tf.reduce_all, tf.equal and tf.tile only inside a tf.cond's
    branches: TensorFlow 2.21 lists the ops of functions a call reaches, not
    those of an If's branches, in the SavedModel's stripped_op_list."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.random.normal([2, 4]), name="w")

    def reversed_quarters(self, x):
        q = tf.split(x, 4, axis=1)
        all_positive = tf.reduce_all(tf.equal(tf.sign(x), 1.0), axis=1, keepdims=True)
        return tf.where(all_positive, tf.concat(q[::-1], axis=1), q[1] * self.w[1])

    @tf.function
    def scaled(self, v):
        return v * self.w[0]

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def __call__(self, x):
        y = tf.cond(tf.reduce_sum(x) > 0,
                    lambda: self.reversed_quarters(x),
                    lambda: tf.tile(x[:, :2], [1, 2]))
        return {"y": self.scaled(y)}


def build_unlisted_ops(path, r):
    m = UnlistedOpsModule()
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__})
    # The true branch, with rows all positive and rows not.
    x = r.standard_normal((BATCH, 4)).astype(np.float32)
    x[0] = np.abs(x[0])
    if x.sum() <= 0:
        x[1:] = np.abs(x[1:])
        x[1, 0] = -x[1, 0]
    return {"inputs": {"serving_default": {"x": x}}}


MODELS = collections.OrderedDict([
    ("mlp", build_mlp),
    ("cnn_bn", build_cnn_bn),
    ("embedding", build_embedding),
    ("lstm", build_lstm),
    ("gru", build_gru),
    ("module_two_signatures", build_module_two_signatures),
    ("cond", build_cond),
    ("tf1_lookup_table", build_tf1_lookup_table),
    ("resource_gather", build_resource_gather),
    ("nested_calls", build_nested_calls),
    ("tf2_lookup_table", build_tf2_lookup_table),
    ("normalization", build_normalization),
    ("attention", build_attention),
    ("captured_constant", build_captured_constant),
    ("nms_padded", build_nms_padded),
    ("unlisted_ops", build_unlisted_ops),
])


# --------------------------------------------------------------------------
# Freezing, specs and ground truth.


def dtype_name(dtype):
    return tf.as_dtype(dtype).name


def shape_list(shape):
    shape = tf.TensorShape(shape)
    return None if shape.rank is None else shape.as_list()


def sig_files(sig):
    """File names for a signature: plain for serving_default, else .SIG."""
    suffix = "" if sig == "serving_default" else "." + sig
    return {"spec": "spec%s.json" % suffix, "pb": "tf_frozen%s.pb" % suffix,
            "error": "tf_frozen%s.error" % suffix, "inputs": "inputs%s.npz" % suffix,
            "expected": "expected%s.npz" % suffix}


def signature_io(fn):
    """(input keys with their TensorSpecs, output keys), in the flattened
    order of the function's inputs and outputs (dict keys sorted)."""
    args, kwargs = fn.structured_input_signature
    assert not args, "signature functions take keyword arguments only"
    in_keys = sorted(kwargs)
    out = fn.structured_outputs
    out_keys = sorted(out) if isinstance(out, dict) else [str(i) for i in range(len(fn.outputs))]
    return [(key, kwargs[key]) for key in in_keys], out_keys


def freeze_tf2(fn):
    """convert_variables_to_constants_v2 with default arguments; returns
    (GraphDef, {input key: placeholder}, [(output key, tensor name)])."""
    frozen = convert_variables_to_constants_v2(fn)
    inputs, out_keys = signature_io(fn)
    placeholders = {key: t.op.name for (key, _), t in zip(inputs, frozen.inputs)}
    outputs = [(key, t.name) for key, t in zip(out_keys, frozen.outputs)]
    return frozen.graph.as_graph_def(), placeholders, outputs


def freeze_tf1(saved_model, output_nodes):
    """Loads the SavedModel into a Session (running its main_op) and freezes
    it for the output nodes with TF1's convert_variables_to_constants."""
    with tf.Graph().as_default() as graph, V1.Session(graph=graph) as sess:
        meta = V1.saved_model.loader.load(sess, ["serve"], saved_model)
        graph_def = V1.graph_util.convert_variables_to_constants(
            sess, graph.as_graph_def(), output_nodes)
    return graph_def, meta


def unfrozen_names(fn):
    """Placeholders and outputs as the signature's own graph names them (for
    the spec when TensorFlow could not freeze)."""
    inputs, out_keys = signature_io(fn)
    placeholders = {key: t.op.name for (key, _), t in zip(inputs, fn.inputs)}
    return placeholders, [(key, t.name) for key, t in zip(out_keys, fn.outputs)]


def pin_fingerprint_uuid(sm_path):
    """fingerprint.pb holds a random uuid beside its content hashes; derive
    it from the hashes instead so the file is the same every run."""
    try:
        from tensorflow.core.protobuf import fingerprint_pb2
    except ImportError:
        return
    path = os.path.join(sm_path, "fingerprint.pb")
    if not os.path.exists(path):
        return
    fingerprint = fingerprint_pb2.FingerprintDef()
    with open(path, "rb") as f:
        fingerprint.ParseFromString(f.read())
    if "uuid" not in fingerprint.DESCRIPTOR.fields_by_name:
        return
    digest = "%d/%d/%d" % (fingerprint.saved_model_checksum, fingerprint.graph_def_program_hash,
                           fingerprint.checkpoint_hash)
    fingerprint.uuid = str(uuid.uuid5(uuid.NAMESPACE_OID, digest).int)
    with open(path, "wb") as f:
        f.write(fingerprint.SerializeToString(deterministic=True))


def build_model(outdir, name):
    """Writes model NAME's SavedModel to OUTDIR/NAME/saved_model; returns
    the builder's info."""
    model_dir = os.path.join(outdir, name)
    if os.path.exists(model_dir):
        shutil.rmtree(model_dir)
    os.makedirs(model_dir)
    sm_path = os.path.join(model_dir, "saved_model")
    keras().backend.clear_session()
    seed_everything()
    info = MODELS[name](sm_path, rng(name))
    pin_fingerprint_uuid(sm_path)
    return info


def write_model(outdir, name, info):
    """Freezes model NAME (built by build_model) with TensorFlow and writes
    its spec, inputs and expected outputs; returns [(label, ok, text)]."""
    model_dir = os.path.join(outdir, name)
    sm_path = os.path.join(model_dir, "saved_model")
    loaded = tf.saved_model.load(sm_path)  # kept alive: fn holds its variables weakly
    results = []
    for sig, inputs in info["inputs"].items():
        files = sig_files(sig)
        fn = loaded.signatures[sig]
        in_specs, _ = signature_io(fn)
        expected = {k: v.numpy() for k, v in
                    fn(**{k: tf.constant(v) for k, v in inputs.items()}).items()}
        spec = {"signature": sig}
        error = None
        try:
            if "tf1" in info:
                graph_def, meta = freeze_tf1(sm_path, info["tf1"]["outputs"])
                sig_def = meta.signature_def[sig]
                placeholders = {k: v.name.split(":")[0] for k, v in sig_def.inputs.items()}
                outputs = [(k, sig_def.outputs[k].name) for k in sorted(sig_def.outputs)]
            else:
                graph_def, placeholders, outputs = freeze_tf2(fn)
        except Exception as e:  # noqa: BLE001 - any TensorFlow failure is recorded
            error = "%s: %s" % (type(e).__name__, e)
            with open(os.path.join(model_dir, files["error"]), "w") as f:
                f.write(error + "\n")
            placeholders, outputs = unfrozen_names(fn)
        spec["inputs"] = [{"key": key, "placeholder": placeholders[key],
                           "dtype": dtype_name(ts.dtype), "shape": shape_list(ts.shape)}
                          for key, ts in in_specs]
        spec["outputs"] = [{"key": key, "tensor": tensor} for key, tensor in outputs]
        spec["inputs_file"] = files["inputs"]
        spec["expected_file"] = files["expected"]
        if "tf1" in info:
            spec["init_op"] = info["tf1"]["init_op"]
            spec["main_op"] = info["tf1"]["main_op"]
        elif "init_op" in info:  # what Frost's graph must run first
            spec["init_op"] = info["init_op"]
        with open(os.path.join(model_dir, files["spec"]), "w") as f:
            json.dump(spec, f, indent=2)
            f.write("\n")
        # Sorted: the loaded signature's output dict order varies.
        np.savez(os.path.join(model_dir, files["inputs"]), **dict(sorted(inputs.items())))
        np.savez(os.path.join(model_dir, files["expected"]), **dict(sorted(expected.items())))

        label = name if sig == "serving_default" else "%s[%s]" % (name, sig)
        if error is not None:
            results.append((label, False, "%s: TensorFlow could not freeze it: %s"
                            % (label, error.splitlines()[0])))
            continue
        pb = os.path.join(model_dir, files["pb"])
        with open(pb, "wb") as f:
            f.write(graph_def.SerializeToString(deterministic=True))
        ok, line = check(model_dir, pb, spec_file=files["spec"], label=label)
        results.append((label, ok, "%s (tf_frozen: %d nodes)" % (line, len(graph_def.node))))
        if spec.get("init_op") and "tf1" in info:
            # TF1's convert_variables_to_constants keeps only what the outputs
            # need, which drops the table initializers; the usual remedy is to
            # name them as outputs too. That graph must pass.
            graph_def, _ = freeze_tf1(sm_path, info["tf1"]["outputs"] + spec["init_op"])
            pb = os.path.join(model_dir, "tf_frozen_with_init.pb")
            with open(pb, "wb") as f:
                f.write(graph_def.SerializeToString(deterministic=True))
            ok, line = check(model_dir, pb, spec_file=files["spec"], label=label + "[with init]")
            results.append((label, ok, "%s (tf_frozen_with_init: %d nodes)"
                            % (line, len(graph_def.node))))
    return results


# --------------------------------------------------------------------------
# Running frozen graphs and comparing.


def _tensor_name(name):
    return name if ":" in name else name + ":0"


def op_error_line(message):
    """The line of a TensorFlow error message that says what went wrong
    (e.g. "Table not initialized."), not "Graph execution error:"."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    noise = ("Graph execution error", "Detected at node", "Node:", "[[", "File ",
             "(most recent")
    for line in lines:
        if not line.startswith(noise):
            return line
    return lines[0] if lines else ""


def run_frozen(pb_path, spec, inputs, placeholders=None, outputs=None, init_ops=None):
    """Runs the frozen GraphDef at pb_path (imported with name "" into a new
    graph, in a tf.compat.v1.Session) and returns {output key: ndarray}.

    Feeds inputs[key] to the spec's placeholder for each input and fetches
    the spec's output tensors; placeholders ({key: node or tensor name}) and
    outputs ({key: tensor name}) override the spec's names. The init_ops
    (default: the spec's "init_op") are run first; raises RuntimeError if
    one is not in the graph."""
    placeholders = placeholders or {}
    outputs = outputs or {}
    if init_ops is None:
        init_ops = spec.get("init_op", [])
    graph_def = V1.GraphDef()
    with open(pb_path, "rb") as f:
        graph_def.ParseFromString(f.read())
    graph = tf.Graph()
    with graph.as_default():
        V1.import_graph_def(graph_def, name="")
    feed = {}
    for inp in spec["inputs"]:
        name = placeholders.get(inp["key"], inp["placeholder"])
        feed[graph.get_tensor_by_name(_tensor_name(name))] = inputs[inp["key"]]
    keys = [out["key"] for out in spec["outputs"]]
    fetches = [graph.get_tensor_by_name(_tensor_name(outputs.get(out["key"], out["tensor"])))
               for out in spec["outputs"]]
    with V1.Session(graph=graph) as sess:
        present = {op.name for op in graph.get_operations()}
        missing = [n for n in init_ops if n not in present]
        if missing:
            try:  # say what running without them gives, e.g. "Table not initialized"
                sess.run(fetches, feed)
                consequence = "the outputs run without them"
            except tf.errors.OpError as e:
                consequence = "running gives: " + op_error_line(e.message)
            raise RuntimeError("init op(s) %s not in the graph; %s"
                               % (", ".join(missing), consequence))
        if init_ops:
            sess.run([graph.get_operation_by_name(n) for n in init_ops])
        values = sess.run(fetches, feed)
    return dict(zip(keys, values))


def compare(got, want):
    """Returns (status, detail): status "identical", "close" or "mismatch"."""
    worst_abs = worst_rel = 0.0
    status = "identical"
    for key in want:
        w = np.asarray(want[key])
        if key not in got:
            return "mismatch", "output %s missing" % key
        g = np.asarray(got[key])
        if g.shape != w.shape or g.dtype != w.dtype:
            return "mismatch", "output %s: %s %s, expected %s %s" % (
                key, g.dtype, g.shape, w.dtype, w.shape)
        if g.tobytes() == w.tobytes():
            continue
        if not np.issubdtype(w.dtype, np.inexact):
            return "mismatch", "output %s differs (%d of %d elements)" % (
                key, int(np.sum(g != w)), w.size)
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        both_nan = np.isnan(g64) & np.isnan(w64)
        diff = np.where(both_nan, 0.0, np.abs(g64 - w64))
        rel = np.where(diff == 0, 0.0, diff / np.maximum(np.abs(w64), np.finfo(np.float64).tiny))
        max_abs, max_rel = float(np.nanmax(diff, initial=0.0)), float(np.nanmax(rel, initial=0.0))
        worst_abs, worst_rel = max(worst_abs, max_abs), max(worst_rel, max_rel)
        if np.isnan(diff).any() or not np.all(diff <= ATOL + RTOL * np.abs(w64)):
            return "mismatch", "output %s: max abs %.3g, max rel %.3g" % (key, max_abs, max_rel)
        status = "close"
    return status, "max rel %.3g, max abs %.3g" % (worst_rel, worst_abs)


def check(model_dir, pb_path, spec_file="spec.json", label=None,
          placeholders=None, outputs=None, init_ops=None):
    """Runs pb_path on the model's inputs; returns (ok, the line to print)."""
    model_dir = model_dir.rstrip("/")
    label = label or os.path.basename(model_dir)
    with open(os.path.join(model_dir, spec_file)) as f:
        spec = json.load(f)
    with np.load(os.path.join(model_dir, spec.get("inputs_file", "inputs.npz"))) as z:
        inputs = dict(z)
    with np.load(os.path.join(model_dir, spec["expected_file"])) as z:
        expected = dict(z)
    try:
        got = run_frozen(pb_path, spec, inputs, placeholders, outputs, init_ops)
    except Exception as e:  # noqa: BLE001
        msg = op_error_line(e.message if isinstance(e, tf.errors.OpError) else str(e))
        return False, "%s: MISMATCH cannot run %s: %s: %s" % (
            label, pb_path, type(e).__name__, msg)
    status, detail = compare(got, expected)
    if status == "identical":
        return True, "%s: identical" % label
    if status == "close":
        return True, "%s: within 1e-6 (%s)" % (label, detail)
    return False, "%s: MISMATCH %s" % (label, detail)


def parse_map(items):
    result = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit("expected KEY=NAME, got %r" % item)
        result[key] = value
    return result


def main(argv):
    if argv and argv[0] == "--check":
        p = argparse.ArgumentParser(prog="tf2_models.py --check")
        p.add_argument("model_dir", help="OUTDIR/NAME, or a spec file in it")
        p.add_argument("frozen", help="the frozen GraphDef to run")
        p.add_argument("--spec", help="spec file in the model directory (default spec.json)")
        p.add_argument("--placeholder", action="append", metavar="KEY=NODE",
                       help="feed input KEY to NODE instead of the spec's placeholder")
        p.add_argument("--output", action="append", metavar="KEY=TENSOR",
                       help="fetch output KEY from TENSOR instead of the spec's")
        p.add_argument("--init-op", action="append", metavar="NODE",
                       help="run NODE first (instead of the spec's init_op)")
        a = p.parse_args(argv[1:])
        model_dir, spec_file = a.model_dir, a.spec or "spec.json"
        if os.path.isfile(model_dir):
            model_dir, spec_file = os.path.split(os.path.abspath(model_dir))
        label = os.path.basename(model_dir.rstrip("/"))
        if spec_file != "spec.json":
            label += "[%s]" % spec_file[len("spec."):-len(".json")]
        ok, line = check(model_dir, a.frozen, spec_file, label,
                         parse_map(a.placeholder), parse_map(a.output), a.init_op)
        print(line)
        return 0 if ok else 1

    p = argparse.ArgumentParser(description="Builds the TF2 SavedModel fixtures.")
    p.add_argument("outdir")
    p.add_argument("names", nargs="*", metavar="NAME", help="|".join(MODELS))
    a = p.parse_args(argv)
    unknown = [n for n in a.names if n not in MODELS]
    if unknown:
        p.error("unknown model(s) %s; known: %s" % (", ".join(unknown), ", ".join(MODELS)))
    os.makedirs(a.outdir, exist_ok=True)
    start = time.time()
    failures = 0
    names = a.names or list(MODELS)
    # All SavedModels first: TensorFlow's freezing of while loops uses a
    # varying number of graph uids, which would rename later models' functions.
    infos = {name: build_model(a.outdir, name) for name in names}
    print("built %d SavedModel(s) in %.1f s" % (len(names), time.time() - start), flush=True)
    for name in names:
        t0 = time.time()
        for label, ok, text in write_model(a.outdir, name, infos[name]):
            failures += not ok
            print("%s [%.1f s]" % (text, time.time() - t0), flush=True)
    print("generated %d model(s) in %.1f s; %d tf_frozen check(s) failed"
          % (len(a.names or MODELS), time.time() - start, failures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
