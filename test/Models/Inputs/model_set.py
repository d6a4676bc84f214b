#!/usr/bin/env python3
"""Builds the model set: small inference models of the families real users
freeze, each built by TensorFlow in seconds, for frost-verify to be measured
on (scripts/model_set_report.py, test/Models/model-set-verify.test).

    model_set.py OUTDIR [NAME ...]        build the models (all by default)
    model_set.py --list                   print the model names

For each model NAME, OUTDIR/NAME/ holds what freeze-graph takes:
  model.meta + model.index/data   (TF1: a Saver's checkpoint and MetaGraph), or
  saved_model/                    (TF2: a SavedModel)
and spec.json:
  {"name", "kind": "tf1"|"tf2", "source": "model" | "saved_model",
   "runs": [{"label", "flags": [freeze-graph flags]}]  (one per signature),
   "inputs": {placeholder node of the frozen graph: dtype},
   "outputs": [tensor name in the frozen graph, ...],
   "ops": ops of the source graph (and its functions)}
  inputs.npz    the feed: placeholder node -> value
  expected.npz  the source model's outputs on that feed: "out<i>" for
                outputs[i] (TF1: the restored Session; TF2: the loaded
                signature called eagerly)
A model with several signatures has one spec.SIG.json, inputs.SIG.npz,
expected.SIG.npz per further signature.

Deterministic seeds, oneDNN off. Builds TF1 models first (v1 control flow
and reference variables, as TF1 wrote them), then TF2 models.
"""
import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.get_logger().setLevel("ERROR")
V1 = tf.compat.v1
SEED = 29
BATCH = 2
MODELS = {}


def model(kind):
    def register(fn):
        MODELS[fn.__name__[len("build_"):]] = (kind, fn)
        return fn
    return register


def rng(name):
    return np.random.default_rng([SEED, sum(map(ord, name))])


def normal(r, shape, scale=1.0):
    return (scale * r.standard_normal(shape)).astype(np.float32)


# ------------------------------------------------------------------ TF1
# A TF1 builder runs in a fresh tf.Graph and returns
#   {"outputs": [node names], "feeds": {placeholder: value}, "flags": [...]}.


def variable(name, value):
    return V1.get_variable(name, initializer=value)


def dense(x, units, name, r):
    w = variable(name + "/kernel", normal(r, (x.shape[-1], units), 0.5))
    return tf.nn.bias_add(tf.matmul(x, w), variable(name + "/bias", normal(r, (units,), 0.1)))


@model("tf1")
def build_tf1_cnn_batch_norm(r):
    """Convolutions with batch norms in inference mode (one fused, one
    tf.nn.batch_normalization), trained-looking statistics."""
    x = V1.placeholder(tf.float32, [None, 16, 16, 3], name="image")
    h = x
    for i, filters in enumerate((8, 16)):
        k = variable("conv%d/kernel" % i, normal(r, (3, 3, h.shape[-1], filters), 0.3))
        h = tf.nn.conv2d(h, k, 1, "SAME")
        gamma, beta, mean, var = (variable("bn%d/%s" % (i, n), v.astype(np.float32)) for n, v in (
            ("gamma", r.uniform(0.5, 1.5, filters)), ("beta", r.uniform(-0.5, 0.5, filters)),
            ("moving_mean", r.uniform(-0.3, 0.3, filters)),
            ("moving_variance", r.uniform(0.5, 2.0, filters))))
        if i == 0:
            h, _, _ = V1.nn.fused_batch_norm(h, gamma, beta, mean=mean, variance=var,
                                             epsilon=1e-3, is_training=False)
        else:
            h = tf.nn.batch_normalization(h, mean, var, beta, gamma, 1e-3)
        h = tf.nn.max_pool2d(tf.nn.relu(h), 2, 2, "VALID")
    h = tf.reduce_mean(h, axis=[1, 2])
    tf.nn.softmax(dense(h, 5, "logits", r), name="probs")
    return {"outputs": ["probs"], "feeds": {"image": normal(r, (BATCH, 16, 16, 3))}}


class Cell:
    """An RNN cell as tf.compat.v1.nn.rnn_cell's LSTMCell/GRUCell compute it
    (those classes need tf_keras), duck-typed for dynamic_rnn; the variables
    are made before the loop. LSTM state: [c, h] concatenated."""

    def __init__(self, kind, units, inputs, name, r):
        self.kind, self.units = kind, units
        gates = 4 if kind == "lstm" else 3
        self.kernel = variable(name + "/kernel", normal(r, (inputs + units, gates * units), 0.4))
        self.bias = variable(name + "/bias", normal(r, (gates * units,), 0.1))
        self.state_size = 2 * units if kind == "lstm" else units
        self.output_size = units

    def zero_state(self, batch, dtype):
        return tf.zeros([batch, self.state_size], dtype)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return self.zero_state(batch_size, dtype)

    def __call__(self, x, state, scope=None):
        u = self.units
        if self.kind == "lstm":
            c, h = state[:, :u], state[:, u:]
            i, j, f, o = tf.split(tf.matmul(tf.concat([x, h], 1), self.kernel) + self.bias, 4, 1)
            c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(j)
            h = tf.sigmoid(o) * tf.tanh(c)
            return h, tf.concat([c, h], 1)
        zr = tf.matmul(tf.concat([x, state], 1), self.kernel[:, :2 * u]) + self.bias[:2 * u]
        z, rr = tf.split(tf.sigmoid(zr), 2, 1)
        cand = tf.tanh(tf.matmul(tf.concat([x, rr * state], 1), self.kernel[:, 2 * u:])
                       + self.bias[2 * u:])
        h = z * state + (1 - z) * cand
        return h, h


