#!/usr/bin/env bash
# Runs a command inside a root made by root.sh, in a private mount namespace: /proc, /dev and
# /sys are mounted for the command and vanish with it, so nothing is left mounted on the host.
#
#   in-root.sh <root> <command...>
# MCPREAD_ROOT_BIND="host:inside ..." adds bind mounts (the source tree, the output folder);
# MCPREAD_ROOT_DEBS names a host folder used as the root's apt archive cache.
set -euo pipefail
root=$1; shift
binds="${MCPREAD_ROOT_BIND:-}"
[[ -n ${MCPREAD_ROOT_DEBS:-} ]] && binds+=" $MCPREAD_ROOT_DEBS:/var/cache/apt/archives"
exec unshare --mount --propagation private -- bash -c '
  set -euo pipefail
  root=$1 binds=$2; shift 2
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount --rbind /sys "$root/sys"
  for pair in $binds; do
    mkdir -p "$root${pair#*:}"
    mount --bind "${pair%%:*}" "$root${pair#*:}"
  done
  exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
' _ "$root" "$binds" "$@"
