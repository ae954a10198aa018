#!/bin/sh
# The ARM firmware end to end, for each fw machine of scripts/arch.tab:
# musl built for it, vrandom cross-built on that musl
# (scripts/firmware-build.sh: the static vrandom-lua, vrandom, the
# archives, installed), then booted on Debian's kernel for it:
#   - the static musl tests (smoke told the backend the kernel must give,
#     the libc shim, the hostile programs, elf32, the Lua binding linked
#     into a program, the shim's example); smoke's, elf32's and drop's
#     long loops at a tenth, as in vm-test.sh;
#   - vrandom-lua with an empty package.cpath running test/lua's scripts
#     (their loops at a tenth and a hundredth), and each other backend
#     forced and shown to serve (test/vm/lua-backend.lua);
#   - the distribution checks (test/stats.h) whole, never shrunk: smoke's
#     die where the vDSO serves; musl-shim's and the Lua scripts' left out
#     in the machine, each named, and run whole on 32-bit armhf under
#     qemu-user, the machine's own programs (a system call a draw either
#     way, but emulated in user mode alone);
#   - getrandom system calls counted in the machine (test/vm/count.c):
#     100,000 getrandom() through the shim, 100,000 vrandom.random() in
#     vrandom-lua: at most 2 where the vDSO serves; unpatched musl and the
#     forced system call as the comparison;
#   - the footprint (at most 16 KiB for a musl program, 20 KiB for
#     vrandom-lua), and examples/firmware/run.sh, the documented command.
# Usage: firmware-test.sh [arch...]
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
cmp=100    # calls in the counted comparisons: each one stops the machine
progs="test/smoke test/musl-shim test/musl-loop-shim test/musl-loop-plain
	examples/musl-static/keygen test/elf32 test/hostile/closed_fds
	test/hostile/rlimit test/hostile/fake_vdso test/hostile/threads
	test/hostile/drop test/lua/threads"

