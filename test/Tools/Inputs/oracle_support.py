"""What the TensorFlow oracles of frost-verify share (Inputs/verify_oracle.py,
scripts/model_set_report.py): fixtures built once per key, TensorFlow running
a graph as written, frost-verify's findings as lines."""
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import time


# The Python packages whose versions change what a fixture script builds.
FIXTURE_PACKAGES = ("tensorflow", "keras", "numpy")
# Fixtures of a key nobody has used for this long are removed.
STALE_FIXTURE_SECONDS = 14 * 24 * 3600


def built_once(cache, script, args=()):
    """CACHE/<script>-<key>: what `python SCRIPT DIR ARGS...` builds into DIR,
    built once per key (the script's text, ARGS and the installed TensorFlow,
    Keras and NumPy); runs racing to build it keep the first. CACHE is the
    suite's fixture cache (lit's %fixture_cache), shared by every checkout on
    the machine: a fresh clone does not rebuild what the key says is equal."""
    installed = []
    for name in FIXTURE_PACKAGES:
        for dist in importlib.metadata.packages_distributions().get(name, []):
            installed.append("%s %s" % (dist, importlib.metadata.version(dist)))
    key = hashlib.sha256(open(script, "rb").read() + " ".join(list(args) + installed).encode()
                         ).hexdigest()[:16]
    stem = os.path.splitext(os.path.basename(script))[0]
    built = os.path.join(cache, "%s-%s" % (stem, key))
    if not os.path.isdir(built):
        os.makedirs(cache, exist_ok=True)
        building = built + ".building.%d" % os.getpid()
        shutil.rmtree(building, ignore_errors=True)
        start = time.time()
        subprocess.run([sys.executable, script, building] + list(args), check=True,
                       stdout=subprocess.DEVNULL)
        print("built %s in %.0f s" % (os.path.basename(script), time.time() - start),
              file=sys.stderr)
        try:
            os.rename(building, built)
        except OSError:  # another run finished first
            shutil.rmtree(building, ignore_errors=True)
    os.utime(built)
    remove_stale_fixtures(cache, stem)
    return built


def remove_stale_fixtures(cache, stem):
    """Old keys of one script (its earlier texts, earlier TensorFlows) and
    builds left by killed runs, once unused for STALE_FIXTURE_SECONDS."""
    now = time.time()
    for entry in os.listdir(cache):
        path = os.path.join(cache, entry)
        if entry.startswith(stem + "-") and now - os.path.getmtime(path) > STALE_FIXTURE_SECONDS:
            shutil.rmtree(path, ignore_errors=True)


def load_graph(path):
    from tensorflow.core.framework import graph_pb2
    return graph_pb2.GraphDef.FromString(open(path, "rb").read())


def tf_run(graph_def, feeds, fetches, init=()):
    """TensorFlow runs `graph_def` as written (no Grappler, no graph
    optimizer: they would refold the constants): the nodes `init` (table
    initializers) first, then `fetches`. A feed named "x" is "x:0"."""
    import tensorflow as tf
    V1 = tf.compat.v1
    config = V1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    config.graph_options.optimizer_options.opt_level = V1.OptimizerOptions.L0
    config.graph_options.optimizer_options.do_constant_folding = False
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
        with V1.Session(graph=g, config=config) as sess:
            if init:
                sess.run([g.get_operation_by_name(n) for n in init])
            return sess.run(fetches, {k if ":" in k else k + ":0": v for k, v in feeds.items()})


def findings(report):
    """frost-verify --json's findings, one line each: CHECK: 'NODE' MESSAGE."""
    return ["%s: %s%s" % (f["check"], "'%s' " % f["node"] if f["node"] else "", f["message"])
            for f in report["findings"]]
