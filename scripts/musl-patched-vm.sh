#!/bin/sh
# contrib/musl's patched musl 1.2.5 on Debian's real kernels, on every
# machine of scripts/arch.tab whose kernel gives the vDSO getrandom, on its
# newest kernel (lib.sh's `arches newest`: the vm suite runs vrandom on the
# older ones; musl asks the vDSO nothing that changed between them): built
# for it (scripts/musl-cross.sh --patched --suite trixie), booted (lib.sh's
# boot), and in the machine:
#   - test/musl-patched/{semantics,threads,hostile}.c, statically linked,
#     told that the vDSO must serve (MUSL_PATCHED_VDSO=1), threads.c's
#     threads and forks at a tenth (musl-patched.sh runs them whole);
#   - getrandom system calls counted (test/vm/count.c): 100,000 calls in
#     one thread and in four, patched, at most one per thread and one more
#     each time the kernel reseeds meanwhile (at most 4 per thread);
# and on the host's own architecture besides, with the host's builds of
# scripts/musl-patched.sh: the same dynamically linked, run by the build's
# libc.so as their loader, dlopen.c with libdraw.so, and the unpatched
# musl as the comparison: every call a system call (1,000 shown).
# Usage: musl-patched-vm.sh [machine...]
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
tests=$top/test/musl-patched
out=$VR_BUILD/musl-patched-vm

one() {  # machine
	local m=$1 d=$out/$1 pp pl= dyn= t
	arch "$m"
	rm -rf "$d"; mkdir -p "$d"
	command -v "$a_gnu-gcc" >/dev/null || { missing "$m: $a_gnu-gcc is not installed"; return; }
	if [ "$a_gnu" = "$host_gnu" ]; then
		pp=$(sh scripts/musl-cross.sh host --patched --suite trixie --shared 2>"$d/err") &&
			pl=$(sh scripts/musl-cross.sh host --suite trixie 2>>"$d/err") && dyn=1
	else
		pp=$(sh scripts/musl-cross.sh "$m" --patched --suite trixie 2>"$d/err")
	fi
	case $? in
	0) pp=$(echo "$pp" | tail -n 1) pl=$(echo "$pl" | tail -n 1) ;;
	77) missing "$m: no musl: $(tail -n 1 "$d/err")"; return ;;
	*) tail -n 5 "$d/err"; ok 1 "$m: musl 1.2.5 builds"; return ;;
	esac
	cc() {  # prefix, output, source, flags...
		local p=$1 o=$2 s=$3; shift 3
		"$p/bin/musl-gcc" "$@" -O2 -Wall -I"$top/test" -I"$top/test/hostile" -o "$d/$o" "$s" \
			>>"$d/build.out" 2>&1 || { cat "$d/build.out"; ok 1 "$m: $o builds"; }
	}
	"$a_gnu-gcc" -static -O2 -Wall -I"$top/test" -o "$d/count" "$top/test/vm/count.c" ||
		ok 1 "$m: count builds"
	{
		for t in semantics threads hostile; do
			cc "$pp" patched-$t "$tests/$t.c" -static
			echo "MUSL_PATCHED_VDSO=1 $tenth patched-$t"
		done
		cc "$pp" patched-loop "$top/test/musl-loop.c" -static
		cc "$pp" patched-tloop "$tests/tloop.c" -static
		echo "count 0 4 patched-loop 100000"
		echo "count 0 16 patched-tloop"
		if [ -n "$pl" ]; then
			cc "$pl" plain-loop "$top/test/musl-loop.c" -static
			echo "count 1000 1010 plain-loop 1000"
		fi
		if [ -n "$dyn" ]; then  # libc.so is musl's dynamic linker
			cp "$pp/lib/libc.so" "$d/libc.so"
			for t in semantics threads hostile dlopen; do
				cc "$pp" dyn-$t "$tests/$t.c"
				echo "MUSL_PATCHED_VDSO=1 $tenth libc.so ./dyn-$t $( [ $t != dlopen ] || echo ./libdraw.so)"
			done
			cc "$pp" libdraw.so "$tests/libdraw.c" -shared -fPIC
			cc "$pp" dyn-loop "$top/test/musl-loop.c"
			echo "count 0 4 libc.so ./dyn-loop 100000"
		fi
	} >"$d/tests"
	boot "$m" "$d" >"$d/boot.out" 2>&1
	case $? in
	0) ok 0 "$m: booted, every program passed" ;;
	77) missing "$(sed -n 's/^SKIP: //p' "$d/boot.out")"; return ;;
	*) cat "$d/boot.out"; ok 1 "$m: booted, every program passed" ;;
	esac
	set -- $(grep -v '^vm-init: ' "$d/console.log" | tally_of)
	passed=$((passed + $1)) failed=$((failed + $2))
	grep -E '^count: |droppable|at once|bare _Fork|states in a|dlopen ' "$d/console.log" | sed "s/^/  $m: /"
}

for m in ${*:-$(arches newest)}; do
	arch "$m" || { echo "musl-patched-vm: no machine $m" >&2; exit 2; }
	one "$m"
done
finish
