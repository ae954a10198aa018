#!/bin/sh
# Lua in firmware, for every Lua: Debian's source of Lua 5.1 to 5.5
# (scripts/lua-src.sh; 5.5 from unstable) and, for each, vrandom configured
# --with-lua-src for static musl in $VR_BUILD/lua-static/VERSION; its
# interpreter (vrandom-lua5.1, -lua5.2, -lua5.3, vrandom-lua, vrandom-lua5.5)
# and archive tested:
#   - the test scripts under the interpreter, package.cpath empty
#     (static.lua) and the three backends (failure.lua);
#   - test/lua/threads, the binding linked into a program;
#   - strace: 100,000 vrandom.random() calls, at most 2 getrandom calls;
#   - an embedding host (test/lua/host.c) linked statically with that
#     Lua's core and the installed archive, running the test scripts; for
#     5.4 and 5.5 also examples/embed, built through vrandom.mk;
#   - what vrandom adds to the stripped interpreter (at most 20 KiB).
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
need musl-gcc
out=$VR_BUILD/lua-static
rm -rf "$out"; mkdir -p "$out"
# failure.lua's seccomp helper (glibc, libseccomp) under top_builddir.
mkdir -p "$out/helper/test/lua"
cc -I"$top/test" -o "$out/helper/test/lua/nogetrandom" "$top/test/lua/nogetrandom.c" ||
	ok 1 "test/lua/nogetrandom builds"

version() {  # version
	local v=$1 bv=$out/$1 tree name archive lua inst f s n host objs
	tree=$(sh "$top/scripts/lua-src.sh" "$v" 2>"$out/err") ||
		{ missing "$v: no Lua $v source: $(tail -n 1 "$out/err")"; return; }
	case $v in 5.4) name=vrandom-lua archive=libvrandom-lua.a ;;
	*) name=vrandom-lua$v archive=libvrandom-lua$v.a ;; esac
	lua=$bv/src/lua/$name inst=$bv/_inst/usr/local
	echo "== lua-static $v: ${tree##*/}"
	configure "$bv" CC=musl-gcc --enable-static --disable-shared --with-lua-src="$tree" \
		CFLAGS="-Os -ffunction-sections -fdata-sections" LDFLAGS="-Wl,--gc-sections" &&
		build "$bv" && build "$bv" test/lua/threads && build "$bv" install DESTDIR="$bv/_inst" ||
		{ ok 1 "$v: configure, make, make install"; return; }
	for f in bin/$name lib/$archive lib/libvrandom.a include/lvrandom.h; do
		[ -f "$inst/$f" ]; ok $? "$v: make install puts $f"
	done
	f=$(nm -g --defined-only "$inst/lib/$archive" | awk 'NF == 3 { print $3 }')
	[ "$f" = luaopen_vrandom ]; ok $? "$v: $archive defines only: $f"
	file "$lua" | grep -q 'statically linked'; ok $? "$v: $name is static"
	"$lua" -e 'assert(_VERSION == "Lua '"$v"'")'; ok $? "$v: $name is Lua $v"
	for s in random strings generator static failure; do
		run "$v: $s.lua under $name" env -u VRANDOM_BACKEND top_builddir="$out/helper" \
			"$lua" "$top/test/lua/$s.lua"
	done
	run "$v: test/lua/threads (the binding linked in)" "$bv/test/lua/threads"

	# The strace proof: 100,000 vrandom.random() calls, the vDSO serving,
	# and one a call with the system call forced (10,000: strace stops
	# at each one).
	loop() { echo "local r = require('vrandom').random for _ = 1, $1 do r() end"; }
	if ! strace_ok; then missing "$v: strace missing or not allowed"
	elif ! "$lua" -e 'assert(require("vrandom").info().backend == "vdso")'; then
		missing "$v: strace proof: the vDSO does not serve here ($(uname -r))"
	else
		n=$(count "$bv/loop" "$lua" -e "$(loop 100000)")
		[ "$n" -ge 0 ] && [ "$n" -le 2 ]; ok $? "$v: 100000 vrandom.random(): $n getrandom system calls (at most 2)"
		n=$(count "$bv/loop" env VRANDOM_BACKEND=syscall "$lua" -e "$(loop 10000)")
		[ "$n" -ge 10000 ]; ok $? "$v: 10000 with VRANDOM_BACKEND=syscall: $n (at least 10000)"
	fi

	# An embedding host: this Lua's core and libraries as the build
	# compiled them, the installed archive.
	host=$bv/host
	objs=$(ls "$bv"/src/lua/luasrc/*.o | grep -v -e '/lua\.o$' -e '/preload\.o$' -e '/linit-std\.o$')
	if musl-gcc -static -Os -I"$inst/include" -I"$tree/src" -o "$host" "$top/test/lua/host.c" $objs \
		"$inst/lib/$archive" "$inst/lib/libvrandom.a" -lm >"$bv/host.out" 2>&1; then
		for s in random strings generator; do
			run "$v: $s.lua in a static host linked with $archive" env -u VRANDOM_BACKEND \
				"$host" "$top/test/lua/$s.lua"
		done
	else
		cat "$bv/host.out"; ok 1 "$v: a static host links $archive"
	fi
	case $v in 5.4|5.5) embed "$bv" "$tree" "$v" ;; esac
	build "$bv" footprint-lua
	n=$(sed -n 's/.* B of file, \([0-9]*\) B of image.*/\1/p' "$bv/make.out" | tail -n 1)
	[ -n "$n" ] && [ "$n" -le 20480 ]; ok $? "$v: vrandom costs ${n:-?} B of $name's image (at most 20 KiB)"
}

# The embedding example, built by its own Makefile through vrandom.mk.
embed() {  # build dir, tree, version
	local e=$1/examples/embed n
	mkdir -p "$1/examples"
	cp -r "$top/examples/embed" "$top/examples/musl-static" "$1/examples/"
	make -s -C "$e" VRANDOM_SRC="$src" LUA_SRC="$2" VRANDOM_LUA_VERSION="$3" >"$1/embed.out" 2>&1 ||
		{ tail -n 30 "$1/embed.out"; ok 1 "$3: examples/embed builds"; return; }
	echo 'print(_VERSION)' >"$e/version.lua"
	n=$(cd "$e" && ./host version.lua); [ "$n" = "Lua $3" ]; ok $? "$3: examples/embed: its host is $n"
	(cd "$e" && ./host session.lua 5) >"$1/embed.run" 2>&1; ok $? "$3: examples/embed: host session.lua 5"
	n=$(grep -E '^token [A-Za-z0-9_-]{43}$' "$1/embed.run" | sort -u | wc -l)
	[ "$n" = 5 ]; ok $? "$3: examples/embed: 5 distinct tokens of 43 base64url characters: $n"
	n=$(sed -n 's/^order //p' "$1/embed.run" | tr ' ' '\n' | sort | xargs)
	[ "$n" = "ntp1 ntp2 ntp3 ntp4 ntp5 ntp6 ntp7 ntp8" ]; ok $? "$3: examples/embed: the shuffle is a permutation: $n"
}

for v in 5.1 5.2 5.3 5.4 5.5; do version "$v"; done
finish
