"""frost.optimize_for_inference, verify, diff and freeze's verify/report/rename against the
command-line tools they share a library call with (conftest.py's model, no TensorFlow)."""
import hashlib
import json
import os

import pytest

import frost
from conftest import REPO, TOOLS_INPUTS, last_error_line, run

OPTIMIZE_MODEL = os.path.join(TOOLS_INPUTS, "optimize-model.pbtxt")


def cli_bytes(tmp_path, tool, *args):
    out = tmp_path / ("cli-" + tool)
    r = run(tool, *[a.replace("OUT", str(out)) if isinstance(a, str) else a for a in args])
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


def test_optimize_for_inference_is_the_clis(tmp_path):
    cli = cli_bytes(tmp_path, "optimize-for-inference", "--input=" + OPTIMIZE_MODEL,
                    "--output=OUT", "--input_names=input", "--output_names=out")
    assert frost.optimize_for_inference(OPTIMIZE_MODEL, ["input"], ["out"]) == cli
    with open(OPTIMIZE_MODEL, "rb") as f:
        assert frost.optimize_for_inference(f.read(), "input", "out") == cli
    text = cli_bytes(tmp_path, "optimize-for-inference", "--input=" + OPTIMIZE_MODEL,
                     "--output=OUT", "--input_names=input", "--output_names=out",
                     "--frozen_graph=false", "--toco_compatible")
    out = tmp_path / "out.pbtxt"
    assert frost.optimize_for_inference(OPTIMIZE_MODEL, ["input"], ["out"], output=out,
                                        text=True, toco_compatible=True) is None
    assert out.read_bytes() == text


def test_optimize_for_inference_errors(tmp_path):
    with pytest.raises(frost.FrostError, match=r"inputs=\[\.\.\.\], outputs=\[\.\.\.\]"):
        frost.optimize_for_inference(OPTIMIZE_MODEL, [], ["out"])
    r = run("optimize-for-inference", "--input=" + OPTIMIZE_MODEL, "--output=%s" % (tmp_path / "x"),
            "--input_names=input:0", "--output_names=out")
    assert r.returncode == 2
    with pytest.raises(frost.FrostError) as e:
        frost.optimize_for_inference(OPTIMIZE_MODEL, ["input:0"], ["out"])
    assert str(e.value) == last_error_line(r.stderr)


def test_freeze_rename_is_the_clis(model, tmp_path):
    cli = cli_bytes(tmp_path, "freeze-graph", model, "--outputs", "add", "--rename",
                    "v1:other", "-o", "OUT", "-q")
    assert frost.freeze(model, "add", rename={"v1": "other"}) == cli
    assert frost.freeze(model, "add", rename=["v1:other"]) == cli
    assert frost.freeze(model, "add") != cli


def test_freeze_report(model, tmp_path):
    report = tmp_path / "report.json"
    frozen = frost.freeze(model, "add", report=report, verify=True)
    assert frozen == frost.freeze(model, "add")
    got = json.loads(report.read_text())
    assert got["output"]["bytes"] == len(frozen)
    assert got["output"]["sha256"] == hashlib.sha256(frozen).hexdigest()
    assert sorted(v["name"] for v in got["variables"]) == ["v1", "v2"]
    cli_report = tmp_path / "cli.json"
    r = run("freeze-graph", model, "--outputs", "add", "-o", tmp_path / "cli.pb", "--report",
            cli_report, "--verify", "-q")
    assert r.returncode == 0, r.stderr
    cli = json.loads(cli_report.read_text())
    for key in ("input", "outputs", "variables", "nodes"):
        assert got[key] == cli[key], key
    assert cli["output"]["sha256"] == got["output"]["sha256"]


def test_freeze_verify_failure_writes_nothing(model, tmp_path):
    """A finding raises with the findings, as freeze-graph --verify fails, and no file is left.
    A pass that turns add = x * v1 + v2 into a Sub is such a finding."""
    out = tmp_path / "frozen.pb"
    pipeline = "rename-op{old-op-name=AddV2,new-op-name=Sub}"
    r = run("freeze-graph", model, "--outputs", "add", "-o", out, "--verify", "--pass-pipeline",
            pipeline)
    assert r.returncode == 1 and not out.exists(), r.stderr
    with pytest.raises(frost.FrostError) as e:
        frost.freeze(model, "add", verify=True, pass_pipeline=pipeline, output=out)
    assert "numeric: 'add:0' differs from the source in 1 of 1 values" in str(e.value)
    assert "numeric: 'add:0' differs from the source in 1 of 1 values" in r.stderr
    assert not out.exists() and os.listdir(tmp_path) == []


