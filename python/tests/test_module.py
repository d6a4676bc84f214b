"""The package as a module: its namespace holds the API (and no typing or module names), and
python -m frost runs the commands in-process, byte for byte as the installed tools."""
import os
import subprocess
import sys

import frost
from conftest import REPO, run

EXAMPLE = os.path.join(REPO, "examples", "linear-regression")


def python_m(*args):
    return subprocess.run([sys.executable, "-m", "frost"] + [str(a) for a in args],
                          capture_output=True, text=True, env=dict(os.environ))


def test_the_namespace_is_the_api():
    public = {name for name in dir(frost) if not name.startswith("_")}
    assert set(frost.__all__) <= public
    leaked = public & {"Any", "Dict", "Iterable", "Optional", "Union", "json", "os", "sys",
                       "warnings", "typing"}
    assert not leaked


def test_python_m_frost_runs_the_tools(tmp_path):
    r = python_m("freeze-graph", EXAMPLE, "--outputs", "pred", "-o", tmp_path / "m.pb")
    assert r.returncode == 0, r.stderr
    assert "freeze-graph: wrote" in r.stderr
    t = run("freeze-graph", EXAMPLE, "--outputs", "pred", "-o", tmp_path / "t.pb")
    assert t.returncode == 0, t.stderr
    assert (tmp_path / "m.pb").read_bytes() == (tmp_path / "t.pb").read_bytes()
    r = python_m("frost-inspect", "graph", tmp_path / "m.pb", "--json")
    assert r.returncode == 0, r.stderr
    assert '"inputs"' in r.stdout


def test_python_m_frost_exit_codes(tmp_path):
    r = python_m("freeze-graph", tmp_path / "missing", "--outputs", "pred", "-o",
                 tmp_path / "x.pb")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1].startswith("freeze-graph: error: ") or \
        "error:" in r.stderr
    assert not (tmp_path / "x.pb").exists()
    r = python_m("freeze-graph", "--no-such-flag")
    assert r.returncode == 2
    r = python_m("no-such-tool")
    assert r.returncode == 2
    assert "unknown command 'no-such-tool'" in r.stderr


def test_many_commands_per_process():
    """Each command is a job of its own: frost-inspect and frost-opt run twice in one process,
    one bad command line between them, each with its own exit code."""
    script = ("from frost.__main__ import main\n"
              "codes = [main(['frost-inspect', 'graph', %r]), main(['frost-opt', '--bogus']),\n"
              "         main(['frost-inspect', 'graph', %r, '--json']),\n"
              "         main(['frost-opt', %r, '-o', '/dev/null'])]\n"
              "print('codes', codes)\n") % (EXAMPLE, EXAMPLE, os.path.join(EXAMPLE, "model.meta"))
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "codes [0, 2, 0, 0]" in r.stdout
    assert "unknown option '--bogus'" in r.stderr
