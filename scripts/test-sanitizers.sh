#!/usr/bin/env bash
# Builds and runs the tests under sanitizers (gcc, -O1 -g1):
#   asan  build-asan/: AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer; every
#         unit and end-to-end test, and the fuzz targets replaying their seeds and regression
#         inputs (-DMCPREAD_FUZZ=ON builds them without libFuzzer, see fuzz/README.md).
#   tsan  build-tsan/: ThreadSanitizer; the tests whose code runs on several threads: the protocol
#         and server units, and the end-to-end tests (concurrency, cancellation, shutdown, roots,
#         the HTTP transport) but those that decode images or PDFs in a process (see run_tsan).
# Every process writes its sanitizer reports to <build>/sanitizer-logs/, including the mcp-read
# servers the end-to-end tests start (their stderr is not shown): any report fails the run, as
# does any failing test.
#
#   bash scripts/test-sanitizers.sh          # asan, then tsan
#   bash scripts/test-sanitizers.sh tsan     # one of them
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -gt 0 ]] || set -- asan tsan
bash "$project/scripts/install-deps.sh" --test
jobs=$(nproc)

# -O1 -g1 (line tables only) compiles in half the time of -O2 -g and still gives sanitizer reports
# with file and line; without NDEBUG.
configure() {  # <build dir> <sanitizers> <cmake args...>
  cmake -S "$project" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DMCPREAD_SANITIZE="$2" -DMCPREAD_BUILD_TESTS=ON \
    "${@:3}" >/dev/null
}

# Prints the reports in <dir> and fails when there is one.
check_reports() {
  local dir=$1 report found=0
  for report in "$dir"/*; do
    [[ -e "$report" ]] || continue
    found=1
    echo "=== sanitizer report ${report##*/}"
    cat "$report"
  done
  [[ $found -eq 0 ]]
}

run_asan() {
  local build="$project/build-asan" status=0
  local logs="$build/sanitizer-logs"
  configure "$build" address,undefined -DMCPREAD_FUZZ=ON || return
  cmake --build "$build" || return
  rm -rf "$logs" && mkdir -p "$logs"
  # intercept_tls_get_addr=0: gcc 12's runtime (like LLVM's before 19) takes a dynamic TLS block
  # that happens to start 16 bytes into a page for a glibc < 2.25 one and reads a bogus range from
  # the words before it; LeakSanitizer then dies scanning that range at exit ("Tracer caught signal
  # 11", google/sanitizers#1322), now and then, in whichever process has threads with dynamic TLS
  # (mcp-read with libvips and the PDF plugin loaded). Only the leak scan of dynamic TLS is lost.
  ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:intercept_tls_get_addr=0:log_exe_name=1:log_path=$logs/report" \
  LSAN_OPTIONS="suppressions=$project/tests/sanitizers/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_exe_name=1:log_path=$logs/report" \
    ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 600 || status=$?
  check_reports "$logs" || status=1
  return $status
}

run_tsan() {
  local build="$project/build-tsan" status=0
  local logs="$build/sanitizer-logs"
  configure "$build" thread || return
  cmake --build "$build" --target mcpread_protocol_tests mcpread_server_tests mcpread_e2e_tests || return
  rm -rf "$logs" && mkdir -p "$logs"
  # Files whose tests run libvips or poppler, in the test or in the server it starts, are left
  # out: libvips hands buffers between its glib worker threads through glib's own futex-based
  # locks, which an uninstrumented glib hides from ThreadSanitizer, so every such buffer is
  # reported as a race (g_slice_alloc0 against posix_memalign, deflateEnd against png_malloc).
  local uses_vips='*test_documents.cpp,*test_media.cpp,*test_resources.cpp,*test_http_connections.cpp'
  uses_vips+=',*test_http_sessions.cpp,*test_http_stateless.cpp,*test_hostile_media.cpp,*test_read_long_lines.cpp'
  uses_vips+=',*test_memory.cpp,*test_office_documents.cpp,*test_http_tasks.cpp,*test_slides_books.cpp'
  uses_vips+=',*test_ocr.cpp,*test_http_metrics.cpp'
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_exe_name=1:log_path=$logs/report"
  "$build/tests/mcpread_protocol_tests" || status=$?
  "$build/tests/mcpread_server_tests" || status=$?
  "$build/tests/mcpread_e2e_tests" --source-file-exclude="$uses_vips" || status=$?
  unset TSAN_OPTIONS
  check_reports "$logs" || status=1
  return $status
}

failed=()
for phase in "$@"; do
  case $phase in
    asan | tsan) ;;
    *) echo "test-sanitizers: unknown phase '$phase' (asan, tsan)" >&2; exit 2 ;;
  esac
  start=$SECONDS
  if "run_$phase"; then
    echo "test-sanitizers: $phase passed in $((SECONDS - start))s"
  else
    echo "test-sanitizers: $phase FAILED after $((SECONDS - start))s"
    failed+=("$phase")
  fi
done
[[ ${#failed[@]} -eq 0 ]] || { echo "test-sanitizers: failed: ${failed[*]}"; exit 1; }
