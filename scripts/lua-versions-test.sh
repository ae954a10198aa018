#!/bin/sh
# The Lua binding under every Lua: build/lua-versions, configured with
# every Lua found, then for each of 5.1, 5.2, 5.3, 5.4 and LuaJIT
#   - the test scripts under its interpreter and its module (failure.lua
#     runs three of them again with the syscall and urandom backends),
#   - three of them in a host linked with its static archive,
#   - for LuaJIT, all of that twice, FFI path and classic, and jit.lua,
#   - for 5.1 and 5.4, the rockspec built by luarocks into a private tree,
#     and random.lua against that module (5.1's under LuaJIT too).
# Each test script counts as one check: a "N passed, N failed" line per
# Lua in build/lua-versions/test/lua-VERSION.log (and lua-rocks.log); the
# scripts' own output is beside it.  A Lua whose interpreter or module is
# missing: SKIP with the reason.
#   --bench: bench/lua_bench.lua under each Lua instead, one run each.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/lua-versions
luas="5.1 5.2 5.3 5.4 luajit"

if [ "${1-}" != --bench ] || [ ! -f "$b/Makefile" ]; then
	rm -rf "$b"; mkdir -p "$b"
	(cd "$b" && "$top/configure" -q >configure.out 2>&1) ||
		{ cat "$b/configure.out"; exit 1; }
	# One goal a make: "all" runs a make of its own.
	make -s -C "$b" -j2 >"$b/make.out" 2>&1 || { tail -n 30 "$b/make.out"; exit 1; }
	if grep -q '^test/lua/nogetrandom' "$b/Makefile"; then
		make -s -C "$b" test/lua/nogetrandom >>"$b/make.out" 2>&1 ||
			{ tail -n 30 "$b/make.out"; exit 1; }
	fi
fi

interp() { case $1 in luajit) echo luajit ;; *) echo "lua$1" ;; esac; }
# Where the module built for a Lua is, and its static archive.
moddir() { case $1 in 5.4) echo "$b/src/lua/.libs" ;; *) echo "$b/src/lua/$1/.libs" ;; esac; }
archive() {
	case $1 in 5.4) echo "$b/src/lua/libvrandom-lua.a" ;; luajit) echo "$b/src/lua/libvrandom-luajit.a" ;;
	*) echo "$b/src/lua/libvrandom-lua$1.a" ;; esac
}
# Runs a Lua with only DIR (and DIR2...: "DIR;DIR2") on its C path,
# whatever LUA_CPATH_5_x says.
withcpath() {  # dir, command...
	d=$(echo "$1" | sed 's|;|/?.so;|g')/?.so; shift
	env -u VRANDOM_BACKEND -u VRANDOM_SYSCALL_MIN LUA_CPATH="$d" LUA_CPATH_5_2="$d" \
		LUA_CPATH_5_3="$d" LUA_CPATH_5_4="$d" top_builddir="$b" top_srcdir="$top" "$@"
}

# bench/vrbench built for a Lua: the raw vDSO calls the bench compares with.
benchdir() { case $1 in 5.4) echo "$b/bench/.libs" ;; *) echo "$b/bench/$1/.libs" ;; esac; }

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

. "$top/test/tally.sh"
set +e  # from here a failed check is counted, not the end
# A test script's run: its output in test/WHERE/NAME.out, and on stdout
# for script() to read the summary from.
logged() {  # where, name, command...
	mkdir -p "$b/test/$1"; out=$b/test/$1/$2.out; shift 2
	"$@" >"$out" 2>&1; st=$?
	cat "$out"; return $st
}

