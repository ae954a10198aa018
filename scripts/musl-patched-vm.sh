#!/bin/sh
# contrib/musl's patched musl on Debian's real kernels (scripts/vm-boot.sh),
# where the vDSO getrandom serves: x86_64 (6.12), aarch64, ppc64le and
# s390x (aarch64's unpatched comparison is firmware-test.sh's).
# Per machine, musl 1.2.5 patched (scripts/musl-cross.sh; on x86_64 the
# host's builds of scripts/musl-patched.sh), unpatched as the comparison on
# x86_64 and ppc64le, and in the booted machine:
#   - test/musl-patched/{semantics,threads,hostile}.c, statically linked,
#     told that the vDSO must serve (MUSL_PATCHED_VDSO=1);
#   - x86_64 and aarch64: the same dynamically linked, run by the build's
#     libc.so as their loader, and dlopen.c with libdraw.so;
#   - getrandom system calls counted (test/vm/count.c): 100,000 calls in
#     one thread and in four, unpatched every call (10,000 calls), patched
#     one per thread
#     and one more per thread each time the kernel reseeds meanwhile (every
#     minute, more often just after boot, and a run under TCG takes long):
#     at most 4 per thread; the size cost where both builds are here.
# Prints each machine's programs and checks, and the counts; one
# "N passed, N failed" line per machine (also in
# build/musl-patched-vm/test/musl-vm-MACHINE.log).  A machine whose kernel,
# qemu-system, cross compiler or musl source cannot be had: SKIP.
#
# Usage: musl-patched-vm.sh [machine...]   (default: x86_64 aarch64 ppc64le s390x)
# VR_VM_TIMEOUT: seconds a machine may take to power off (default 900).
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. "$top/scripts/vm-machines.sh"
. "$top/scripts/musl-lib.sh"   # musl_image
out=${VR_BUILD:-$top/build}/musl-patched-vm
tests=$top/test/musl-patched
limit=${VR_VM_TIMEOUT:-900}
mkdir -p "$out/test"
status=0

# The musl of ARCH: the last line musl-cross.sh prints (its prefix), and
# its status (77: the compiler or the source cannot be had).
cross() {  # arch, options...
	a=$1; shift
	_r=0
	_o=$(sh scripts/musl-cross.sh "$a" "$top/build/musl-cross" --suite trixie "$@" \
		2>>"$log") || _r=$?
	printf '%s\n' "$_o" | tail -n 1
	return $_r
}