@pytest.mark.parametrize("call, message", [
    (lambda m, d: frost.freeze(m, "add", output=d / "a.pb", report=d / "a.pb"),
     "report %s and the output are the same file"),
    (lambda m, d: frost.freeze(m, "add", pass_pipeline="nosuch"),
     "pass_pipeline:1:1: unknown pass 'nosuch'"),
    (lambda m, d: frost.freeze(m), "no outputs: give outputs; nodes nothing reads"),
    (lambda m, d: frost.transform(str(m) + ".meta", "fold_constants(inputs=x)"),
     "(inputs and outputs come from the inputs and outputs keywords)"),
    (lambda m, d: frost.transform(str(m) + ".meta", "nosuch"),
     "docs/transforms.md lists the transforms"),
])
def test_errors_name_keywords(model, tmp_path, call, message):
    """Where the tools' errors name a flag (--report, --pass-pipeline, --outputs, ...),
    Python's name the keyword (issue #27), and no flag is left."""
    with pytest.raises(frost.FrostError) as e:
        call(model, tmp_path)
    if "%s" in message:
        message %= tmp_path / "a.pb"
    assert message in str(e.value) and "--" not in str(e.value), str(e.value)


def test_errors_keep_what_is_not_a_flag(model):
    """A name that merely holds two dashes is the user's, not a flag: it stays as given."""
    with pytest.raises(frost.FrostError) as e:
        frost.freeze(model, "add--outputs")
    assert "'add--outputs'" in str(e.value)


def test_freeze_flags_by_python_name(model, tmp_path):
    with pytest.raises(TypeError, match="clear_devices"):
        frost.freeze(model, "add", clear_devices=True)
    cli = cli_bytes(tmp_path, "freeze-graph", model, "--outputs", "add", "--keep-devices",
                    "--strip-training-ops", "-o", "OUT", "-q")
    got = frost.freeze(model, "add", keep_devices=True, strip_training_ops=True)
    assert got == cli
    assert got != frost.freeze(model, "add")


def test_verify_is_the_clis(model, tmp_path):
    frozen = tmp_path / "frozen.pb"
    frost.freeze(model, "add", output=frozen)
    r = run("frost-verify", frozen, "--source", model, "--outputs", "add", "--json")
    assert r.returncode == 0, r.stderr
    got = frost.verify(frozen, model, "add")
    assert got["passed"] is True
    assert got == json.loads(r.stdout)
    assert frost.verify(frozen.read_bytes(), model, ["add"])["passed"] is True


def test_verify_finds_other_values(model, tmp_path):
    """Frozen from another key, the constant is not the checkpoint's value of v1."""
    frozen = tmp_path / "renamed.pb"
    frost.freeze(model, "add", rename={"v1": "other"}, output=frozen)
    r = run("frost-verify", frozen, "--source", model, "--outputs", "add", "--json")
    assert r.returncode == 1
    got = frost.verify(frozen, model, "add")
    assert got["passed"] is False
    assert got == json.loads(r.stdout)
    assert any(f["node"] == "v1" for f in got["findings"]), got["findings"]
    assert frost.verify(frozen, model, "add", rename={"v1": "other"})["passed"] is True


def test_verify_takes_fixed_shapes_as_the_cli(tmp_path):
    """The example's X is [?,1]; frozen at batch 4, verification feeds [4,1] (the CLI's
    document), and batch_size=3 says it was frozen otherwise: a structure finding on X."""
    example = os.path.join(REPO, "examples", "linear-regression", "model")
    frozen = tmp_path / "b4.pb"
    frost.freeze(example, "pred", batch_size=4, output=frozen)
    r = run("frost-verify", frozen, "--source", example, "--outputs", "pred", "--batch-size", "4",
            "--json")
    assert r.returncode == 0, r.stderr
    got = frost.verify(frozen, example, "pred", batch_size=4)
    assert got == json.loads(r.stdout)
    assert got["numeric"]["inputs"] == [{"node": "X", "dtype": "float32", "shape": [4, 1]}]
    other = frost.verify(frozen, example, "pred", batch_size=3)
    assert other["passed"] is False
    assert [(f["node"], f["message"]) for f in other["findings"]] == [
        ("X", "(Placeholder) has shape [4,1]; freezing with these flags fixes it to [3,1]")]


#: boxes = MyDecodeBoxes(x, anchors) (no kernel) and s = PartitionedCall(x): a graph without
#: variables, its own source; frost-verify cannot compute boxes (s it runs through the call).
ANCHORS = os.path.join(TOOLS_INPUTS, "verify", "anchors.pbtxt")


def test_verify_allow_unchecked_is_the_clis(tmp_path):
    """Outputs not computed fail the verdict, naming the ops, unless allow_unchecked
    (--allow-unchecked); either way the document is the CLI's."""
    for flags, kwargs, passed in (([], {}, False), (["--allow-unchecked"], {"allow_unchecked": True}, True)):
        r = run("frost-verify", ANCHORS, "--source", ANCHORS, "--outputs", "boxes,s", "--json", *flags)
        assert r.returncode == (0 if passed else 1), r.stderr
        got = frost.verify(ANCHORS, ANCHORS, "boxes,s", **kwargs)
        assert got == json.loads(r.stdout)
        assert got["passed"] is passed and got["complete"] is False and got["findings"] == []
        assert sorted(got["numeric"]["no_kernel"]) == ["MyDecodeBoxes"]


