"""frost.freeze against freeze-graph on the hand-written fixture of test/Tools/freeze-graph.test
(add = x * v1 + v2, out = add * keep_prob; v1 = 2, v2 = 3), no TensorFlow needed.

    FROST_BIN=build/bin PYTHONPATH=build-python/python python3 -m pytest python/tests
"""
import os
import subprocess
import sys

import pytest

import frost

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("FROST_BIN", os.path.join(REPO, "build", "bin"))


def run(tool, *args):
    return subprocess.run([os.path.join(BIN, tool)] + [str(a) for a in args],
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A .meta and its checkpoint, as freeze-graph.test writes them."""
    d = tmp_path_factory.mktemp("model")
    prefix = d / "model"
    subprocess.run([sys.executable, os.path.join(REPO, "test", "Transforms", "Inputs",
                                                 "write_checkpoint.py"), prefix,
                    "v1:float:1:2.0", "v2:float:1:3.0", "v1/ExponentialMovingAverage:float:1:1.5",
                    "other:float:1:7"], check=True)
    r = run("frost-opt", os.path.join(REPO, "test", "Tools", "Inputs", "freeze-model.pbtxt"),
            "--emit=pb", "-o", str(prefix) + ".meta")
    assert r.returncode == 0, r.stderr
    return prefix


def test_bytes_are_the_clis(model, tmp_path):
    cli = tmp_path / "cli.pb"
    r = run("freeze-graph", model, "--outputs", "add", "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    assert frost.freeze(model, ["add"]) == cli.read_bytes()


def test_options_are_the_clis(model, tmp_path):
    cli = tmp_path / "cli.pbtxt"
    r = run("freeze-graph", model, "--outputs", "out", "--ema", "--bind", "keep_prob=0.5",
            "--except", "v2", "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    got = frost.freeze(model, "out", ema=True, bind={"keep_prob": "0.5"}, except_=["v2"],
                       text=True)
    assert got == cli.read_bytes()


def test_output_file(model, tmp_path):
    out = tmp_path / "frozen.pb"
    assert frost.freeze(model, ["add"], output=out) is None
    assert out.read_bytes() == frost.freeze(model, ["add"])


@pytest.mark.parametrize("args, kwargs", [
    (["--outputs", "nosuch"], {"outputs": ["nosuch"]}),
    (["--outputs", "add", "--checkpoint", "/nonexistent/ckpt"],
     {"outputs": ["add"], "checkpoint": "/nonexistent/ckpt"}),
])
def test_errors_are_the_clis(model, tmp_path, args, kwargs):
    r = run("freeze-graph", model, "-o", tmp_path / "x.pb", *args)
    assert r.returncode == 1
    message = r.stderr.strip().splitlines()[-1]
    with pytest.raises(frost.FrostError) as e:
        frost.freeze(model, **kwargs)
    assert message.endswith(str(e.value)), (message, str(e.value))
    assert not (tmp_path / "x.pb").exists()


def test_missing_model_raises_not_aborts(tmp_path):
    with pytest.raises(frost.FrostError, match="nothing"):
        frost.freeze(tmp_path / "nothing", ["add"])
