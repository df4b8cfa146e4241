#!/usr/bin/env bash
# Makes (or finds in the cache) a Debian root with debootstrap and prints its path.
#
#   root.sh <suite> <arch> [package-list-file]
#
# Without a package list the root is --variant=minbase and nothing else (the proof's foreign
# roots); with one, its packages are installed with apt in the root (the build roots). Roots live
# in ~/.cache/mcp-read-release/roots/<suite>-<arch>-<key>, where <key> hashes everything that
# makes the root (suite, arch, mirror, package list, this script), so a changed list makes a new
# root instead of silently reusing a stale one; a root only counts once its stamp is written.
# Downloaded .debs are kept in ~/.cache/mcp-read-release/debs/<suite>-<arch>/ for the next root.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
suite=$1 arch=$2 list=${3:-}
mirror=${MCPREAD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${MCPREAD_RELEASE_CACHE:-$HOME/.cache/mcp-read-release}

packages=() foreign_arches=()
[[ -n $list ]] && mapfile -t packages < <(sed 's/#.*//; /^@/d' "$list" | tr -s ' \t' '\n' | sed '/^$/d')
# "@arch NAME" lines in a list add a dpkg architecture (the cross build's arm64 -dev packages).
[[ -n $list ]] && mapfile -t foreign_arches < <(sed -n 's/^@arch[[:space:]]*\([a-z0-9]*\).*/\1/p' "$list")
key=$( { echo "$suite $arch $mirror ${packages[*]} ${foreign_arches[*]}"; cat "${BASH_SOURCE[0]}" "$here/in-root.sh"; } |
  sha256sum | cut -c1-12)
root="$cache/roots/$suite-$arch-$key"
if [[ -f $root/.mcp-read-root ]]; then echo "$root"; exit 0; fi

exec 3>&1 1>&2
echo "root: making $root (${#packages[@]} packages)"
# A finished debootstrap is kept when the package stage failed: the next run resumes there.
[[ -f $root/.debootstrap-done ]] || rm -rf "$root"
mkdir -p "$root" "$cache/debs/$suite-$arch"
foreign=()
host_arch=$(dpkg --print-architecture)
if [[ $arch != "$host_arch" ]]; then
  # A foreign root: unpack here, run its second stage through qemu-user (binfmt, setup.sh).
  bash "$here/binfmt.sh"
  foreign=(--foreign)
fi
[[ -f $root/.debootstrap-done ]] || nice -n 15 debootstrap --variant=minbase --arch="$arch" "${foreign[@]}" \
  --cache-dir="$cache/debs/$suite-$arch" "$suite" "$root" "$mirror" >"$root.log" 2>&1 ||
  { tail -20 "$root.log"; exit 1; }
if [[ ${#foreign[@]} -gt 0 && ! -f $root/.debootstrap-done ]]; then
  bash "$here/in-root.sh" "$root" /debootstrap/debootstrap --second-stage >>"$root.log" 2>&1 ||
    { tail -20 "$root.log"; exit 1; }
fi
touch "$root/.debootstrap-done"
if [[ ${#packages[@]} -gt 0 ]]; then
  # apt's own archive cache is the shared .deb folder, bind-mounted by in-root.sh.
  MCPREAD_ROOT_DEBS="$cache/debs/$suite-$arch" bash "$here/in-root.sh" "$root" sh -c \
    'for a in '"${foreign_arches[*]}"'; do dpkg --add-architecture "$a"; done
     apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
       --no-install-recommends "$@"' _ "${packages[@]}" >>"$root.log" 2>&1 ||
    { tail -20 "$root.log"; exit 1; }
fi
touch "$root/.mcp-read-root"
echo "$root" >&3
