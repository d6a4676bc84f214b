#!/usr/bin/env python3
"""Proves that two builds freeze byte for byte the same (issue #10's check).

    python3 test/compare_freeze_outputs.py --before OLD/bin --after NEW/bin [--work DIR]
    python3 test/compare_freeze_outputs.py --before OLD/bin --self-test

BEFORE and AFTER are build `bin` directories (freeze-graph, frost-opt, frost-inspect,
frost-unittests). Nothing but Python's standard library is needed; TensorFlow only as the lit
suite's oracle, as for the suite itself.

What it compares, in two parts:

1. The lit suite (this checkout's test/, tests that need them use ../shared/data and TensorFlow)
   runs against the AFTER build with `freeze-graph` and `frost-opt` replaced by shims (a
   generated lit.site.cfg.py in WORK/lit-obj/test points the suite's tools directory at
   WORK/shim-bin; the repo's lit config is not touched, and the oracle scripts that call the tools
   through PATH reach the shims too). Each shim runs the BEFORE binary with the test's own
   arguments, standard input and working directory, sets its output files aside and puts back
   what was there, then runs the AFTER binary the same way: the test goes on with the AFTER run's
   files, output and exit code. So every freeze and every frost-opt run the suite performs is
   compared, with the very same paths on both sides (messages that name them stay comparable).
   Other tools (frost-inspect, frost-unittests) are links to the AFTER build.
2. Direct freezes, independent of what the tests do: every model in examples/, the model
   fixtures of test/**/Inputs and every ../shared/data model, frozen with freeze-graph's defaults,
   with each signature, with each set of outputs the model suggests, with a few option sets
   (--emit pbtxt, -o -, --keep-devices, --strip-training-ops, --report, --dump-pass-pipeline
   --timing, --keep-functional-control-flow), and through frost-opt's `freeze` pipeline.

A comparison covers: exit code, standard output bytes, standard error (when a test reads both
through one pipe, `2>&1 |`, both sides run that way and the interleaved stream is compared), and
every output file
(-o/--output/--output_graph in any spelling freeze-graph accepts: `=value`, `_`/`-`, unambiguous
prefixes; --report; frost-opt's -o) byte for byte, or that neither side wrote it. Normalised,
and only these: wall times in standard error (freeze-graph's "... in 0.123 s", the --timing
report), and the report's "timings" member (the whole member is removed from both files, which
must then be byte-identical; --report-ignore KEY drops more members). Failing runs are compared
too (negative tests: the same error, the same exit code). An output named /dev/null is written to
a temporary file on both sides instead (and compared), its path put back in what the tools print:
the tools rename a temporary file onto their output, which as root replaces /dev/null itself.

Every comparison is one line of WORK/compare.log: `identical` or `DIFFERENT` with what differs;
for a difference both sides' files are kept under WORK/diffs/N/. The script prints the lit
summary, the differing cases, and ends with

    compared N freezes: N identical, 0 different

exiting 1 when anything differs or a lit test fails (a failing test stops before its later RUN
lines, which are then not compared), 2 on a usage error.

Options: --work DIR (default: a new /tmp/frost-compare-*; kept for its log), --src DIR (the
checkout whose test/ and examples/ are used, default: this script's), --jobs N (lit workers,
default 2), --filter REGEX (lit's --filter), --no-lit, --no-direct, --lit PATH, --filecheck PATH.

--self-test checks that the script can fail: AFTER becomes a copy of BEFORE whose freeze-graph
appends one byte to the file it writes; the direct freezes must then be reported DIFFERENT (exit
0 when they are, 1 otherwise).

Missing ../shared/data is reported and its models skipped (the suite's shared-data tests are then
UNSUPPORTED); without TensorFlow the suite's oracle tests are UNSUPPORTED (the script says so) and
the freezes they perform are not compared.

Measured on 2 cores shared with other builds (load average about 9), the same build on both
sides: 6 min 10 s for 867 comparisons (lit 358 s, of which the suite itself, without shims, takes
about 340 s under the same load; direct 12 s); `--no-lit` about 12 s, `--self-test` about 50 s.
"""
import argparse
import fcntl
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

SHIMMED = ("freeze-graph", "frost-opt")
DEFAULT_LIT = "/usr/lib/llvm-19/build/utils/lit/lit.py"
DEFAULT_FILECHECK = "/usr/lib/llvm-19/bin/FileCheck"

