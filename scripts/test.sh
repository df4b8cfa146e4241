#!/usr/bin/env bash
# Installs what is missing, builds mcp-read and its tests (Release), and runs every test:
# unit and end-to-end suites through ctest, the MCP Inspector CLI over stdio and HTTP, the
# official conformance suite over HTTP, the TypeScript SDK's client over stdio and HTTP, the OAuth
# resource server against a real authorization server (oidc-provider) and the SDK's OAuth flow, the real
# hosts (Claude Code, Gemini CLI, Codex, the AI SDK) against loopback mocks of their model APIs
# (tests/hosts/), real files from Debian packages checked against independent references
# (tests/corpus/), three replicas behind nginx (tests/service/), and a bounded load test of the HTTP transport; then the whole suite again under ASan/UBSan, the
# threaded tests under TSan (scripts/test-sanitizers.sh), and libFuzzer with a fixed seed and run
# count per fuzz target (scripts/fuzz.sh; the same commit always gives the same verdict). About 50 minutes on 2 cores from a fresh machine, most of it the three
# sanitizer builds. The container image's test (tests/container/run.sh, Podman) is not a phase: from
# a fresh machine it does not fit in the 60-minute budget (docs/deploy.md, "The container image").
#
#   bash scripts/test.sh                        # everything (what CI runs)
#   MCPREAD_QUICK_TESTS=1 bash scripts/test.sh  # the Release build and its tests only
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Each phase's wall time, printed at the end (and when a phase fails) to keep an eye on CI's limit.
timings=()
started=$SECONDS
report_timings() {
  local line
  echo "test: phase timings"
  for line in "${timings[@]}"; do echo "  $line"; done
  echo "  total: $((SECONDS - started))s"
  if [[ $fuzzed == 1 && -f "$project/build-fuzz/logs/executions.txt" ]]; then
    echo "test: fuzzing depth"
    sed 's/^/  /' "$project/build-fuzz/logs/executions.txt"
  fi
}
fuzzed=0
finish() {
  local status=$?
  report_timings
  if [[ $status -eq 0 ]]; then echo "test: all passed"; else echo "test: FAILED in phase: $current"; fi
}
current=""
trap finish EXIT
# Stopped from outside (a CI timeout, Ctrl-C): a failure, never "all passed".
trap 'exit 143' TERM
trap 'exit 130' INT
phase() {  # <name> <command...>
  current=$1
  local start=$SECONDS
  echo "test: === $1"
  "${@:2}"
  timings+=("$1: $((SECONDS - start))s")
  echo "test: $1 passed in $((SECONDS - start))s"
}

release_build() {
  cmake -S "$project" -B "$project/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=ON \
    -DMCPREAD_WERROR=ON
  cmake --build "$project/build"
}

phase "install dependencies" bash "$project/scripts/install-deps.sh" --test
phase "release build" release_build
phase "ctest" ctest --test-dir "$project/build" --output-on-failure -j "$(nproc)"
phase "inspector" bash "$project/conformance/inspector.sh" "$project/build/mcp-read"
phase "conformance suite" bash "$project/conformance/suite.sh" "$project/build/mcp-read"
phase "sdk client" bash "$project/conformance/sdk-client/run.sh" "$project/build/mcp-read"
phase "oauth (oidc-provider, SDK client, team behind nginx)" bash "$project/conformance/oauth/run.sh" "$project/build/mcp-read"
phase "hosts (Claude Code, Gemini CLI, Codex, AI SDK)" bash "$project/tests/hosts/run.sh" "$project/build/mcp-read"
phase "real-file corpus" python3 "$project/tests/corpus/run.py" "$project/build/mcp-read"
# OCR's quality on a real born-digital PDF the corpus fetched (ctest skips it before the first
# corpus run on a machine; here its absence fails).
phase "ocr quality (real PDF)" env MCPREAD_REQUIRE_OCR_CORPUS=1 \
  "$project/build/tests/mcpread_readers_tests" --test-case="ocr quality*"
# The legacy decoders on the corpus's real files, cut anywhere, against the standard's algorithms
# (skipped by ctest before the first corpus run on a machine; here a missing file fails).
phase "legacy decoders on the corpus's files" env MCPREAD_REQUIRE_CORPUS=1 \
  "$project/build/tests/mcpread_readers_tests" --test-case="charset whatwg: the corpus*"
phase "replicas behind nginx" bash "$project/tests/service/run.sh" "$project/build/mcp-read"
phase "http load" node "$project/bench/http-load.mjs" "$project/build/mcp-read" --seconds 5
# The portable bundle: built in a Debian bullseye root, proved in a minimal trixie root (both
# cached in ~/.cache/mcp-read-release; docs/release.md). Needs root for debootstrap and chroot.
phase "portable bundle (bullseye build, trixie proof)" env MCPREAD_RELEASE_ARCHES=amd64 \
  MCPREAD_RELEASE_SUITES=trixie MCPREAD_RELEASE_PACKAGES=0 bash "$project/scripts/release.sh"
if [[ "${MCPREAD_QUICK_TESTS:-}" != 1 ]]; then
  phase "asan+ubsan (build and tests)" bash "$project/scripts/test-sanitizers.sh" asan
  phase "tsan (build and tests)" bash "$project/scripts/test-sanitizers.sh" tsan
  fuzzed=1
  phase "fuzzing (build, replay, fixed seed and runs per target)" bash "$project/scripts/fuzz.sh"
fi
