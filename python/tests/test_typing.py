"""The package is typed (py.typed, the extension's stub from nanobind's stubgen): mypy --strict
finds nothing in it, accepts a caller's correct use, and catches a wrong one. Skipped without
mypy (scripts/setup.sh installs it)."""
import os
import subprocess
import sys
import textwrap

import pytest

import frost

pytest.importorskip("mypy")

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(frost.__file__)))

CORRECT = """
import frost
from typing import Any, Dict, Optional

frozen: Optional[bytes] = frost.freeze("model.ckpt", ["logits"], bind={"is_training": False},
                                       verify=True, keep_devices=True)
assert frozen is not None
report: Dict[str, Any] = frost.verify(frozen, "model.ckpt", "logits", atol=1e-5)
fast: Optional[bytes] = frost.optimize_for_inference(frozen, ["x"], ["logits"])
small = frost.transform(frozen, "fold_constants strip_unused_nodes", inputs="x", outputs="y")
same: bool = frost.diff(frozen, frozen)["identical"]
inputs = frost.summarize(frozen)["inputs"]
variables = frost.inspect_checkpoint("model.ckpt", values=True)["variables"]
try:
    frost.freeze(b"...", checkpoint="model.ckpt")
except frost.FrostError as e:
    message: str = str(e)
"""

WRONG = """
import frost
size: int = frost.freeze("model.ckpt")
frost.verify(b"", b"", seed="seven")
frost.nosuch()
"""


def mypy(tmp_path, *args):
    """mypy --strict over args, finding frost where this test imported it (the build tree's or
    the installed package)."""
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--cache-dir", str(tmp_path / "cache"), *args],
                          capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, MYPYPATH=PACKAGE_ROOT))


def script(tmp_path, source):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(source))
    return str(path)


def test_the_package_is_strictly_typed(tmp_path):
    r = mypy(tmp_path, "-p", "frost")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_correct_caller_passes(tmp_path):
    r = mypy(tmp_path, script(tmp_path, CORRECT))
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_wrong_caller_is_caught(tmp_path):
    r = mypy(tmp_path, script(tmp_path, WRONG))
    assert r.returncode == 1, r.stdout + r.stderr
    found = r.stdout
    assert 'Incompatible types in assignment (expression has type "bytes | None", variable has ' \
        'type "int")' in found, found
    assert 'Argument "seed" to "verify" has incompatible type "str"; expected "int"' in found, found
    assert 'Module has no attribute "nosuch"' in found, found
