#!/bin/sh
# What a newcomer sees: run from the build tree by `make demo`.
set -e
b=${top_builddir:-.}
s=${top_srcdir:-.}
v=$b/src/cli/vrandom

echo "== examples/hello: random values from the C API"
"$b/examples/hello"

echo
echo "== vrandom info: how this process reaches the kernel's generator"
"$v" info

echo
echo "== vrandom bytes 16; vrandom uuid 3; vrandom token"
"$v" bytes 16
"$v" uuid 3
"$v" token

echo
lua=$(command -v lua5.4 || true)
so=$b/src/lua/.libs/vrandom.so
if [ -n "$lua" ] && [ -f "$so" ] && [ -f "$s/examples/tokens.lua" ]; then
	echo "== examples/tokens.lua: the Lua module"
	LUA_CPATH="$b/src/lua/.libs/?.so" LUA_CPATH_5_4="$b/src/lua/.libs/?.so" \
		"$lua" "$s/examples/tokens.lua"
else
	echo "== examples/tokens.lua: skipped (no lua5.4, or the Lua module was not built)"
fi

echo
echo "== vrandom bench --quick: the same request four ways, in one run"
"$v" bench --quick
