#!/usr/bin/env python3
"""SavedModels whose lookup tables read vocabulary files (assets), for
test/Tools/freeze-graph-assets-vs-tensorflow.test. Three steps, each its own
process, so the frozen graphs are run by a TensorFlow that never saw the
SavedModels:

    asset_models.py build OUTDIR
        Writes the vocabulary files to OUTDIR/vocab-src/, exports every model
        to OUTDIR/NAME/saved_model (its assets/ holds copies), calls each
        loaded signature eagerly (expected.npz), then deletes vocab-src/.
        OUTDIR/NAME/spec.json is tf2_models.py's spec (placeholders and output
        tensors as TensorFlow's frozen graph names them; init_op: the node
        to run first). Prints what TensorFlow's own frozen graph gives
        (convert_variables_to_constants_v2, or TF1's convert_variables_to_
        constants keeping the table initializer), run after vocab-src/ is gone.
    asset_models.py freeze OUTDIR FREEZE_GRAPH FROZENDIR
        Freezes each OUTDIR/NAME/saved_model to FROZENDIR/NAME.pb, then
        deletes every saved_model (no TensorFlow in this step).
    asset_models.py check OUTDIR FROZENDIR
        Runs each FROZENDIR/NAME.pb (its init_op first) on the inputs and
        compares with expected.npz: "NAME: identical" or a MISMATCH line.

The models: Keras StringLookup, IntegerLookup and TextVectorization with a
vocabulary file; a tf.Module with four StaticHashTables from
TextFileInitializers (whole line -> line number + offset from a CRLF file
with vocab_size; line number -> whole line; and column to column of a
','-separated file, string -> int64 and int64 -> string); a
StaticVocabularyTable with OOV buckets; a TF1 SavedModel (SavedModelBuilder,
assets in the saved_model_assets collection) whose table reads its asset.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ["integer_lookup", "module_text_files", "static_vocabulary_table", "string_lookup",
          "text_vectorization", "tf1_asset_table"]

VOCABS = {
    "words.txt": "the\ncat\nsat\non\nmat\n",
    # CRLF line ends; the last line has none; vocab_size reads the first 4.
    "crlf.txt": "red\r\ngreen\r\nblue\r\nblack\r\nwhite",
    "ints.txt": "7\n42\n-3\n1000000000000\n",
    "fruit.csv": "apple,7,sweet\nbanana,-3,soft\ncherry,12,small\n",
}


def tf_models():
    sys.path.insert(0, HERE)
    import tf2_models  # noqa: F401  (quiets TensorFlow before importing it)
    return tf2_models


def build(outdir):
    tm = tf_models()
    tf, np, V1 = tm.tf, tm.np, tm.V1
    k = tm.keras()
    src = os.path.join(outdir, "vocab-src")
    os.makedirs(src, exist_ok=True)
    for name, text in VOCABS.items():
        with open(os.path.join(src, name), "w", newline="") as f:
            f.write(text)
    vocab = lambda name: os.path.join(src, name)  # noqa: E731
    T = tf.lookup.TextFileIndex
    infos = {}

    def keras_model(name, inp, layer, inputs):
        tm.export_keras(k.Model(inp, layer(inp), name=name), saved_model(name))
        infos[name] = {"inputs": inputs}

    def saved_model(name):
        path = os.path.join(outdir, name, "saved_model")
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        return path

    words = np.array([[b"cat", b"dog", b"the", b"mat"], [b"on", b"", b"sat", b"cat"]])
    tm.seed_everything()
    keras_model("string_lookup", k.Input((None,), dtype="string", name="words"),
                k.layers.StringLookup(vocabulary=vocab("words.txt")), {"words": words})
    keras_model("integer_lookup", k.Input((None,), dtype="int64", name="ids"),
                k.layers.IntegerLookup(vocabulary=vocab("ints.txt")),
                {"ids": np.array([[42, 5, -3], [1000000000000, 7, 0]], np.int64)})
    keras_model("text_vectorization", k.Input((), dtype="string", name="text"),
                k.layers.TextVectorization(vocabulary=vocab("words.txt"),
                                           output_sequence_length=6),
                {"text": np.array([b"The cat sat on the mat", b"A dog", b"cat CAT cAt!"])})

    class TextFiles(tf.Module):
        def __init__(self):
            super().__init__()
            init = tf.lookup.TextFileInitializer
            self.colors = tf.lookup.StaticHashTable(
                init(vocab("crlf.txt"), tf.string, T.WHOLE_LINE, tf.int64, T.LINE_NUMBER,
                     vocab_size=4, value_index_offset=10), -1)
            self.names = tf.lookup.StaticHashTable(
                init(vocab("words.txt"), tf.int64, T.LINE_NUMBER, tf.string, T.WHOLE_LINE), "?")
            self.prices = tf.lookup.StaticHashTable(
                init(vocab("fruit.csv"), tf.string, 0, tf.int64, 1, delimiter=","), -100)
            self.fruit = tf.lookup.StaticHashTable(
                init(vocab("fruit.csv"), tf.int64, 1, tf.string, 2, delimiter=","), "none")

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words"),
                                      tf.TensorSpec([None], tf.int64, name="ids")])
        def __call__(self, words, ids):
            return {"color": self.colors.lookup(words), "name": self.names.lookup(ids),
                    "price": self.prices.lookup(words), "fruit": self.fruit.lookup(ids)}

    m = TextFiles()
    tf.saved_model.save(m, saved_model("module_text_files"),
                        signatures={"serving_default": m.__call__})
    infos["module_text_files"] = {"inputs": {
        "words": np.array([b"red", b"white", b"black", b"apple", b"cherry", b"red\r"]),
        "ids": np.array([0, 4, 7, -3, 12, 99], np.int64)}}

    class Vocabulary(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = tf.lookup.StaticVocabularyTable(
                tf.lookup.TextFileInitializer(vocab("words.txt"), tf.string, T.WHOLE_LINE,
                                              tf.int64, T.LINE_NUMBER), num_oov_buckets=3)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
        def __call__(self, words):
            return {"ids": self.table.lookup(words)}

    m = Vocabulary()
    tf.saved_model.save(m, saved_model("static_vocabulary_table"),
                        signatures={"serving_default": m.__call__})
    infos["static_vocabulary_table"] = {"inputs": {
        "words": np.array([b"mat", b"dog", b"the", b"zebra", b"cat"])}}

    graph = tf.Graph()
    with graph.as_default():
        words_in = V1.placeholder(tf.string, [None], name="words")
        with tm.seeded_uuid4():
            table = tf.lookup.StaticHashTable(
                tf.lookup.TextFileInitializer(vocab("words.txt"), tf.string, T.WHOLE_LINE,
                                              tf.int64, T.LINE_NUMBER), -1)
        ids = tf.identity(table.lookup(words_in), name="ids")
        init_tables = V1.tables_initializer()
        with V1.Session(graph=graph) as sess:
            sess.run(init_tables)
            builder = V1.saved_model.Builder(saved_model("tf1_asset_table"))
            builder.add_meta_graph_and_variables(
                sess, ["serve"], main_op=init_tables, strip_default_attrs=True,
                assets_collection=V1.get_collection(V1.GraphKeys.ASSET_FILEPATHS),
                signature_def_map={"serving_default": V1.saved_model.predict_signature_def(
                    {"words": words_in}, {"ids": ids})})
            builder.save()
    infos["tf1_asset_table"] = {"inputs": {"words": np.array([b"sat", b"dog", b"the"])},
                                "tf1": True}

    # Ground truth from each SavedModel as loaded, then TensorFlow's freezing.
    tf_frozen = {}
    for name in MODELS:
        model_dir = os.path.join(outdir, name)
        sm = os.path.join(model_dir, "saved_model")
        tm.pin_fingerprint_uuid(sm)
        info = infos[name]
        loaded = tf.saved_model.load(sm)
        fn = loaded.signatures["serving_default"]
        inputs = info["inputs"]
        expected = {key: as_saved(value.numpy()) for key, value in
                    fn(**{key: tf.constant(v) for key, v in inputs.items()}).items()}
        in_specs, _ = tm.signature_io(fn)
        if info.get("tf1"):
            # TF1's freezing keeps a table initializer only when named as an
            # output (without it: "Table not initialized").
            graph_def, meta = tm.freeze_tf1(sm, ["ids", "init_all_tables"])
            placeholders = {"words": "words"}
            outputs = [("ids", meta.signature_def["serving_default"].outputs["ids"].name)]
        else:
            graph_def, placeholders, outputs = tm.freeze_tf2(fn)
        spec = {"signature": "serving_default",
                "inputs": [{"key": key, "placeholder": placeholders[key],
                            "dtype": tm.dtype_name(ts.dtype), "shape": tm.shape_list(ts.shape)}
                           for key, ts in in_specs],
                "outputs": [{"key": key, "tensor": tensor} for key, tensor in outputs],
                "inputs_file": "inputs.npz", "expected_file": "expected.npz",
                "init_op": ["init_all_tables"]}
        with open(os.path.join(model_dir, "spec.json"), "w") as f:
            json.dump(spec, f, indent=2)
            f.write("\n")
        np.savez(os.path.join(model_dir, "inputs.npz"), **dict(sorted(inputs.items())))
        np.savez(os.path.join(model_dir, "expected.npz"), **dict(sorted(expected.items())))
        tf_frozen[name] = os.path.join(model_dir, "tf_frozen.pb")
        with open(tf_frozen[name], "wb") as f:
            f.write(graph_def.SerializeToString(deterministic=True))
    shutil.rmtree(src)
    for name in MODELS:
        _, line = run_and_compare(tm, os.path.join(outdir, name), tf_frozen[name], name)
        print("TensorFlow's frozen graph: " + line.replace(tf_frozen[name], "tf_frozen.pb"))
    return 0


def as_saved(value):
    """String tensors come back as object arrays, which np.load refuses:
    bytes arrays instead, on both sides of a comparison."""
    return value.astype(bytes) if value.dtype == object else value


def run_and_compare(tm, model_dir, pb, label):
    """tf2_models.check for outputs that may be strings: (ok, line)."""
    with open(os.path.join(model_dir, "spec.json")) as f:
        spec = json.load(f)
    with tm.np.load(os.path.join(model_dir, "inputs.npz")) as z:
        inputs = dict(z)
    with tm.np.load(os.path.join(model_dir, "expected.npz")) as z:
        expected = dict(z)
    try:
        got = {key: as_saved(v) for key, v in tm.run_frozen(pb, spec, inputs).items()}
    except Exception as e:  # noqa: BLE001 - any failure to run is the result
        msg = tm.op_error_line(e.message if isinstance(e, tm.tf.errors.OpError) else str(e))
        return False, "%s: cannot run: %s: %s" % (label, type(e).__name__, msg)
    status, detail = tm.compare(got, expected)
    if status == "identical":
        return True, "%s: identical" % label
    return False, "%s: MISMATCH %s" % (label, detail)


def freeze(outdir, freeze_graph, frozendir):
    os.makedirs(frozendir, exist_ok=True)
    ok = True
    for name in MODELS:
        run = subprocess.run([freeze_graph, os.path.join(outdir, name, "saved_model"),
                              "-o", os.path.join(frozendir, name + ".pb"), "-q", "--verify",
                              "--allow-unchecked"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print("%s: FREEZE FAILED: %s" % (name, run.stderr.strip()))
            ok = False
    for name in MODELS:
        shutil.rmtree(os.path.join(outdir, name, "saved_model"))
    print("froze %d models; SavedModels removed" % len(MODELS))
    return 0 if ok else 1


def check(outdir, frozendir):
    tm = tf_models()
    ok = True
    for name in MODELS:
        model_dir = os.path.join(outdir, name)
        assert not os.path.exists(os.path.join(model_dir, "saved_model"))
        assert not os.path.exists(os.path.join(outdir, "vocab-src"))
        good, line = run_and_compare(tm, model_dir, os.path.join(frozendir, name + ".pb"), name)
        ok &= good
        print(line)
    return 0 if ok else 1


def main(argv):
    commands = {"build": (build, 1), "freeze": (freeze, 3), "check": (check, 2)}
    if not argv or argv[0] not in commands or len(argv) - 1 != commands[argv[0]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    fn, _ = commands[argv[0]]
    return fn(*argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