def test_verify_tolerances_are_the_clis(tmp_path):
    """atol=/rtol= are --atol/--rtol; each output reports the tolerance it was judged by."""
    small = os.path.join(TOOLS_INPUTS, "verify", "small.pbtxt")
    r = run("frost-verify", small, "--source", small, "--json", "--atol", "1e-9", "--rtol", "0.001")
    assert r.returncode == 0, r.stderr
    got = frost.verify(small, small, atol=1e-9, rtol=0.001)
    assert got == json.loads(r.stdout)
    assert got["numeric"]["outputs_chosen"] == "the frozen graph's sinks"
    assert [(o["tensor"], o["atol"], o["rtol"], o["below_atol"]) for o in got["numeric"]["outputs"]] \
        == [("y:0", 1e-9, 0.001, False), ("z:0", 1e-9, 0.001, False)]
    # At the defaults y's values (about 6e-6) are all below atol 1e-5: rtol alone judges them.
    assert [o["below_atol"] for o in frost.verify(small, small)["numeric"]["outputs"]] == [True, False]


def test_verify_refuses_tolerances_the_cli_refuses(tmp_path):
    """A negative or NaN atol/rtol is a ValueError, as --atol/--rtol refuse it (it would fail
    every element); the next call in the process is not affected."""
    small = os.path.join(TOOLS_INPUTS, "verify", "small.pbtxt")
    for key, value in (("atol", -1e-5), ("rtol", -0.5), ("atol", float("nan"))):
        r = run("frost-verify", small, "--source", small, "--" + key, str(value))
        assert r.returncode != 0 and "expected a number >= 0" in r.stderr, r.stderr
        with pytest.raises(ValueError, match=key + " must be a number >= 0"):
            frost.verify(small, small, **{key: value})
    assert frost.verify(small, small, atol=0.0, rtol=0.0)["passed"] is True


def test_freeze_verify_allow_unchecked(tmp_path):
    """freeze(verify=True) refuses outputs it cannot check (FrostError naming the ops, nothing
    written) unless allow_unchecked=True, as freeze-graph --verify [--allow-unchecked]."""
    out = tmp_path / "frozen.pb"
    with pytest.raises(frost.FrostError, match=r"NOT CHECKED numerically: 1 output \(no kernel "
                       r"for MyDecodeBoxes \(boxes\)\); --allow-unchecked"):
        frost.freeze(ANCHORS, "boxes,s", verify=True, output=out)
    assert not out.exists()
    frost.freeze(ANCHORS, "boxes,s", verify=True, allow_unchecked=True, output=out)
    assert out.read_bytes() == cli_bytes(tmp_path, "freeze-graph", ANCHORS, "--outputs", "boxes,s",
                                         "--verify", "--allow-unchecked", "-o", "OUT", "-q")


def test_diff_is_the_clis(model, tmp_path):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    frost.freeze(model, "add", output=a)
    frost.freeze(model, "add", ema=True, output=b)
    assert frost.diff(a, a.read_bytes())["identical"] is True
    r = run("frost-diff", a, b, "--json")
    assert r.returncode == 1
    got = frost.diff(a, b)
    assert got["identical"] is False
    assert got == json.loads(r.stdout)
    page = tmp_path / "diff.html"
    frost.diff(a, b, html=page)
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_diff_errors_are_the_clis(tmp_path):
    r = run("frost-diff", tmp_path / "none.pb", tmp_path / "none.pb")
    assert r.returncode == 2
    with pytest.raises(frost.FrostError) as e:
        frost.diff(tmp_path / "none.pb", tmp_path / "none.pb")
    assert str(e.value) == last_error_line(r.stderr)


def test_verify_eval_budget_is_the_clis(model, tmp_path):
    """eval_budget= is --eval-budget: a budget too small for the run is a finding naming the
    node and the flag; a raised one passes; 0 is refused."""
    frozen = tmp_path / "frozen.pb"
    frost.freeze(model, "add", output=frozen)
    r = run("frost-verify", frozen, "--source", model, "--outputs", "add", "--json",
            "--eval-budget=1")
    assert r.returncode == 1, r.stderr
    got = frost.verify(frozen, model, "add", eval_budget=1)
    assert got == json.loads(r.stdout)
    assert got["passed"] is False
    assert any("units of work" in f["message"] and "--eval-budget" in f["message"]
               for f in got["findings"]), got["findings"]
    assert frost.verify(frozen, model, "add", eval_budget=10**6, eval_max_bytes=10**6)["passed"]
    with pytest.raises(ValueError):
        frost.verify(frozen, model, "add", eval_budget=0)


def test_freeze_verify_takes_the_eval_budget(model, tmp_path):
    """freeze(verify=True, eval_budget=) is freeze-graph --verify --eval-budget: too small a
    budget is a finding (FrostError, nothing written); a raised one freezes."""
    out = tmp_path / "frozen.pb"
    r = run("freeze-graph", model, "--outputs", "add", "--verify", "--eval-budget=1", "-o", out)
    assert r.returncode == 1, r.stderr
    with pytest.raises(frost.FrostError, match="eval.budget"):
        frost.freeze(model, "add", verify=True, eval_budget=1, output=out)
    assert not out.exists()
    frost.freeze(model, "add", verify=True, eval_budget=10**6, eval_max_bytes=10**6, output=out)
    assert out.exists()
