#!/bin/sh
# The Lua test scripts under LuaJIT, with the module configure built for
# it (src/lua/luajit): each through its FFI path (src/lua/ffi.lua, the
# dice straight from the vDSO) and again through the classic one
# (VRANDOM_LUAJIT_FFI=0), and jit.lua besides.  Without this, make
# check never runs ffi.lua, and a fault there passes it.
# scripts/lua-versions-test.sh runs them again beside every other Lua.
: "${LUAJIT:?}" "${top_builddir:?}" "${top_srcdir:?}"
command -v "$LUAJIT" >/dev/null 2>&1 ||
	{ echo "SKIP: the LuaJIT module was built, but there is no interpreter ($LUAJIT)"; exit 77; }
d=$top_builddir/src/lua/luajit/.libs
[ -f "$d/vrandom.so" ] || { echo "FAIL: no $d/vrandom.so"; exit 1; }
fail= skip=
for ffi in 1 0; do
	for s in jit random strings generator module failure; do
		echo "== VRANDOM_LUAJIT_FFI=$ffi luajit $s.lua"
		LUA_CPATH="$d/?.so" VRANDOM_LUAJIT_FFI=$ffi "$LUAJIT" "$top_srcdir/test/lua/$s.lua"
		case $? in
		0) ;;
		77) skip="$skip $s.lua($ffi)" ;;
		*) fail="$fail $s.lua($ffi)" ;;
		esac
	done
done
# A script that skipped makes the whole a SKIP, which VR_REQUIRE=all fails.
[ -z "$fail" ] || { echo "FAIL:$fail"; exit 1; }
[ -z "$skip" ] || { echo "SKIP:$skip"; exit 77; }
