# Frost's lit suite. Tests are .pbtxt/.test files with RUN lines (MLIR style).
import importlib.util
import os
import shutil

import lit.formats

config.name = "Frost"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".pbtxt", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.frost_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.frost_tools_dir, os.path.dirname(config.filecheck), config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "TMPDIR", "PYTHONPATH", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# TensorFlow oracles are slow to import and chatty; keep them quiet.
config.environment["TF_CPP_MIN_LOG_LEVEL"] = "3"
config.environment["CUDA_VISIBLE_DEVICES"] = ""

config.substitutions.append(("%python", config.python))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%src_root", config.frost_src_root))
config.substitutions.append(("%test_inputs", os.path.join(config.test_source_root, "Inputs")))
# Fixtures that TensorFlow builds (models, checkpoints) are cached per
# machine, keyed by the generating script's text and the installed
# TensorFlow (Inputs/oracle_support.py's built_once), so that a fresh clone
# does not spend minutes rebuilding what is equal by construction.
fixture_cache = os.environ.get("FROST_FIXTURE_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
    "frost-fixtures")
config.substitutions.append(("%fixture_cache", fixture_cache))

# ../shared/data (real TensorFlow artifacts) is present for CI and developers
# only; tests that use it say `REQUIRES: shared-data` and are reported as
# UNSUPPORTED without it.
shared_data = os.path.normpath(os.path.join(config.frost_src_root, "..", "shared", "data"))
config.substitutions.append(("%shared_data", shared_data))
if os.path.isdir(shared_data):
    config.available_features.add("shared-data")
else:
    lit_config.note("skipped: shared data not present (%s)" % shared_data)

# TensorFlow serves as an oracle only (never linked): `REQUIRES: tensorflow`.
# The test command runs the oracles once, on the release build
# (`--param tensorflow=off` for the sanitized one): most of their time is
# TensorFlow's own.
if lit_config.params.get("tensorflow") == "off":
    lit_config.note("skipped: TensorFlow oracle tests (--param tensorflow=off)")
elif importlib.util.find_spec("tensorflow") is not None:
    config.available_features.add("tensorflow")
else:
    lit_config.note("skipped: tensorflow not installed; oracle tests are unsupported")

# OpenCV's dnn module (opencv-python-headless, installed with TensorFlow by
# the test command) is an oracle too: `REQUIRES: opencv` (with `tensorflow`)
# for graphs that must load there.
if importlib.util.find_spec("cv2") is not None:
    config.available_features.add("opencv")
else:
    lit_config.note("skipped: opencv-python-headless (cv2) not installed; OpenCV oracle tests are unsupported")

# tf2onnx + onnxruntime (installed by the test command): `REQUIRES: onnx` for
# SavedModels and graphs that must convert to ONNX and run there.
if all(importlib.util.find_spec(m) is not None for m in ("tf2onnx", "onnxruntime")):
    config.available_features.add("onnx")
else:
    lit_config.note("skipped: tf2onnx or onnxruntime not installed; ONNX oracle tests are unsupported")

# Graphviz's dot checks frost-inspect graph --dot (`REQUIRES: graphviz`), a
# headless Chromium renders --html (`REQUIRES: chromium`); scripts/setup.sh
# --with-tensorflow installs both from Debian.
if shutil.which("dot"):
    config.available_features.add("graphviz")
else:
    lit_config.note("skipped: graphviz (dot) not installed; DOT rendering tests are unsupported")
chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))
else:
    lit_config.note("skipped: chromium not installed; HTML rendering tests are unsupported")

if config.sanitized:
    config.available_features.add("sanitizer")

# Tools that run Frost's binaries themselves (test/Hostile) need to know where
# they are and whether they carry ASan (whose memory limit is not RLIMIT_AS).
config.substitutions.append(("%frost_tools_dir", config.frost_tools_dir))
config.substitutions.append(("%sanitized_flag", "--sanitized" if config.sanitized else ""))
