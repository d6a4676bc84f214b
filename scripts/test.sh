#!/usr/bin/env bash
# The whole test suite: installs what is missing (TensorFlow as the oracle
# included), builds normally and with ASan+UBSan, runs the unit tests and the
# lit suite on both, and ends with one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-tensorflow || exit 1

lit=/usr/lib/llvm-19/build/utils/lit/lit.py
passed=0; failed=0; skipped=0
log=$(mktemp -d)
elapsed() { printf '(%dm%02ds)' $((SECONDS / 60)) $((SECONDS % 60)); }

run_suite() { # name build-dir cmake-args...
  local name=$1 dir=$2; shift 2
  echo "== $name: building in $dir $(elapsed)"
  if ! bash scripts/build.sh "$dir" "$@" > "$log/$name.build" 2>&1; then
    tail -40 "$log/$name.build"
    echo "== $name: BUILD FAILED"
    failed=$((failed + 1))
    return
  fi
  echo "== $name: unit tests $(elapsed)"
  "$dir/bin/frost-unittests" --gtest_brief=1 > "$log/$name.gtest" 2>&1
  grep -E "FAILED|Failure" "$log/$name.gtest" | head -40
  local gp gf gs gt
  gp=$(grep -oP '^\[  PASSED  \] \K[0-9]+' "$log/$name.gtest" || echo 0)
  gs=$(grep -oP '^\[  SKIPPED \] \K[0-9]+' "$log/$name.gtest" || echo 0)
  # Failed = ran - passed - skipped (--gtest_brief prints no count of the
  # failures); a crashed binary prints no summary at all: one failure.
  gt=$(grep -oP '^\[==========\] \K[0-9]+(?= tests? from .* ran)' "$log/$name.gtest" || true)
  if [ -n "$gt" ]; then gf=$((gt - gp - gs)); else gf=1; tail -20 "$log/$name.gtest"; fi
  grep -h "skipped: " "$log/$name.gtest" | sort -u | sed 's/^/   /'
  echo "   gtest: $gp passed, $gf failed, $gs skipped"
  echo "== $name: lit $(elapsed)"
  python3 "$lit" -sv --time-tests ${LIT_PARAMS:-} "$dir/test" > "$log/$name.lit" 2>&1
  grep -E "^(FAIL|XPASS|UNRESOLVED)|note: skipped|Total Discovered|^ +[A-Z][a-z]+ *: " "$log/$name.lit"
  # Where the suite's time goes (the 20-minute budget): its eight slowest tests.
  sed -n '/^Slowest Tests:/,/^Tests Times:/p' "$log/$name.lit" | sed -n '3,10s/^/   /p'
  grep -q "^FAIL" "$log/$name.lit" && sed -n "/^\*\*\*\*\*/,/^\*\*\*\*\*/p" "$log/$name.lit" | head -80
  local lp lf lu
  lp=$(grep -oP '^\s*Passed\s*:\s*\K[0-9]+' "$log/$name.lit" || echo 0)
  lf=$(grep -oP '^\s*(Failed|Unresolved|Timed Out|Unexpectedly Passed)\s*:\s*\K[0-9]+' "$log/$name.lit" | awk '{s += $1} END {print s + 0}')
  [ -n "$lf" ] || lf=0
  lu=$(grep -oP '^\s*Unsupported\s*:\s*\K[0-9]+' "$log/$name.lit" || echo 0)
  echo "   lit: $lp passed, $lf failed, $lu unsupported"
  passed=$((passed + gp + lp)); failed=$((failed + gf + lf)); skipped=$((skipped + gs + lu))
}

# The release build also builds the Python package's extension (position-
# independent libraries; nanobind from setup), tested by pytest below.
python_build=()
python3 -c "import nanobind" >/dev/null 2>&1 && python_build=(-DFROST_BUILD_PYTHON=ON)
run_suite release build "${python_build[@]}"
# pytest (python/tests: the API against the tools, TensorFlow round trips, a
# pip install into a fresh venv) runs beside the sanitized build: its report
# comes after it.
python_tests=
if [ ${#python_build[@]} -gt 0 ] && python3 -c "import pytest" >/dev/null 2>&1; then
  echo "== python: pytest, beside the sanitized suite $(elapsed)"
  FROST_BIN=build/bin PYTHONPATH=build/python python3 -m pytest -q -p no:cacheprovider \
    python/tests > "$log/pytest" 2>&1 &
  python_tests=$!
fi
report_pytest() {
  echo "== python: pytest results $(elapsed)"
  if [ -z "$python_tests" ]; then
    echo "   pytest: skipped (nanobind or pytest unavailable)"
    skipped=$((skipped + 1))
    return
  fi
  wait "$python_tests"
  grep -E "FAILED|ERROR|Error" "$log/pytest" | head -40
  pp=$(grep -oP '\b\K[0-9]+(?= passed)' "$log/pytest" | tail -1); pp=${pp:-0}
  pf=$(grep -oP '\b\K[0-9]+(?= (failed|error))' "$log/pytest" | awk '{s += $1} END {print s + 0}')
  ps=$(grep -oP '\b\K[0-9]+(?= skipped)' "$log/pytest" | tail -1); ps=${ps:-0}
  # No summary at all (a crash): one failure.
  grep -qE "[0-9]+ (passed|failed|error)" "$log/pytest" || { pf=1; tail -20 "$log/pytest"; }
  echo "   pytest: $pp passed, $pf failed, $ps skipped"
  passed=$((passed + pp)); failed=$((failed + pf)); skipped=$((skipped + ps))
}
# One clang tree for the sanitized suite and the fuzzer: the libraries and
# protos are compiled once for both.
# The TensorFlow oracle tests ran on the release build; here they would
# repeat TensorFlow's own work (two thirds of the suite's time).
# Through ccache like the release tree (depend mode: a miss costs nothing
# more), so a second run of one commit, or of one that changed a few files,
# rebuilds only those.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 LIT_PARAMS="--param tensorflow=off" \
  run_suite sanitized build-sanitized -DFROST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  -DFROST_BUILD_FUZZERS=ON -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
report_pytest
# Six fuzzers, two at a time, each replaying its seeds and fuzz/regressions/
# and then 20,000 mutations from a fixed seed: about a minute of wall time, and
# the same inputs on every run of one commit, so a verdict can be reproduced.
# Searching for new findings is the job of long runs:
# FUZZ_SECONDS=600 scripts/fuzz.sh.
echo "== fuzzing $(elapsed)"
if FUZZ_RUNS=20000 FUZZ_SECONDS=120 FUZZ_JOBS=2 FUZZ_BUILD_DIR=build-sanitized \
  bash scripts/fuzz.sh \
  > "$log/fuzz" 2>&1; then
  passed=$((passed + 1)); grep "^fuzz: " "$log/fuzz"
else failed=$((failed + 1)); tail -60 "$log/fuzz"; fi

rm -rf "$log"
echo "== done $(elapsed)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
