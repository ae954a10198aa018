#!/bin/sh
# Debian's source of Lua VERSION (5.1 to 5.5; default 5.4), fetched once
# into $VR_CACHE/src (5.5 from the unstable suite: Debian 12 has none); the last line printed is the tree, ready
# for ./configure --with-lua-src=.  Exit 1 with the reason on standard
# error when it cannot be had, 2 for another VERSION.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
v=${1:-5.4}
case $v in 5.[1-4]) suite= ;; 5.5) suite=unstable ;;
*) echo "usage: lua-src.sh [5.1|5.2|5.3|5.4|5.5]" >&2; exit 2 ;; esac
tree=$(fetch_source "lua$v" $suite) || exit 1
# 5.5 computes LUA_VERSION_NUM from LUA_VERSION_MINOR_N.
grep -q -e "LUA_VERSION_NUM[	 ]*${v%.*}0${v#*.}" -e "LUA_VERSION_MINOR_N[	 ]*${v#*.}$" "$tree/src/lua.h" ||
	{ echo "lua-src: $tree is not Lua $v" >&2; exit 1; }
# Debian's luaconf.h includes a header its debian/rules writes at build
# time (lua5.x-deb-multiarch.h): written here the same way.
mh=$tree/src/lua$v-deb-multiarch.h
grep -q "${mh##*/}" "$tree/src/luaconf.h" && [ ! -f "$mh" ] &&
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" >"$mh"
echo "$tree"