# The machine's programs and its list.
machine() {  # arch
	local d=$b/machine p s k
	rm -rf "$d"; mkdir -p "$d/lua" "$d/fakevdso"
	for p in $progs; do [ ! -f "$b/$p" ] || cp "$b/$p" "$d/${p##*/}"; done
	mv "$d/threads" "$d/lua-threads"
	cp "$b"/test/fakevdso-*.so "$d/fakevdso/" 2>/dev/null
	cp "$b/_inst/usr/local/bin/vrandom-lua" "$b/_inst/usr/local/bin/vrandom" "$d/"
	cp "$top"/test/lua/*.lua "$top"/test/vm/lua-*.lua "$d/lua/"
	"$prefix/bin/musl-gcc" -static -O2 -Wall -I"$top/test" -o "$d/count" "$top/test/vm/count.c" ||
		return 1
	# At most 2 where the vDSO serves (the first state's seed, a reseed);
	# one a call where the system call does.
	if [ "$a_backend" = vdso ]; then few="0 2" n=100000; else few="$cmp $((cmp + 10))" n=$cmp; fi
	{
		# Where each draw is a system call the die is cross's (qemu-user).
		echo "VRANDOM_SMOKE_EXPECT=$a_backend $tenth $([ "$a_backend" = vdso ] ||
			echo VRANDOM_TEST_STATS_AT=cross) smoke"
		echo "$away musl-shim"
		for p in closed_fds rlimit lua-threads; do echo "$p"; done
		[ "$a_backend" != vdso ] || echo "$tenth drop"
		[ ! -f "$d/fake_vdso" ] || echo "fake_vdso /fakevdso"
		! ls "$d"/fakevdso/fakevdso-32-*.so >/dev/null 2>&1 || echo "$tenth elf32 /fakevdso"
		echo "keygen 1000"
		echo "vrandom info"
		echo "LUA_CPATH= vrandom-lua lua/lua-backend.lua $a_backend"
		# The scripts' loops at a tenth, as the C tests, their
		# distribution checks left out: lua-static runs them whole on the
		# host's static musl, userland() below on armhf (here random.lua
		# alone took 76 s on armhf, whose kernel makes every draw a system
		# call).  The other backends forced, each shown to serve (the
		# statistics of the same mapping are the host's: failure.lua;
		# random.lua on /dev/urandom took 46 s here even at a tenth);
		# where the system call is the default, /dev/urandom.
		for s in strings static; do echo "LUA_CPATH= $tenth vrandom-lua lua/$s.lua"; done
		for s in random generator; do echo "LUA_CPATH= VRANDOM_TEST_SCALE=0.01 $away vrandom-lua lua/$s.lua"; done
		for k in syscall urandom; do
			[ "$k:$a_backend" = syscall:syscall ] ||
				echo "LUA_CPATH= VRANDOM_BACKEND=$k vrandom-lua lua/lua-backend.lua $k"
		done
		echo "count $few musl-loop-shim $n"
		echo "count $cmp $((cmp + 10)) musl-loop-plain $cmp"
		echo "count $few vrandom-lua lua/lua-loop.lua $n"
		echo "VRANDOM_BACKEND=syscall count $cmp $((cmp + 10)) vrandom-lua lua/lua-loop.lua $cmp"
	} >"$d/tests"
}

# The distribution checks the machine leaves out, whole on a 32-bit arch
# under qemu-user: arc4random_uniform and Lua's random and shuffle, the
# machine's own static programs.
away=VRANDOM_TEST_STATS_AT=lua-static,musl-static,firmware:armhf:qemu-user
userland() {  # arch
	local d=$b/machine s
	[ "$1" = armhf ] || return 0
	command -v "$a_user" >/dev/null || { missing "$1: $a_user is not installed"; return; }
	run "$1: musl-shim arc4 under $a_user" "$a_user" "$d/musl-shim" arc4
	for s in random generator; do
		run "$1: vrandom-lua lua/$s.lua under $a_user" env LUA_CPATH= "$a_user" "$d/vrandom-lua" "$d/lua/$s.lua"
	done
}

# What vrandom costs a static musl program and vrandom-lua on this arch.
footprint() {  # arch
	build "$b" footprint && build "$b" footprint-lua; ok $? "$1: make footprint footprint-lua"
	grep -E ' KiB|costs' "$b/make.out" | tail -n 4
	for what in "vrandom_buf()" "getrandom() through the shim"; do
		c=$(grep -F "  $what " "$b/make.out" | tail -n 1 | sed -n 's/.* +\([0-9]*\)  *=.*/\1/p')
		[ -n "$c" ] && [ "$c" -le 16384 ]
		ok $? "$1: $what costs ${c:-?} B of a static musl program's image (at most 16 KiB)"
	done
	c=$(sed -n 's/.* B of file, \([0-9]*\) B of image.*/\1/p' "$b/make.out" | tail -n 1)
	[ -n "$c" ] && [ "$c" -le 20480 ]; ok $? "$1: vrandom costs ${c:-?} B of vrandom-lua's image (at most 20 KiB)"
}

# examples/firmware/run.sh and what its console says: a UUID, a token, a
# six-digit code, 52 distinct cards, the backend the kernel must give.
example() {  # arch
	local e=$b/example.out
	sh "$top/examples/firmware/run.sh" "$1" >"$e" 2>&1; ok $? "$1: examples/firmware/run.sh $1 exits 0"
	grep -Eq '^device id      [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' "$e"
	ok $? "$1: the example prints a version 4 UUID"
	grep -Eq '^session token  [A-Za-z0-9_-]{43}$' "$e"; ok $? "$1: the example prints a 43-character token"
	grep -Eq '^pairing code   [0-9]{6}$' "$e"; ok $? "$1: the example prints a six-digit pairing code"
	n=$(sed -n '/^deck /,/^backend /p' "$e" | sed '$d; s/^deck//' | tr -s ' ' '\n' |
		grep -E '^[A2-9TJQK][SHDC]$' | sort -u | wc -l)
	[ "$n" = 52 ]; ok $? "$1: the example's deck holds 52 distinct cards ($n)"
	grep -q "^backend        $a_backend" "$e"; ok $? "$1: the example's backend is $a_backend"
}

