#!/usr/bin/env bash
# The official MCP conformance suites (conformance/suite.sh: 0.1.16, the 2026-07-28 requirement
# set and the tasks extension, with the same baselines as on Linux) against the Windows build's
# mcp-read.exe and conformance fixture, each run under Wine 8 through a wrapper that turns the
# suite's Unix paths into Z: paths (Wine's Z: drive is this machine's /).
#
#   scripts/windows/conformance.sh BUILD_DIR PREFIX      e.g. build-windows (prove.sh's)
# PREFIX: the Windows dependencies (deps.sh), for libmagic's database. Exits as suite.sh does.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[[ $# -eq 2 ]] || { sed -n 2,9p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
build=$(cd "$1" && pwd) prefix=$2
wine=$(dpkg -L wine64 | grep -m1 '/wine64$')
wrappers=$(mktemp -d /tmp/mcp-read-wine-conformance.XXXXXX)
export WINEPREFIX=$wrappers/prefix WINEDEBUG=-all MAGIC="Z:$prefix/share/misc/magic.mgc"
trap '"$(dirname "$wine")/wineserver" -k 2>/dev/null || true; rm -rf "$wrappers"' EXIT
for name in mcp-read mcpread_conformance_fixture; do
  cat >"$wrappers/$name" <<WRAPPER
#!/usr/bin/env bash
args=()
for a in "\$@"; do [[ \$a == /* ]] && a="Z:\${a//\\//\\\\}"; args+=("\$a"); done
exec "$wine" "$build/$name.exe" "\${args[@]}"
WRAPPER
  chmod +x "$wrappers/$name"
done
"$wine" cmd /c exit >/dev/null 2>&1 || true  # the prefix, made before any server's start is timed
bash "$repo/conformance/suite.sh" "$wrappers/mcp-read"