def rnn_model(r, kind):
    x = V1.placeholder(tf.float32, [None, 6, 4], name="sequence")
    lengths = V1.placeholder(tf.int32, [None], name="lengths")
    cell = Cell(kind, 8, 4, "rnn/" + kind, r)
    outputs, _ = V1.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
    tf.identity(dense(outputs[:, -1], 3, "head", r), name="scores")
    return {"outputs": ["scores"],
            "feeds": {"sequence": normal(r, (BATCH, 6, 4)), "lengths": np.array([6, 4], np.int32)}}


@model("tf1")
def build_tf1_dynamic_rnn_lstm(r):
    return rnn_model(r, "lstm")


@model("tf1")
def build_tf1_dynamic_rnn_gru(r):
    return rnn_model(r, "gru")


@model("tf1")
def build_tf1_seq2seq_greedy(r):
    """GRU encoder (dynamic_rnn), then a greedy decoder: a tf.while_loop
    feeding back the argmax token's embedding, writing TensorArrays."""
    vocab, emb_dim, units, steps = 12, 6, 8, 5
    src = V1.placeholder(tf.int32, [None, 7], name="source_ids")
    embedding = variable("embedding", normal(r, (vocab, emb_dim)))
    with V1.variable_scope("encoder"):
        _, state = V1.nn.dynamic_rnn(Cell("gru", units, emb_dim, "encoder/gru", r),
                                     tf.nn.embedding_lookup(embedding, src), dtype=tf.float32)
    cell = Cell("gru", units, emb_dim, "decoder/gru", r)
    proj = variable("decoder/projection", normal(r, (units, vocab), 0.5))
    batch = tf.shape(src)[0]

    def body(t, token, h, ids, logits_ta):
        out, h = cell(tf.nn.embedding_lookup(embedding, token), h)
        logits = tf.matmul(out, proj)
        token = tf.argmax(logits, axis=-1, output_type=tf.int32)
        return t + 1, token, h, ids.write(t, token), logits_ta.write(t, logits)

    _, _, _, ids, logits = tf.while_loop(
        lambda t, *_: t < steps, body,
        [tf.constant(0), tf.zeros([batch], tf.int32), state,
         tf.TensorArray(tf.int32, steps), tf.TensorArray(tf.float32, steps)])
    tf.transpose(ids.stack(), name="decoded_ids")
    tf.transpose(logits.stack(), [1, 0, 2], name="decoded_logits")
    return {"outputs": ["decoded_ids", "decoded_logits"],
            "feeds": {"source_ids": r.integers(0, vocab, (BATCH, 7)).astype(np.int32)}}


@model("tf1")
def build_tf1_estimator_parse_example(r):
    """An Estimator-style serving graph: serialized tf.Examples in,
    ParseExampleV2, feature transforms, a linear head."""
    serialized = V1.placeholder(tf.string, [None], name="input_example_tensor")
    features = V1.io.parse_example(serialized, {
        "age": V1.io.FixedLenFeature([1], tf.float32, default_value=[30.0]),
        "income": V1.io.FixedLenFeature([2], tf.float32),
        "bucket": V1.io.FixedLenFeature([1], tf.int64, default_value=[0]),
    })
    bucket = tf.one_hot(tf.squeeze(features["bucket"], 1), 4)
    dense = tf.concat([features["age"] / 100.0, tf.math.log1p(features["income"]), bucket], 1)
    w = variable("linear/weights", normal(r, (7, 2)))
    b = variable("linear/bias", normal(r, (2,)))
    tf.nn.softmax(tf.matmul(dense, w) + b, name="probabilities")

    def example(age, income, bucket):
        f = {"income": tf.train.Feature(float_list=tf.train.FloatList(value=income)),
             "bucket": tf.train.Feature(int64_list=tf.train.Int64List(value=[bucket]))}
        if age is not None:
            f["age"] = tf.train.Feature(float_list=tf.train.FloatList(value=[age]))
        return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()
    # No Example may end in a zero byte: .npy's bytes (numpy's S) drop
    # trailing zeros, and which feature is serialized last varies between
    # processes (the map's order), so no value here is 0.
    feed = np.array([example(41.0, [1200.0, 30.5], 2), example(None, [10.0, 0.5], 3)], object)
    return {"outputs": ["probabilities"], "feeds": {"input_example_tensor": feed}}


@model("tf1")
def build_tf1_control_flow_v1(r):
    """v1 while loop and cond (Enter/Exit/Merge/Switch) over variables."""
    x = V1.placeholder(tf.float32, [None, 4], name="x")
    w = variable("w", normal(r, (4, 4), 0.5))
    gate = variable("gate", np.float32(0.25))
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w))),
                         [tf.constant(0), x])
    tf.cond(tf.reduce_sum(x) > gate, lambda: h * 2.0, lambda: h - 1.0, name="cond")
    tf.identity(V1.get_default_graph().get_tensor_by_name("cond/Merge:0"), name="y")
    return {"outputs": ["y"], "feeds": {"x": normal(r, (BATCH, 4))}}


@model("tf1")
def build_tf1_ctc_decoders(r):
    """Speech/OCR post-processing: CTC greedy and beam search decoding of
    projected logits, densified."""
    x = V1.placeholder(tf.float32, [7, None, 5], name="logits_in")
    logits = tf.einsum("tbc,cd->tbd", x, variable("proj", normal(r, (5, 5), 0.5)))
    lengths = tf.fill([tf.shape(x)[1]], 7)
    (greedy,), _ = tf.nn.ctc_greedy_decoder(logits, lengths)
    (beam,), logp = tf.nn.ctc_beam_search_decoder(logits, lengths, beam_width=4, top_paths=1)
    tf.identity(tf.sparse.to_dense(greedy), name="greedy")
    tf.identity(tf.sparse.to_dense(beam), name="beam")
    tf.identity(logp, name="logp")
    return {"outputs": ["greedy", "beam", "logp"], "feeds": {"logits_in": normal(r, (7, BATCH, 5))}}


