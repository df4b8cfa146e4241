#!/usr/bin/env bash
# The fuzzing gate of the test command, deterministic: the same commit gives the same verdict on
# every run. Builds the libFuzzer targets of fuzz/ with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/, replays every past finding (fuzz/regressions/) and
# every seed (fuzz/corpus/), then fuzzes each target from its seeds alone with a fixed -seed and a
# fixed number of runs (-runs), address-space randomisation off, one process per target. Exits
# non-zero on any crash, leak, undefined behaviour, failed property or timeout, and prints the
# executions per target so that a drop in depth shows.
#
#   bash scripts/fuzz.sh                      # what the test command runs
#   FUZZ_RUNS_SCALE=4 bash scripts/fuzz.sh    # four times the runs (still deterministic)
#   FUZZ_TARGETS="fuzz_charset" bash scripts/fuzz.sh
#
# Time-bounded, randomly seeded campaigns that build on earlier runs are another script:
# scripts/fuzz-campaign.sh (before a release, or after touching a parser). A finding of either
# becomes an input in fuzz/regressions/<target>/ and a fix (fuzz/README.md).
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$project/scripts/fuzz-common.sh"
scale=${FUZZ_RUNS_SCALE:-1}
parallel=${FUZZ_PARALLEL:-$(nproc)}

# Runs per target: about 45 s each on one core of a 2-core machine, so that the phase stays near
# its former minute per target. The count, not the clock, bounds the work, so a slow machine
# takes longer but explores exactly the same inputs.
declare -A runs=([fuzz_jsonrpc]=100000 [fuzz_page_ranges]=300000 [fuzz_notebook]=30000
  [fuzz_charset]=40000 [fuzz_classify]=15000 [fuzz_http]=40000)
seed=20261123

fuzz_build
replay_regressions

# A run starts from the seeds alone, in a scratch copy (libFuzzer writes new inputs into the first
# directory it is given): what earlier runs found on this machine must not change the verdict.
fuzz_fixed() {
  local target=$1 corpus="$build/gate-corpus/$1" artifacts="$build/artifacts/$1"
  rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts"
  cp "$project/fuzz/corpus/$target/"* "$corpus/"
  setarch "$(uname -m)" -R "$build/fuzz/$target" "$corpus" $(dict_flag "$target") \
    -seed="$seed" -runs="$(( ${runs[$target]:-100000} * scale ))" -max_len="$(max_len "$target")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    >"$build/logs/$target.log" 2>&1
}
run_targets fuzz_fixed "runs=${scale}x, seed=$seed"
