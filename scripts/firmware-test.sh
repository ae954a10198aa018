#!/bin/sh
# ARM firmware end to end, per architecture (default: aarch64 armhf):
#   musl built for it (scripts/musl-cross.sh), vrandom cross-built on that
#   musl (static vrandom-lua, vrandom and the three archives, installed),
#   then booted on Debian's kernel for it (scripts/vm-boot.sh):
#   - the static musl tests the host's musl part runs (smoke told which
#     backend the kernel must give, the libc shim, the hostile programs,
#     elf32, the Lua binding linked into a program, the shim's example);
#   - vrandom-lua with an empty package.cpath running test/lua's scripts,
#     again with each other backend forced (what failure.lua does by
#     spawning, which a machine without a shell cannot);
#   - aarch64: musl 1.2.3 and 1.2.5 patched with contrib/musl, running
#     test/musl-patched/*.c on the kernel's vDSO;
#   - getrandom system calls counted in the machine (test/vm/count.c):
#     100,000 getrandom() through the shim and through the patched musl,
#     100,000 vrandom.random() in vrandom-lua: at most 2 where the vDSO
#     serves; unpatched musl and the forced system call as the comparison;
#   - the footprint, musl program and vrandom-lua (at most 16 and 20 KiB).
# Without a kernel or qemu-system the same programs (counts left out) run
# under qemu-user.  One "N passed, N failed" line per architecture, also in
# build/firmware/test/firmware-ARCH.log; SKIP with the reason where the
# cross compiler or a source cannot be had.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
fw=${VR_BUILD:-$top/build}/firmware
mkdir -p "$fw/test"
. "$top/scripts/vm-machines.sh"
. "$top/scripts/cross-build.sh"   # cross_builds: what the tree's Makefile builds
status=0
cmp=${FIRMWARE_COMPARE:-1000}   # calls in the counted comparisons

# The machine's programs beside what firmware-build.sh builds.
progs="test/smoke test/musl-shim test/musl-loop-shim test/musl-loop-plain
	examples/musl-static/keygen test/elf32 test/hostile/closed_fds
	test/hostile/rlimit test/hostile/fake_vdso test/hostile/threads
	test/hostile/drop test/lua/threads"

