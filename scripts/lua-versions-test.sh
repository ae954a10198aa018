#!/bin/sh
# The Lua binding under every Lua: the unit suite's tree, build/unit
# (configured with every Lua found; configured here when it is not), then
# for each of 5.1, 5.2, 5.3, 5.4, 5.5 and LuaJIT
#   - the test scripts under its interpreter and its module (failure.lua
#     runs three of them again with the syscall and urandom backends),
#   - three of them in a host linked with its static archive,
#   - for LuaJIT, all of that twice, FFI path and classic, and jit.lua,
#   - 5.1's module under LuaJIT.
# A Lua whose interpreter or module is missing: SKIP with the reason.
# Debian 12 has no Lua 5.5: where the unit tree has no 5.5 module, its
# interpreter is built from Debian's source (scripts/lua-src.sh, unstable)
# and its module, archive and bench/vrbench in a tree of their own,
# configured --with-lua=5.5 with its headers ($VR_BUILD/lua-versions).
#   --bench: bench/lua_bench.lua under each Lua instead, one run each.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
b=$VR_BUILD/unit
luas="5.1 5.2 5.3 5.4 5.5 luajit"

if [ "${1-}" != --bench ] || [ ! -f "$b/Makefile" ]; then
	unit_tree test/lua/nogetrandom test/fakeaux.la test/fakevdso-zerokey.so test/fakevdso-zeroretry.so || { ok 1 "configure, make"; finish; }
fi

# Lua 5.5 from source, unless the unit tree built its module: b55, its
# tree; t55, the Lua source; l55, the Lua built here; lua55, the
# interpreter.  --bench reuses them.
b55=$b t55= l55=$VR_BUILD/lua-versions/lua lua55=lua5.5
if [ ! -f "$b/src/lua/5.5/.libs/vrandom.so" ]; then
	b55=$VR_BUILD/lua-versions/tree lua55=$l55/lua
	mkdir -p "${l55%/*}"
	t55=$(sh "$top/scripts/lua-src.sh" 5.5 2>"${l55%/*}/lua-src.err" | tail -n 1)
	if [ -z "$t55" ]; then
		t55= lua55=lua5.5
		echo "# Lua 5.5: no source: $(tail -n 1 "${l55%/*}/lua-src.err")"
	elif [ "${1-}" != --bench ] || [ ! -f "$b55/src/lua/5.5/.libs/vrandom.so" ]; then
		echo "== Lua 5.5 from ${t55##*/}: its interpreter, then a tree --with-lua=5.5"
		rm -rf "$l55"
		build_lua cc "$t55" "$l55" >"$l55.out" 2>&1 || { cat "$l55.out"; ok 1 "Lua 5.5 builds"; }
		configure "$b55" --with-lua=5.5 LUA55_CFLAGS="-I$t55/src" LUA55="$lua55" &&
			build "$b55" src/lua/5.5/vrandom.la src/lua/libvrandom-lua5.5.a bench/5.5/vrbench.la ||
			ok 1 "5.5: configure --with-lua=5.5, make"
	fi
fi

interp() { case $1 in luajit) echo luajit ;; 5.5) echo "$lua55" ;; *) echo "lua$1" ;; esac; }
# The tree that built a Lua's module.
tree() { case $1 in 5.5) echo "$b55" ;; *) echo "$b" ;; esac; }
# Where the module built for a Lua is, and its static archive.
moddir() { case $1 in 5.4) echo "$b/src/lua/.libs" ;; *) echo "$(tree "$1")/src/lua/$1/.libs" ;; esac; }
archive() {
	case $1 in 5.4) echo "$b/src/lua/libvrandom-lua.a" ;; luajit) echo "$b/src/lua/libvrandom-luajit.a" ;;
	*) echo "$(tree "$1")/src/lua/libvrandom-lua$1.a" ;; esac
}
# A host's flags for a Lua: pkg-config's, or the 5.5 built here.
luaflags() {  # --cflags|--libs, version
	case $2:$t55 in
	5.5:?*) [ "$1" = --cflags ] && echo "-I$t55/src" || echo "$l55/liblua.a" ;;
	luajit:*) pkg-config "$1" luajit ;;
	*) pkg-config "$1" "lua$2" ;;
	esac
}
# Runs a Lua with only DIR (and DIR2...: "DIR;DIR2") on its C path,
# whatever LUA_CPATH_5_x says.
withcpath() {  # dir, command...
	d=$(echo "$1" | sed 's|;|/?.so;|g')/?.so; shift
	env -u VRANDOM_BACKEND -u VRANDOM_SYSCALL_MIN LUA_CPATH="$d" LUA_CPATH_5_2="$d" \
		LUA_CPATH_5_3="$d" LUA_CPATH_5_4="$d" LUA_CPATH_5_5="$d" top_builddir="$b" top_srcdir="$top" "$@"
}