one() {  # machine
	m=$1
	log=$out/test/musl-vm-$m.log
	: >"$log"
	vm_machine "$m" || { echo "musl-vm: unknown machine $m"; status=1; return; }
	skip() { echo "SKIP: musl-vm $m: $*" | tee -a "$log"; }
	# A musl that cannot be had skips; one that does not build fails.
	nomusl() {  # musl-cross.sh's status, what
		_r=$1; shift
		if [ "$_r" = 77 ]; then
			skip "$*: $(tail -n 1 "$log")"
		else
			echo "FAIL: musl-vm $m: $*: $(tail -n 1 "$log")" | tee -a "$log"
			echo "0 passed, 1 failed" >>"$log"
			status=1
		fi
	}
	command -v "$vm_triplet-gcc" >/dev/null || { skip "$vm_triplet-gcc is not installed"; return; }
	shared=
	case $m in
	x86_64)
		# The host's builds: musl-patched.sh made them, shared included.
		w=$(ls -d "$top"/build/musl-patched/1.2.5* 2>/dev/null | tail -n 1)
		pp=$w/patched pl=$w/plain shared=1
		[ -x "$pp/bin/musl-gcc" ] && [ -x "$pl/bin/musl-gcc" ] && [ -f "$pp/lib/libc.so" ] ||
			{ skip "no musl 1.2.5 builds from scripts/musl-patched.sh"; return; } ;;
	aarch64)
		# The shared build has libc.a too; the unpatched counts are
		# firmware-test.sh's.
		pp=$(cross aarch64 --patched --shared) ||
			{ nomusl $? "no patched musl for aarch64"; return; }
		pl= shared=1 ;;
	ppc64le)
		pp=$(cross powerpc64le --patched) && pl=$(cross powerpc64le) ||
			{ nomusl $? "no musl for powerpc64le"; return; } ;;
	s390x)
		# The unpatched comparison: x86_64's, ppc64le's (and aarch64's in
		# firmware-test.sh); one system call per call everywhere.
		pp=$(cross s390x --patched) ||
			{ nomusl $? "no musl for s390x"; return; }
		pl= ;;
	*)
		skip "no vDSO getrandom in this machine's kernel"; return ;;
	esac

	d=$out/$m
	rm -rf "$d"; mkdir -p "$d"
	"$vm_triplet-gcc" -static -O2 -Wall -Itest -o "$d/count" test/vm/count.c >>"$log" 2>&1 ||
		{ echo "FAIL: musl-vm $m: count does not build" | tee -a "$log"; status=1; return; }
	bad=
	cc() {  # prefix, output, source, flags...
		_p=$1 _o=$2 _s=$3; shift 3
		"$_p/bin/musl-gcc" "$@" -O2 -Wall -I"$top/test" -I"$top/test/hostile" \
			-o "$d/$_o" "$_s" >>"$log" 2>&1 && return 0
		echo "FAIL: musl-vm $m: $_o does not build" | tee -a "$log" >&2
		bad=1
	}
	{
		echo "# $m: musl ${pp##*musl-} on the booted kernel"
		for t in semantics threads hostile; do
			cc "$pp" patched-$t "$tests/$t.c" -static
			echo "MUSL_PATCHED_VDSO=1 patched-$t"
		done
		cc "$pp" patched-loop test/musl-loop.c -static &&
			cc "$pp" patched-tloop "$tests/tloop.c" -static
		echo "count 0 4 patched-loop 100000"
		echo "count 0 16 patched-tloop"
		# Unpatched, every call is a system call: 10,000 show it (each
		# one traced costs the emulated machine dearly).
		if [ -n "$pl" ]; then
			cc "$pl" plain-loop test/musl-loop.c -static
			echo "count 10000 10010 plain-loop 10000"
		fi
		if [ -n "$shared" ]; then
			# libc.so is musl's dynamic linker: it runs the program.
			cp "$pp/lib/libc.so" "$d/libc.so"
			# Debian's aarch64 gcc calls libgcc's outline atomics, whose
			# set-up wants glibc's __getauxval: not in musl's libc.so.
			dynflags=; [ $m = aarch64 ] && dynflags=-mno-outline-atomics
			for t in semantics threads hostile dlopen; do
				cc "$pp" dyn-$t "$tests/$t.c" $dynflags
				extra=; [ $t = dlopen ] && extra=./libdraw.so
				echo "MUSL_PATCHED_VDSO=1 libc.so ./dyn-$t $extra"
			done
			cc "$pp" libdraw.so "$tests/libdraw.c" -shared -fPIC &&
				cc "$pp" dyn-loop test/musl-loop.c &&
				cc "$pp" dyn-tloop "$tests/tloop.c" $dynflags
			echo "count 0 4 libc.so ./dyn-loop 100000"
			echo "count 0 16 libc.so ./dyn-tloop"
		fi
	} >"$d/tests"
	[ -z "$bad" ] || { echo "0 passed, 1 failed" >>"$log"; status=1; return; }
	# The size cost on this architecture (where both builds are here).
	if [ -n "$pl" ]; then
		ip=$(musl_image "$pp/bin/musl-gcc" "$d/size-patched" "$vm_triplet-size") &&
		iu=$(musl_image "$pl/bin/musl-gcc" "$d/size-plain" "$vm_triplet-size") &&
		echo "  $m: size: getrandom() in a static -Os program, text+data stripped:" \
			"patched $ip B, unpatched $iu B, the patch costs $((ip - iu)) B" | tee -a "$log"
	fi

	r=0
	sh scripts/vm-boot.sh "$m" "$d" "$limit" >"$d/boot.out" 2>&1 || r=$?
	cat "$d/boot.out" >>"$log"
	if [ $r = 77 ]; then
		skip "$(sed -n 's/^SKIP: //p' "$d/boot.out" | head -n 1)"
		return
	fi
	# The programs (init's line) and their own checks (each program's).
	con=$(tr -d '\r' <"$d/console.log")
	set -- $(printf '%s\n' "$con" |
		awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { print p + 0, f + 0 }')
	checks="$1 passed, $2 failed"
	progs=$(printf '%s\n' "$con" | sed -n 's/^vm-init: \([0-9]* passed, [0-9]* failed\).*/\1/p' | tail -n 1)
	printf '%s\n' "$con" | grep -E '^count: |droppable|at once|bare _Fork|states in a|dlopen ' |
		sed "s/^/  $m: /" | tee -a "$log"
	grep -E '^(FAIL|PASS): ' "$d/boot.out" | grep -v '^PASS' || true
	set -- ${progs:-0 passed, 0 failed}
	pp_=$1 pf=$3
	# A panic, a timeout, no summary: a failure however many passed.
	[ $r = 0 ] || [ "$pf" != 0 ] || pf=1
	set -- $checks
	echo "musl-vm $m ($(cat "$(dirname "$(sh scripts/vm-kernel.sh "$m" 2>/dev/null | tail -n 1)")/package" 2>/dev/null)):" \
		"programs $pp_ passed, $pf failed; checks in them $1 passed, $3 failed"
	echo "$((pp_ + $1)) passed, $((pf + $3)) failed" >>"$log"
	[ "$pf" = 0 ] && [ "$3" = 0 ] || status=1
}

for m in ${*:-x86_64 aarch64 ppc64le s390x}; do
	one "$m"
done
exit $status