@model("tf1")
def build_tf1_inception_block(r):
    """A slim-style Inception block: 1x1 and dilated 3x3 branches with fused
    batch norms and ReLU6, an average-pool branch, and SegNet's argmax pool."""
    x = V1.placeholder(tf.float32, [None, 17, 17, 4], name="images")

    def conv(t, k, n, name, rate=1):
        w = variable(name + "/weights", normal(r, (k, k, t.shape[-1], n), 0.3))
        y = tf.nn.conv2d(t, w, 1, "SAME", dilations=rate)
        gamma, beta, mean, var = (variable("%s/bn/%s" % (name, v), value.astype(np.float32))
                                  for v, value in (
            ("gamma", r.uniform(0.5, 1.5, n)), ("beta", r.uniform(-0.5, 0.5, n)),
            ("moving_mean", r.uniform(-0.3, 0.3, n)), ("moving_variance", r.uniform(0.5, 2.0, n))))
        y = V1.nn.fused_batch_norm(y, gamma, beta, mean=mean, variance=var, is_training=False)[0]
        return tf.nn.relu6(y)
    pooled, argmax = tf.nn.max_pool_with_argmax(x, 3, 2, "SAME")
    y = tf.concat([conv(x, 1, 4, "b0"), conv(conv(x, 1, 3, "b1a"), 3, 4, "b1b", rate=2),
                   conv(tf.nn.avg_pool2d(x, 3, 1, "SAME"), 1, 2, "b2")], 3)
    y = tf.reduce_mean(y, [1, 2]) + tf.reduce_mean(pooled, [1, 2, 3])[:, None]
    tf.nn.softmax(dense(y, 5, "logits", r), name="probs")
    tf.identity(argmax, name="argmax")
    return {"outputs": ["probs", "argmax"], "feeds": {"images": normal(r, (BATCH, 17, 17, 4))}}


# ------------------------------------------------------------------ TF2
# A TF2 builder writes a SavedModel to `path` and returns
#   {"inputs": {signature: {key: value}}}  (first signature: spec.json).


def keras():
    import keras as k
    return k


def export_keras(m, path):
    m.export(path, format="tf_saved_model", verbose=False)


def image_input(r, size=32, channels=3):
    return {"serving_default": {"image": normal(r, (BATCH, size, size, channels))}}


def calibrate_batch_norms(m, r, shape):
    """Moving statistics from one batch (momentum 0 for one training-mode
    call): fresh weights=None models keep mean 0, variance 1, whose
    activations saturate (MobileNet's ReLU6) so that no weight moves the
    output; calibrated, every layer sees normalised activations."""
    k = keras()
    norms = [l for l in m._flatten_layers() if isinstance(l, k.layers.BatchNormalization)]
    for layer in norms:
        layer.momentum = 0.0
    m(normal(r, (8,) + shape), training=True)
    for layer in norms:
        layer.momentum = 0.99


def keras_app(path, r, make):
    k = keras()
    inp = k.Input((32, 32, 3), name="image")
    m = make(inp)
    calibrate_batch_norms(m, r, (32, 32, 3))
    export_keras(m, path)
    return {"inputs": image_input(r)}


@model("tf2")
def build_keras_mobilenet_v2(path, r):
    k = keras()
    return keras_app(path, r, lambda inp: k.applications.MobileNetV2(
        input_tensor=inp, alpha=0.35, weights=None, classes=10))


@model("tf2")
def build_keras_mobilenet_v3_small(path, r):
    k = keras()
    return keras_app(path, r, lambda inp: k.applications.MobileNetV3Small(
        input_tensor=inp, weights=None, classes=10))


# Keras applications with fewer blocks than their published depth (same
# layers and ops, a fraction of the tracing time): EfficientNet's swish
# (IdentityN), DenseNet's concatenations, NASNet's separable convolutions,
# ConvNeXt's exact GELU and layer scale, ResNet's bottlenecks.
@model("tf2")
def build_keras_efficientnet_b0_shallow(path, r):
    from keras.src.applications import efficientnet
    return keras_app(path, r, lambda inp: efficientnet.EfficientNet(
        1.0, 0.1, 32, input_tensor=inp, weights=None, classes=10, name="efficientnet_b0_shallow"))


@model("tf2")
def build_keras_densenet_shallow(path, r):
    from keras.src.applications import densenet
    return keras_app(path, r, lambda inp: densenet.DenseNet(
        [1, 2, 2, 1], input_tensor=inp, weights=None, classes=10))


@model("tf2")
def build_keras_nasnet_mobile_shallow(path, r):
    from keras.src.applications import nasnet
    return keras_app(path, r, lambda inp: nasnet.NASNet(
        input_shape=(32, 32, 3), penultimate_filters=96, num_blocks=1, stem_block_filters=8,
        input_tensor=inp, weights=None, classes=10, default_size=32))


@model("tf2")
def build_keras_convnext_tiny_shallow(path, r):
    from keras.src.applications import convnext
    return keras_app(path, r, lambda inp: convnext.ConvNeXt(
        [1, 1, 1, 1], [16, 32, 64, 128], default_size=32, input_tensor=inp, weights=None,
        classes=10, layer_scale_init_value=0.5))