# bench/vrbench built for a Lua: the raw vDSO calls the bench compares with.
benchdir() { case $1 in 5.4) echo "$b/bench/.libs" ;; *) echo "$(tree "$1")/bench/$1/.libs" ;; esac; }

if [ "${1-}" = --bench ]; then
	for v in $luas; do
		lua=$(interp "$v")
		command -v "$lua" >/dev/null 2>&1 || { echo "SKIP: $v: no $lua"; continue; }
		[ -f "$(moddir "$v")/vrandom.so" ] || { echo "SKIP: $v: module not built"; continue; }
		# LuaJIT: the FFI path, then the classic one.
		for ffi in 1 0; do
			[ "$v" != luajit ] && [ $ffi = 0 ] && continue
			what=; [ "$v" = luajit ] && what=" VRANDOM_LUAJIT_FFI=$ffi"
			echo "== $v:$what $lua bench/lua_bench.lua (load average $(cut -d' ' -f1-3 /proc/loadavg))"
			withcpath "$(moddir "$v");$(benchdir "$v")" env VRANDOM_LUAJIT_FFI=$ffi \
				"$lua" "$top/bench/lua_bench.lua" || exit 1
		done
	done
	exit 0
fi


# One Lua: its module, then a host linked with its archive.  LuaJIT runs
# each script twice: its FFI path (src/lua/ffi.lua), then the classic one
# (VRANDOM_LUAJIT_FFI=0), and jit.lua besides.
# For a path (ffi, classic) of Lua $v: ffi, VRANDOM_LUAJIT_FFI's value,
# and tag, how the lines name it ("luajit (ffi)"; the others by version).
pathvars() {
	ffi=1 tag=$v; [ "$1" = classic ] && ffi=0
	[ "$v" = luajit ] && tag="$v ($1)"
}
version() {  # version, interpreter
	v=$1 lua=$2
	echo "== Lua $v ($($lua -v 2>&1 | head -n 1))"
	scripts="random strings generator module failure" paths=classic
	[ "$v" = luajit ] && scripts="$scripts jit" paths="ffi classic"
	for p in $paths; do
		pathvars "$p"
		for s in $scripts; do
			run "$tag: $s.lua" withcpath "$(moddir "$v")" \
				env VRANDOM_LUAJIT_FFI=$ffi "$lua" "$top/test/lua/$s.lua"
		done
	done
	mkdir -p "$b/test/$v"
	host=$b/test/$v/host a=$(archive "$v")
	if cc -o "$host" -I"$top/include" -I"$top/src/lua" $(luaflags --cflags "$v") "$top/test/lua/host.c" \
		"$a" "$b/.libs/libvrandom.a" $(luaflags --libs "$v") -lm -ldl -pthread \
		>"$b/test/$v/host.out" 2>&1; then
		for p in $paths; do
			pathvars "$p"
			for s in random strings generator; do
				run "$tag: $s.lua in a host linked with $(basename "$a")" env -u VRANDOM_BACKEND \
					VRANDOM_LUAJIT_FFI=$ffi "$host" "$top/test/lua/$s.lua"
			done
		done
	else
		cat "$b/test/$v/host.out"; ok 1 "$v: a host links $(basename "$a")"
	fi
	# Threads that exit and a fork (test/lua/threads.c) in a host linked
	# with the archive.
	threads=$b/test/$v/threads
	if cc -o "$threads" -I"$top/include" $(luaflags --cflags "$v") \
		"$top/test/lua/threads.c" "$a" "$b/.libs/libvrandom.a" \
		$(luaflags --libs "$v") -lm -ldl -pthread >"$b/test/$v/threads.out" 2>&1; then
		for p in $paths; do
			pathvars "$p"
			run "$tag: threads and fork in a host linked with $(basename "$a")" env -u VRANDOM_BACKEND \
				VRANDOM_LUAJIT_FFI=$ffi "$threads"
		done
	else
		cat "$b/test/$v/threads.out"; ok 1 "$v: test/lua/threads.c links $(basename "$a")"
	fi
}

for v in $luas; do
	lua=$(interp "$v")
	if ! command -v "$lua" >/dev/null 2>&1; then missing "Lua $v: no interpreter $lua"
	elif [ ! -f "$(moddir "$v")/vrandom.so" ]; then missing "Lua $v: no module built ($b/config.log)"
	else version "$v" "$lua"; fi
done
# LuaJIT and 5.1 share lua/5.1: the module built for 5.1 loads in LuaJIT.
for s in random jit; do
	run "5.1's module under luajit: $s.lua" withcpath "$(moddir 5.1)" luajit "$top/test/lua/$s.lua"
done
finish
