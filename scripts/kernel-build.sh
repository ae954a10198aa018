#!/bin/sh
# Linux from trixie's Debian source for x86_64, with a small configuration
# (contrib/kernel/x86_64.config on tinyconfig), built once under
# $VR_CACHE/kernels; with --patched, contrib/kernel's series applied first.
# The last line printed is the bzImage's path.
#   kernel-build.sh [--patched]
# Exit 1 when the series does not apply or the build fails, 77 when the
# source cannot be had.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
case ${1:-} in ''|--patched) ;; *) echo "usage: kernel-build.sh [--patched]" >&2; exit 2 ;; esac
kernel_build "$@"
