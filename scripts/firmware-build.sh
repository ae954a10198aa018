#!/bin/sh
# vrandom for ARCH's firmware: musl built for ARCH (scripts/musl-cross.sh),
# Debian's Lua 5.4 source (scripts/lua-src.sh), and vrandom configured on
# them as the README shows,
#   configure --host=TRIPLET CC=PREFIX/bin/musl-gcc --enable-static \
#     --disable-shared --with-lua-src=DIR  (-Os, gc-sections)
# built and installed into BUILD/_inst (the static vrandom-lua, vrandom and
# the three archives).  Used by scripts/firmware-test.sh and
# examples/firmware/run.sh.  The tree is BUILD (default build/firmware/ARCH),
# configured again only when musl or the flags change.
# Prints, last, "BUILD PREFIX TRIPLET"; exit 1 with the reason on stderr
# (exit 77 when the cross compiler or a source cannot be had).
# Usage: firmware-build.sh ARCH [BUILD]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: firmware-build.sh ARCH [BUILD]}
b=${2:-${VR_BUILD:-$top/build}/firmware/$arch}
mkdir -p "$b"
b=$(cd "$b" && pwd)
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1)

# musl-cross.sh's 77 (no cross compiler, no source) stays a skip; a build
# that fails is a failure.
r=0; prefix=$(sh "$top/scripts/musl-cross.sh" "$arch" "$top/build/musl-cross" 2>"$b/musl.err") || r=$?
prefix=$(printf '%s\n' "$prefix" | tail -n 1)
if [ $r != 0 ] || [ -z "$prefix" ]; then
	tail -n 1 "$b/musl.err" >&2
	[ $r = 77 ] && exit 77
	exit 1
fi
lua=$(sh "$top/scripts/lua-src.sh" "$top/build/src" 2>"$b/lua-src.err") ||
	{ echo "no Lua source: $(tail -n 1 "$b/lua-src.err")" >&2; exit 77; }
host=$(cd "$prefix/bin" && ls ./*-linux-musl*-gcc | sed 's|^\./||; s/-gcc$//')

set -- --host="$host" CC="$prefix/bin/musl-gcc" --enable-static --disable-shared \
	--with-lua-src="$lua" CFLAGS="-Os -ffunction-sections -fdata-sections" \
	LDFLAGS="-Wl,--gc-sections"
if [ "$(cat "$b/configured" 2>/dev/null)" != "$*" ]; then
	find "$b" -mindepth 1 -maxdepth 1 ! -name musl.err ! -name lua-src.err -exec rm -rf {} +
	(cd "$b" && "$top/configure" -q "$@" >configure.out 2>&1) ||
		{ tail -n 20 "$b/configure.out" >&2; echo "configure failed" >&2; exit 1; }
	echo "$*" >"$b/configured"
fi
# One goal a make: "all" runs a make of its own, which would race another.
rm -rf "$b/_inst"
(cd "$b" && make -s -j2 >make.out 2>&1 && make -s install DESTDIR="$b/_inst" >install.out 2>&1) ||
	{ tail -n 30 "$b/make.out" "$b/install.out" >&2; echo "make failed" >&2; exit 1; }
echo "$b $prefix $host"