@model("tf2")
def build_keras_resnet50_shallow(path, r):
    from keras.src.applications import resnet

    def stacks(x):
        x = resnet.stack_residual_blocks_v1(x, 16, 1, stride1=1, name="conv2")
        x = resnet.stack_residual_blocks_v1(x, 32, 1, name="conv3")
        return resnet.stack_residual_blocks_v1(x, 64, 1, name="conv4")
    return keras_app(path, r, lambda inp: resnet.ResNet(
        stacks, False, True, input_tensor=inp, weights=None, classes=10, name="resnet50_shallow"))


@model("tf2")
def build_keras_unet_dilated(path, r):
    k = keras()
    L = k.layers
    inp = k.Input((32, 32, 3), name="image")
    c1 = L.Conv2D(8, 3, padding="same", dilation_rate=2, activation="relu")(inp)
    p1 = L.MaxPooling2D()(c1)
    c2 = L.Conv2D(16, 3, padding="same", dilation_rate=2)(p1)
    c2 = L.ReLU()(L.BatchNormalization()(c2))
    p2 = L.MaxPooling2D()(c2)
    b = L.Conv2D(16, 3, padding="same", dilation_rate=4, activation="relu")(p2)
    u2 = L.Conv2DTranspose(16, 2, strides=2, padding="same")(b)
    c3 = L.Conv2D(16, 3, padding="same", activation="relu")(L.Concatenate()([u2, c2]))
    u1 = L.UpSampling2D(interpolation="bilinear")(c3)
    c4 = L.Conv2D(8, 3, padding="same", activation="relu")(L.Concatenate()([u1, c1]))
    out = L.Conv2D(2, 1, activation="softmax")(c4)
    m = k.Model(inp, out)
    calibrate_batch_norms(m, r, (32, 32, 3))
    export_keras(m, path)
    return {"inputs": image_input(r)}


@model("tf2")
def build_keras_transformer_encoder(path, r):
    k = keras()
    L = k.layers
    inp = k.Input((10,), dtype="int32", name="tokens")
    x = L.Embedding(50, 16)(inp)
    a = L.MultiHeadAttention(2, 8)(x, x)
    x = L.LayerNormalization()(x + a)
    f = L.Dense(32, activation=lambda t: k.activations.gelu(t, approximate=False))(x)
    x = L.LayerNormalization()(x + L.Dense(16)(f))
    out = L.Dense(3)(L.GlobalAveragePooling1D()(x))
    export_keras(k.Model(inp, out), path)
    return {"inputs": {"serving_default": {"tokens": r.integers(0, 50, (BATCH, 10)).astype(np.int32)}}}


@model("tf2")
def build_keras_lstm_gru(path, r):
    k = keras()
    L = k.layers
    inp = k.Input((6, 4), name="sequence")
    x = L.LSTM(8, return_sequences=True)(inp)
    x = L.GRU(8)(x)
    export_keras(k.Model(inp, L.Dense(3)(x)), path)
    return {"inputs": {"serving_default": {"sequence": normal(r, (BATCH, 6, 4))}}}


@model("tf2")
def build_keras_two_signatures(path, r):
    k = keras()
    L = k.layers
    inp = k.Input((8,), name="features")
    hidden = L.Dense(16, activation="relu", name="hidden")(inp)
    logits = L.Dense(4, name="logits")(hidden)
    m = k.Model(inp, [logits, hidden])
    archive = k.export.ExportArchive()
    archive.track(m)
    spec = [tf.TensorSpec([None, 8], tf.float32, name="features")]
    archive.add_endpoint("serving_default", lambda x: tf.nn.softmax(m(x)[0]), input_signature=spec)
    archive.add_endpoint("embed", lambda x: m(x)[1], input_signature=spec)
    archive.write_out(path, verbose=False)
    x = normal(r, (BATCH, 8))
    return {"inputs": {"serving_default": {"features": x}, "embed": {"features": x}}}


def save_module(m, path, fn):
    tf.saved_model.save(m, path, signatures={"serving_default": fn})


class Module(tf.Module):
    pass


@model("tf2")
def build_signal_mfcc(path, r):
    m = Module()
    m.gain = tf.Variable(normal(r, (13,), 0.1) + 1.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 1024], tf.float32, name="audio")])
    def features(audio):
        stft = tf.signal.stft(audio, 256, 128, 256, window_fn=tf.signal.hann_window)
        mag = tf.abs(stft)
        mel = tf.tensordot(mag, tf.signal.linear_to_mel_weight_matrix(20, 129, 16000, 20.0, 4000.0), 1)
        mfcc = tf.signal.mfccs_from_log_mel_spectrograms(tf.math.log(mel + 1e-6))[..., :13]
        frames = tf.signal.inverse_stft(stft, 256, 128, 256,
                                        window_fn=tf.signal.inverse_stft_window_fn(128))
        return {"mfcc": mfcc * m.gain, "resynthesized": frames}
    m.features = features
    save_module(m, path, features)
    return {"inputs": {"serving_default": {"audio": normal(r, (BATCH, 1024))}}}


@model("tf2")
def build_strings_ragged(path, r):
    m = Module()
    m.embedding = tf.Variable(normal(r, (64, 4)))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="text")])
    def encode(text):
        words = tf.strings.split(tf.strings.lower(tf.strings.regex_replace(text, "[,.]", " ")))
        ids = tf.strings.to_hash_bucket_fast(words, 64)
        vectors = tf.nn.embedding_lookup(m.embedding, ids)  # ragged
        pooled = tf.reduce_mean(vectors, axis=1)
        first = tf.strings.substr(text, 0, 3)
        return {"pooled": pooled, "lengths": tf.strings.length(text),
                "first": tf.strings.join([first, tf.strings.as_string(words.row_lengths())], "|")}
    m.encode = encode
    save_module(m, path, encode)
    text = np.array([b"The quick Brown fox.", b"jumps, over the lazy dog again"], object)
    return {"inputs": {"serving_default": {"text": text}}}


