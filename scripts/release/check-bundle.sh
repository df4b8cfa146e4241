#!/usr/bin/env bash
# The proof of portability: copies a bundle (dist/mcp-read-<version>-linux-<arch>/) into a
# minimal Debian root (debootstrap --variant=minbase, nothing else installed), runs a full MCP
# session against it from outside the root (session.py: text, PNG, a BMP and a large PNG through
# libvips, a PDF's text and a rendered page, a notebook, a member of a tar.xz) and checks, through
# strace, that every file the server opened is the bundle's, the session's, or glibc's.
#
#   check-bundle.sh <bundle folder> <suite> <arch>      e.g. dist/mcp-read-0.1.0-linux-x64 trixie amd64
# Exits 1 naming what failed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bundle=$(cd "$1" && pwd) suite=$2 arch=$3
root=$(bash "$here/root.sh" "$suite" "$arch")
# The bundle and the files read are the only things added to the root, and replaced every run.
rm -rf "$root/opt/mcp-read" "$root/data" && mkdir -p "$root/data"
cp -a "$bundle" "$root/opt/mcp-read"
trace=$(mktemp -d)
trap 'rm -rf "$trace"' EXIT
echo "check: $(basename "$bundle") in Debian $suite $arch ($(cat "$root/etc/debian_version"))"
status=0
python3 "$here/session.py" "$root/data" -- \
  strace -f -qq -e trace=open,openat,execve -o "$trace/opened" \
  bash "$here/in-root.sh" "$root" /opt/mcp-read/bin/mcp-read /data 2>"$trace/stderr" || status=1

# Files opened successfully after the chroot (the server's execve): glibc's loader cache,
# libraries and locale data may come from the root; anything else must be the bundle's or the
# session's. Failed opens (ENOENT) are lookups that found nothing, and directories opened (a
# loader listing a folder) read nothing: neither counts. orcexec.*: the code liborc (libvips'
# SIMD) compiles at run time, written to $HOME or /tmp.
awk '/execve\("\/opt\/mcp-read\/bin\/mcp-read"/ { on = 1 } on' "$trace/opened" |
  grep -E 'open(at)?\(' | grep -v ' = -1 ' | grep -v 'O_DIRECTORY' |
  sed -E 's/.*open(at)?\((AT_FDCWD, )?"([^"]*)".*/\3/' | sort -u >"$trace/paths"
allowed='^(/opt/mcp-read/|/data(/|$)|/proc/|/dev/|/sys/|/etc/ld\.so\.cache$|/etc/localtime$|/tmp/|/[a-z/]*/orcexec\.|/usr/lib/locale/|/usr/share/locale/locale\.alias$|/usr/lib/[a-z0-9_]+-linux-gnu/gconv/|/(usr/)?lib(64)?/([a-z0-9_]+-linux-gnu/)?(libc|libm|libpthread|libdl|librt|libresolv|ld-linux[a-z0-9_-]*)\.so)'
outside=$(grep -Ev "$allowed" "$trace/paths" || true)
if [[ -n $outside ]]; then
  echo "  FAIL  files opened outside the bundle and glibc:"; echo "$outside" | sed 's/^/          /'
  status=1
else
  echo "  ok    every file opened is the bundle's, the session's or glibc's ($(wc -l <"$trace/paths") paths)"
fi
# Licences: mcp-read's own (Apache-2.0), the plugin's GPL explained, and every bundled
# package's copyright file beside the licence texts they name. Only the table's rows count
# ("lib/<soname>", "share/ (<data>)"): a line of the prose may begin with a library's name.
licences="$bundle/LICENSES"
missing=()
cmp -s "$licences/mcp-read" "$here/../../LICENSE" || missing+=("mcp-read (the project's LICENSE)")
for text in Apache-2.0 GPL-3; do [[ -s $licences/$text ]] || missing+=("$text"); done
grep -q 'libmcpread_pdf.so' "$licences/README" 2>/dev/null || missing+=("README naming the PDF plugin's licence")
while read -r pkg; do
  [[ -s $licences/$pkg ]] || missing+=("$pkg")
done < <(awk 'NR > 1 && $1 ~ /^(lib|share)\// { print ($2 ~ /^\(/ ? $3 : $2) }' "$licences/README" 2>/dev/null | tr -d '()' | sort -u)
if ((${#missing[@]})); then
  echo "  FAIL  LICENSES/ lacks: ${missing[*]}"
  status=1
else
  echo "  ok    LICENSES/ holds mcp-read's licence, the plugin's GPL and each bundled package's copyright"
fi
if [[ $status -ne 0 ]]; then
  echo "check: FAILED in Debian $suite $arch; the server's stderr:"
  tail -20 "$trace/stderr" | sed 's/^/  /'
  exit 1
fi
echo "check: passed in Debian $suite $arch"