# The programs and their list for the machine: expect is the backend the
# kernel must give (vdso or syscall); mode vm adds the counted runs.
fw_dir() {  # arch, expect, mode, prefix
	d=$b/machine
	rm -rf "$d"; mkdir -p "$d/lua" "$d/fakevdso"
	for p in $progs; do
		[ ! -f "$b/$p" ] || cp "$b/$p" "$d/${p##*/}"
	done
	cp "$b"/test/fakevdso-*.so "$d/fakevdso/" 2>/dev/null || :
	cp "$b/_inst/usr/local/bin/vrandom-lua" "$b/_inst/usr/local/bin/vrandom" "$d/"
	cp test/lua/*.lua test/vm/lua-*.lua "$d/lua/"
	"$4/bin/musl-gcc" -static -O2 -Wall -Itest -o "$d/count" test/vm/count.c || return 1
	mv "$d/threads" "$d/hthreads"
	{
		echo "# vrandom on $1's musl, static; the kernel must give $2"
		echo "VRANDOM_SMOKE_EXPECT=$2 smoke"
		for p in musl-shim closed_fds rlimit hthreads drop; do
			echo "$p"
		done
		# The lookup on synthetic images, where this target has them.
		[ ! -f "$d/fake_vdso" ] || ! ls "$d"/fakevdso/fakevdso-gnu.so >/dev/null 2>&1 ||
			echo "fake_vdso /fakevdso"
		[ ! -f "$d/elf32" ] || ! ls "$d"/fakevdso/fakevdso-32-*.so >/dev/null 2>&1 ||
			echo "elf32 /fakevdso"
		echo "keygen 1000"
		echo "vrandom info"
	} >"$d/tests"
	{
		# Lua: the preloaded module, nothing on package.cpath.
		echo "LUA_CPATH= vrandom-lua lua/lua-backend.lua $2"
		for s in random strings generator static; do
			echo "LUA_CPATH= vrandom-lua lua/$s.lua"
		done
		# The other backends, and large requests sent to the system
		# call.  Where the kernel has no vDSO getrandom the system call
		# is the default already and each draw costs an emulated one:
		# /dev/urandom for random.lua only.
		if [ "$2" = vdso ]; then
			for k in syscall urandom; do
				for s in random strings generator; do
					echo "LUA_CPATH= VRANDOM_BACKEND=$k vrandom-lua lua/$s.lua"
				done
			done
			for s in strings generator; do
				echo "LUA_CPATH= VRANDOM_SYSCALL_MIN=256 vrandom-lua lua/$s.lua"
			done
		else
			echo "LUA_CPATH= VRANDOM_BACKEND=urandom vrandom-lua lua/random.lua"
		fi
		echo "lua-threads"
	} >"$d/tests.lua"
	cp "$b/test/lua/threads" "$d/lua-threads"
	[ "$3" = vm ] || { cat "$d/tests.lua" >>"$d/tests"; return 0; }
	# At most 2 where the vDSO serves (the first state's seed and a
	# reseed); one a call where the system call does.  The comparisons
	# stop the machine at each call: $cmp calls, not 100,000.
	# Without the vDSO, the shim and the Lua too make one a call.
	if [ "$2" = vdso ]; then few="0 2" n=100000; else few="$cmp $((cmp + 10))" n=$cmp; fi
	{
		echo "# getrandom system calls, counted in the machine"
		echo "count $few musl-loop-shim $n"
		echo "count $cmp $((cmp + 10)) musl-loop-plain $cmp"
		echo "count $few vrandom-lua lua/lua-loop.lua $n"
		echo "VRANDOM_BACKEND=syscall count $cmp $((cmp + 10)) vrandom-lua lua/lua-loop.lua $cmp"
	} >>"$d/tests"
	cat "$d/tests.lua" >>"$d/tests"
}

# The patched musl (aarch64: its vDSO getrandom), 1.2.3 and 1.2.5, into
# the machine's directory, with the unpatched 1.2.3 as the comparison (the
# machine's own musl: built already).  1.2.5 is the shared build, which
# musl-patched-vm.sh makes for aarch64 too: its libc.a is the same, and
# one build serves both parts.
fw_patched() {  # arch, expect, mode, directory
	for suite in "" trixie; do
		pl= r=0
		pp=$(sh scripts/musl-cross.sh "$1" "$top/build/musl-cross" --patched \
			${suite:+--suite $suite --shared} 2>"$fw/patched.err") || r=$?
		[ $r != 0 ] || [ -n "$suite" ] ||
			pl=$(sh scripts/musl-cross.sh "$1" "$top/build/musl-cross" 2>"$fw/patched.err") ||
			r=$?
		# A source or compiler that cannot be had is a skip; a series
		# that no longer applies, or a build that fails, is a failure.
		if [ $r != 0 ]; then
			[ $r = 77 ] || { cat "$fw/patched.err"; return 1; }
			echo "SKIP: musl ${suite:-(this release)} for $1:" \
				"$(tail -n 1 "$fw/patched.err")"
			continue
		fi
		pp=$(echo "$pp" | tail -n 1) pl=$(echo "$pl" | tail -n 1)
		v=${pp##*-musl-}; v=${v%-shared}; v=${v%-patched}
		e=0; [ "$2" = vdso ] && [ "$3" = vm ] && e=1
		for t in semantics threads hostile tloop; do
			"$pp/bin/musl-gcc" -static -O2 -Wall -I"$top/test" -I"$top/test/hostile" \
				-o "$4/patched-$v-$t" "test/musl-patched/$t.c" || return 1
			[ $t = tloop ] || echo "MUSL_PATCHED_VDSO=$e patched-$v-$t" >>"$4/tests"
		done
		"$pp/bin/musl-gcc" -static -O2 -o "$4/patched-$v-loop" test/musl-loop.c &&
			{ [ -z "$pl" ] ||
			"$pl/bin/musl-gcc" -static -O2 -o "$4/plain-$v-loop" test/musl-loop.c; } ||
			return 1
		echo "patched-$v-loop" >>"$4/tests"
		[ "$3" = vm ] || continue
		# One system call per thread at most: 1 thread, then 4.
		if [ $e = 1 ]; then one="0 1" four="0 4"; else one="100000 100100" four=$one; fi
		{
			echo "count $one patched-$v-loop 100000"
			echo "count $four patched-$v-tloop"
			[ -z "$pl" ] || echo "count $cmp $((cmp + 10)) plain-$v-loop $cmp"
		} >>"$4/tests"
	done
}

# Under qemu-user: each listed program in turn, as init runs them.
fw_user() {  # arch, directory
	case $1 in aarch64) q=qemu-aarch64 ;; armhf) q=qemu-arm ;; *) q=qemu-$1 ;; esac
	command -v $q >/dev/null || { echo "SKIP: $1: neither a kernel nor $q"; return 0; }
	grep -v -e '^#' -e '^$' "$2/tests" | while read -r line; do
		set -- $line
		envs=
		while [ $# -gt 0 ]; do
			case $1 in [A-Za-z_]*=*) envs="$envs $1"; shift ;; *) break ;; esac
		done
		p=$1; shift
		r=0; (cd "$d" && env $envs $q "./$p" "$@") >"$d/user.out" 2>&1 || r=$?
		case $r in
		0) echo "vm-init: PASS: $line" ;;
		77) echo "vm-init: SKIP: $line" ;;
		*) tail -n 15 "$d/user.out"; echo "vm-init: FAIL: $line (exit $r)" ;;
		esac
	done
}

# What vrandom costs a static musl program and vrandom-lua on this arch.
fw_footprint() {  # arch
	make -s -C "$b" footprint >"$b/footprint.out" 2>&1 &&
		make -s -C "$b" footprint-lua >>"$b/footprint.out" 2>&1
	ok $? "$1: make footprint and footprint-lua"
	sed "s/^/  /" "$b/footprint.out"
	for what in "vrandom_buf()" "getrandom() through the shim"; do
		c=$(grep -F "  $what " "$b/footprint.out" | sed -n 's/.* \([+-][0-9]*\)  *=.*/\1/p')
		c=${c#+}
		[ -n "$c" ] && [ "$c" -gt 0 ] && [ "$c" -le 16384 ]
		ok $? "$1: $what costs ${c:-?} B of a static musl program's image (at most 16 KiB)"
	done
	c=$(sed -n 's/.* B of file, \([0-9]*\) B of image.*/\1/p' "$b/footprint.out")
	[ -n "$c" ] && [ "$c" -gt 0 ] && [ "$c" -le 20480 ]
	ok $? "$1: vrandom costs ${c:-?} B of vrandom-lua's image (at most 20 KiB)"
}

one() {  # arch
	log=$fw/test/firmware-$1.log
	passed=0 failed=0
	. "$top/test/tally.sh"
	vm_machine "$1" || { echo "firmware $1: not a machine vm-boot.sh knows"; return 1; }
	r=0; sh scripts/firmware-build.sh "$1" >"$fw/$1.res" 2>"$fw/$1.err" || r=$?
	set -- "$1" $(tail -n 1 "$fw/$1.res")
	if [ $r = 77 ]; then
		echo "SKIP: firmware $1: $(tail -n 1 "$fw/$1.err")" | tee "$log"
		return 0
	fi
	b=${2:-$fw/$1} prefix=${3:-} host=${4:-}
	echo "== firmware $1: vrandom on ${prefix##*/} ($host); log ${log#$top/}"
	fw_run "$1" >"$log" 2>&1
	grep -E '^(FAIL|SKIP|  )' "$log" | grep -v -e '^  ok' -e '^  PASS' || :
	echo "firmware $1: $(tail -n 1 "$log")"
	[ "$failed" = 0 ]
}

# What one() does once the build has run (r its status): the checks, the
# machine, the tally last.  A return here still leaves the tally to one().
fw_run() {  # arch
	# The test programs fully static (libtool's -all-static); the
	# synthetic vDSO and its images only where the arch has a vDSO
	# getrandom (as cross-test.sh).
	want=$progs
	grep -q '^#define VRANDOM_VDSO_SYM' "src/asm/$vm_layer/arch.h" ||
		want=$(echo $progs | tr ' ' '\n' | grep -v fake_vdso)
	[ $r = 0 ] && have=$(cross_builds $want) && (cd "$b" && rm -f $have &&
		make -s -j2 LDFLAGS="-all-static -Wl,--gc-sections" $have >>make.out 2>&1)
	ok $? "$1: configure --host=$host CC=musl-gcc --enable-static --disable-shared --with-lua-src: builds and installs"
	for i in gnu sysv badver enosys 32-gnu 32-sysv 32-badver 32-damaged; do
		case $want:$i in *fake_vdso*:*|*:32-*) ;; *) continue ;; esac
		make -s -C "$b" "test/fakevdso-$i.so" >>"$b/make.out" 2>&1 || :
	done
	[ "$failed" = 0 ] || { tail -n 20 "$fw/$1.err" "$b/make.out"; echo "$passed passed, $failed failed"; return; }
	case $1 in aarch64) m="ARM aarch64" ;; armhf) m="ARM, EABI5" ;; x86_64) m=x86-64 ;; *) m= ;; esac
	for f in bin/vrandom-lua bin/vrandom lib/libvrandom.a lib/libvrandom-libc.a \
		lib/libvrandom-lua.a; do
		[ -f "$b/_inst/usr/local/$f" ]; ok $? "$1: make install puts $f"
	done
	for f in bin/vrandom-lua bin/vrandom; do
		file "$b/_inst/usr/local/$f" | grep "$m" | grep -q 'statically linked'
		ok $? "$1: $f: $(file -b "$b/_inst/usr/local/$f" | cut -d, -f1-2,6)"
	done
	syms=$("$prefix/bin/$host-nm" -g --defined-only "$b/_inst/usr/local/lib/libvrandom-lua.a" |
		awk 'NF == 3 { print $3 }')
	[ "$syms" = luaopen_vrandom ]; ok $? "$1: libvrandom-lua.a defines only: $syms"
	script "$1: test/musl-symbols.sh" env NM="$prefix/bin/$host-nm" top_builddir="$b" \
		sh test/musl-symbols.sh
	fw_footprint "$1"

	mode=vm
	[ -n "${FIRMWARE_USER:-}" ] && mode=user
	fw_dir "$1" "$vm_expect" $mode "$prefix" && { [ "$1" != aarch64 ] ||
		fw_patched "$1" "$vm_expect" $mode "$d"; }
	ok $? "$1: the machine's programs build"
	r=77
	if [ $mode = vm ]; then
		sh scripts/vm-boot.sh "$1" "$d" 1500 >"$b/boot.out" 2>&1 && r=0 || r=$?
		cat "$b/boot.out"
	fi
	if [ "$r" = 77 ]; then
		echo "(no real kernel: the programs under qemu-user, the vDSO hidden, nothing counted)"
		sed -i -E -e 's/VRANDOM_SMOKE_EXPECT=vdso/VRANDOM_SMOKE_EXPECT=syscall/' \
			-e 's/lua-backend.lua vdso/lua-backend.lua syscall/' \
			-e 's/MUSL_PATCHED_VDSO=1/MUSL_PATCHED_VDSO=0/' -e '/(^| )count /d' "$d/tests"
		fw_user "$1" "$d" >"$b/boot.out" 2>&1
		cat "$b/boot.out"
	else
		# Each program's own tally, and what the counter and vrandom
		# info saw of the kernel.
		tr -d '\r' <"$d/console.log" | awk '
			/^vm-init: run: / { p = substr($0, 15); t = "" }
			/^[0-9]+ passed, [0-9]+ failed/ { t = ": " $1 " checks passed, " $3 " failed" }
			/^vm-init: (PASS|FAIL|SKIP): / { printf "  %s %s%s\n", $2, p, t }
			/^count: |^backend: |^vdso symbol: / { print "  " $0 }'
	fi
	n=$(grep -c 'vm-init: PASS:\|^PASS: ' "$b/boot.out")
	nf=$(grep -c 'vm-init: FAIL:\|^FAIL: ' "$b/boot.out")
	passed=$((passed + n)); failed=$((failed + nf))
	[ "$r" = 0 ] || [ "$r" = 77 ] || [ "$nf" -gt 0 ] || ok 1 "$1: the machine ran to its summary"
	[ "$r" = 77 ] || fw_example "$1"
	echo "$passed passed, $failed failed"
}

