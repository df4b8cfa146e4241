#!/usr/bin/env bash
# The container image, proven with Podman: the Dockerfile built exactly as written, then MCP
# sessions with the image (tests/container/session.py checks every answer):
#  - stdio, the form MCP hosts use: `podman run -i --rm -v "$DIR:$DIR:ro" IMAGE "$DIR/root"`,
#    paths the same inside and out; a file of $DIR outside $DIR/root must be refused;
#  - HTTP, the image's default command (port 8080 inside, published on a free 127.0.0.1 port,
#    MCP_READ_AUTH_TOKEN set) serving the folder mounted at /data; /etc/passwd must be refused.
# Each reads a text file (numbered lines), a PNG (an image/png block) and a PDF (its page text).
#
#   bash tests/container/run.sh      # as root; prints each step's time
#
# Not part of scripts/test.sh: from a fresh machine it takes longer than the test command's budget
# leaves (docs/deploy.md has the measured times). No registry is needed: the FROM images are a
# debootstrap root imported once (tests/container/base.sh). Podman runs with runc and storage of
# its own in ~/.cache/mcp-read-container (MCPREAD_CONTAINER_CACHE), which keeps between runs the
# base image, the image's layers (the package layers are reused while install-deps.sh and the
# package lists are unchanged), a ccache folder the build stage compiles through and APT's .debs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/../.." && pwd)
cache=${MCPREAD_CONTAINER_CACHE:-$HOME/.cache/mcp-read-container}
image=localhost/mcp-read:container-test
umask 022

steps=() started=$SECONDS
step() {  # <name> <command...>
  local start=$SECONDS
  echo "container: === $1"
  "${@:2}"
  steps+=("$1: $((SECONDS - start))s")
}
report() {
  local status=$? line
  for line in "${steps[@]}"; do echo "container:   $line"; done
  echo "container:   total: $((SECONDS - started))s"
  if [[ $status -eq 0 ]]; then echo "container: passed"; else echo "container: FAILED"; fi
  # A container a failed session left behind (podman killed before its container ended).
  podman rm -f -i "$name" >/dev/null 2>&1 || true
  if [[ -n $work ]]; then rm -rf "$work"; fi
}
work="" name=mcp-read-container-test-$$
trap report EXIT

step "packages (podman, runc, debootstrap)" bash "$project/scripts/install-deps.sh" --container

# Podman's configuration, used only here: runc as the runtime, no default ulimits (both needed on
# hosts whose cgroup layout crun refuses), cgroupfs, and storage kept out of the system's.
mkdir -p "$cache/storage" "$cache/ccache" "$cache/apt"
cat >"$cache/containers.conf" <<EOF
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "/run/mcp-read-container/libpod"
EOF
cat >"$cache/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$cache/storage"
runroot = "/run/mcp-read-container/storage"
EOF
export CONTAINERS_CONF=$cache/containers.conf CONTAINERS_STORAGE_CONF=$cache/storage.conf

step "base image (debootstrap root, imported)" bash "$here/base.sh"

# The Dockerfile as written. The volumes only add caches: the build stage's ccache (install-deps.sh
# installs ccache and CMakeLists.txt compiles through it) and APT's downloaded packages.
build() {
  podman build --pull=never --layers -f "$project/Dockerfile" -t "$image" \
    --volume "$cache/ccache:/root/.cache/ccache" --volume "$cache/apt:/var/cache/apt/archives" \
    "$project"
  # The build stage gets a name too (every step cached), so that pruning the last run's images,
  # now untagged, keeps the package layers under this run's.
  podman build --pull=never --layers -f "$project/Dockerfile" --target build -t "$image-build" -q \
    --volume "$cache/ccache:/root/.cache/ccache" --volume "$cache/apt:/var/cache/apt/archives" \
    "$project" >/dev/null
  podman image prune -f >/dev/null
}
step "podman build (the Dockerfile)" build

work=$(mktemp -d)
chmod 755 "$work"
mkdir "$work/root"
echo "not for the model" >"$work/secret.txt"
step "stdio session (podman run -i)" python3 "$here/session.py" stdio "$work/root" \
  --outside "$work/secret.txt" -- \
  podman run -i --rm --name "$name" -v "$work:$work:ro" "$image" "$work/root"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$(head -c 18 /dev/urandom | base64 | tr '+/' 'xy')  # no leading '-', which argparse would take for an option
step "HTTP session (the default command, 127.0.0.1:$port)" python3 "$here/session.py" http "$work/root" \
  --inside /data --outside /etc/passwd --url "http://127.0.0.1:$port/mcp" --token "$token" -- \
  podman run --rm --name "$name" -p "127.0.0.1:$port:8080" -v "$work/root:/data:ro" -e MCP_READ_AUTH_TOKEN="$token" "$image"
