#!/bin/sh
# Lua in firmware, for every Lua: Debian's source of Lua 5.1, 5.2, 5.3 and
# 5.4 (scripts/lua-src.sh), and for each, in build/lua-static/VERSION,
# vrandom configured --with-lua-src for static musl, its interpreter
# (vrandom-lua5.1, -lua5.2, -lua5.3, vrandom-lua) and archive tested:
#   - the test scripts under the interpreter, package.cpath empty
#     (static.lua) and the three backends (failure.lua);
#   - test/lua/threads, the binding linked into a program;
#   - strace: 100,000 vrandom.random() calls, at most 2 getrandom calls;
#   - an embedding host (test/lua/host.c) linked statically with that
#     Lua's core and the installed libvrandom-lua5.x.a, running the test
#     scripts; for 5.4 also examples/embed, built through vrandom.mk;
#   - what vrandom adds to the stripped interpreter (make footprint-lua),
#     at most 20 KiB.
# Two versions at a time.  Each version's lines and its "N passed, N
# failed" go to build/lua-static/test/lua-static-VERSION.log.  Without
# musl-gcc, or without a version's source: SKIP with the reason.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/lua-static
rm -rf "$b"; mkdir -p "$b/test"
skip() { echo "SKIP: lua-static: $*"; exit 0; }
command -v musl-gcc >/dev/null 2>&1 || skip "musl-gcc not found (musl-tools)"

# The sources first, one at a time (they share apt-source's directory).
versions=
for v in 5.1 5.2 5.3 5.4; do
	if tree=$(sh "$top/scripts/lua-src.sh" "$top/build/src" "$v" 2>"$b/lua-src-$v.err"); then
		echo "$tree" >"$b/tree-$v"; versions="$versions $v"
	else
		echo "SKIP: lua-static $v: no Lua $v source: $(tail -n 1 "$b/lua-src-$v.err")"
	fi
done
[ -n "$versions" ] || exit 0

. "$top/test/tally.sh"

# One version, in build/lua-static/VERSION; its checks on standard output.
version() {
	v=$1 bv=$b/$1 tree=$(cat "$b/tree-$1")
	case $v in 5.4) name=vrandom-lua archive=libvrandom-lua.a ;;
	*) name=vrandom-lua$v archive=libvrandom-lua$v.a ;; esac
	lua=$bv/src/lua/$name inst=$bv/_inst/usr/local
	echo "== lua-static $v: $(basename "$tree")"
	mkdir -p "$bv"
	(cd "$bv" && "$top/configure" -q CC=musl-gcc --enable-static --disable-shared \
		--with-lua-src="$tree" CFLAGS="-Os -ffunction-sections -fdata-sections" \
		LDFLAGS="-Wl,--gc-sections" >configure.out 2>&1) ||
		{ tail -n 20 "$bv/configure.out"; ok 1 "$v: configure"; return; }
	# One goal a make: "all" runs a make of its own, which would race another.
	make -s -C "$bv" >"$bv/make.out" 2>&1 &&
		make -s -C "$bv" test/lua/threads >>"$bv/make.out" 2>&1 &&
		make -s -C "$bv" install DESTDIR="$bv/_inst" >"$bv/install.out" 2>&1 ||
		{ tail -n 30 "$bv/make.out" "$bv/install.out"; ok 1 "$v: make, make install"; return; }

	# Installed: the interpreter, the binding with one global symbol.
	bins=bin/$name; [ "$v" = 5.4 ] && bins="$bins bin/vrandom-lua5.4"
	for f in $bins lib/$archive lib/libvrandom.a include/lvrandom.h; do
		[ -f "$inst/$f" ]; ok $? "$v: make install puts $f"
	done
	syms=$(nm -g --defined-only "$inst/lib/$archive" | awk 'NF == 3 { print $3 }')
	[ "$syms" = luaopen_vrandom ]; ok $? "$v: $archive defines only: $syms"
	file "$lua" | grep -q 'statically linked'; ok $? "$v: $name: $(file -b "$lua")"
	"$lua" -e 'assert(_VERSION == "Lua '"$v"'")'; ok $? "$v: $name is Lua $v"

	# The module's test scripts under the static interpreter; failure.lua
	# runs three of them again with VRANDOM_BACKEND=syscall and =urandom,
	# and under a seccomp filter when the helper can be built.
	for s in random strings generator static failure; do
		script "$v: $s.lua under $name" env -u VRANDOM_BACKEND \
			top_builddir="${helper:-$bv}" "$lua" "$top/test/lua/$s.lua"
	done
	# Linked into a program: thread exit gives the states back, fork is safe.
	script "$v: test/lua/threads (binding linked in)" "$bv/test/lua/threads"

	# The strace proof: 100,000 vrandom.random() calls, the vDSO serving.
	backend=$("$lua" -e 'io.write(require("vrandom").info().backend)')
	if [ -n "$nostrace" ]; then
		echo "SKIP: $v: strace proof: $nostrace"
	elif [ "$backend" != vdso ]; then
		echo "SKIP: $v: strace proof: backend is $backend, not vdso (kernel $(uname -r))"
	else
		loop='local r = require("vrandom").random for _ = 1, 100000 do r() end'
		n=$(count "$bv/loop" "$lua" -e "$loop") || n=-1
		[ "$n" -ge 0 ] && [ "$n" -le 2 ]
		ok $? "$v: 100000 vrandom.random(): $n getrandom system calls (at most 2)"
		# And strace sees them where they are made: one per call.
		n=$(count "$bv/loop" env VRANDOM_BACKEND=syscall "$lua" -e "$loop") || n=-1
		[ "$n" -ge 100000 ]; ok $? "$v: the same with VRANDOM_BACKEND=syscall: $n (at least 100000)"
	fi

	# An embedding host: this Lua's core and libraries as the build compiled
	# them (not the interpreter's lua.c and preload), the installed archive.
	host=$bv/host
	objs=$(ls "$bv"/src/lua/luasrc/*.o | grep -v -e '/lua\.o$' -e '/preload\.o$' -e '/linit-std\.o$')
	if musl-gcc -static -Os -I"$inst/include" -I"$tree/src" -o "$host" "$top/test/lua/host.c" $objs \
		"$inst/lib/$archive" "$inst/lib/libvrandom.a" -lm >"$bv/host.out" 2>&1; then
		file "$host" | grep -q 'statically linked'; ok $? "$v: host: $(file -b "$host")"
		for s in random strings generator; do
			script "$v: $s.lua in a static host linked with $archive" \
				env -u VRANDOM_BACKEND "$host" "$top/test/lua/$s.lua"
		done
	else
		cat "$bv/host.out"; ok 1 "$v: a static host links $archive"
	fi
	[ "$v" = 5.4 ] && embed "$bv" "$tree"

	# What vrandom adds to the interpreter (the design's target: 20 KiB).
	make -s -C "$bv" footprint-lua >"$bv/footprint.out" 2>&1 || :
	cat "$bv/footprint.out"
	cost=$(sed -n 's/.* B of file, \([0-9]*\) B of image.*/\1/p' "$bv/footprint.out")
	[ -n "$cost" ] && [ "$cost" -gt 0 ] && [ "$cost" -le 20480 ]
	ok $? "$v: vrandom costs ${cost:-?} B of the stripped interpreter's image (at most 20 KiB)"
}

