#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# in build-fuzz/, replays the inputs of past findings (fuzz/regressions/<target>/), then fuzzes
# each target for the given number of seconds (default 60). Exits non-zero on any crash, leak,
# undefined behaviour, failed property or timeout.
#
#   bash scripts/fuzz.sh                 # 60 s per target (what CI runs)
#   bash scripts/fuzz.sh 3600            # a long run: an hour per target
#   FUZZ_TARGETS="fuzz_jsonrpc fuzz_notebook" bash scripts/fuzz.sh 1800   # some targets only
#   FUZZ_PARALLEL=1 bash scripts/fuzz.sh 600                             # one target at a time
#
# Each target fuzzes build-fuzz/corpus/<target>/: the seeds of fuzz/corpus/<target>/ copied there,
# plus whatever earlier runs added, so long runs build on each other and the repository never
# changes (rm -rf build-fuzz/corpus starts afresh; libFuzzer writes new inputs into the first
# directory it is given, so never give it fuzz/corpus/<target> itself). Findings go to
# build-fuzz/artifacts/<target>/, logs to build-fuzz/logs/<target>.log.
#
# A finding becomes a regression test: reproduce it with
#   build-fuzz/fuzz/<target> build-fuzz/artifacts/<target>/crash-...
# fix the bug, and copy the file to fuzz/regressions/<target>/ under a name that says what it
# checks. This script replays fuzz/regressions/ before fuzzing, and so does the test
# <target>_replay of a build configured with -DMCPREAD_FUZZ=ON (scripts/test-sanitizers.sh).
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
build="$project/build-fuzz"
# Every target with a seed directory, unless FUZZ_TARGETS names some.
read -r -a targets <<<"${FUZZ_TARGETS:-$(cd "$project/fuzz/corpus" && echo *)}"
parallel=${FUZZ_PARALLEL:-$(nproc)}

# Longest input per target (4096 when not listed): enough for the structures each one parses,
# small enough to keep executions fast.
declare -A max_len=([fuzz_jsonrpc]=8192 [fuzz_page_ranges]=256 [fuzz_notebook]=16384
  [fuzz_charset]=4096 [fuzz_classify]=8192 [fuzz_http]=8192)

bash "$project/scripts/install-deps.sh" --test
# -O1 -g1: half the compile time of -O2 -g, reports still with file and line.
CC=clang-14 CXX=clang++-14 cmake -S "$project" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DMCPREAD_FUZZ=ON -DMCPREAD_BUILD_TESTS=OFF \
  -DMCPREAD_STATIC_LIBS=OFF -DMCPREAD_SANITIZE=address,undefined >/dev/null
cmake --build "$build" --target mcpread_fuzzers

# intercept_tls_get_addr=0: clang 14's runtime can misread a dynamic TLS block as a glibc < 2.25
# one and crash LeakSanitizer's scan (see scripts/test-sanitizers.sh).
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:intercept_tls_get_addr=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
command -v llvm-symbolizer-14 >/dev/null && export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer-14)
mkdir -p "$build/logs"

failed=()
for target in "${targets[@]}"; do
  regressions="$project/fuzz/regressions/$target"
  [[ -d "$regressions" ]] || continue
  mapfile -t inputs < <(find "$regressions" -type f | sort)
  [[ ${#inputs[@]} -gt 0 ]] || continue
  echo "fuzz: $target: replaying ${#inputs[@]} regression input(s)"
  if ! "$build/fuzz/$target" "${inputs[@]}" >"$build/logs/$target.regressions.log" 2>&1; then
    echo "fuzz: $target: a regression input fails again; see $build/logs/$target.regressions.log"
    failed+=("$target (regressions)")
  fi
done

fuzz_one() {
  local target=$1 corpus="$build/corpus/$1" artifacts="$build/artifacts/$1" seed
  mkdir -p "$corpus" "$artifacts"
  for seed in "$project/fuzz/corpus/$target/"*; do
    [[ -e "$corpus/${seed##*/}" ]] || cp "$seed" "$corpus/"
  done
  local dict=()
  [[ -f "$project/fuzz/dict/$target.dict" ]] && dict=(-dict="$project/fuzz/dict/$target.dict")
  "$build/fuzz/$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" \
    -max_len="${max_len[$target]:-4096}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$build/logs/$target.log" 2>&1
}

# Targets run side by side, $parallel at a time; each is single-threaded. Each one's exit status
# goes to a file, as `wait -n` does not say whose status it returns.
for target in "${targets[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do wait -n || true; done
  echo "fuzz: $target: fuzzing for ${seconds}s"
  (if fuzz_one "$target"; then echo 0; else echo $?; fi >"$build/logs/$target.status") &
done
wait
for target in "${targets[@]}"; do
  if [[ $(cat "$build/logs/$target.status") == 0 ]]; then
    echo "fuzz: $target: $(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$build/logs/$target.log" |
      awk '{print $2}') executions, no finding"
  else
    echo "fuzz: $target: FINDING; see $build/logs/$target.log and $build/artifacts/$target/"
    grep -m3 -E 'ERROR: |SUMMARY: |property violated' "$build/logs/$target.log" | sed 's/^/    /' || true
    failed+=("$target")
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: failed: ${failed[*]}"
  exit 1
fi
echo "fuzz: all ${#targets[@]} target(s) clean after ${seconds}s each"
