# Shared by scripts/fuzz.sh (the deterministic gate) and scripts/fuzz-campaign.sh (timed
# campaigns): the build, the replay of past findings, and running the targets side by side.
# Expects $project and $parallel; sets $build and the target list.
build="$project/build-fuzz"
# Every target with a seed directory, unless FUZZ_TARGETS names some.
read -r -a targets <<<"${FUZZ_TARGETS:-$(cd "$project/fuzz/corpus" && echo *)}"

# Longest input per target (4096 when not listed): enough for the structures each one parses,
# small enough to keep executions fast.
max_len() {
  case $1 in
    fuzz_jsonrpc | fuzz_classify | fuzz_http) echo 8192 ;;
    fuzz_page_ranges) echo 256 ;;
    fuzz_notebook | fuzz_archive) echo 16384 ;;
    *) echo 4096 ;;
  esac
}
dict_flag() { [[ -f "$project/fuzz/dict/$1.dict" ]] && echo "-dict=$project/fuzz/dict/$1.dict" || true; }

fuzz_build() {
  bash "$project/scripts/install-deps.sh" --test
  # -O1 -g1: half the compile time of -O2 -g, reports still with file and line. Source paths are
  # mapped to "." so that the binary, and the addresses in it, do not depend on where the clone is.
  CC=clang-14 CXX=clang++-14 cmake -S "$project" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -ffile-prefix-map=$project=." -DMCPREAD_FUZZ=ON -DMCPREAD_BUILD_TESTS=OFF \
    -DMCPREAD_STATIC_LIBS=OFF -DMCPREAD_SANITIZE=address,undefined >/dev/null
  cmake --build "$build" --target mcpread_fuzzers
  # intercept_tls_get_addr=0: clang 14's runtime can misread a dynamic TLS block as a glibc < 2.25
  # one and crash LeakSanitizer's scan (see scripts/test-sanitizers.sh).
  export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:intercept_tls_get_addr=0
  # Third-party libraries' own leaks, each named with its reason (never mcp-read's).
  export LSAN_OPTIONS="suppressions=$project/tests/sanitizers/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  if command -v llvm-symbolizer-14 >/dev/null; then export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer-14); fi
  mkdir -p "$build/logs"
  failed=()
}

# Every past finding and every seed, once each (-runs=0 writes nothing).
replay_regressions() {
  local target inputs
  for target in "${targets[@]}"; do
    inputs=("$project/fuzz/corpus/$target")
    [[ -d "$project/fuzz/regressions/$target" ]] && inputs+=("$project/fuzz/regressions/$target")
    echo "fuzz: $target: replaying $(find "${inputs[@]}" -type f | wc -l) seed and regression input(s)"
    mkdir -p "$build/artifacts/$target"
    # No address-space randomisation, as in the gate's runs: an input whose effect depends on
    # where things are mapped gives the same verdict every time.
    if ! setarch "$(uname -m)" -R "$build/fuzz/$target" -runs=0 -artifact_prefix="$build/artifacts/$target/" "${inputs[@]}" \
      >"$build/logs/$target.replay.log" 2>&1; then
      echo "fuzz: $target: a seed or regression input fails; see $build/logs/$target.replay.log"
      grep -m3 -E 'ERROR: |SUMMARY: |property violated' "$build/logs/$target.replay.log" | sed 's/^/    /' || true
      failed+=("$target (replay)")
    fi
  done
}

# run_targets <function> <label>: runs `<function> <target>` for every target, $parallel at a
# time (each is single-threaded), then reports each one's executions or finding. Each one's exit
# status goes to a file, as `wait -n` does not say whose status it returns.
run_targets() {
  local run=$1 label=$2 target executions took
  for target in "${targets[@]}"; do
    while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do wait -n || true; done
    echo "fuzz: $target: fuzzing ($label)"
    (if "$run" "$target"; then echo 0; else echo $?; fi >"$build/logs/$target.status") &
  done
  wait
  echo "fuzz: executions per target"
  : >"$build/logs/executions.txt"  # read by scripts/test.sh for its closing summary
  for target in "${targets[@]}"; do
    # A run ended by a finding prints no "Done" line: an absent number is "?", not an exit.
    executions=$(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$build/logs/$target.log" | awk '{print $2}' || true)
    took=$(grep -m1 -o '^Done [0-9]* runs in [0-9]*' "$build/logs/$target.log" | awk '{print $5}' || true)
    printf '%-18s %10s executions in %5s s (%s)\n' "$target" "${executions:-?}" "${took:-?}" "$label" \
      >>"$build/logs/executions.txt"
    if [[ $(cat "$build/logs/$target.status") == 0 ]]; then
      printf 'fuzz:   %-18s %10s executions in %5s s, no finding\n' "$target" "${executions:-?}" "${took:-?}"
    else
      printf 'fuzz:   %-18s FINDING; see %s and %s\n' "$target" "$build/logs/$target.log" "$build/artifacts/$target/"
      grep -m3 -E 'ERROR: |SUMMARY: |property violated' "$build/logs/$target.log" | sed 's/^/    /' || true
      failed+=("$target")
    fi
  done
  if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: failed: ${failed[*]}"
    exit 1
  fi
  echo "fuzz: all ${#targets[@]} target(s) clean ($label)"
}