one() {  # arch
	local r=0 f
	arch "$1"
	f=$(sh "$top/scripts/firmware-build.sh" "$1" 2>"$VR_BUILD/fw-$1.err") || r=$?
	set -- "$1" $(echo "$f" | tail -n 1)
	case $r in
	0) ok 0 "$1: configure --host=$4 CC=musl-gcc --enable-static --disable-shared --with-lua-src, make, install" ;;
	77) missing "$1: $(tail -n 1 "$VR_BUILD/fw-$1.err")"; return ;;
	*) tail -n 20 "$VR_BUILD/fw-$1.err"; ok 1 "$1: firmware-build.sh"; return ;;
	esac
	b=$2 prefix=$3
	# The synthetic vDSO and its images where the arch has a vDSO getrandom.
	f=$progs
	grep -q '^#define VRANDOM_VDSO_SYM' "$top/src/asm/$a_asm/arch.h" || f=$(echo $f | sed 's|test/hostile/fake_vdso||')
	ldflags=-Wl,--gc-sections cross_make $f || { ok 1 "$1: the test programs build"; return; }
	case $f in *fake_vdso*) build "$b" test/fakevdso-gnu.so test/fakevdso-sysv.so \
		test/fakevdso-badver.so test/fakevdso-enosys.so ;; esac
	! grep -q '^FAKEVDSO32_CC = .' "$b/Makefile" ||
		build "$b" test/fakevdso-32-gnu.so test/fakevdso-32-sysv.so test/fakevdso-32-badver.so test/fakevdso-32-damaged.so
	for f in bin/vrandom-lua bin/vrandom lib/libvrandom.a lib/libvrandom-libc.a lib/libvrandom-lua.a; do
		[ -f "$b/_inst/usr/local/$f" ]; ok $? "$1: make install puts $f"
	done
	for f in bin/vrandom-lua bin/vrandom; do
		file "$b/_inst/usr/local/$f" | grep -q 'statically linked'; ok $? "$1: $f is static"
	done
	f=$("$prefix/bin/$4-nm" -g --defined-only "$b/_inst/usr/local/lib/libvrandom-lua.a" | awk 'NF == 3 { print $3 }')
	[ "$f" = luaopen_vrandom ]; ok $? "$1: libvrandom-lua.a defines only: $f"
	run "$1: test/musl-symbols.sh" env NM="$prefix/bin/$4-nm" top_builddir="$b" sh "$top/test/musl-symbols.sh"
	footprint "$1"
	machine "$1"; ok $? "$1: the machine's programs build"
	userland "$1"
	boot "$1" "$b/machine" "${VR_VM_TIMEOUT:-1500}" >"$b/boot.out" 2>&1
	case $? in
	0) ok 0 "$1: booted, every program passed" ;;
	77) missing "$(sed -n 's/^SKIP: //p' "$b/boot.out")"; return ;;
	*) cat "$b/boot.out"; ok 1 "$1: booted, every program passed" ;;
	esac
	grep -E '^(count|backend|vdso symbol): ' "$b/machine/console.log" | sed "s/^/  $1: /"
	set -- "$1" $(grep -v '^vm-init: ' "$b/machine/console.log" | tally_of)
	passed=$((passed + $2)) failed=$((failed + $3))
	example "$1"
}

for a in ${*:-$(arches fw)}; do
	arch "$a" && [ -n "$a_musl" ] || { echo "firmware-test: no musl machine $a" >&2; exit 2; }
	one "$a"
done
finish