# examples/firmware/run.sh, the one command the docs show, and what its
# console says: a UUID, a 43-character token, a six-digit code, 52
# distinct cards, the backend the kernel must give.
fw_example() {  # arch
	e=$b/example.out
	sh examples/firmware/run.sh "$1" >"$e" 2>&1
	ok $? "$1: examples/firmware/run.sh $1 boots and the application exits 0"
	grep -Eq '^device id      [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' "$e"
	ok $? "$1: the example prints a version 4 UUID"
	grep -Eq '^session token  [A-Za-z0-9_-]{43}$' "$e"
	ok $? "$1: the example prints a 43-character base64url token"
	grep -Eq '^pairing code   [0-9]{6}$' "$e"
	ok $? "$1: the example prints a six-digit pairing code"
	cards=$(sed -n '/^deck /,/^backend /p' "$e" | sed '$d' | sed 's/^deck//' | tr -s ' ' '\n' |
		grep -E '^[A2-9TJQK][SHDC]$' | sort -u | wc -l)
	[ "$cards" = 52 ]; ok $? "$1: the example's deck holds 52 distinct cards ($cards)"
	grep -q "^backend        $vm_expect" "$e"
	ok $? "$1: the example's backend is $vm_expect: $(sed -n 's/^backend *//p' "$e")"
}

for a in ${*:-aarch64 armhf}; do
	one "$a" || status=1
done
exit $status
