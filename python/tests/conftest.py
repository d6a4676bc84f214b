"""What the Python package's tests share: the tools to compare with and the hand-written fixture
of test/Tools/freeze-graph.test (add = x * v1 + v2, out = add * keep_prob; v1 = 2, v2 = 3).

    FROST_BIN=build/bin PYTHONPATH=build/python python3 -m pytest python/tests
"""
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("FROST_BIN", os.path.join(REPO, "build", "bin"))
TOOLS_INPUTS = os.path.join(REPO, "test", "Tools", "Inputs")


def run(tool, *args):
    """A tool's run: returncode, stdout and stderr as text."""
    return subprocess.run([os.path.join(BIN, tool)] + [str(a) for a in args],
                          capture_output=True, text=True)


def last_error_line(stderr):
    """The tool's one-line error, without the "tool: error: " before it."""
    line = stderr.strip().splitlines()[-1]
    if line.startswith("error: "):
        return line[len("error: "):]
    return line.split(": error: ", 1)[1] if ": error: " in line else line


@pytest.fixture(scope="session")
def model(tmp_path_factory):
    """A .meta and its checkpoint, as freeze-graph.test writes them: the prefix."""
    d = tmp_path_factory.mktemp("model")
    prefix = d / "model"
    subprocess.run([sys.executable, os.path.join(REPO, "test", "Transforms", "Inputs",
                                                 "write_checkpoint.py"), prefix,
                    "v1:float:1:2.0", "v2:float:1:3.0", "v1/ExponentialMovingAverage:float:1:1.5",
                    "other:float:1:7"], check=True)
    r = run("frost-opt", os.path.join(TOOLS_INPUTS, "freeze-model.pbtxt"), "--emit=pb", "-o",
            str(prefix) + ".meta")
    assert r.returncode == 0, r.stderr
    return prefix
