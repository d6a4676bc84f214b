"""`pip install .` from the repository root into a fresh venv: the package imports outside the
source tree, freezes as freeze-graph does, and brings its commands and its typing stub.

The build directory sits beside the test command's release tree (build/), at the same depth and
with the same build type and flags, so ccache serves most objects (CMakeLists.txt: FROST_CCACHE);
pip still configures, compiles what differs (the extension against pip's nanobind), links and
installs through scikit-build-core."""
import os
import subprocess
import sys

import pytest

from conftest import BIN, REPO, run


def release_tree_settings():
    """The compilers, build type and -Werror of the tree the tools come from (FROST_BIN/..)."""
    tree = os.path.dirname(os.path.abspath(BIN))
    cache = {}
    with open(os.path.join(tree, "CMakeCache.txt")) as f:
        for line in f:
            name, sep, value = line.rstrip("\n").partition("=")
            if sep and not line.startswith(("#", "//")):
                cache[name.split(":")[0]] = value
    return tree, cache


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", root], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    tree, cache = release_tree_settings()
    # The same compilers as the release tree (scikit-build-core would take Python's).
    env["CC"] = cache["CMAKE_C_COMPILER"]
    env["CXX"] = cache["CMAKE_CXX_COMPILER"]
    r = subprocess.run(
        [root / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check",
         REPO, "-C", "build-dir=" + os.path.join(os.path.dirname(tree), "build-pip-smoke"),
         "-C", "cmake.build-type=" + cache["CMAKE_BUILD_TYPE"],
         "-C", "cmake.define.FROST_WERROR=" + cache.get("FROST_WERROR", "OFF")],
        capture_output=True, text=True, env=env, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return root, env


def test_installed_package_freezes_as_the_cli(venv, model, tmp_path):
    root, env = venv
    cli = tmp_path / "cli.pb"
    assert run("freeze-graph", model, "--outputs", "add", "-o", cli, "-q").returncode == 0
    r = subprocess.run([root / "bin" / "python", "-c",
                        "import sys, frost; print(frost.__file__, file=sys.stderr); "
                        "sys.stdout.buffer.write(frost.freeze(sys.argv[1], ['add']))", model],
                       capture_output=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(root) in r.stderr.decode(), r.stderr  # the installed package, not the tree's
    assert r.stdout == cli.read_bytes()


@pytest.mark.parametrize("tool", ["freeze-graph", "frost-opt", "transform-graph",
                                  "frost-inspect"])
def test_installed_commands(venv, tool):
    root, env = venv
    r = subprocess.run([root / "bin" / tool, "--version"], capture_output=True, text=True,
                       env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == run(tool, "--version").stdout


def test_installed_version(venv):
    root, env = venv
    r = subprocess.run([root / "bin" / "python", "-c",
                        "import frost, importlib.metadata as m; "
                        "print(frost.__version__, m.version('frost_tf'))"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    number = run("freeze-graph", "--version").stdout.split()[-1]
    assert r.stdout.split() == [number, number]


def test_installed_typing(venv):
    root, env = venv
    r = subprocess.run([root / "bin" / "python", "-c",
                        "import frost, os; print(os.path.dirname(frost.__file__))"],
                       capture_output=True, text=True, env=env)
    package = r.stdout.strip()
    assert os.path.isfile(os.path.join(package, "py.typed"))
    with open(os.path.join(package, "_frost.pyi")) as f:
        stub = f.read()
    assert "def freeze(model: ModelArg" in stub and "def summarize(" in stub
