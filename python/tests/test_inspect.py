"""frost.inspect_checkpoint and frost.summarize against frost-inspect's JSON."""
import json
import os

import pytest

import frost
from conftest import TOOLS_INPUTS, last_error_line, run


def cli_json(*args):
    r = run("frost-inspect", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_checkpoint_listing_is_the_clis(model):
    got = frost.inspect_checkpoint(model)
    assert got == cli_json("checkpoint", model, "--json")
    assert [v["name"] for v in got["variables"]] == \
        ["other", "v1", "v1/ExponentialMovingAverage", "v2"]


def test_checkpoint_values_are_the_clis(model):
    got = frost.inspect_checkpoint(model, ["v2", "v1"])
    assert got == cli_json("checkpoint", model, "--json", "--tensor", "v2", "--tensor", "v1")
    assert frost.inspect_checkpoint(model, values=True) == \
        cli_json("checkpoint", model, "--json", "--all")


def test_summary_is_the_clis(model):
    meta = model.parent / "model.meta"
    got = frost.summarize(meta)
    assert got == cli_json("graph", meta, "--json")
    assert got["container"] == "MetaGraphDef"
    from_bytes = frost.summarize(meta.read_bytes())
    assert from_bytes.pop("file") == "<bytes>"
    got.pop("file")
    assert from_bytes == got


@pytest.mark.parametrize("call, args", [
    (frost.inspect_checkpoint, ["checkpoint", "/nonexistent/model"]),
    (frost.inspect_checkpoint, ["checkpoint", os.path.join(TOOLS_INPUTS, "freeze-model.pbtxt")]),
    (frost.summarize, ["graph", "/nonexistent/graph.pb"]),
])
def test_errors_are_the_clis(call, args):
    r = run("frost-inspect", *args)
    assert r.returncode == 1
    with pytest.raises(frost.FrostError) as e:
        call(args[1])
    assert str(e.value) == last_error_line(r.stderr)


def test_unknown_variable_is_the_clis(model):
    r = run("frost-inspect", "checkpoint", model, "--tensor", "v3", "--json")
    assert r.returncode == 1
    with pytest.raises(frost.FrostError) as e:
        frost.inspect_checkpoint(model, ["v3"])
    assert str(e.value) == r.stderr[len("error: "):].rstrip("\n")