# freeze-graph's options with their aliases, as its --help lists them; used when the help of
# the binaries cannot be read. Only the grouping matters: which spellings are one option.
FALLBACK_FREEZE_OPTIONS = [
    ["outputs", "output_node_names"], ["o", "output", "output_graph"],
    ["checkpoint", "input_checkpoint"], ["signature"], ["tags", "saved_model_tags"], ["ema"],
    ["rename"], ["bind"], ["only", "variable_names_whitelist"],
    ["except", "variable_names_blacklist", "variable_names_denylist"], ["keep_devices"],
    ["strip_training_ops"], ["keep_functional_control_flow"], ["emit"], ["pass_pipeline"],
    ["report"], ["quiet", "q"], ["help", "h"], ["version"], ["input_graph"],
    ["input_meta_graph"], ["input_saved_model_dir"], ["input_saver"], ["input_binary"],
    ["clear_devices"], ["initializer_nodes"], ["checkpoint_version"], ["restore_op_name"],
    ["filename_tensor_name"], ["timing"], ["pass_statistics"], ["print_ir_after_all"],
    ["print_ir_after"], ["verify_each"], ["dump_pass_pipeline"]]


# ----------------------------------------------------------------------------- arguments

def norm_option(name):
    return name.lstrip("-").replace("-", "_")


