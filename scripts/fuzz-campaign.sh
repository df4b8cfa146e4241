#!/usr/bin/env bash
# A fuzzing campaign: each target for a given time (default 600 s) with a random seed, building on
# the corpus that earlier campaigns on this machine grew in build-fuzz/corpus/<target>/. Not part
# of the test command, whose verdict must not depend on chance (scripts/fuzz.sh runs a fixed seed
# and run count there); run this before a release or after touching a parser, and turn each
# finding into an input in fuzz/regressions/<target>/ and a fix (fuzz/README.md).
#
#   bash scripts/fuzz-campaign.sh                 # 600 s per target, as many at a time as cores
#   bash scripts/fuzz-campaign.sh 3600            # an hour per target
#   FUZZ_TARGETS="fuzz_jsonrpc fuzz_notebook" bash scripts/fuzz-campaign.sh 1800
#   FUZZ_PARALLEL=1 bash scripts/fuzz-campaign.sh 600                 # one target at a time
#
# rm -rf build-fuzz/corpus starts afresh. Findings go to build-fuzz/artifacts/<target>/, logs to
# build-fuzz/logs/<target>.log.
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$project/scripts/fuzz-common.sh"
seconds=${1:-600}
parallel=${FUZZ_PARALLEL:-$(nproc)}

fuzz_build
replay_regressions

fuzz_timed() {
  local target=$1 corpus="$build/corpus/$1" artifacts="$build/artifacts/$1" seed
  mkdir -p "$corpus" "$artifacts"
  for seed in "$project/fuzz/corpus/$target/"*; do
    [[ -e "$corpus/${seed##*/}" ]] || cp "$seed" "$corpus/"
  done
  "$build/fuzz/$target" "$corpus" $(dict_flag "$target") -max_total_time="$seconds" \
    -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$build/logs/$target.log" 2>&1
}
run_targets fuzz_timed "${seconds}s, random seed"
