# Sourced by the packaging checks: their arguments, helpers and the lists they compare.
# Usage of every check: <check>.sh BUILD_DIR   (a configured and built tree)
set -euo pipefail
export LC_ALL=C

build=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if ! command -v dpkg-query >/dev/null || ! command -v dpkg-deb >/dev/null; then
  echo "skipped: not a Debian system"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
finish() {
  if ((failures > 0)); then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
}

# The install layout and settings cmake/packaging.cmake recorded for this build.
layout() { sed -n "s/^$1=//p" "$build/packaging/layout.txt"; }
# A package list file, comments and blanks dropped, sorted.
package_list() { sed -e 's/#.*//' -e 's/[[:space:]]//g' "$@" | grep -v '^$' | sort -u; }
# The words of a list, on one line, for messages.
words() { tr '\n' ' ' <<<"$1" | sed 's/ *$//'; }

binary="$build/mcp-read"
plugin="$build/libmcpread_pdf.so"
revenge_plugin="$build/libmcpread_revenge.so"  # the word-processor plugin
runtime=$(package_list "$build/packaging/runtime-packages.txt")  # this build's .deb Depends
shipped=$(package_list "$source_dir/packaging/runtime-packages.txt")  # the image's packages
[[ -n $runtime ]] || fail "no runtime package list in $build/packaging (reconfigure)"

# What an install puts in place, relative to its prefix.
bindir=$(layout bindir)
libdir=$(layout libdir)
installed_files=("$bindir/mcp-read" "$libdir/mcp-read/libmcpread_pdf.so" "$libdir/mcp-read/libmcpread_revenge.so"
  "$(layout mandir)/man1/mcp-read.1" "$(layout docdir)/README.md" "$(layout docdir)/LICENSE"
  "$(layout docdir)/copyright")