@model("tf2")
def build_image_colour_resize(path, r):
    m = Module()
    m.kernel = tf.Variable(normal(r, (3, 3, 3, 4), 0.3))

    @tf.function(input_signature=[tf.TensorSpec([None, 16, 16, 3], tf.float32, name="image")])
    def process(image):
        image = tf.sigmoid(image)
        hsv = tf.image.rgb_to_hsv(image)
        rgb = tf.image.hsv_to_rgb(hsv * [1.0, 0.8, 1.0])
        rgb = tf.image.adjust_hue(rgb, 0.1)
        rgb = tf.image.adjust_saturation(rgb, 1.3)
        rgb = tf.image.adjust_contrast(rgb, 0.7)
        gray = tf.image.rgb_to_grayscale(rgb)
        area = tf.image.resize(rgb, [8, 8], method="area")
        bicubic = tf.image.resize(rgb, [24, 24], method="bicubic")
        nearest = tf.image.resize(gray, [8, 8], method="nearest")
        boxes = tf.constant([[0.1, 0.1, 0.8, 0.9], [0.0, 0.2, 0.5, 0.5]])
        crops = tf.image.crop_and_resize(rgb, boxes, tf.zeros([2], tf.int32), [6, 6])
        conv = tf.nn.conv2d(bicubic, m.kernel, 1, "SAME")
        return {"area": area, "conv": conv, "nearest": nearest, "crops": crops}
    m.process = process
    save_module(m, path, process)
    return {"inputs": image_input(r, 16)}


@model("tf2")
def build_linalg_einsum(path, r):
    m = Module()
    m.w = tf.Variable(normal(r, (4, 5, 6), 0.5))
    a = normal(r, (5, 5))
    m.spd = tf.Variable(a @ a.T + 5 * np.eye(5, dtype=np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 3, 4], tf.float32, name="x")])
    def f(x):
        y = tf.einsum("bsi,ijk->bsjk", x, m.w)
        z = tf.einsum("bsjk,bsjk->bs", y, y)
        chol = tf.linalg.cholesky(m.spd)
        solved = tf.linalg.triangular_solve(chol, tf.transpose(y[:, 0, :, :2], [1, 0, 2])[:, :, 0])
        inv = tf.linalg.inv(m.spd + tf.reduce_mean(x) * 0.01)
        band = tf.linalg.band_part(tf.matmul(inv, m.spd), 1, 0)
        return {"z": z, "solved": solved, "band": band,
                "det": tf.linalg.det(m.spd)[None] * tf.reduce_sum(x)}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"x": normal(r, (BATCH, 3, 4))}}}


@model("tf2")
def build_gather_scatter_topk(path, r):
    m = Module()
    m.table = tf.Variable(normal(r, (10, 4)))

    @tf.function(input_signature=[tf.TensorSpec([None, 10], tf.float32, name="scores")])
    def f(scores):
        values, indices = tf.math.top_k(scores, 3)
        rows = tf.gather(m.table, indices)
        picked = tf.gather_nd(m.table, tf.expand_dims(indices[:, :1], -1))
        scattered = tf.scatter_nd(tf.reshape(indices, [-1, 1]), tf.reshape(values, [-1]), [10])
        updated = tf.tensor_scatter_nd_add(m.table, [[0], [3]], rows[0, :2])
        return {"rows": rows, "picked": picked, "scattered": scattered, "updated": updated,
                "cumsum": tf.cumsum(scores, axis=1, exclusive=True),
                "cumprod": tf.math.cumprod(tf.sigmoid(scores), axis=1, reverse=True),
                "one_hot": tf.one_hot(tf.argmax(scores, 1), 10),
                "sorted": tf.sort(scores, direction="DESCENDING")}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"scores": normal(r, (BATCH, 10))}}}


@model("tf2")
def build_stateless_random(path, r):
    m = Module()
    m.w = tf.Variable(normal(r, (4, 4)))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def f(x):
        shape = tf.shape(x)
        seed = tf.constant([7, 11], tf.int64)
        noise = tf.random.stateless_normal(shape, seed)
        uniform = tf.random.stateless_uniform(shape, seed + 1)
        truncated = tf.random.stateless_truncated_normal(shape, seed + 2)
        ints = tf.random.stateless_uniform(shape, seed + 3, minval=0, maxval=100, dtype=tf.int32)
        return {"y": tf.matmul(x + 0.1 * noise, m.w) + uniform + truncated, "ints": ints}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"x": normal(r, (BATCH, 4))}}}


@model("tf2")
def build_fake_quant(path, r):
    m = Module()
    m.w = tf.Variable(normal(r, (8, 6), 0.5))
    m.lo = tf.Variable(-2.0)
    m.hi = tf.Variable(2.5)
    m.lo_c = tf.Variable(np.full(6, -1.0, np.float32))
    m.hi_c = tf.Variable(np.linspace(0.5, 3.0, 6).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32, name="x")])
    def f(x):
        xq = tf.quantization.fake_quant_with_min_max_vars(x, m.lo, m.hi, num_bits=8)
        wq = tf.quantization.fake_quant_with_min_max_args(m.w, -1.5, 1.5, num_bits=4)
        y = tf.matmul(xq, wq)
        yq = tf.quantization.fake_quant_with_min_max_vars_per_channel(y, m.lo_c, m.hi_c)
        qd = tf.quantization.quantize_and_dequantize_v2(y, -4.0, 4.0, range_given=True)
        q = tf.quantization.quantize(tf.clip_by_value(y, -4.0, 4.0), -4.0, 4.0, tf.quint8)
        dq = tf.quantization.dequantize(q.output, q.output_min, q.output_max)
        return {"fake": yq, "qdq": qd, "dequantized": dq}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"x": normal(r, (BATCH, 8), 2.0)}}}


