#!/usr/bin/env bash
# Makes (or finds in Podman's storage) the base image the Dockerfile's FROM lines name, without a
# registry: a debootstrap bookworm root (minbase, scripts/release/root.sh, cached there) imported
# with `podman import`, with the APT sources of Debian's own image (bookworm, bookworm-updates,
# bookworm-security), then tagged debian:bookworm and debian:bookworm-slim (the runtime stage's
# base is the same minbase root). Prints the imported image's name.
#
#   base.sh        (podman's configuration in the environment: tests/container/run.sh)
#
# The image is named mcp-read-base:bookworm-<key>, <key> hashing everything that makes it (the
# root's own key, the mirrors, this script), so a second run imports nothing and a changed
# recipe imports anew.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/../.." && pwd)
mirror=${MCPREAD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${MCPREAD_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

root=$(bash "$project/scripts/release/root.sh" bookworm "$(dpkg --print-architecture)")
key=$( { basename "$root"; echo "$mirror $security"; cat "${BASH_SOURCE[0]}"; } | sha256sum | cut -c1-12)
image=localhost/mcp-read-base:bookworm-$key
if ! podman image exists "$image"; then
  echo "base: importing $root as $image" >&2
  extra=$(mktemp -d)
  trap 'rm -rf "$extra"' EXIT
  mkdir -p "$extra/etc/apt/sources.list.d"
  cat >"$extra/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  # debootstrap's sources.list and root.sh's stamps stay out; the extra files go in after.
  tar -C "$root" -c --exclude=./.debootstrap-done --exclude=./.mcp-read-root \
    --exclude=./etc/apt/sources.list . -C "$extra" ./etc/apt/sources.list.d/debian.sources |
    podman import -q - "$image" >/dev/null
fi
podman tag "$image" debian:bookworm debian:bookworm-slim
echo "$image"