# The embedding example, built by its own Makefile through vrandom.mk.
embed() {  # build dir, tree
	mkdir -p "$1/examples"
	cp -r "$top/examples/embed" "$top/examples/musl-static" "$1/examples/"
	if make -s -C "$1/examples/embed" VRANDOM_SRC="$top" LUA_SRC="$2" \
		>"$1/embed.out" 2>&1; then
		host=$1/examples/embed/host
		file "$host" | grep -q 'statically linked'; ok $? "examples/embed/host: $(file -b "$host")"
		(cd "$1/examples/embed" && ./host session.lua 5) >"$1/embed.run" 2>&1 && st=0 || st=$?
		cat "$1/embed.run"
		ok $st "host session.lua 5 exits 0"
		n=$(grep -cE '^token [A-Za-z0-9_-]{43}$' "$1/embed.run") || :
		[ "$n" = 5 ]; ok $? "5 tokens of 43 base64url characters: $n"
		n=$(sed -n 's/^token //p' "$1/embed.run" | sort -u | wc -l)
		[ "$n" = 5 ]; ok $? "5 distinct tokens: $n"
		perm=$(sed -n 's/^order //p' "$1/embed.run" | tr ' ' '\n' | sort | tr '\n' ' ')
		[ "$perm" = "ntp1 ntp2 ntp3 ntp4 ntp5 ntp6 ntp7 ntp8 " ]
		ok $? "the shuffle is a permutation of the 8 servers: $perm"
	else
		tail -n 30 "$1/embed.out"; ok 1 "examples/embed builds"
	fi
}

# What every version shares: the seccomp helper (glibc, libseccomp) that
# failure.lua finds under top_builddir, and whether strace can trace.
helper=$(nogetrandom "$b/helper" "$top") || helper=
nostrace=
if ! command -v strace >/dev/null 2>&1; then nostrace="strace not found"
elif ! strace -o /dev/null true 2>/dev/null; then nostrace="strace cannot trace here"
fi

# Two versions at a time, each with its own tally and log.
run() {  # version: a background job writing test/lua-static-VERSION.log
	log=$b/test/lua-static-$1.log
	(
		set +e  # from here a failed check is counted, not the end
		passed=0 failed=0
		version "$1" >"$log" 2>&1
		echo "$passed passed, $failed failed" >>"$log"
		[ "$failed" = 0 ]
	) &
}
total=0
set -- $versions
while [ $# -gt 0 ]; do
	run "$1"; p1=$! v1=$1; shift
	p2= v2=
	if [ $# -gt 0 ]; then run "$1"; p2=$! v2=$1; shift; fi
	wait "$p1" || total=$((total + 1))
	cat "$b/test/lua-static-$v1.log"
	if [ -n "$p2" ]; then
		wait "$p2" || total=$((total + 1))
		cat "$b/test/lua-static-$v2.log"
	fi
done
[ "$total" = 0 ]
