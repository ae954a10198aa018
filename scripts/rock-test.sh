#!/bin/sh
# The rockspec as a user builds it: `luarocks --lua-version V make` in a
# copy of the source tree (luarocks leaves its objects beside the sources),
# for Lua 5.4 and 5.1, installed into a private tree with no rocks server
# and no dependency lookup, so nothing is fetched; then the Lua tests
# against the installed module (5.1's under LuaJIT too).  failure.lua takes
# its seccomp helper from the unit suite's tree.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need luarocks
out=$VR_BUILD/rock

for v in 5.4 5.1; do
	b=$out/$v so=$out/$v/tree/lib/lua/$v/vrandom.so
	command -v lua$v >/dev/null && [ -f /usr/include/lua$v/lua.h ] ||
		{ missing "rock $v: lua$v or its headers (liblua$v-dev) are not installed"; continue; }
	rm -rf "$b"; mkdir -p "$b/src" "$b/home"
	cp -R "$top/src" "$top/include" "$top"/vrandom-*.rockspec "$b/src/"
	printf 'rocks_servers = {}\n' >"$b/config.lua"
	(cd "$b/src" && HOME=$b/home LUAROCKS_CONFIG=$b/config.lua luarocks --lua-version $v \
		--tree "$b/tree" make --deps-mode none vrandom-*.rockspec) >"$b/make.out" 2>&1 &&
		[ -f "$so" ] || cat "$b/make.out"
	ok $? "rock $v: luarocks make installs lib/lua/$v/vrandom.so"
	# Only the installed module on the C path.
	with() { env LUA_CPATH="${so%/*}/?.so" LUA_CPATH_5_4="${so%/*}/?.so" top_srcdir="$top" \
		top_builddir="$VR_BUILD/unit" "$@"; }
	with lua$v -e 'require("vrandom")'
	ok $? "rock $v: require finds the module with only ${so%/*} on the C path"
	for t in random strings generator module failure; do
		[ $v = 5.4 ] || [ $t = random ] || continue
		run "rock $v: $t.lua" with lua$v "$top/test/lua/$t.lua"
	done
	if [ $v = 5.1 ]; then
		for t in random jit; do run "rock 5.1: $t.lua under luajit" with luajit "$top/test/lua/$t.lua"; done
	fi
done
finish
