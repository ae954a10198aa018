#!/bin/sh
# The test suite under the sanitizers and valgrind:
#   asan      --enable-sanitizers (ASan+UBSan), make check: every suite; the
#             Lua tests run the uninstrumented lua5.4 with the ASan runtime
#             preloaded
#   tsan      --enable-sanitizers=thread: the thread, fork and page-drop
#             tests, the only programs built there
#   valgrind  the unit suite's test programs (build/unit) under valgrind,
#             which hides the vDSO: the system call path, no errors, no leaks
# All three run the tests' long loops at a tenth (VRANDOM_TEST_SCALE): the
# native builds run them whole.  The distribution checks stay whole
# (test/stats.h): ASan's make check runs them all; valgrind smoke's die on
# the system call, not test/dist's 19 million draws (cross runs those
# under qemu-user), nor TSan (no threads there).
# Usage: harden-test.sh [asan] [tsan] [valgrind]  (default: all three)
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
# Everything runs 5 to 50 times slower: give Check's per-test timeout room.
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-10}; export CK_TIMEOUT_MULTIPLIER

asan() {
	local d=$VR_BUILD/asan
	# The Lua module for 5.4 alone: the one make check loads.
	configure "$d" --enable-sanitizers --with-lua=5.4 && build "$d" ||
		{ ok 1 "asan: configure, make"; return; }
	export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $tenth
	# Not these two: ASan reserves its shadow up front (no RLIMIT_AS to
	# test), and refuses to run in a second link namespace; nor $docs.
	check "$d" TESTS="$(tests_but "$d" test/hostile/rlimit test/namespace $docs)" LUA="env LD_PRELOAD=$(cc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
$(command -v lua5.4)"
	ok $? "asan: make check under ASan+UBSan"
	unset ASAN_OPTIONS UBSAN_OPTIONS VRANDOM_TEST_SCALE
}

tsan() {
	local d=$VR_BUILD/tsan p
	configure "$d" --enable-sanitizers=thread --without-lua &&
		build "$d" $tsan_tests || { ok 1 "tsan: configure, make"; return; }
	# Check forks each test; the children draw, they start no threads.
	export TSAN_OPTIONS="die_after_fork=0 halt_on_error=1" $tenth
	for p in $tsan_tests; do
		run "tsan $p" sh -c "cd '$d' && ./$p"
	done
	unset TSAN_OPTIONS VRANDOM_TEST_SCALE
}
# Only these three are built under TSan: they start the threads and forks.
tsan_tests="test/check_rng test/hostile/threads test/hostile/drop"

# The unit suite's programs, no build of its own: valgrind wants no
# instrumented code.  Those linked with the shared library run through
# libtool, which gives them the tree's library rather than an installed one.
# Children that _exit() are checked for leaks too.  Not here: seccomp and
# RLIMIT_AS, which would take from valgrind what it needs itself.
# --fair-sched: threads' drawing threads, spinning in and out of valgrind's
# lock, starved the main thread that had to reap a child.  The timeout is a
# hang guard, not a speed limit (check_rng at 0.1 took 48 s on a loaded machine).
vg() {
	local p vg_tests="test/smoke test/check_rng test/check_vdso test/hostile/closed_fds
		test/hostile/fake_vdso test/hostile/threads test/elf32"
	command -v valgrind >/dev/null || { missing "valgrind is not installed"; return; }
	unit_tree $vg_tests || { ok 1 "valgrind: the programs build"; return; }
	for p in $vg_tests; do
		run "valgrind $p" sh -c "cd '$u' && VRANDOM_SMOKE_NO_VDSO=1 VRANDOM_TEST_NO_VDSO=1 $tenth \
			timeout -k 10 ${VR_VALGRIND_TIMEOUT:-900} ./libtool --mode=execute valgrind -q \
			--fair-sched=yes --error-exitcode=1 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect ./$p"
	done
}

for v in ${*:-asan tsan valgrind}; do
	case $v in
	asan) asan ;; tsan) tsan ;; valgrind) vg ;;
	*) echo "harden-test.sh: no variant $v" >&2; exit 2 ;;
	esac
done
finish