@model("tf2")
def build_control_flow_v2(path, r):
    m = Module()
    m.w = tf.Variable(normal(r, (4, 4), 0.5))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x"),
                                  tf.TensorSpec([], tf.int32, name="branch")])
    def f(x, branch):
        _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(h * 1.5)),
                             [0, x])  # StatelessWhile

        def body(i, h, ta):  # reads a variable: While; writes a TensorList
            h = tf.tanh(tf.matmul(h, m.w))
            return i + 1, h, ta.write(i, tf.reduce_sum(h, 1))
        _, g, ta = tf.while_loop(lambda i, *_: i < 4, body,
                                 [0, x, tf.TensorArray(tf.float32, 4)])
        c = tf.cond(tf.reduce_sum(x) > 0, lambda: g * 2.0, lambda: g - 1.0)
        s = tf.switch_case(branch, [lambda: h, lambda: c, lambda: tf.matmul(c, m.w)])
        return {"cond": c, "case": s, "steps": tf.transpose(ta.stack())}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"x": normal(r, (BATCH, 4)),
                                           "branch": np.int32(2)}},
            "variants": {"functional": ["--keep-functional-control-flow"]}}


@model("tf2")
def build_function_calls(path, r):
    m = Module()
    m.w = tf.Variable(normal(r, (6, 6), 0.4))
    m.b = tf.Variable(normal(r, (6,), 0.1))

    @tf.function
    def stateless(x):  # PartitionedCall
        return tf.nn.relu(x) * 2.0 - 0.5

    @tf.function
    def stateful(x):  # StatefulPartitionedCall (reads variables)
        return tf.matmul(x, m.w) + m.b

    @tf.function(jit_compile=True)
    def compiled(x):  # _XlaMustCompile
        return tf.nn.softplus(tf.matmul(x, m.w))

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, name="x")])
    def f(x):
        return {"y": compiled(stateful(stateless(x))), "z": stateless(x)}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"x": normal(r, (BATCH, 6))}},
            "variants": {"functional": ["--keep-functional-control-flow"]}}


@model("tf2")
def build_lookup_tables(path, r):
    m = Module()
    words = ["cat", "dog", "fish", "bird"]
    m.words = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(words, tf.constant([0, 1, 2, 3], tf.int64)), -1)
    m.ids = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([0, 1, 2, 3, -1], tf.int64),
                                            tf.constant([0.5, 1.5, 2.5, 3.5, -1.0])), 0.0)
    m.embedding = tf.Variable(normal(r, (5, 3)))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="word")])
    def f(word):
        ids = m.words.lookup(word)
        return {"ids": ids, "weight": m.ids.lookup(ids),
                "vector": tf.gather(m.embedding, ids + 1), "size": m.words.size()}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"word": np.array([b"dog", b"lion"], object)}}}


@model("tf2")
def build_detection_nms(path, r):
    m = Module()
    m.head = tf.Variable(normal(r, (8, 5), 0.5))
    grid = np.stack(np.meshgrid(np.linspace(0.1, 0.9, 4), np.linspace(0.1, 0.9, 4)), -1)
    anchors = np.concatenate([grid.reshape(-1, 2) - 0.1, grid.reshape(-1, 2) + 0.1], 1)
    m.anchors = tf.constant(anchors.astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([16, 8], tf.float32, name="features")])
    def f(features):
        out = tf.matmul(features, m.head)
        boxes = m.anchors + 0.05 * tf.tanh(out[:, :4])
        scores = tf.sigmoid(out[:, 4])
        selected, sel_scores = tf.image.non_max_suppression_with_scores(
            boxes, scores, 5, iou_threshold=0.5, score_threshold=0.2, soft_nms_sigma=0.0)
        padded, valid = tf.image.non_max_suppression_padded(
            boxes, scores, 5, iou_threshold=0.4, pad_to_max_output_size=True)
        plain = tf.image.non_max_suppression(boxes, scores, 4, 0.6)
        return {"boxes": tf.gather(boxes, selected), "scores": sel_scores, "padded": padded,
                "valid": valid, "plain": plain}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"features": normal(r, (16, 8))}}}


@model("tf2")
def build_keras_layers_conv(path, r):
    """Keras layers beyond the applications': PReLU, depth multipliers, layer
    and group norms, transposed convolution, bilinear upsampling, padding and
    cropping, separable 1-D and 2-D convolutions, SELU/softplus/hard sigmoid."""
    k = keras()
    inp = k.Input((16, 16, 3), name="image")
    x = k.layers.PReLU()(k.layers.Conv2D(8, 3, padding="same")(inp))
    x = k.layers.DepthwiseConv2D(3, padding="same", depth_multiplier=2)(x)
    x = k.layers.ELU()(k.layers.GroupNormalization(4)(k.layers.LayerNormalization()(x)))
    x = k.layers.Conv2DTranspose(6, 3, strides=2, padding="same")(x)
    x = k.layers.MaxPooling2D(4)(k.layers.UpSampling2D(interpolation="bilinear")(x))
    x = k.layers.Cropping2D(1)(k.layers.ZeroPadding2D(1)(x))
    x = k.layers.LeakyReLU(0.2)(k.layers.SeparableConv2D(8, 3, activation="selu")(x))
    y = k.layers.Conv1D(4, 3, activation="softplus")(k.layers.Reshape((-1, 8))(x))
    y = k.layers.GlobalMaxPooling1D()(k.layers.SeparableConv1D(4, 3, activation="hard_sigmoid")(y))
    out = k.layers.Concatenate()([y, k.layers.GlobalAveragePooling2D()(x)])
    export_keras(k.Model(inp, k.layers.Dense(5, activation="softmax")(out)), path)
    return {"inputs": image_input(r, 16)}