# One Lua: its module, then a host linked with its archive.  LuaJIT runs
# each script twice: its FFI path (src/lua/ffi.c), then the classic one
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
			script "$tag: $s.lua" logged "$v" "$s-$p" withcpath "$(moddir "$v")" \
				env VRANDOM_LUAJIT_FFI=$ffi "$lua" "$top/test/lua/$s.lua"
		done
	done
	pc=lua$v; [ "$v" = luajit ] && pc=luajit
	host=$b/test/$v/host a=$(archive "$v")
	if cc -o "$host" -I"$top/include" -I"$top/src/lua" $(pkg-config --cflags "$pc") "$top/test/lua/host.c" \
		"$a" "$b/.libs/libvrandom.a" $(pkg-config --libs "$pc") -lm -ldl -pthread \
		>"$b/test/$v/host.out" 2>&1; then
		for p in $paths; do
			pathvars "$p"
			for s in random strings generator; do
				script "$tag: $s.lua in a host linked with $(basename "$a")" \
					logged "$v" "host-$s-$p" env -u VRANDOM_BACKEND \
					VRANDOM_LUAJIT_FFI=$ffi "$host" "$top/test/lua/$s.lua"
			done
		done
	else
		cat "$b/test/$v/host.out"; ok 1 "$v: a host links $(basename "$a")"
	fi
	# Threads that exit and a fork (test/lua/threads.c) in a host linked
	# with the archive.
	threads=$b/test/$v/threads
	if cc -o "$threads" -I"$top/include" $(pkg-config --cflags "$pc") \
		"$top/test/lua/threads.c" "$a" "$b/.libs/libvrandom.a" \
		$(pkg-config --libs "$pc") -lm -ldl -pthread >"$b/test/$v/threads.out" 2>&1; then
		for p in $paths; do
			pathvars "$p"
			script "$tag: threads and fork in a host linked with $(basename "$a")" \
				logged "$v" "threads-$p" env -u VRANDOM_BACKEND \
				VRANDOM_LUAJIT_FFI=$ffi "$threads"
		done
	else
		cat "$b/test/$v/threads.out"; ok 1 "$v: test/lua/threads.c links $(basename "$a")"
	fi
}

# LuaJIT and 5.1 share lua/5.1: the module built for 5.1 loads in LuaJIT.
# Then the rockspec, built by luarocks for 5.1 and 5.4 from a copy of the
# sources (the builtin backend writes its objects beside them) into a
# private tree with a private HOME: no network, nothing installed.
rocks() {
	echo "== lua/5.1 under LuaJIT, and the rockspec"
	if command -v luajit >/dev/null 2>&1 && [ -f "$(moddir 5.1)/vrandom.so" ]; then
		for s in random jit; do
			script "5.1's module under luajit: $s.lua" logged luajit $s-51module \
				withcpath "$(moddir 5.1)" luajit "$top/test/lua/$s.lua"
		done
	fi
	for v in 5.1 5.4; do
		lua=$(interp "$v")
		command -v luarocks >/dev/null 2>&1 || { echo "SKIP: rock $v: no luarocks"; continue; }
		command -v "$lua" >/dev/null 2>&1 || { echo "SKIP: rock $v: no $lua"; continue; }
		r=$b/rock-$v
		rm -rf "$r"; mkdir -p "$r/src" "$r/home"
		cp -r "$top/src" "$top/include" "$top"/vrandom-*.rockspec "$r/src/"
		(cd "$r/src" && HOME=$r/home luarocks --lua-version "$v" --tree "$r/tree" \
			make --deps-mode=none vrandom-*.rockspec) >"$r/luarocks.out" 2>&1
		st=$?; [ $st = 0 ] || tail -n 20 "$r/luarocks.out"
		ok $st "luarocks --lua-version $v make"
		so=$r/tree/lib/lua/$v/vrandom.so
		[ -f "$so" ]; ok $? "the rock installs lib/lua/$v/vrandom.so"
		script "rock $v: random.lua" logged "rock-$v" random \
			withcpath "$r/tree/lib/lua/$v" "$lua" "$top/test/lua/random.lua"
		if [ "$v" = 5.1 ] && command -v luajit >/dev/null 2>&1; then
			for s in random jit; do
				script "rock 5.1: $s.lua under luajit" logged rock-5.1 $s-luajit \
					withcpath "$r/tree/lib/lua/5.1" luajit "$top/test/lua/$s.lua"
			done
		fi
	done
}

# Each part's lines and its "N passed, N failed" in test/lua-PART.log,
# where test-all's summary finds it.
part() {  # name, function, arguments...
	name=$1; shift
	passed=0 failed=0
	"$@" >"$b/test/lua-$name.log" 2>&1
	echo "$passed passed, $failed failed" >>"$b/test/lua-$name.log"
	cat "$b/test/lua-$name.log"
	total=$((total + failed))
}
total=0
mkdir -p "$b/test"
for v in $luas; do
	lua=$(interp "$v")
	if ! command -v "$lua" >/dev/null 2>&1; then
		echo "SKIP: Lua $v: no interpreter $lua"
	elif [ ! -f "$(moddir "$v")/vrandom.so" ]; then
		echo "SKIP: Lua $v: no module built (configure found no usable headers, or no shared glibc build: $b/config.log)"
	else
		part "$v" version "$v" "$lua"
	fi
done
part rocks rocks
[ "$total" = 0 ]
