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

# Runs per target: about 40 s each on one core of a 2-core machine (measured on an idle one; the
# summary prints each target's seconds), so that the phase stays near ten minutes with the build.
# The count, not the clock, bounds the work, so a slow machine takes longer but explores exactly
# the same inputs. The targets that fork a child per input (doc, xls, mobi, djvu, chm, pst) or read through
# several layers per input (csv, fb2, charset) get fewer runs; timed campaigns go deeper
# (scripts/fuzz-campaign.sh).
declare -A runs=([fuzz_jsonrpc]=25000 [fuzz_page_ranges]=400000 [fuzz_notebook]=40000
  [fuzz_charset]=11000 [fuzz_classify]=8400 [fuzz_http]=300000 [fuzz_json_text]=7700
  [fuzz_office]=40000 [fuzz_html]=40000 [fuzz_slides]=24000
  [fuzz_sheets]=11000 [fuzz_xlsb]=20000 [fuzz_archive]=12000 [fuzz_csv]=1500 [fuzz_media]=400000 [fuzz_jbig2]=2000 [fuzz_pdf]=3100
  [fuzz_rtf]=77000 [fuzz_fb2]=6000 [fuzz_doc]=470 [fuzz_dbf]=40000
  [fuzz_ppt]=40000 [fuzz_msg]=10000 [fuzz_xls]=400 [fuzz_mail]=28000 [fuzz_mobi]=300 [fuzz_wordproc]=300 [fuzz_calc]=300 [fuzz_drawing]=300
  [fuzz_djvu]=100 [fuzz_chm]=500 [fuzz_pst]=300 [fuzz_hwp]=20000)
seed=20261123

fuzz_build
replay_regressions

# A run starts from the seeds alone, in a scratch copy (libFuzzer writes new inputs into the first
# directory it is given): what earlier runs found on this machine must not change the verdict.
# Pointer values reach libFuzzer's comparison tracing, so they must repeat too: no address-space
# randomisation, and the same stack layout wherever the clone lives (a fixed environment, paths
# relative to build-fuzz/, source paths mapped out of the binary by fuzz_build); no reload of the
# corpus on a timer.
fuzz_fixed() {
  local target=$1 dict=()
  rm -rf "$build/gate-corpus/$target"
  mkdir -p "$build/gate-corpus/$target" "$build/artifacts/$target" "$build/gate-dict"
  cp "$project/fuzz/corpus/$target/"* "$build/gate-corpus/$target/"
  if [[ -f "$project/fuzz/dict/$target.dict" ]]; then
    cp "$project/fuzz/dict/$target.dict" "$build/gate-dict/"
    dict=(-dict="gate-dict/$target.dict")
  fi
  (cd "$build" && env -i PATH=/usr/bin:/bin ASAN_OPTIONS="$ASAN_OPTIONS" UBSAN_OPTIONS="$UBSAN_OPTIONS" LSAN_OPTIONS="$LSAN_OPTIONS" \
    setarch "$(uname -m)" -R "./fuzz/$target" "gate-corpus/$target" "${dict[@]}" \
    -seed="$seed" -runs="$(( ${runs[$target]:-100000} * scale ))" -max_len="$(max_len "$target")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -reload=0 -artifact_prefix="artifacts/$target/") \
    >"$build/logs/$target.log" 2>&1
}
run_targets fuzz_fixed "runs=${scale}x, seed=$seed"
