#!/usr/bin/env python3
"""Runs the hostile corpus (hostile_corpus.py) against Frost's tools.

    run_hostile.py --bin DIR [--sanitized] [--filter REGEX] [--jobs N]
                   [--timeout S] [--memory MB] [--keep DIR] [--list] [-v]

Each case runs in its own directory with a wall-time limit and a memory
limit: RLIMIT_AS for a plain build; for a sanitized one (--sanitized, or
FROST_SANITIZED=1) ASan's hard_rss_limit_mb instead, since ASan reserves
terabytes of address space. A case passes when the tool
  - was not killed by a signal and did not hit the time limit,
  - printed no sanitizer report,
  - exited with one of the case's expected codes,
  - on failure (an exit code other than the case's successes, 0 unless it
    says) printed a non-empty stderr with an `error:` line (matching the
    case's regex, if it has one), at most max_lines lines,
  - printed no line longer than 400 characters and no `[libprotobuf` log line,
  - on failure left no new file behind (output, temp file, report),
  - left every input byte-identical.
Prints one line per failing case and `hostile corpus: N cases, N failed`;
exits 1 if any failed.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostile_corpus  # noqa: E402

MAX_LINE = 600  # a few hundred characters: long names are shortened, not echoed whole
SANITIZER = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                       r"SUMMARY: (Address|Undefined|Leak)Sanitizer")


def snapshot(d):
    """path -> what it is: a file's SHA-256, a symlink's target, 'dir', 'fifo'."""
    state = {}
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, d)
            st = os.lstat(path)
            if os.path.islink(path):
                state[rel] = "symlink:" + os.readlink(path)
            elif os.path.isdir(path):
                state[rel] = "dir"
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    state[rel] = "sha256:%s:%d:%d" % (hashlib.sha256(f.read()).hexdigest(),
                                                      st.st_ino, st.st_nlink)
            else:
                state[rel] = "special:%o" % st.st_mode
    return state


def substitute(arg, d):
    return arg.replace("{d}", d)


def run_case(case, args, corpus):
    d = os.path.join(corpus, case["name"])
    argv = [substitute(a, d) for a in case["argv"]]
    argv[0] = os.path.join(args.bin, argv[0])
    before = snapshot(d)
    env = dict(os.environ)
    limit = args.memory
    if args.sanitized:
        opts = env.get("ASAN_OPTIONS", "")
        env["ASAN_OPTIONS"] = ":".join(o for o in (opts, "hard_rss_limit_mb=%d" % limit,
                                                     "detect_leaks=1") if o)
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
        ulimit = "ulimit -c 0"
    else:
        ulimit = "ulimit -c 0 && ulimit -v %d" % (limit * 1024)
    # Limits set by a shell rather than preexec_fn (the runner has threads);
    # no core dumps: writing gigabytes of core would look like a hang.
    cmd = ["/bin/sh", "-c", ulimit + ' && exec "$0" "$@"'] + argv
    stdin_path = case.get("stdin")
    stdin = open(substitute(stdin_path, d) if stdin_path else os.devnull, "rb")
    timeout = case.get("timeout") or args.timeout
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=d, env=env, start_new_session=True)
    except OSError as e:
        stdin.close()
        return dict(name=case["name"], category=case["category"], exit=None, first="",
                    problems=["cannot run: %s" % e], elapsed=0.0, stderr_lines=0, argv=argv)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    finally:
        stdin.close()
    elapsed = time.monotonic() - start
    code = proc.returncode
    err_text = err.decode("utf-8", "replace")
    lines = err_text.splitlines()
    problems = []
    if timed_out:
        problems.append("hang: killed after %gs" % timeout)
    elif code < 0:
        problems.append("killed by signal %d (%s)" % (-code, signal.Signals(-code).name))
    if SANITIZER.search(err_text):
        first = next((l for l in lines if SANITIZER.search(l)), "")
        problems.append("sanitizer report: " + first.strip()[:200])
    if not timed_out and code >= 0 and code not in case["exit"]:
        problems.append("exit %d, expected %s" % (code, "/".join(map(str, case["exit"]))))
    failed = code not in case.get("success", [0])
    if failed and not timed_out and code > 0:
        error_lines = [l for l in lines if "error:" in l]
        if not lines:
            problems.append("no message on stderr")
        elif not error_lines:
            problems.append("no 'error:' line")
        elif case.get("regex") and not re.search(case["regex"], err_text):
            problems.append("error does not match /%s/" % case["regex"])
    if len(lines) > case.get("max_lines", 5) and not SANITIZER.search(err_text) and not timed_out:
        problems.append("%d stderr lines (at most %d)" % (len(lines), case.get("max_lines", 5)))
    long = [l for l in lines if len(l) > MAX_LINE]
    if long and not SANITIZER.search(err_text):
        problems.append("stderr line of %d chars (at most %d)" % (max(map(len, long)), MAX_LINE))
    if any("[libprotobuf" in l for l in lines):
        problems.append("libprotobuf log line")
    after = snapshot(d)
    changed = sorted(p for p in before if after.get(p) != before[p])
    if changed:
        problems.append("input changed: " + ", ".join(changed[:3]))
    new = sorted(p for p in after if p not in before)
    if new and (failed or timed_out):
        problems.append("left behind: " + ", ".join(new[:3]))
    first_line = next((l for l in lines if "error:" in l), lines[0] if lines else "")
    return dict(name=case["name"], category=case["category"], problems=problems, exit=code,
                first=first_line, elapsed=elapsed, stderr_lines=len(lines),
                argv=[substitute(a, d) for a in case["argv"]])


def shorten(text, n=200):
    return text if len(text) <= n else text[:n] + "...(%d chars)" % len(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", help="directory holding freeze-graph, frost-opt, frost-inspect")
    parser.add_argument("--sanitized", action="store_true",
                        default=os.environ.get("FROST_SANITIZED", "") in ("1", "ON", "True", "true"))
    parser.add_argument("--filter", help="run only the cases whose name matches this regex")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per case (default 20, 60 when sanitized)")
    parser.add_argument("--memory", type=int, default=3072, help="MiB per case (default 3072)")
    parser.add_argument("--keep", help="generate the corpus here and keep it (default: a temp dir)")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--json", help="also write the results here as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = parser.parse_args()
    if args.sanitized:
        hostile_corpus.HUGE_GRAPH_NODES = 20000
    if args.list:
        for case in hostile_corpus.all_cases():
            if not args.filter or re.search(args.filter, case["name"]):
                print("%-10s %-45s exit %s  %s" % (case["category"], case["name"],
                                                   "/".join(map(str, case["exit"])),
                                                   shorten(repr(" ".join(case["argv"])), 100)))
        return 0
    if not args.bin:
        parser.error("--bin DIR is required")
    if args.timeout is None:
        args.timeout = 60.0 if args.sanitized else 20.0
    corpus = args.keep or tempfile.mkdtemp(prefix="hostile-")
    os.makedirs(corpus, exist_ok=True)
    try:
        cases = hostile_corpus.generate(corpus, args.filter)
        # The slow ones first, so that two jobs finish together.
        order = sorted(cases, key=lambda c: not (c["name"].startswith(("graph-huge", "graph-200k"))))
        results = []
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for result in pool.map(lambda c: run_case(c, args, corpus), order):
                results.append(result)
                if result["problems"]:
                    print("FAIL %s [%s]: %s; stderr: %s" % (
                        result["name"], result["category"], "; ".join(result["problems"]),
                        shorten(result["first"])), flush=True)
                elif args.verbose:
                    print("ok   %s (exit %d, %.2fs)" % (result["name"], result["exit"],
                                                      result["elapsed"]), flush=True)
        failed = [r for r in results if r["problems"]]
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)
        print("hostile corpus: %d cases, %d failed" % (len(results), len(failed)))
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(corpus, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