@model("tf2")
def build_keras_conv3d(path, r):
    """Video: 3-D convolutions (GELU), pooling and a transposed convolution."""
    k = keras()
    inp = k.Input((6, 8, 8, 2), name="video")
    x = k.layers.MaxPooling3D(2)(k.layers.Conv3D(4, 3, padding="same", activation="gelu")(inp))
    x = k.layers.AveragePooling3D(2)(k.layers.Conv3DTranspose(3, 2, strides=2)(x))
    export_keras(k.Model(inp, k.layers.GlobalAveragePooling3D()(x)), path)
    return {"inputs": {"serving_default": {"video": normal(r, (BATCH, 6, 8, 8, 2))}}}


@model("tf2")
def build_keras_attention_rnns(path, r):
    """A masked embedding, causal multi-head attention, dot-product and
    additive attention, a bidirectional LSTM, a GRU and a SimpleRNN."""
    k = keras()
    inp = k.Input((10,), dtype="int32", name="tokens")
    x = k.layers.Embedding(50, 16, mask_zero=True)(inp)
    x = k.layers.LayerNormalization()(x + k.layers.MultiHeadAttention(2, 8)(x, x, use_causal_mask=True))
    x = x + k.layers.Attention()([x, x]) + k.layers.AdditiveAttention()([x, x])
    x = k.layers.Bidirectional(k.layers.LSTM(6, return_sequences=True))(x)
    x = k.layers.SimpleRNN(4)(k.layers.GRU(5, reset_after=True, return_sequences=True)(x))
    export_keras(k.Model(inp, k.layers.Dense(3)(x)), path)
    tokens = r.integers(1, 50, (BATCH, 10)).astype(np.int32)
    tokens[0, 7:] = 0
    return {"inputs": {"serving_default": {"tokens": tokens}}}


@model("tf2")
def build_keras_preprocessing(path, r):
    """Keras preprocessing layers exported inside the model: text
    vectorization, string and integer lookups, hashing, discretization and
    normalization."""
    k = keras()
    m = Module()
    m.layers = [k.layers.TextVectorization(max_tokens=20, output_sequence_length=6,
                                           vocabulary=["the", "quick", "brown", "fox", "jumps"]),
                k.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="one_hot"),
                k.layers.IntegerLookup(vocabulary=[3, 7, 11]), k.layers.Hashing(num_bins=8, salt=3),
                k.layers.Discretization(bin_boundaries=[-1.0, 0.0, 1.0]),
                k.layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0])]
    m.w = tf.Variable(normal(r, (2,), 1.0))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="text"),
                                  tf.TensorSpec([None], tf.string, name="category"),
                                  tf.TensorSpec([None], tf.int64, name="code"),
                                  tf.TensorSpec([None, 2], tf.float32, name="x")])
    def f(text, category, code, x):
        vectorize, strings, integers, hashing, discretize, normalize = m.layers
        return {"tokens": vectorize(text), "category": strings(category), "code": integers(code),
                "hashed": hashing(category), "bucket": discretize(x), "normalized": normalize(x) * m.w}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {
        "text": np.array([b"The quick brown cat", b"fox jumps over"], object),
        "category": np.array([b"a", b"z"], object), "code": np.array([7, 5], np.int64),
        "x": normal(r, (BATCH, 2), 2.0)}}}


@model("tf2")
def build_tf2_loops(path, r):
    """tf.scan, tf.map_fn, tf.foldl and a TensorArray of dynamic size
    written in an AutoGraph for loop and concatenated."""
    m = Module()
    m.w = tf.Variable(normal(r, (4, 4), 0.5))

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 4], tf.float32, name="seq")])
    def f(seq):
        steps = tf.transpose(seq, [1, 0, 2])
        scanned = tf.scan(lambda a, x: tf.tanh(tf.matmul(a, m.w) + x), steps,
                          initializer=tf.zeros_like(seq[:, 0]))
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(tf.shape(seq)[1]):
            ta = ta.write(i, tf.reduce_sum(seq[:, i], 1))
        return {"scan": scanned, "map": tf.map_fn(lambda s: tf.reduce_max(s, 0), seq),
                "fold": tf.foldl(lambda a, x: a * 0.5 + x, steps), "array": ta.concat()}
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"seq": normal(r, (BATCH, 5, 4))}}}