def freeze_graph_options(*bin_dirs):
    """Option groups (lists of normalised names) from the binaries' --help, union of all."""
    groups = []
    for bin_dir in bin_dirs:
        try:
            text = subprocess.run([os.path.join(bin_dir, "freeze-graph"), "--help"],
                                  capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in text.splitlines():
            m = re.match(r"\s{2}(-{1,2}[A-Za-z][\w-]*(?:\[=\w+\])?(?:,\s*-{1,2}[A-Za-z][\w-]*)*)", line)
            if not m:
                continue
            names = [norm_option(re.sub(r"\[=\w+\]", "", n.strip()))
                     for n in m.group(1).split(",")]
            if names not in groups:
                groups.append(names)
    return groups or FALLBACK_FREEZE_OPTIONS


def resolve_option(name, groups):
    """The group an (abbreviated) option name means, as freeze-graph resolves it, or None."""
    n = norm_option(name)
    for g in groups:
        if n in g:
            return g
    hits = [g for g in groups if any(a.startswith(n) for a in g)]
    return hits[0] if len(hits) == 1 else None


def output_slots(tool, argv, groups=FALLBACK_FREEZE_OPTIONS):
    """[(kind, index, prefix, path)]: where argv names output files ('-': standard output).
    kind is 'file' or 'report'; argv[index] is prefix + path."""
    slots = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if tool == "frost-opt":
            m = re.match(r"^(--?o)(=(.*))?$", arg, re.S)
            if m:
                if m.group(2) is not None:
                    slots.append(("file", i - 1, m.group(1) + "=", m.group(3)))
                elif i < len(argv):
                    slots.append(("file", i, "", argv[i]))
                    i += 1
            continue
        if arg == "-o" or arg.startswith("-o="):
            kind, eq, prefix = "file", arg.startswith("-o="), "-o="
        elif arg.startswith("--") and len(arg) > 2:
            name, eq, _ = arg[2:].partition("=")
            eq, prefix = bool(eq), "--" + name + "="
            group = resolve_option(name, groups)
            if group is None:
                continue
            if "output_graph" in group or "o" in group:
                kind = "file"
            elif "report" in group:
                kind = "report"
            else:
                continue
        else:
            continue
        if eq:
            slots.append((kind, i - 1, prefix, arg[len(prefix):]))
        elif i < len(argv):
            slots.append((kind, i, "", argv[i]))
            i += 1
    return slots


def output_paths(tool, argv, groups=FALLBACK_FREEZE_OPTIONS):
    """(files, reports): the output paths named in argv ('-' for standard output)."""
    slots = output_slots(tool, argv, groups)
    return ([p for k, _, _, p in slots if k == "file"],
            [p for k, _, _, p in slots if k == "report"])


# ----------------------------------------------------------------------------- comparison

TIME_PATTERNS = [
    # freeze-graph: wrote X (N bytes, pb) in 0.017 s
    (re.compile(rb"\bin \d+(?:\.\d+)?(?:e-?\d+)? s$", re.M), b"in <time> s"),
    # LLVM-style timer report (--timing): "  0.0148 ( 87.8%)  read input"
    (re.compile(rb"\d+\.\d+ \(\s*\d+\.\d+%\)"), b"<time> (<pct>)"),
    (re.compile(rb"(Total Execution Time: )\d+\.\d+ seconds( \(\d+\.\d+ wall clock\))?"),
     rb"\1<time> seconds"),
]


def normalise_times(data):
    for pattern, repl in TIME_PATTERNS:
        data = pattern.sub(repl, data)
    return data


def drop_json_members(data, keys):
    """data (JSON text, bytes) without the members named keys, byte for byte otherwise."""
    for key in keys:
        pattern = re.compile(rb',?\s*"' + re.escape(key.encode()) + rb'"\s*:\s*')
        while True:
            m = pattern.search(data)
            if not m:
                break
            end = skip_json_value(data, m.end())
            data = data[:m.start()] + data[end:]
    return data


def skip_json_value(data, pos):
    """The position just after the JSON value starting at pos (tolerant: stops at the end)."""
    depth, in_string, i = 0, False, pos
    while i < len(data):
        c = data[i:i + 1]
        if in_string:
            if c == b"\\":
                i += 1
            elif c == b'"':
                in_string = False
                if depth == 0:
                    return i + 1
        elif c == b'"':
            in_string = True
        elif c in (b"{", b"["):
            depth += 1
        elif c in (b"}", b"]"):
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == b"," and depth == 0:
            return i
        i += 1
    return i


def file_state(path):
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("absent", None)
    except OSError as e:
        return ("unreadable", str(e).encode())
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            return ("file", f.read())
    return ("other", None)


def run_binary(binary, tool, argv, stdin, cwd, env, merge=False, subst=None):
    """(exit code, stdout, stderr); with merge, stderr goes into stdout as the tool
    interleaves them (for a test's `2>&1 |`). subst: {temporary path: what argv said}."""
    proc = subprocess.run([tool] + argv, executable=binary, input=stdin, cwd=cwd, env=env,
                          stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merge else subprocess.PIPE)
    out, err = proc.stdout, proc.stderr or b""
    for temp, original in (subst or {}).items():
        out = out.replace(temp.encode(), original.encode())
        err = err.replace(temp.encode(), original.encode())
    return proc.returncode, out, err


def describe_bytes(a, b):
    if a is None or b is None:
        return "missing on one side"
    n = min(len(a), len(b))
    first = next((i for i in range(n) if a[i] != b[i]), n)
    return "%d vs %d bytes, first difference at byte %d" % (len(a), len(b), first)


def compare_run(cfg, tool, argv, stdin, cwd, env, merge=False):
    """Runs BEFORE then AFTER; returns the AFTER run and the list of differences."""
    slots = output_slots(tool, argv, cfg["freeze_options"])
    # Outputs to /dev/null go to a temporary file on both sides (the path is put back in
    # what they print): the tools write through a temporary file renamed onto the output,
    # which would replace /dev/null itself when run as root.
    subst, scratch = {}, None
    argv = list(argv)
    for n, (kind, index, prefix, path) in enumerate(slots):
        if path != "-" and os.path.realpath(os.path.join(cwd, path)) == "/dev/null":
            if scratch is None:
                os.makedirs(os.path.join(cfg["work"], "dev-null"), exist_ok=True)
                scratch = tempfile.mkdtemp(dir=os.path.join(cfg["work"], "dev-null"))
            temp = os.path.join(scratch, "null%d" % n)
            subst[temp] = path
            argv[index] = prefix + temp
            slots[n] = (kind, index, prefix, temp)
    files = [p for k, _, _, p in slots if k == "file"]
    reports = [p for k, _, _, p in slots if k == "report"]
    paths = []
    for p in files + reports:
        if p != "-" and p not in paths:
            paths.append(p)
    absolute = {p: os.path.join(cwd, p) for p in paths}
    pre = {p: file_state(absolute[p]) for p in paths}

    before = run_binary(os.path.join(cfg["before"], tool), tool, argv, stdin, cwd, env, merge,
                        subst)
    before_files = {p: file_state(absolute[p]) for p in paths}
    for p in paths:  # Put back what the AFTER run must find.
        kind, data = pre[p]
        now_kind, now_data = before_files[p]
        if kind == "absent" and now_kind == "file":
            os.unlink(absolute[p])
        elif kind == "file" and (now_kind != "file" or now_data != data):
            if now_kind == "file" or now_kind == "absent":
                with open(absolute[p], "wb") as f:
                    f.write(data)
    after = run_binary(os.path.join(cfg["after"], tool), tool, argv, stdin, cwd, env, merge,
                       subst)
    after_files = {p: file_state(absolute[p]) for p in paths}

    ignore = cfg["report_ignore"]
    timed = any(a.startswith("-") and norm_option(a).startswith(("timing", "pass_stat", "report"))
                for a in argv)
    diffs = []
    if before[0] != after[0]:
        diffs.append("exit code %d vs %d" % (before[0], after[0]))
    out_b, out_a = before[1], after[1]
    if "-" in reports:
        out_b, out_a = drop_json_members(out_b, ignore), drop_json_members(out_a, ignore)
    if timed or merge:
        out_b, out_a = normalise_times(out_b), normalise_times(out_a)
    if out_b != out_a:
        diffs.append(("stdout+stderr " if merge else "stdout ") + describe_bytes(out_b, out_a))
    if normalise_times(before[2]) != normalise_times(after[2]):
        diffs.append("stderr " + describe_bytes(normalise_times(before[2]),
                                                normalise_times(after[2])))
    for p in paths:
        (kb, db), (ka, da) = before_files[p], after_files[p]
        if kb != ka:
            diffs.append("%s: %s vs %s" % (p, kb, ka))
            continue
        if kb != "file":
            continue
        if p in reports:
            db, da = drop_json_members(db, ignore), drop_json_members(da, ignore)
        if db != da:
            diffs.append("%s: %s" % (p, describe_bytes(db, da)))
    if diffs:
        keep_sides(cfg, tool, argv, cwd, before, after, before_files, after_files, diffs)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    return after, diffs, files


def keep_sides(cfg, tool, argv, cwd, before, after, before_files, after_files, diffs):
    root = os.path.join(cfg["work"], "diffs")
    os.makedirs(root, exist_ok=True)
    d = tempfile.mkdtemp(prefix="%s-" % tool, dir=root)
    with open(os.path.join(d, "command"), "w") as f:
        f.write("cd %s && %s %s\n%s\n" % (shlex.quote(cwd), tool, shlex.join(argv),
                                          "\n".join(diffs)))
    for side, (rc, out, err), files in (("before", before, before_files),
                                         ("after", after, after_files)):
        os.makedirs(os.path.join(d, side))
        for name, data in (("stdout", out), ("stderr", err), ("exit", str(rc).encode())):
            with open(os.path.join(d, side, name), "wb") as f:
                f.write(data)
        for i, (p, (kind, data)) in enumerate(files.items()):
            if kind == "file":
                with open(os.path.join(d, side, "file%d-%s" % (i, os.path.basename(p))), "wb") as f:
                    f.write(data)
    diffs.append("(both sides in %s)" % d)


def log_comparison(cfg, origin, tool, argv, cwd, rc, diffs):
    line = "%s\t%s\t%s\texit %d\tcd %s && %s %s%s" % (
        "DIFFERENT" if diffs else "identical", origin, tool, rc, shlex.quote(cwd), tool,
        shlex.join(argv), ("\t" + "; ".join(diffs)) if diffs else "")
    line = line.replace("\r", "\\r").replace("\n", "\\n") + "\n"
    fd = os.open(cfg["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line.encode("utf-8", "surrogateescape"))
    finally:
        os.close(fd)


# ----------------------------------------------------------------------------- the shim

def shim_main(cfg_path, tool, argv):
    with open(cfg_path) as f:
        cfg = json.load(f)
    stdin = b""
    if sys.stdin is not None and not sys.stdin.isatty():
        try:
            stdin = sys.stdin.buffer.read()
        except (OSError, ValueError):
            stdin = b""
    cwd = os.getcwd()
    # A test that reads stdout and stderr through one pipe (`2>&1 |`) sees them interleaved
    # as the tool writes them: run both sides that way and compare the merged stream.
    try:
        o, e = os.fstat(1), os.fstat(2)
        merge = (o.st_dev, o.st_ino) == (e.st_dev, e.st_ino)
    except OSError:
        merge = False
    (rc, out, err), diffs, _ = compare_run(cfg, tool, argv, stdin, cwd, dict(os.environ), merge)
    log_comparison(cfg, "lit", tool, argv, cwd, rc, diffs)
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    sys.stderr.buffer.write(err)
    sys.stderr.buffer.flush()
    if rc < 0:  # Die as the AFTER binary died, for `not --crash` and friends.
        signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
    return rc


def fresh_dir(path):
    """An empty directory at `path` (what was there goes)."""
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)


def make_shim_dir(cfg, shim_dir):
    fresh_dir(shim_dir)
    script = os.path.abspath(__file__)
    cfg_path = os.path.join(cfg["work"], "shim-config.json")
    with open(cfg_path, "w") as f:
        json.dump(cfg, f, indent=1)
    for tool in SHIMMED:
        path = os.path.join(shim_dir, tool)
        with open(path, "w") as f:
            f.write("#!%s\n# Generated by %s: compares BEFORE and AFTER %s.\n"
                    "import sys\nsys.path.insert(0, %r)\nimport compare_freeze_outputs as c\n"
                    "sys.exit(c.shim_main(%r, %r, sys.argv[1:]))\n"
                    % (sys.executable, script, tool, os.path.dirname(script), cfg_path, tool))
        os.chmod(path, 0o755)
    for name in sorted(os.listdir(cfg["after"])):
        src = os.path.join(cfg["after"], name)
        if name not in SHIMMED and os.path.isfile(src) and os.access(src, os.X_OK):
            os.symlink(src, os.path.join(shim_dir, name))


# ----------------------------------------------------------------------------- lit part

def find_filecheck(before, explicit):
    if explicit:
        return explicit
    site = os.path.join(os.path.dirname(os.path.abspath(before)), "test", "lit.site.cfg.py")
    if os.path.isfile(site):
        m = re.search(r'config\.filecheck = "([^"]+)"', open(site).read())
        if m and os.path.isfile(m.group(1)):
            return m.group(1)
    return shutil.which("FileCheck") or DEFAULT_FILECHECK


def run_lit(cfg, args, src, shim_dir):
    obj = os.path.join(cfg["work"], "lit-obj")
    test_obj = os.path.join(obj, "test")
    fresh_dir(obj)
    os.makedirs(test_obj)
    site = os.path.join(test_obj, "lit.site.cfg.py")
    with open(site, "w") as f:
        f.write("# Generated by compare_freeze_outputs.py: the suite with shimmed tools.\n"
                "config.frost_src_root = %r\nconfig.frost_obj_root = %r\n"
                "config.frost_tools_dir = %r\nconfig.filecheck = %r\nconfig.python = %r\n"
                "config.sanitized = False\nlit_config.load_config(config, %r)\n"
                % (src, obj, shim_dir, find_filecheck(cfg["before"], args.filecheck),
                   sys.executable, os.path.join(src, "test", "lit.cfg.py")))
    lit = args.lit or (DEFAULT_LIT if os.path.isfile(DEFAULT_LIT) else shutil.which("lit"))
    if not lit:
        print("lit: not found (give --lit PATH); the suite's freezes are NOT compared")
        return None
    cmd = ([lit] if not lit.endswith(".py") else [sys.executable, lit]) + \
        ["-sv", "-j", str(args.jobs), test_obj]
    if args.filter:
        cmd += ["--filter", args.filter]
    lit_log = os.path.join(cfg["work"], "lit.log")
    print("lit: running %s (log: %s)" % (shlex.join(cmd), lit_log), flush=True)
    with open(lit_log, "wb") as f:
        proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    text = open(lit_log, errors="replace").read()
    counts = {}
    for m in re.finditer(r"^\s+([A-Z][A-Za-z ]+?)\s*:\s*(\d+)", text, re.M):
        counts[m.group(1)] = int(m.group(2))
    for m in re.finditer(r"note: (skipped: .*)", text):
        print("lit: " + m.group(1))
    failed = [m.group(0) for m in re.finditer(r"^(FAIL|UNRESOLVED|XPASS|TIMEOUT): .*", text, re.M)]
    print("lit: " + ", ".join("%d %s" % (v, k.lower()) for k, v in counts.items())
          + " (exit %d)" % proc.returncode)
    for line in failed:
        print("lit: " + line)
    if failed or proc.returncode != 0 and not counts:
        print("lit: a failing test stops at its failing RUN line: its later freezes are not "
              "compared (see %s)" % lit_log)
        return False
    return True


# ----------------------------------------------------------------------------- direct part

# Outputs of models whose sinks are not their inference outputs (training graphs), from
# ../shared/data/README.md and examples/.
KNOWN_OUTPUTS = {
    "tf2onnx-regression/checkpoint": "pred",
    "tf2onnx-regression/graphdef/frozen.pb": "pred",
    "tf-serving/session_bundle_half_plus_two/": "y",
    "examples/linear-regression": "pred",
}


def find_models(root, fixtures_only=False):
    """Model inputs under root: SavedModel dirs, checkpoint dirs, .meta/.pb/.pbtxt graphs."""
    models = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        if fixtures_only and os.path.basename(d) != "Inputs" and "/Inputs/" not in d + "/":
            continue
        saved_model = "saved_model.pb" in names or "saved_model.pbtxt" in names
        if saved_model:
            dirs[:] = []  # its variables/ and assets/ are part of it
        # A checkpoint directory (state file, V2 index, or a .meta beside its checkpoint).
        if saved_model or "checkpoint" in names or any(
                n.endswith((".index", ".meta")) for n in names):
            models.append(d)
        for n in sorted(names):
            if n in ("saved_model.pb", "saved_model.pbtxt"):
                continue
            if n.endswith((".meta", ".pbtxt", ".pb")):
                models.append(os.path.join(d, n))
    return models


def inspect_model(before, model):
    try:
        proc = subprocess.run([os.path.join(before, "frost-inspect"), "graph", "--json", model],
                              capture_output=True, timeout=120)
        return json.loads(proc.stdout) if proc.returncode == 0 else None
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def direct_cases(cfg, models):
    """(name, tool, argv) for each model: defaults, signatures, outputs, option sets."""
    cases = []
    for label, model in models:
        info = inspect_model(cfg["before"], model) or {}
        known = next((v for k, v in KNOWN_OUTPUTS.items() if k in model), None)
        signatures = [s.get("key") for s in (info.get("signatures") or []) if s.get("key")]
        sinks = [o["name"] for o in (info.get("outputs") or []) if o.get("name")]
        selections = [("defaults", [])]
        selections += [("signature-" + s, ["--signature", s]) for s in signatures]
        if known:
            selections.append(("outputs-known", ["--outputs", known]))
        if sinks:
            selections.append(("outputs-sinks", ["--outputs", ",".join(sinks)]))
            if len(sinks) > 1:
                selections.append(("outputs-first-sink", ["--outputs", sinks[0]]))
        # The option sets go with the selection that names the model's inference outputs.
        main = (["--outputs", known] if known else
                ["--signature", "serving_default" if "serving_default" in signatures
                 else signatures[0]] if signatures else
                ["--outputs", sinks[0]] if sinks else [])
        for sel, flags in selections:
            cases.append((label, sel, "freeze-graph", [model] + flags + ["-o", "frozen.pb"]))
        option_sets = [
            ("pbtxt", ["--emit", "pbtxt", "-o", "frozen.pbtxt"]),
            ("stdout", ["-o", "-", "--emit=pbtxt"]),
            ("keep-devices", ["--keep-devices", "-o", "frozen.pb"]),
            ("strip-training-ops", ["--strip-training-ops", "-o", "frozen.pb"]),
            ("report", ["-o", "frozen.pb", "--report", "report.json"]),
            ("dump-timing", ["-o", "frozen.pb", "--dump-pass-pipeline", "--timing", "-q"]),
            ("functional-control-flow", ["--keep-functional-control-flow", "-o", "frozen.pb"]),
            ("tf-flags", ["--output_graph=frozen.pb", "--clear_devices=false"]),
        ]
        for sel, flags in option_sets:
            cases.append((label, "main+" + sel, "freeze-graph", [model] + main + flags))
        cases.append((label, "frost-opt-print", "frost-opt", [model, "-o", "printed.pbtxt"]))
    return cases


def add_pipeline_cases(cfg, cases, work):
    """frost-opt's `freeze` pipeline with what freeze-graph's report says it froze from."""
    extra = []
    for label, sel, tool, argv in cases:
        if sel != "main+report":
            continue
        report = os.path.join(work, "direct", safe(label + "-" + sel), "report.json")
        try:
            r = json.load(open(report))
        except (OSError, ValueError):
            continue
        graph = r.get("input", {}).get("graph")
        ckpt = r.get("input", {}).get("checkpoint")
        outs = ",".join(o["node"] for o in r.get("outputs", []) if o.get("node"))
        if not graph or not outs:
            continue
        pipeline = "freeze{%soutputs=%s}" % ("checkpoint=%s," % ckpt if ckpt else "", outs)
        extra.append((label, "frost-opt-freeze", "frost-opt",
                      [graph, "--pass-pipeline=" + pipeline, "--graph-only", "--emit=pb",
                       "-o", "frozen.pb"]))
        extra.append((label, "frost-opt-freeze-stats", "frost-opt",
                      [graph, "--pass-pipeline=" + pipeline, "--dump-pass-pipeline",
                       "--pass-statistics", "-o", "frozen.pbtxt"]))
    return extra


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", name).strip("_")


def run_direct(cfg, src, shared):
    models = []
    for m in find_models(os.path.join(src, "examples")):
        models.append(("examples/" + os.path.relpath(m, os.path.join(src, "examples")), m))
    for m in find_models(os.path.join(src, "test"), fixtures_only=True):
        models.append(("test/" + os.path.relpath(m, os.path.join(src, "test")), m))
    if os.path.isdir(shared):
        for m in find_models(shared):
            models.append(("shared/" + os.path.relpath(m, shared), m))
    else:
        print("direct: skipped: shared data not present (%s)" % shared)
    # A directory that is a checkpoint dir also lists its .meta: both are inputs worth freezing.
    cases = direct_cases(cfg, models)
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

    def run(batch):
        n = 0
        for label, sel, tool, argv in batch:
            cwd = os.path.join(cfg["work"], "direct", safe(label + "-" + sel))
            fresh_dir(cwd)
            (rc, _, _), diffs, _ = compare_run(cfg, tool, argv, b"", cwd, env)
            log_comparison(cfg, "direct", tool, argv, cwd, rc, diffs)
            n += 1
        return n

    n = run(cases)
    n += run(add_pipeline_cases(cfg, cases, cfg["work"]))
    print("direct: %d models (%s), %d runs" % (len(models), ", ".join(l for l, _ in models), n))


# ----------------------------------------------------------------------------- main

def read_log(path):
    entries = []
    if os.path.isfile(path):
        for line in open(path, encoding="utf-8", errors="replace"):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 5:
                entries.append(parts)
    return entries


def make_broken_after(work, before):
    """A copy of BEFORE whose freeze-graph appends a byte to the file it writes."""
    broken = os.path.join(work, "broken-after")
    fresh_dir(broken)
    for name in os.listdir(before):
        os.symlink(os.path.join(before, name), os.path.join(broken, name))
    os.unlink(os.path.join(broken, "freeze-graph"))
    path = os.path.join(broken, "freeze-graph")
    with open(path, "w") as f:
        f.write("#!%s\n# Self-test: the real freeze-graph, then one more byte in its output.\n"
                "import os, subprocess, sys\nsys.path.insert(0, %r)\n"
                "import compare_freeze_outputs as c\n"
                "rc = subprocess.call([%r] + sys.argv[1:])\n"
                "files, _ = c.output_paths('freeze-graph', sys.argv[1:], c.FALLBACK_FREEZE_OPTIONS)\n"
                "for p in files:\n"
                "    if p != '-' and os.path.isfile(p):\n"
                "        open(p, 'ab').write(b'\\n')\n"
                "sys.exit(rc)\n"
                % (sys.executable, os.path.dirname(os.path.abspath(__file__)),
                   os.path.join(before, "freeze-graph")))
    os.chmod(path, 0o755)
    return broken


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the docstring of this script for details.")
    ap.add_argument("--before", required=True, help="bin directory of the build before")
    ap.add_argument("--after", help="bin directory of the build after")
    ap.add_argument("--work", help="work directory (default: a new /tmp/frost-compare-*)")
    ap.add_argument("--src", default=os.path.dirname(here),
                    help="checkout whose test/ and examples/ to use (default: %(default)s)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="lit workers (default 2)")
    ap.add_argument("--filter", help="only the lit tests matching this regex")
    ap.add_argument("--no-lit", action="store_true", help="skip the lit suite")
    ap.add_argument("--no-direct", action="store_true", help="skip the direct freezes")
    ap.add_argument("--lit", help="lit.py (default: %s)" % DEFAULT_LIT)
    ap.add_argument("--filecheck", help="FileCheck (default: the BEFORE build's)")
    ap.add_argument("--report-ignore", action="append", default=["timings"], metavar="KEY",
                    help="report members not compared (default: timings)")
    ap.add_argument("--self-test", action="store_true",
                    help="check that a deliberately different AFTER is caught (direct freezes)")
    args = ap.parse_args()

    before = os.path.abspath(args.before)
    if not os.access(os.path.join(before, "freeze-graph"), os.X_OK):
        ap.error("no freeze-graph in --before %s" % before)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="frost-compare-")
    os.makedirs(work, exist_ok=True)
    if args.self_test:
        after = make_broken_after(work, before)
        args.no_lit = True
        print("self-test: AFTER = %s (freeze-graph appends a byte to its output)" % after)
    elif not args.after:
        ap.error("--after is required (or --self-test)")
    else:
        after = os.path.abspath(args.after)
    for tool in SHIMMED:
        if not os.access(os.path.join(after, tool), os.X_OK):
            ap.error("no %s in %s" % (tool, after))
    src = os.path.abspath(args.src)
    shared = os.path.normpath(os.path.join(src, "..", "shared", "data"))
    log = os.path.join(work, "compare.log")
    if os.path.exists(log):
        os.unlink(log)
    if os.path.isdir(os.path.join(work, "diffs")):
        shutil.rmtree(os.path.join(work, "diffs"))
    cfg = {"before": before, "after": after, "work": work, "log": log,
           "report_ignore": args.report_ignore,
           "freeze_options": freeze_graph_options(before, after)}
    print("before: %s\nafter:  %s\nsource: %s\nwork:   %s" % (before, after, src, work))
    if not os.path.isdir(shared):
        print("shared data: not present (%s): its models are skipped" % shared)
    start = time.monotonic()
    lit_ok = True
    if not args.no_lit:
        probe = subprocess.run([sys.executable, "-c",
                                "import importlib.util, sys; "
                                "sys.exit(importlib.util.find_spec('tensorflow') is None)"])
        if probe.returncode != 0:
            print("lit: tensorflow not installed: the oracle tests are UNSUPPORTED and the "
                  "freezes they perform are not compared")
        shim_dir = os.path.join(work, "shim-bin")
        make_shim_dir(cfg, shim_dir)
        lit_ok = run_lit(cfg, args, src, shim_dir) is not False
        print("lit: %.0f s" % (time.monotonic() - start), flush=True)
    if not args.no_direct:
        t = time.monotonic()
        run_direct(cfg, src, shared)
        print("direct: %.0f s" % (time.monotonic() - t))

    entries = read_log(log)
    different = [e for e in entries if e[0] == "DIFFERENT"]
    by_origin = {}
    for e in entries:
        key = (e[1], e[2])
        by_origin[key] = by_origin.get(key, 0) + 1
    failing = sum(1 for e in entries if e[3] != "exit 0")
    print("runs compared: " + ", ".join("%s %s: %d" % (o, t, n)
                                        for (o, t), n in sorted(by_origin.items()))
          + "; %d of them exit non-zero on the AFTER side (error cases, compared too)" % failing)
    for e in different[:50]:
        print("DIFFERENT (%s, %s) %s\n    %s" % (e[1], e[3], e[4], e[5] if len(e) > 5 else ""))
    if len(different) > 50:
        print("... and %d more (%s)" % (len(different) - 50, log))
    print("log: %s; total time %.0f s" % (log, time.monotonic() - start))
    print("compared %d freezes: %d identical, %d different"
          % (len(entries), len(entries) - len(different), len(different)))
    if args.self_test:
        ok = bool(different)
        print("self-test: %s" % ("PASSED: the difference was caught" if ok else
                                 "FAILED: a deliberately different build was not caught"))
        return 0 if ok else 1
    return 1 if different or not lit_ok or not entries else 0


if __name__ == "__main__":
    sys.exit(main())
