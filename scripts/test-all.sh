#!/bin/sh
# Build every variant out of tree and run all its tests:
#   build/glibc  the library, Check suites, Lua tests (make distcheck too)
#   build/musl   static musl: smoke test, libc shim and its strace proof
#   build/lua-static  static Lua 5.1 to 5.4 interpreters, embedding hosts
#                and examples/embed: scripts/lua-static-test.sh
#   build/lua-musl  dynamic musl: Lua 5.1 and 5.4 modules, libvrandom.so:
#                scripts/lua-musl-test.sh
#   build/musl-patched  musl built with contrib/musl: scripts/musl-patched.sh
#   build/musl-patched-vm  the same on booted kernels: scripts/musl-patched-vm.sh
#   build/lua-versions  Lua 5.1 to 5.4 and LuaJIT: scripts/lua-versions-test.sh
#   build/cross-*, asan, tsan, valgrind, fuzz: scripts/cross-test.sh,
#                harden-test.sh, fuzz.sh (each skips tools not installed)
#   build/rock   the rockspec through luarocks, Lua tests: scripts/rock-test.sh
#   build/vm     Debian's kernels for nine machines booted under qemu-system,
#                the cross-built tests run as PID 1's children: scripts/vm-test.sh
#   build/firmware  aarch64 and armhf on musl, booted: scripts/firmware-test.sh
# Prints each suite's summary line at the end.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
# Out-of-tree builds need a source tree that is not configured itself
# (the quick start's demo command configures in the tree).
[ ! -f config.status ] || make -s distclean >/dev/null 2>&1 || rm -f config.status
jobs=$(nproc 2>/dev/null || echo 2)

# Each part's time goes to a list printed at the end.
times=$(mktemp); trap 'rm -f "$times"' EXIT
t0=$(date +%s)
timed() {  # label, command...: runs it and notes how long it took
	label=$1; shift
	start=$(date +%s)
	st=0; "$@" || st=$?
	echo "$label $(($(date +%s) - start)) s" >>"$times"
	return $st
}

# Slow parts two at a time (2 cores), each lane with its own log, shown
# whole once both have ended, so that their output does not interleave:
# the first part in one lane, the others one after another in the second,
# each timed.  Parts side by side must not build into one directory; a
# musl prefix they share is built under its lock (scripts/musl-cross.sh).
both() {  # label, command, label, command [, label, command...]
	logs=$(mktemp -d)
	(timed "$1" sh -c "$2") >"$logs/1" 2>&1 & p1=$!
	l1=$1; shift 2
	(while [ $# -ge 2 ]; do
		timed "$1" sh -c "$2" || { echo "FAIL: $1 (exit $?)"; exit 1; }
		shift 2
	done) >"$logs/2" 2>&1 & p2=$!
	wait $p1 && r1=0 || r1=$?
	wait $p2 && r2=0 || r2=$?
	cat "$logs/1" "$logs/2"; rm -rf "$logs"
	[ $r1 -eq 0 ] || { echo "FAIL: $l1 (exit $r1)"; exit 1; }
	[ $r2 -eq 0 ] || exit 1
}

variant() {  # name, configure arguments...
	name=$1; shift
	rm -rf "build/$name"; mkdir -p "build/$name"
	echo "== $name: configure $*"
	(cd "build/$name" && "$top/configure" -q "$@" >configure.out 2>&1 ||
		{ cat configure.out; exit 1; })
	echo "== $name: make check"
	(cd "build/$name" && make -s -j"$jobs" check >make-check.out 2>&1) ||
		{ cat "build/$name/make-check.out"; find "build/$name" -name '*.log' \
			-path '*test*' -exec tail -n 30 {} +; exit 1; }
	grep -E '^(PASS|SKIP|FAIL|XFAIL|XPASS|ERROR):' "build/$name/make-check.out" || true
}

distcheck() {
	echo "== glibc: make distcheck"
	(cd build/glibc && make -s -j"$jobs" distcheck >distcheck.out 2>&1) ||
		{ tail -n 60 build/glibc/distcheck.out; exit 1; }
}

timed "glibc build and tests:" variant glibc
timed "glibc distcheck:" distcheck

# Static musl (deps.sh installs musl-tools): smoke test, shim, strace proof.
if command -v musl-gcc >/dev/null 2>&1; then
	timed "musl build and tests:" variant musl CC=musl-gcc --enable-static --disable-shared
	echo "== musl: make install"
	(cd build/musl && make -s install DESTDIR="$top/build/musl/_inst" >install.out 2>&1 &&
		cd _inst/usr/local/lib && ls libvrandom.a libvrandom-libc.a libvrandom-lua.a \
			libvrandom-lua5.1.a libvrandom-lua5.2.a libvrandom-lua5.3.a) ||
		{ cat build/musl/install.out; exit 1; }
fi

# Lua in firmware: the static musl interpreters (5.1 to 5.4, two at a
# time) and the embedding hosts, beside the cross builds under qemu-user.
both "static Lua (musl):" "sh scripts/lua-static-test.sh" \
	"cross builds under qemu:" "sh scripts/cross-test.sh"
# musl itself with contrib/musl's vDSO getrandom series (Debian's source),
# beside every Lua: 5.1, 5.2, 5.3, 5.4 and LuaJIT, their archives.
both "patched musl:" "sh scripts/musl-patched.sh" \
	"Lua versions:" "sh scripts/lua-versions-test.sh"
# Hardening: sanitizers and valgrind, beside the vDSO parser's fuzzing.
both "sanitizers and valgrind:" "sh scripts/harden-test.sh" \
	"fuzzing:" "sh scripts/fuzz.sh"
# The rockspec built by luarocks into a private tree, its module tested.
timed "luarocks make and Lua tests:" sh scripts/rock-test.sh
# The modules on dynamic musl (its own sources in build/lua-musl), beside
# Debian's kernels for nine machines: their download (cached under
# build/vm/kernels: none once they are there), then the test programs on
# them under qemu-system, two machines at a time (after the cross builds,
# whose trees it builds on).
both "dynamic musl Lua:" "sh scripts/lua-musl-test.sh" \
	"real kernels, download:" "sh scripts/vm-test.sh --fetch" \
	"real kernels, nine machines under qemu-system:" "sh scripts/vm-test.sh"
# ARM firmware (musl and vrandom for aarch64 and armhf: build/firmware),
# beside the patched musl on the 6.12 kernels whose vDSO serves (x86_64,
# aarch64, ppc64le, s390x: build/musl-patched-vm); both take their musl
# from build/musl-cross, one build of a prefix at a time, and the sources
# the patched musl part fetched.
both "ARM firmware on real kernels:" "sh scripts/firmware-test.sh" \
	"patched musl on real kernels:" "sh scripts/musl-patched-vm.sh"

echo "== summaries"
find build -path '*/_build' -prune -o -name '*.log' -path '*test/*' -print | sort |
while read -r log; do
	lines=$(grep -E '^[0-9]+%: Checks: |^[0-9]+ passed, [0-9]+ failed' "$log") || continue
	echo "-- ${log#build/}"
	echo "$lines"
done

echo "== time taken"
cat "$times"
echo "all: $(($(date +%s) - t0)) s"
