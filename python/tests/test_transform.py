"""frost.transform against transform-graph on test/Tools/transform-graph.test's model."""
import os

import pytest

import frost
from conftest import REPO, TOOLS_INPUTS, run

GRAPH = os.path.join(TOOLS_INPUTS, "transform-graph-model.pbtxt")
README = ('strip_unused_nodes(type=float, shape="1,2") remove_nodes(op=Identity, op=CheckNumerics) '
          'fold_constants(ignore_errors=true) sort_by_execution_order')


def cli(tmp_path, *flags):
    out = tmp_path / "cli.out"
    r = run("transform-graph", "--in_graph=" + GRAPH, "--out_graph=%s" % out, "--inputs=input",
            "--outputs=out", "--transforms=" + README, *flags)
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


def test_bytes_are_the_clis(tmp_path):
    assert frost.transform(GRAPH, README, ["input"], ["out"]) == cli(tmp_path)
    assert frost.transform(GRAPH, README, "input", "out", text=True) == \
        cli(tmp_path, "--output_as_text")


def test_graph_as_bytes_and_transforms_as_a_list(tmp_path):
    with open(GRAPH, "rb") as f:
        text = f.read()
    binary = frost.transform(text, "remove_device")
    got = frost.transform(binary, [README.split(") ", 1)[0] + ")",
                                   README.split(") ", 1)[1]], ["input"], ["out"])
    assert got == cli(tmp_path)


def test_output_file(tmp_path):
    out = tmp_path / "out.pbtxt"
    assert frost.transform(GRAPH, README, ["input"], ["out"], output=out, text=True) is None
    assert out.read_bytes() == cli(tmp_path, "--output_as_text")


@pytest.mark.parametrize("graph, transforms", [
    (GRAPH, "fold_constants(ignore_erors=true)"),
    (GRAPH, "no_such_transform"),
    ("/nonexistent/graph.pb", "remove_device"),
])
def test_errors_are_the_clis(tmp_path, graph, transforms):
    r = run("transform-graph", "--in_graph=%s" % graph, "--out_graph=%s" % (tmp_path / "x.pb"),
            "--transforms=" + transforms)
    assert r.returncode in (1, 2)
    assert r.stderr.startswith("error: ")
    with pytest.raises(frost.FrostError) as e:
        frost.transform(graph, transforms, output=tmp_path / "y.pb")
    # The same message, the list named as the keyword the caller gave it by.
    cli = r.stderr[len("error: "):].rstrip("\n")
    assert str(e.value) == cli.replace("--transforms:", "transforms:", 1).replace(
        "transform-graph --help lists", "docs/transforms.md lists")
    assert os.listdir(tmp_path) == []


def test_warnings_are_frost_warnings():
    def const(name, values):
        return ('node { name: "%s" op: "Const" attr { key: "dtype" value { type: DT_INT32 } } '
                'attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { '
                'size: %d } } %s } } } }\n' % (name, len(values),
                                              " ".join("int_val: %d" % v for v in values)))
    graph = (const("a", [1, 0]) + const("b", [1, 0, 0]) +
             'node { name: "n" op: "Add" input: "a" input: "b" '
             'attr { key: "T" value { type: DT_INT32 } } }').encode()
    with pytest.warns(frost.FrostWarning, match=r"^fold-constants: node 'n' \(Add\) left "
                                                r"computed: Add: Incompatible shapes"):
        frost.transform(graph, "fold_constants", outputs=["n"])


def test_a_path_with_a_nul_byte_is_refused(tmp_path):
    graph = os.path.join(TOOLS_INPUTS, "freeze-model.pbtxt")
    with pytest.raises(frost.FrostError, match=r"^model: the path .* contains a NUL byte"):
        frost.summarize(graph + "\0junk")
    with pytest.raises(frost.FrostError, match=r"^output: the path .* contains a NUL byte"):
        frost.transform(graph, "remove_device", output=str(tmp_path / "o") + "\0x.pb")
    with pytest.raises(frost.FrostError, match=r"^path: the path .* contains a NUL byte"):
        frost.inspect_checkpoint(str(tmp_path / "model") + "\0junk")
    assert os.listdir(tmp_path) == []


def test_saved_model_is_the_clis(tmp_path):
    cli, py = tmp_path / "cli", tmp_path / "py"
    r = run("optimize-for-inference", "--input", GRAPH, "--output", cli, "--saved_model",
            "--input_names", "input", "--output_names", "out", "-q")
    assert r.returncode == 0, r.stderr
    assert frost.optimize_for_inference(GRAPH, ["input"], ["out"], saved_model=py) is None
    assert (py / "saved_model.pb").read_bytes() == (cli / "saved_model.pb").read_bytes()
    assert frost.transform(GRAPH, "fold_constants", ["input"], ["out"],
                           saved_model=tmp_path / "tg") is None
    assert sorted(os.listdir(tmp_path / "tg")) == ["saved_model.pb", "variables"]
    summary = run("frost-inspect", "graph", tmp_path / "tg")
    assert "input: input:0 float32 [1,2]" in summary.stdout, summary.stdout


def test_fixed_input_shapes_are_the_clis(tmp_path):
    cli = tmp_path / "cli.pb"
    r = run("optimize-for-inference", "--input", GRAPH, "--output", cli, "--input_names",
            "input", "--output_names", "out", "--batch_size", "1", "-q")
    assert r.returncode == 0, r.stderr
    assert frost.optimize_for_inference(GRAPH, ["input"], ["out"], batch_size=1) == \
        cli.read_bytes()
    assert frost.optimize_for_inference(GRAPH, ["input"], ["out"],
                                        fix_input_shapes={"input": [1, 2]}) == cli.read_bytes()
    with pytest.raises(frost.FrostError, match="does not fit the declared"):
        frost.optimize_for_inference(GRAPH, ["input"], ["out"], fix_input_shapes={"input": [3]})
    with pytest.raises(ValueError, match="batch_size must be above 0, not 0"):
        frost.optimize_for_inference(GRAPH, ["input"], ["out"], batch_size=0)


def test_freeze_fixed_input_shapes_are_the_clis(tmp_path):
    """freeze(fix_input_shapes=, batch_size=) are --input-shape and --batch-size: the bundled
    example's X ([?,1]) at 4."""
    example = os.path.join(REPO, "examples", "linear-regression", "model")
    cli = tmp_path / "cli.pb"
    r = run("freeze-graph", example, "--outputs", "pred", "--input-shape", "X:4,1", "-o", cli, "-q")
    assert r.returncode == 0, r.stderr
    assert frost.freeze(example, "pred", fix_input_shapes={"X": [4, 1]}) == cli.read_bytes()
    assert frost.freeze(example, "pred", batch_size=4) == cli.read_bytes()
    with pytest.raises(ValueError, match="batch_size must be above 0, not -1"):
        frost.freeze(example, "pred", batch_size=-1)
