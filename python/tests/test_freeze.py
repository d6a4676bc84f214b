"""frost.freeze against freeze-graph on the hand-written fixture (conftest.py), no TensorFlow."""
import os
import subprocess
import sys
import textwrap

import pytest

import frost
from conftest import TOOLS_INPUTS, last_error_line, run


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
    got = frost.freeze(model, "out", ema=True, bind={"keep_prob": 0.5}, except_=["v2"],
                       text=True)
    assert got == cli.read_bytes()


def test_output_file(model, tmp_path):
    out = tmp_path / "frozen.pb"
    assert frost.freeze(model, ["add"], output=out) is None
    assert out.read_bytes() == frost.freeze(model, ["add"])


def test_graph_as_bytes_with_its_checkpoint(model, tmp_path):
    """A MetaGraphDef given as bytes (as a GraphDef object would be) freezes as its file does."""
    meta = model.parent / "model.meta"
    cli = tmp_path / "cli.pb"
    r = run("freeze-graph", "--input_meta_graph", meta, "--checkpoint", model, "--outputs", "add",
            "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    assert frost.freeze(meta.read_bytes(), ["add"], checkpoint=model) == cli.read_bytes()


def test_graph_as_bytes_names_them_in_errors(model):
    with pytest.raises(frost.FrostError, match=r"^<bytes>: .*variable"):
        frost.freeze((model.parent / "model.meta").read_bytes(), ["add"])
    with pytest.raises(frost.FrostError, match=r"^<bytes>: not a protobuf file"):
        frost.freeze(b"\xff\xff\xff\xff", ["add"])


@pytest.mark.parametrize("args, kwargs", [
    (["--outputs", "nosuch"], {"outputs": ["nosuch"]}),
    (["--outputs", "add", "--checkpoint", "/nonexistent/ckpt"],
     {"outputs": ["add"], "checkpoint": "/nonexistent/ckpt"}),
])
def test_errors_are_the_clis(model, tmp_path, args, kwargs):
    r = run("freeze-graph", model, "-o", tmp_path / "x.pb", *args)
    assert r.returncode == 1
    with pytest.raises(frost.FrostError) as e:
        frost.freeze(model, output=tmp_path / "y.pb", **kwargs)
    assert str(e.value) == last_error_line(r.stderr)
    assert os.listdir(tmp_path) == []


def test_missing_model_raises_not_aborts(tmp_path):
    with pytest.raises(frost.FrostError, match="nothing"):
        frost.freeze(tmp_path / "nothing", ["add"])


def test_warnings_are_frost_warnings(tmp_path):
    with pytest.warns(frost.FrostWarning, match=r"^the frozen graph calls Python: 'PyFunc'"):
        frost.freeze(os.path.join(TOOLS_INPUTS, "pyfunc-graph.pbtxt"), ["out"])


def test_an_input_is_one_calls_only(model, tmp_path):
    """A training script freezes to frozen.pb, reads it, and freezes to it again: each call's
    inputs are its own. Within a call, an input is never the output."""
    out = tmp_path / "frozen.pb"
    frost.freeze(model, ["add"], output=out)
    assert frost.summarize(out)["outputs"] == [{"name": "add", "op": "AddV2"}]
    frost.transform(out, "remove_device", output=tmp_path / "moved.pb")
    frost.freeze(model, ["add"], output=out)
    frozen = out.read_bytes()
    with pytest.raises(frost.FrostError, match="is an input; write the output elsewhere"):
        frost.transform(out, "remove_device", output=out)
    with pytest.raises(frost.FrostError, match=r"model\.index: is an input"):
        frost.freeze(model, ["add"], output=str(model) + ".index")
    assert out.read_bytes() == frozen


GIL_PROBE = textwrap.dedent("""
    # A call that waits for its input must not hold the GIL: the input is a FIFO that this
    # thread fills while the call reads it in another.
    import os, sys, threading
    import frost
    fifo, graph, call = sys.argv[1], sys.argv[2], sys.argv[3]
    result = {}
    def work():
        try:
            if call == "freeze":
                result["bytes"] = frost.freeze(fifo, ["out"])
            else:
                result["bytes"] = frost.transform(fifo, "remove_device")
        except Exception as e:
            result["error"] = e
    worker = threading.Thread(target=work)
    worker.start()
    with open(fifo, "wb") as f:  # blocks until the call opens it
        f.write(open(graph, "rb").read())
    worker.join()
    print(len(result["bytes"]) if "bytes" in result else result["error"])
""")


@pytest.mark.parametrize("call", ["freeze", "transform"])
def test_long_calls_release_the_gil(tmp_path, call):
    fifo = tmp_path / "graph.pbtxt"
    os.mkfifo(fifo)
    graph = os.path.join(TOOLS_INPUTS, "pyfunc-graph.pbtxt")
    try:
        r = subprocess.run([sys.executable, "-c", GIL_PROBE, fifo, graph, call],
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("frost.%s held the GIL while waiting for its input" % call)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) > 0, r.stdout


def test_ema_without_moving_averages_warns(tmp_path):
    """ema=True on a graph that does not say what is averaged, with a checkpoint holding no
    average: every variable keeps its own value, which is worth a FrostWarning, not a note."""
    prefix = tmp_path / "model"
    subprocess.run([sys.executable, os.path.join(os.path.dirname(TOOLS_INPUTS), "..",
                                                 "Transforms", "Inputs", "write_checkpoint.py"),
                    prefix, "v:float:1:2.0"], check=True)
    graph = tmp_path / "g.pbtxt"
    graph.write_text('node { name: "v" op: "VariableV2" attr { key: "dtype" value { type: DT_FLOAT } }'
                     ' attr { key: "shape" value { shape { dim { size: 1 } } } } }\n'
                     'node { name: "y" op: "Identity" input: "v"'
                     ' attr { key: "T" value { type: DT_FLOAT } } }\n')
    with pytest.warns(frost.FrostWarning, match=r"no moving average \(no 'v/ExponentialMovingAverage'\)"):
        frost.freeze(graph, ["y"], checkpoint=prefix, ema=True)


@pytest.mark.parametrize("keyword", ["model", "checkpoint", "output", "report"])
def test_a_path_with_a_nul_byte_is_refused(model, tmp_path, keyword):
    """The system would end the path at the NUL: 'model\\0junk' would read 'model'."""
    paths = dict(model=model, checkpoint=None, output=None, report=None)
    paths[keyword] = str(tmp_path / "x") + "\0junk"
    if keyword == "report":
        paths["output"] = tmp_path / "frozen.pb"
    model_arg = paths.pop("model")
    with pytest.raises(frost.FrostError, match=r"^%s: the path '.*x\\x00junk' contains a NUL byte"
                       % keyword):
        frost.freeze(model_arg, ["add"], **{k: v for k, v in paths.items() if v is not None})
    assert os.listdir(tmp_path) == []


def test_saved_model_is_the_clis(model, tmp_path):
    cli, py = tmp_path / "cli", tmp_path / "py"
    r = run("freeze-graph", model, "--outputs", "add", "--emit", "saved_model", "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    assert frost.freeze(model, ["add"], saved_model=py) is None
    assert sorted(os.listdir(py)) == ["saved_model.pb", "variables"]
    assert (py / "saved_model.pb").read_bytes() == (cli / "saved_model.pb").read_bytes()
    # The frozen graph, with its serving_default signature around it.
    summary = run("frost-inspect", "graph", py)
    assert "serving_default (tensorflow/serving/predict)" in summary.stdout, summary.stderr
    assert "add: add:0 float32" in summary.stdout
    with pytest.raises(frost.FrostError, match="not both"):
        frost.freeze(model, ["add"], output=tmp_path / "f.pb", saved_model=py)


def test_fixed_input_shapes_are_the_clis(model, tmp_path):
    cli = tmp_path / "cli.pb"
    r = run("freeze-graph", model, "--outputs", "add", "--input-shape", "x:4,1", "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    assert frost.freeze(model, ["add"], fix_input_shapes={"x": [4, 1]}) == cli.read_bytes()
    assert "x: float32 [4,1]" in run("frost-inspect", "graph", cli).stdout
