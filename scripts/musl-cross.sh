#!/bin/sh
# musl for ARCH (a name of scripts/arch.tab, or host): Debian's musl source
# built with Debian's cross compiler, once, under $VR_CACHE/musl.  The last
# line printed is the prefix: its bin/musl-gcc drives the cross compiler
# with musl's headers, start files and libc.a, and bin/MUSL-TRIPLET-{ar,
# ranlib,nm,strip,size,objdump,readelf} are the cross binutils.
#   musl-cross.sh ARCH [--patched] [--shared] [--suite SUITE]
#   --patched  contrib/musl's series applied first
#   --shared   libc.so (musl's dynamic linker) too
#   --suite    the Debian suite whose musl to build (trixie: 1.2.5)
# Exit 1 when the series does not apply or the build fails, 77 when the
# cross compiler or the source cannot be had, 2 for an unknown ARCH.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
[ -n "${1:-}" ] && { [ "$1" = host ] || arch "$1"; } ||
	{ echo "usage: musl-cross.sh ARCH [--patched] [--shared] [--suite SUITE]" \
		"(ARCH: host $(arches musl | xargs))" >&2; exit 2; }
musl "$@"