@model("tf2")
def build_tf2_array_math(path, r):
    """Ops of graph nets, transformers and post-processing: roll, sorted
    segments, searchsorted, patches, diagonals, bit manipulation, sorting,
    reverse_sequence, unique."""
    m = Module()
    m.w = tf.Variable(normal(r, (6, 6), 0.5))

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, name="x"),
                                  tf.TensorSpec([None], tf.int32, name="lengths")])
    def f(x, lengths):
        y = tf.matmul(x, m.w)
        _, idx = tf.unique(tf.cast(tf.reshape(tf.round(y), [-1]), tf.int32))
        return {
            "cumprod": tf.math.cumprod(tf.tanh(y), axis=1, exclusive=True, reverse=True),
            "sort": tf.sort(y, direction="DESCENDING"), "argsort": tf.argsort(y),
            "roll": tf.roll(y, 2, 1),
            "reversed": tf.reverse_sequence(y, lengths, seq_axis=1, batch_axis=0),
            "unique_idx": idx, "onehot": tf.one_hot(tf.argmax(y, 1), 6),
            "search": tf.searchsorted(tf.sort(y), tf.zeros_like(y)),
            "clipped": tf.clip_by_norm(y, 1.0, axes=[1]),
            "histogram": tf.histogram_fixed_width(y, [-2.0, 2.0], 5),
            "segment_max": tf.math.segment_max(y, tf.zeros([tf.shape(y)[0]], tf.int32)),
            "patches": tf.image.extract_patches(tf.reshape(y, [-1, 2, 3, 1]), [1, 2, 2, 1],
                                                [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
            "depth_to_space": tf.nn.depth_to_space(tf.reshape(y[:, :4], [-1, 1, 1, 4]), 2),
            "diagonal": tf.linalg.diag_part(tf.linalg.diag(y)),
            # Of the input: a float computed by MatMul may differ from
            # TensorFlow's in its last bit, which Bitcast exposes.
            "shifted": tf.bitwise.right_shift(tf.bitcast(x, tf.int32), 3),
            "lse": tf.reduce_logsumexp(y, 1),
        }
    m.f = f
    save_module(m, path, f)
    return {"inputs": {"serving_default": {"x": normal(r, (BATCH, 6)),
                                           "lengths": np.array([3, 6], np.int32)}}}


# ------------------------------------------------------------------ writing


def write_spec(outdir, name, suffix, spec, feeds, expected):
    d = os.path.join(outdir, name)
    with open(os.path.join(d, "spec%s.json" % suffix), "w") as f:
        json.dump(spec, f, indent=1, sort_keys=True)
        f.write("\n")
    np.savez(os.path.join(d, "inputs%s.npz" % suffix), **feeds)
    np.savez(os.path.join(d, "expected%s.npz" % suffix),
             **{"out%d" % i: v for i, v in enumerate(expected)})


def graph_ops(graph_def):
    ops = {n.op for n in graph_def.node}
    for fn in graph_def.library.function:
        ops |= {n.op for n in fn.node_def}
    return sorted(ops)


def build_tf1(outdir, name, builder):
    r = rng(name)
    graph = tf.Graph()
    prefix = os.path.join(outdir, name, "model")
    with graph.as_default():
        V1.set_random_seed(SEED)
        case = builder(r)
        saver = V1.train.Saver()
        with V1.Session(graph=graph) as sess:
            sess.run(V1.global_variables_initializer())
            if "prepare" in case:
                case["prepare"](sess)
            saver.save(sess, prefix)
            fetches = [o + ":0" for o in case["outputs"]]
            expected = sess.run(fetches, {k + ":0": v for k, v in case["feeds"].items()})
        spec = {"name": name, "kind": "tf1", "source": "model",
                "runs": [{"label": name, "flags": ["--outputs", ",".join(case["outputs"])]}],
                "inputs": {k: str(np.asarray(v).dtype) for k, v in case["feeds"].items()},
                "outputs": fetches, "ops": graph_ops(graph.as_graph_def())}
    write_spec(outdir, name, "", spec, case["feeds"], expected)


def build_tf2(outdir, name, builder):
    r = rng(name)
    keras().backend.clear_session()
    keras().utils.set_random_seed(SEED)
    tf.random.set_seed(SEED)
    sm = os.path.join(outdir, name, "saved_model")
    info = builder(sm, r)
    loaded = tf.saved_model.load(sm)
    for i, (sig, inputs) in enumerate(info["inputs"].items()):
        fn = loaded.signatures[sig]
        out = fn(**{k: tf.constant(v) for k, v in inputs.items()})
        keys = sorted(out)
        # The frozen signature's outputs: Identity, Identity_1, ... in the
        # order of the sorted output keys (TensorFlow's and Frost's naming).
        outputs = ["Identity%s:0" % ("_%d" % j if j else "") for j in range(len(keys))]
        label = name if i == 0 else "%s[%s]" % (name, sig)
        runs = [{"label": label, "flags": ["--signature", sig]}]
        for variant, flags in info.get("variants", {}).items():
            runs.append({"label": "%s_%s" % (label, variant), "flags": ["--signature", sig] + flags})
        graph_def = fn.graph.as_graph_def()
        spec = {"name": name, "kind": "tf2", "source": "saved_model", "runs": runs,
                "inputs": {k: str(np.asarray(v).dtype) for k, v in inputs.items()},
                "output_keys": keys, "outputs": outputs, "ops": graph_ops(graph_def)}
        write_spec(outdir, name, "" if i == 0 else "." + sig, spec, inputs,
                   [out[k].numpy() for k in keys])


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(MODELS))
        return
    outdir, names = sys.argv[1], sys.argv[2:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit("model_set.py: unknown model(s): %s" % ", ".join(unknown))
    os.makedirs(outdir, exist_ok=True)
    order = [n for n in names if MODELS[n][0] == "tf1"] + [n for n in names if MODELS[n][0] == "tf2"]
    for name in order:
        kind, builder = MODELS[name]
        start = time.time()
        os.makedirs(os.path.join(outdir, name), exist_ok=True)
        if kind == "tf1":
            # As TF1 wrote them: reference variables, v1 while loops and conds.
            V1.disable_control_flow_v2()
            V1.disable_resource_variables()
            try:
                build_tf1(outdir, name, builder)
            finally:
                V1.enable_control_flow_v2()
                V1.enable_resource_variables()
        else:
            build_tf2(outdir, name, builder)
        print("%s: built in %.1f s" % (name, time.time() - start), flush=True)


if __name__ == "__main__":
    main()
