# The shared start of the pack scripts (npm-pack.sh, mcpb-pack.sh), sourced after they set
# `tool` (their name, for messages), `out` (the default output folder) and `help_lines` (the sed
# range of their usage comment): `--out DIR` overrides `out`; no argument, -h or --help prints the
# usage and exits 2; `die` ends with "tool: message"; `version` is the project's (CMakeLists.txt);
# `out` is made and absolute, `stage` a scratch folder removed at exit; npm is quiet.
# `check_bundle DIR` checks a bundle folder of this version and sets `bundle` (absolute), `name`,
# `os` (linux or win32), `arch` (x64 or arm64) and `exe` (the server, relative to the bundle).
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ ${1:-} == --out ]]; then
  out=$2
  shift 2
fi
if [[ $# -eq 0 || ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n "${help_lines}p" "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
die() {
  echo "$tool: $*" >&2
  exit 1
}
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
[[ -n $version ]] || die "no project version in $repo/CMakeLists.txt"

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false \
  npm_config_audit=false

check_bundle() {
  bundle=$(cd "$1" && pwd) || die "no bundle folder $1"
  name=$(basename "$bundle")
  [[ $name =~ ^mcp-read-(.+)-(linux-(x64|arm64)|win32-x64)$ ]] ||
    die "$name: not a bundle folder (mcp-read-<version>-linux-<x64|arm64> or -win32-x64)"
  [[ ${BASH_REMATCH[1]} == "$version" ]] || die "$name: bundle of version ${BASH_REMATCH[1]}, the project is at $version"
  os=${BASH_REMATCH[2]%-*} arch=${BASH_REMATCH[2]#*-}
  if [[ $os == win32 ]]; then
    exe=bin/mcp-read.exe
    [[ -f $bundle/$exe ]] || die "$bundle/$exe is missing"
    # Wine's stand-in for Windows' own DLL (scripts/windows/prove.sh) must never ship.
    [[ ! -e $bundle/bin/bcryptprimitives.dll ]] || die "$bundle/bin/bcryptprimitives.dll is Wine's stand-in: not shipped"
    # A PE file: "MZ", then at the offset stored at 0x3c, "PE\0\0" and the machine 0x8664 (x86-64).
    local pe
    pe=$(od -An -tu4 -j60 -N4 "$bundle/$exe" | tr -d ' ')
    [[ $(head -c2 "$bundle/$exe") == MZ && $(od -An -tx1 -j"$pe" -N6 "$bundle/$exe" | tr -d ' \n') == 504500006486 ]] ||
      die "$bundle/$exe is not an x86-64 Windows executable"
  else
    exe=bin/mcp-read
    [[ -x $bundle/$exe ]] || die "$bundle/$exe is missing or not executable"
  fi
}
