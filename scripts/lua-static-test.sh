#!/bin/sh
# Lua in firmware: Debian's Lua 5.4 source (scripts/lua-src.sh), the static
# musl interpreter vrandom-lua built from it, and the embedding example,
# tested.  Output and the "N passed, N failed" line go to
# build/lua-static/test/lua-static.log too.  Without musl-gcc or the Lua
# source: SKIP with the reason.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/lua-static
rm -rf "$b"; mkdir -p "$b/test"
log=$b/test/lua-static.log
exec 3>&1 >"$log" 2>&1
trap 'cat "$log" >&3' EXIT
skip() { echo "SKIP: lua-static: $*"; exit 0; }

command -v musl-gcc >/dev/null 2>&1 || skip "musl-gcc not found (musl-tools)"
tree=$(sh "$top/scripts/lua-src.sh" "$top/build/src" 2>"$b/lua-src.err") ||
	skip "no Lua 5.4 source: $(tail -n 1 "$b/lua-src.err")"
echo "== lua-static: Lua source $(basename "$tree")"

(cd "$b" && "$top/configure" -q CC=musl-gcc --enable-static --disable-shared \
	--with-lua-src="$tree" CFLAGS="-Os -ffunction-sections -fdata-sections" \
	LDFLAGS="-Wl,--gc-sections" >configure.out 2>&1) || { cat "$b/configure.out"; exit 1; }
# One goal a make: "all" runs a make of its own, which would race another.
make -s -C "$b" -j2 >"$b/make.out" 2>&1 &&
	make -s -C "$b" -j2 test/lua/threads >>"$b/make.out" 2>&1 &&
	make -s -C "$b" install DESTDIR="$b/_inst" >"$b/install.out" 2>&1 ||
	{ tail -n 30 "$b/make.out" "$b/install.out"; exit 1; }
lua=$b/src/lua/vrandom-lua

. "$top/test/tally.sh"
set +e  # from here a failed check is counted, not the end
# Installed: the interpreter, the binding with one global symbol.
for f in bin/vrandom-lua lib/libvrandom-lua.a lib/libvrandom.a include/lvrandom.h; do
	[ -f "$b/_inst/usr/local/$f" ]; ok $? "make install puts $f"
done
syms=$(nm -g --defined-only "$b/_inst/usr/local/lib/libvrandom-lua.a" | awk 'NF == 3 { print $3 }')
[ "$syms" = luaopen_vrandom ]; ok $? "libvrandom-lua.a defines only: $syms"
file "$lua" | grep -q 'statically linked'; ok $? "vrandom-lua: $(file -b "$lua")"

# The module's test scripts under the static interpreter; failure.lua runs
# three of them again with VRANDOM_BACKEND=syscall and =urandom, and under
# a seccomp filter when the helper can be built (glibc, libseccomp).
helper=
if cc -o "$b/nogetrandom" "$top/test/lua/nogetrandom.c" -lseccomp 2>/dev/null; then
	mkdir -p "$b/helper/test/lua"; mv "$b/nogetrandom" "$b/helper/test/lua/"
	helper=$b/helper
fi
for s in random strings generator static failure; do
	script "$s.lua under vrandom-lua" env -u VRANDOM_BACKEND \
		top_builddir="${helper:-$b}" "$lua" "$top/test/lua/$s.lua"
done

# Linked into a program: thread exit gives the states back, fork is safe.
script "test/lua/threads (binding linked in)" "$b/test/lua/threads"

# The strace proof: 100,000 vrandom.random() calls, the vDSO serving.
backend=$("$lua" -e 'io.write(require("vrandom").info().backend)')
if ! command -v strace >/dev/null 2>&1; then
	echo "SKIP: strace proof: strace not found"
elif ! strace -o /dev/null true 2>/dev/null; then
	echo "SKIP: strace proof: strace cannot trace here"
elif [ "$backend" != vdso ]; then
	echo "SKIP: strace proof: backend is $backend, not vdso (kernel $(uname -r))"
else
	loop='local r = require("vrandom").random for _ = 1, 100000 do r() end'
	n=$(count "$b/loop" "$lua" -e "$loop") || n=-1
	[ "$n" -ge 0 ] && [ "$n" -le 2 ]
	ok $? "100000 vrandom.random(): $n getrandom system calls (at most 2)"
	# And strace sees them where they are made: one per call.
	n=$(count "$b/loop" env VRANDOM_BACKEND=syscall "$lua" -e "$loop") || n=-1
	[ "$n" -ge 100000 ]; ok $? "the same with VRANDOM_BACKEND=syscall: $n (at least 100000)"
fi

# The embedding example, built by its own Makefile through vrandom.mk.
mkdir -p "$b/examples"
cp -r "$top/examples/embed" "$top/examples/musl-static" "$b/examples/"
if make -s -C "$b/examples/embed" -j2 VRANDOM_SRC="$top" LUA_SRC="$tree" \
	>"$b/embed.out" 2>&1; then
	host=$b/examples/embed/host
	file "$host" | grep -q 'statically linked'; ok $? "examples/embed/host: $(file -b "$host")"
	(cd "$b/examples/embed" && ./host session.lua 5) >"$b/embed.run" 2>&1 && st=0 || st=$?
	cat "$b/embed.run"
	ok $st "host session.lua 5 exits 0"
	n=$(grep -cE '^token [A-Za-z0-9_-]{43}$' "$b/embed.run") || :
	[ "$n" = 5 ]; ok $? "5 tokens of 43 base64url characters: $n"
	n=$(sed -n 's/^token //p' "$b/embed.run" | sort -u | wc -l)
	[ "$n" = 5 ]; ok $? "5 distinct tokens: $n"
	perm=$(sed -n 's/^order //p' "$b/embed.run" | tr ' ' '\n' | sort | tr '\n' ' ')
	[ "$perm" = "ntp1 ntp2 ntp3 ntp4 ntp5 ntp6 ntp7 ntp8 " ]
	ok $? "the shuffle is a permutation of the 8 servers: $perm"
else
	tail -n 30 "$b/embed.out"; ok 1 "examples/embed builds"
fi

# What vrandom adds to the interpreter (the design's target: 20 KiB).
make -s -C "$b" footprint-lua >"$b/footprint.out" 2>&1 || :
cat "$b/footprint.out"
cost=$(sed -n 's/.* B of file, \([0-9]*\) B of image.*/\1/p' "$b/footprint.out")
[ -n "$cost" ] && [ "$cost" -gt 0 ] && [ "$cost" -le 20480 ]
ok $? "vrandom costs ${cost:-?} B of the stripped interpreter's image (at most 20 KiB)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
