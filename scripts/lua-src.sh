#!/bin/sh
# Fetch Debian's lua5.4 source package into DIR (through apt-source.sh's
# private apt configuration) and print the unpacked tree's path, ready for
# ./configure --with-lua-src=.
#
# Usage: lua-src.sh DIR
# Exit 1 with the reason on standard error when the source cannot be had.
set -e
dir=${1:?usage: lua-src.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
tree=$(sh "$here/apt-source.sh" lua5.4 "$dir")
[ -f "$tree/src/lua.h" ] && [ -f "$tree/src/lua.c" ] ||
	{ echo "lua-src: $tree is not a Lua source tree" >&2; exit 1; }
# Debian's luaconf.h includes a header its debian/rules writes at build
# time; an upstream tree has no such line.  Write it the same way.
mh=lua5.4-deb-multiarch.h
if grep -q "$mh" "$tree/src/luaconf.h" && [ ! -f "$tree/src/$mh" ]; then
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
		gcc -print-multiarch 2>/dev/null || true)
	[ -n "$ma" ] || { echo "lua-src: cannot tell the multiarch triplet for $mh" >&2; exit 1; }
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$ma" >"$tree/src/$mh"
fi
echo "$tree"
