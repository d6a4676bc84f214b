#!/usr/bin/env bash
# Builds Frost's libFuzzer targets (fuzz/, clang, ASan+UBSan) and runs each for
# FUZZ_SECONDS (default 60), FUZZ_JOBS (default 2) at a time, from seeds made
# from the repository's tests plus what earlier runs found interesting. Any
# crash, sanitizer report, leak, timeout (-timeout=10) or OOM (-rss_limit_mb=2048)
# fails the script, naming the reproducer and showing the log's tail.
# FUZZERS="model pipeline" runs only those. Part of scripts/test.sh.
#
# FUZZ_RUNS=N makes a run reproducible, as CI needs: each fuzzer executes N
# inputs from a fixed seed (FUZZ_SEED, default 1), starting from the seeds
# alone (not the grown corpus); FUZZ_SECONDS then only caps the time.
#
# Every run first replays fuzz/regressions/: each input that once broke a
# fuzzer, kept so that none comes back (any fuzzer may read any bytes).
#
# Kept in the build directory across runs:
#   fuzz-corpus/<fuzzer>/     inputs libFuzzer found interesting (grows)
#   fuzz-artifacts/<fuzzer>/  reproducers: crash-*, leak-*, timeout-*, oom-*
#   fuzz-logs/<fuzzer>.log    the last run's output
# Reproduce: <dir>/bin/frost-fuzz-<fuzzer> <reproducer>
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-2}
runs=${FUZZ_RUNS:-}
# FUZZ_BUILD_DIR: a clang tree configured with FROST_BUILD_FUZZERS=ON already
# (scripts/test.sh's sanitized one, a Debug build); else build-fuzz is
# configured here for long runs: optimized, asserts kept (no -DNDEBUG).
dir=${FUZZ_BUILD_DIR:-build-fuzz}
if [ -z "${FUZZ_BUILD_DIR:-}" ]; then
  cmake -S . -B "$dir" -G Ninja -DFROST_BUILD_FUZZERS=ON -DFROST_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
fi
ninja -C "$dir" -j2 frost-fuzzers >/dev/null
fuzzers=${FUZZERS:-$(cat "$dir/fuzz/fuzzers.txt")}

seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
"$dir/bin/frost-fuzz-corpus" . "$seeds"

# Longest input per fuzzer: room for models deeper than the text recursion
# limit (100 levels) and for long node lists; short ones where the input is
# a command line or a pipeline.
max_len() {
  case $1 in
    pipeline) echo 1024 ;;
    freeze-args) echo 2048 ;;
    checkpoint) echo 8192 ;;
    *) echo 65536 ;;
  esac
}

# Runs one fuzzer; its verdict goes to $seeds/<fuzzer>.verdict.
run_fuzzer() {
  local name=$1
  local corpus=$dir/fuzz-corpus/$name artifacts=$dir/fuzz-artifacts/$name
  local log=$dir/fuzz-logs/$name.log
  local extra=() limit=(-max_total_time="$seconds")
  if [ -n "$runs" ]; then
    corpus=$seeds/$name.new
    limit+=(-runs="$runs" -seed="${FUZZ_SEED:-1}")
  fi
  mkdir -p "$corpus" "$artifacts" "$dir/fuzz-logs"
  case $name in model-text | functions) extra+=(-dict=fuzz/pbtxt.dict) ;; esac
  # New inputs go to the first directory, the persistent corpus.
  if "$dir/bin/frost-fuzz-$name" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
      -max_len="$(max_len "$name")" -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "${extra[@]}" "$corpus" "$seeds/$name" fuzz/regressions > "$log" 2>&1; then
    local executed how
    executed=$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" || echo "?")
    how="ran ${seconds} s"
    [ -n "$runs" ] && how="ran from seed ${FUZZ_SEED:-1}"
    echo "fuzz: frost-fuzz-$name $how, ${executed} inputs, no finding" \
      > "$seeds/$name.verdict"
  else
    {
      echo "fuzz: frost-fuzz-$name FAILED; log: $log"
      grep -E "^(==[0-9]+==|SUMMARY|frost fuzzer:)|ERROR: libFuzzer" "$log" | head -5 || true
      echo "-- tail of the log:"
      tail -40 "$log"
      local unit
      unit=$(grep -oP 'Test unit written to \K\S+' "$log" | tail -1 || true)
      echo "fuzz: frost-fuzz-$name reproducer: ${unit:-(none written)}"
      echo "fuzz: reproduce with $dir/bin/frost-fuzz-$name ${unit:-}"
    } > "$seeds/$name.verdict"
    touch "$seeds/failed"
  fi
}

for name in $fuzzers; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_fuzzer "$name" &
done
wait
for name in $fuzzers; do cat "$seeds/$name.verdict"; done
[ ! -e "$seeds/failed" ]
