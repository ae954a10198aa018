#!/bin/sh
# vrandom for ARCH's firmware: musl built for ARCH (scripts/musl-cross.sh),
# Debian's Lua 5.4 source (scripts/lua-src.sh), and vrandom configured on
# them as doc/firmware.md shows,
#   configure --host=TRIPLET CC=PREFIX/bin/musl-gcc --enable-static \
#     --disable-shared --with-lua-src=DIR  (-Os, gc-sections)
# built and installed into BUILD/_inst (the static vrandom-lua, vrandom,
# the archives).  The tree is BUILD (default $VR_BUILD/firmware/ARCH),
# configured again only when musl or the flags change; a source tree
# configured in place is exported first (lib.sh's vr_src).
# Prints, last, "BUILD PREFIX TRIPLET"; exit 1 with the reason on stderr,
# 77 when the cross compiler or a source cannot be had.
# Usage: firmware-build.sh ARCH [BUILD]
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
arch "${1:-}" && [ -n "$a_musl" ] || { echo "usage: firmware-build.sh ARCH [BUILD]" >&2; exit 2; }
b=${2:-$VR_BUILD/firmware/$1}
mkdir -p "$b" && b=$(cd "$b" && pwd)
vr_src || exit 1
prefix=$(sh "$top/scripts/musl-cross.sh" "$1" 2>"$b/musl.err") ||
	{ r=$?; tail -n 1 "$b/musl.err" >&2; exit $r; }
prefix=$(echo "$prefix" | tail -n 1)
lua=$(sh "$top/scripts/lua-src.sh" 5.4 2>"$b/lua.err") ||
	{ echo "no Lua source: $(tail -n 1 "$b/lua.err")" >&2; exit 77; }
set -- --host="$a_musl" CC="$prefix/bin/musl-gcc" --enable-static --disable-shared \
	--with-lua-src="$lua" CFLAGS="-Os -ffunction-sections -fdata-sections" \
	LDFLAGS="-Wl,--gc-sections" $again
if [ "$(cat "$b/configured" 2>/dev/null)" != "$* $src" ]; then
	configure "$b" "$@" >&2 || { echo "configure failed" >&2; exit 1; }
	echo "$* $src" >"$b/configured"
fi
rm -rf "$b/_inst"
build "$b" >&2 && build "$b" install DESTDIR="$b/_inst" >&2 || { echo "make failed" >&2; exit 1; }
echo "$b $prefix $a_musl"
