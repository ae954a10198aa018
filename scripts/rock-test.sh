#!/bin/sh
# The rockspec as a user builds it: `luarocks --lua-version 5.4 make` in a
# copy of the source tree (luarocks leaves its objects beside the sources),
# installed into a private tree under build/rock with no rocks server and
# no dependency lookup, so nothing is fetched; then the Lua tests against
# the installed module.  Each test's output lands in build/rock/test/*.log.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=${VR_BUILD:-$top/build}
b=$out/rock
LUA=${LUA:-lua5.4}

echo "== rock: luarocks --lua-version 5.4 make, Lua tests on the installed module"
for tool in luarocks "$LUA"; do
	command -v "$tool" >/dev/null ||
		{ echo "SKIP: rock: $tool not installed"; exit 0; }
done
[ -f /usr/include/lua5.4/lua.h ] || [ -f /usr/local/include/lua.h ] ||
	{ echo "SKIP: rock: no Lua 5.4 headers (liblua5.4-dev)"; exit 0; }
rock=$(ls vrandom-*-1.rockspec)
rm -rf "$b"; mkdir -p "$b/src" "$b/home" "$b/test"
cp -R src include "$rock" "$b/src/"
printf 'rocks_servers = {}\n' >"$b/config.lua"
(cd "$b/src" && HOME=$b/home LUAROCKS_CONFIG=$b/config.lua \
	luarocks --lua-version 5.4 --tree "$b/tree" make --deps-mode none "$rock" \
	>"$b/make.out" 2>&1) || { cat "$b/make.out"; echo "FAIL: rock: luarocks make"; exit 1; }
so=$b/tree/lib/lua/5.4/vrandom.so
[ -f "$so" ] || { cat "$b/make.out"; echo "FAIL: rock: no $so"; exit 1; }

# module.lua reads the rockspec and Makefile.am from the source tree;
# failure.lua takes test/lua/nogetrandom from the glibc build when it is there.
status=0
for t in test/lua/random.lua test/lua/strings.lua test/lua/generator.lua \
	test/lua/module.lua test/lua/failure.lua; do
	name=$(basename "$t" .lua)
	if LUA_CPATH="$b/tree/lib/lua/5.4/?.so" LUA_CPATH_5_4="$b/tree/lib/lua/5.4/?.so" \
		top_srcdir=$top top_builddir=$out/glibc "$LUA" "$t" >"$b/test/$name.log" 2>&1; then
		echo "PASS: rock $name: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$b/test/$name.log" | tail -n 1)"
	else
		tail -n 20 "$b/test/$name.log"; echo "FAIL: rock $name"; status=1
	fi
done
# The tests must have loaded the installed module, not one built elsewhere.
LUA_CPATH="$b/tree/lib/lua/5.4/?.so" LUA_CPATH_5_4="$b/tree/lib/lua/5.4/?.so" \
	"$LUA" -e 'print(package.searchpath("vrandom", package.cpath))' | grep -qx "$so" ||
	{ echo "FAIL: rock: the tests did not load $so"; status=1; }
exit $status
