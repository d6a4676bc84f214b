#!/usr/bin/env bash
# Builds the checkpoint reader's libFuzzer target with clang (ASan+UBSan) and
# fuzzes it for FUZZ_SECONDS (default 60) from a seed corpus; any crash, leak
# or sanitizer report fails. Part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
# FUZZ_BUILD_DIR: a clang tree configured with FROST_BUILD_FUZZERS=ON already
# (scripts/test.sh's sanitized one); else build-fuzz is configured here.
dir=${FUZZ_BUILD_DIR:-build-fuzz}
if [ -z "${FUZZ_BUILD_DIR:-}" ]; then
  cmake -S . -B "$dir" -G Ninja -DFROST_BUILD_FUZZERS=ON -DFROST_BUILD_TESTS=OFF \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
fi
ninja -C "$dir" frost-fuzz-checkpoint frost-fuzz-checkpoint-corpus >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$dir/bin/frost-fuzz-checkpoint-corpus" "$work/corpus" >/dev/null
mkdir -p "$work/artifacts"
"$dir/bin/frost-fuzz-checkpoint" -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" > "$work/log" 2>&1 || {
  tail -60 "$work/log"; echo "fuzz: FAILED (a crash or sanitizer report)"; exit 1; }
runs=$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$work/log" || echo "?")
echo "fuzz: frost-fuzz-checkpoint ran ${seconds} s, ${runs} inputs, no finding"
