#!/usr/bin/env bash
# Lets the kernel run aarch64 binaries through qemu-user (the aarch64 roots): mounts binfmt_misc
# when it is not, and registers qemu-aarch64-static with the F (fix binary) flag, so the
# interpreter is opened once here and need not exist inside the roots.
set -euo pipefail
[[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] && exit 0
command -v qemu-aarch64-static >/dev/null ||
  { echo "binfmt: qemu-aarch64-static is missing (scripts/install-deps.sh --release)" >&2; exit 1; }
[[ -e /proc/sys/fs/binfmt_misc/register ]] ||
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
echo ":qemu-aarch64:M::$magic:$mask:$(command -v qemu-aarch64-static):F" >/proc/sys/fs/binfmt_misc/register
