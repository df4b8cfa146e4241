# TAP-style checks for the shell test scripts: `ok WHAT`, `not_ok WHAT [DETAIL...]` (details
# indented under it), and `finish`, which prints "NAME: N passed, M failed" and exits 0 only when
# nothing failed. NAME is $TAP_NAME, else the script's name. Sourced, never run.
passed=0
failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
not_ok() {
  echo "not ok - $1"
  failed=$((failed + 1))
  shift
  local detail
  for detail in "$@"; do
    [[ -n "$detail" ]] && printf '%s\n' "$detail" | sed 's/^/#   /'
  done
  return 0
}
finish() {
  echo "${TAP_NAME:-$(basename "$0" .sh)}: ${passed} passed, ${failed} failed"
  [[ $failed -eq 0 ]]
  exit $?
}
