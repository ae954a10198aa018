#!/bin/sh
# The test suite under the sanitizers and valgrind, each in its own tree:
#   build/asan      ./configure --enable-sanitizers (ASan+UBSan), make check:
#                   every suite; the Lua tests run the uninstrumented lua5.4
#                   with the ASan runtime preloaded
#   build/tsan      --enable-sanitizers=thread: the thread, fork and page-drop tests
#   build/valgrind  static test programs under valgrind, which hides the
#                   vDSO: the system call path, no errors, no leaks
# Usage: harden-test.sh [asan] [tsan] [valgrind]  (default: all three)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
jobs=$(nproc 2>/dev/null || echo 2)
out=${VR_BUILD:-$top/build}
# Everything runs 5 to 50 times slower: give Check's per-test timeout room.
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-10}; export CK_TIMEOUT_MULTIPLIER

configure() {  # name, configure arguments...
	b=$out/$1; shift
	rm -rf "$b"; mkdir -p "$b"
	(cd "$b" && "$top/configure" -q "$@" >configure.out 2>&1) ||
		{ cat "$b/configure.out"; exit 1; }
}

check() {  # name, make arguments...
	b=$out/$1; shift
	(cd "$b" && make -s -j"$jobs" check "$@" >make-check.out 2>&1) ||
		{ cat "$b/make-check.out"; find "$b" -name '*.log' -path '*test*' \
			-exec tail -n 40 {} +; exit 1; }
	grep -E '^(PASS|SKIP|FAIL|XFAIL|XPASS|ERROR):' "$b/make-check.out" || true
}

asan() {
	echo "== asan: ASan+UBSan, make check"
	configure asan --enable-sanitizers
	libasan=$(${CC:-cc} -print-file-name=libasan.so)
	(export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
	 check asan LUA="env LD_PRELOAD=$libasan ASAN_OPTIONS=detect_leaks=0 $(command -v lua5.4 || echo false)")
}

tsan() {
	echo "== tsan: thread and fork tests"
	configure tsan --enable-sanitizers=thread --without-lua
	# Check forks each test; the children draw, they start no threads.
	(export TSAN_OPTIONS="die_after_fork=0 halt_on_error=1"
	 check tsan TESTS="test/check_rng test/hostile/threads test/hostile/drop")
}

# Children that _exit() are checked for leaks too.  Not here: seccomp and
# RLIMIT_AS would take from valgrind what it needs itself.
# valgrind runs one thread at a time, and its default lock lets a thread
# that spins in and out of it (threads' drawing threads) starve the others:
# the main thread that had to reap a child waited forever.  --fair-sched
# hands the lock round in turn.  The timeout is a hang guard, not a speed
# limit (the slowest program takes about 80 s).
vg_limit=${VR_VALGRIND_TIMEOUT:-900}
valgrind_progs="test/smoke test/check_rng test/check_vdso test/hostile/closed_fds
	test/hostile/fake_vdso test/hostile/threads test/elf32"
vg() {
	echo "== valgrind: memcheck, the system call path"
	command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed"; return; }
	configure valgrind --disable-shared --without-lua
	b=$out/valgrind
	progs=
	for p in $valgrind_progs; do
		grep -q "^$p\$(EXEEXT):" "$b/Makefile" && progs="$progs $p"
	done
	(cd "$b" && make -s -j"$jobs" $progs >make.out 2>&1) || { cat "$b/make.out"; exit 1; }
	fail=0
	for p in $progs; do
		log=$b/$p.valgrind.log
		if (cd "$b" && VRANDOM_SMOKE_NO_VDSO=1 VRANDOM_TEST_NO_VDSO=1 \
			timeout -k 10 "$vg_limit" valgrind -q --fair-sched=yes --error-exitcode=1 \
			--leak-check=full --errors-for-leak-kinds=definite,indirect "./$p" \
			>"$log" 2>&1); then
			echo "PASS: valgrind $p"
		else
			r=$?
			tail -n 40 "$log"
			[ $r -ne 124 ] && [ $r -ne 137 ] || echo "valgrind $p: no end after $vg_limit s"
			echo "FAIL: valgrind $p"; fail=1
		fi
	done
	[ $fail -eq 0 ] || exit 1
}

[ $# -ne 0 ] || set -- asan tsan valgrind
for v; do
	case $v in
	asan) asan ;;
	tsan) tsan ;;
	valgrind) vg ;;
	*) echo "harden-test.sh: unknown variant $v" >&2; exit 2 ;;
	esac
done
