#!/bin/sh
# Fetch Debian's Lua source package of VERSION (5.1, 5.2, 5.3 or 5.4, the
# source packages lua5.1 ... lua5.4) into DIR, through apt-source.sh's
# private apt configuration, and print the unpacked tree's path as the last
# line, ready for ./configure --with-lua-src=.
#
# Usage: lua-src.sh DIR [VERSION]   (VERSION defaults to 5.4)
# Exit 1 with the reason on standard error when the source cannot be had.
set -e
dir=${1:?usage: lua-src.sh DIR [VERSION]}
v=${2:-5.4}
case $v in 5.1|5.2|5.3|5.4) ;; *) echo "lua-src: VERSION $v is none of 5.1 5.2 5.3 5.4" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tree=$(sh "$here/apt-source.sh" "lua$v" "$dir")
[ -f "$tree/src/lua.h" ] && [ -f "$tree/src/lua.c" ] ||
	{ echo "lua-src: $tree is not a Lua source tree" >&2; exit 1; }
grep -q "LUA_VERSION_NUM[	 ]*${v%.*}0${v#*.}" "$tree/src/lua.h" ||
	{ echo "lua-src: $tree/src/lua.h is not Lua $v" >&2; exit 1; }
# Debian's luaconf.h includes a header its debian/rules writes at build
# time (lua5.x-deb-multiarch.h); an upstream tree has no such line.  Write
# it the same way.
mh=lua$v-deb-multiarch.h
if grep -q "$mh" "$tree/src/luaconf.h" && [ ! -f "$tree/src/$mh" ]; then
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
		gcc -print-multiarch 2>/dev/null || true)
	[ -n "$ma" ] || { echo "lua-src: cannot tell the multiarch triplet for $mh" >&2; exit 1; }
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$ma" >"$tree/src/$mh"
fi
echo "$tree"
