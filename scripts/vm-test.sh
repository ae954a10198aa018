#!/bin/sh
# The tests on Debian's own kernels, booted under qemu-system (TCG), for the
# machines of scripts/vm-machines.sh.  In every machine, as PID 1 runs them
# (scripts/vm-boot.sh, test/vm/init.c):
#   smoke            told the backend the kernel must give (VRANDOM_SMOKE_
#                    EXPECT): the vDSO on aarch64, ppc64le, s390x and x86_64
#                    6.12, the system call on the others
#   elf32, hostile/{closed_fds,threads,rlimit,seccomp}  where they build
#   hostile/drop     pages dropped, and under mlockall, on the vDSO machines
#   vrandom info     whose backend and symbol@version are checked here
# The programs are cross-test.sh's, built static in build/cross-*
# (scripts/cross-build.sh).  Two machines boot at a time.  Prints a table of
# what each kernel gave, then `N passed, N failed`.
#
# Usage: vm-test.sh [--fetch] [machine...]
#   --fetch  only fetch (or find cached) the kernels, two at a time, and
#            name them: the download step, timed on its own.
# VR_VM_TIMEOUT: seconds a machine may take to power off (default 900): a
# hang guard, not a speed limit.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. "$top/scripts/vm-machines.sh"
. "$top/scripts/cross-build.sh"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
jobs=$(nproc 2>/dev/null || echo 2)
out=${VR_BUILD:-$top/build}
vm=$out/vm
limit=${VR_VM_TIMEOUT:-900}
fetch_only=
[ "${1:-}" != --fetch ] || { fetch_only=1; shift; }
machines=${*:-$vm_machines}
for m in $machines; do
	vm_machine "$m" || { echo "vm-test: unknown machine $m (known: $vm_machines)" >&2; exit 2; }
done
mkdir -p "$vm"

# lanes FUNCTION MACHINE...: FUNCTION for each machine, on two lanes that
# run at once; each lane takes the next machine not yet taken (mkdir is
# the lock), so that a long boot does not hold the other lane back.
lanes() {
	_fn=$1; shift
	_claims=$vm/claims.$$
	rm -rf "$_claims"; mkdir -p "$_claims"
	for _lane in 1 2; do
		(for _m; do
			mkdir "$_claims/$_m" 2>/dev/null || continue
			"$_fn" "$_m"
		done) &
		eval "_p$_lane=\$!"
	done
	wait "$_p1" || true
	wait "$_p2" || true
	rm -rf "$_claims"
}

fetch() {  # machine: its kernel, or the reason it cannot be had
	if sh scripts/vm-kernel.sh "$1" >"$vm/kernel-$1.out" 2>&1; then
		echo "$(tail -n 1 "$vm/kernel-$1.out")" >"$vm/kernel-$1.path"
	else
		rm -f "$vm/kernel-$1.path"
	fi
}
lanes fetch $machines
for m in $machines; do
	if [ -f "$vm/kernel-$m.path" ]; then
		echo "kernel: $m: $(cat "$(dirname "$(cat "$vm/kernel-$m.path")")/package")"
	else
		echo "SKIP: $m: no kernel: $(grep -v '^ *$' "$vm/kernel-$m.out" | tail -n 1)"
	fi
done
[ -z "$fetch_only" ] || exit 0

# ---- the programs, built static once per architecture ----
progs="test/smoke test/elf32 test/hostile/closed_fds test/hostile/threads
       test/hostile/rlimit test/hostile/seccomp test/hostile/drop src/cli/vrandom"
ready=
status=0
for m in $machines; do
	vm_machine "$m"
	[ -f "$vm/kernel-$m.path" ] || continue
	if ! cross_tree "$vm_cross" "$vm_triplet" "$vm_layer"; then
		[ -n "$cross_skip" ] || { echo "FAIL: $m: configure"; status=1; }
		continue
	fi
	have=$(cross_builds $progs)
	echo "== $m: building $have"
	cross_make $have || { echo "FAIL: $m: build"; status=1; continue; }
	d=$vm/test-$m
	rm -rf "$d"; mkdir -p "$d"
	for p in $have; do
		cp "$b/$p" "$d/"
	done
	{
		echo "VRANDOM_SMOKE_EXPECT=$vm_expect smoke"
		if ls "$b"/test/fakevdso-32-*.so >/dev/null 2>&1; then
			mkdir -p "$d/fakevdso"
			cp "$b"/test/fakevdso-32-*.so "$d/fakevdso/"
			echo "elf32 /fakevdso"
		fi
		for p in closed_fds threads rlimit seccomp; do
			[ ! -f "$d/$p" ] || echo "$p"
		done
		[ "$vm_expect" != vdso ] || echo "drop"
		echo "vrandom info"
	} >"$d/tests"
	ready="$ready $m"
done

# ---- the boots, two at a time ----
boot() {  # machine
	_r=0
	sh scripts/vm-boot.sh "$1" "$vm/test-$1" "$limit" >"$vm/test-$1/boot.out" 2>&1 || _r=$?
	echo "$_r" >"$vm/test-$1/boot.rc"
	echo "== $1: booted, vm-boot.sh exit $_r"
}
# The longest boots first (as measured here).
order=
for m in armhf ppc64le riscv64 s390x i686 aarch64 x86_64-6.1 x86_64 mipsel; do
	case " $ready " in *" $m "*) order="$order $m" ;; esac
done
for m in $ready; do
	case " $order " in *" $m "*) ;; *) order="$order $m" ;; esac
done
[ -z "$order" ] || lanes boot $order

# ---- what each kernel gave, checked against the table ----
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $m: $*"; status=1; }
info() {  # field of `vrandom info`'s output in the console
	tr -d '\r' <"$d/console.log" | sed -n '/^vm-init: run: vrandom info$/,/^vm-init: /p' |
		sed -n "s/^$1: *//p" | head -n 1
}
table="machine|kernel|backend|symbol@version|state size|stride|pages after threads|checks passed|boot to power-off"
for m in $order; do
	vm_machine "$m"
	d=$vm/test-$m
	rc=$(cat "$d/boot.rc" 2>/dev/null) || rc="none (the lane ended early)"
	cat "$d/boot.out" 2>/dev/null || :
	if [ "$rc" = 77 ]; then
		continue
	fi
	[ "$rc" = 0 ] && ok || bad "boot (vm-boot.sh exit $rc)"
	backend=$(info backend)
	symbol=$(info 'vdso symbol')
	[ "$backend" = "$vm_expect" ] && ok ||
		bad "vrandom info: backend '$backend', this kernel gives '$vm_expect'"
	if [ "$vm_expect" = vdso ]; then
		[ "$symbol" = "$vm_symbol" ] && ok ||
			bad "vrandom info: vdso symbol '$symbol', this kernel exports '$vm_symbol'"
		# Both drop cases ran: the vDSO's own pages, and under mlockall.
		grep -q '^PASS: [^:]*: drop$' "$d/boot.out" &&
			grep -q '^pages dropped under mlockall: ok' "$d/console.log" &&
			! grep -q 'mlockall: .*skipped' "$d/console.log" && ok ||
			bad "drop: not run in full (see $d/console.log)"
	else
		symbol=-
	fi
	checks=$(tr -d '\r' <"$d/console.log" |
		awk '/^[0-9]+ passed, [0-9]+ failed$/ { n += $1 } END { print n + 0 }')
	size=$(info 'state size' | sed 's/ bytes//')
	stride=$(info 'state stride' | sed 's/ bytes//')
	pages=$(sed -n 's/^arena after the threads: \([0-9]*\) pages.*/\1/p' "$d/console.log" | head -n 1)
	took=$(sed -n 's/.*powered off after \([0-9]*\) s$/\1 s/p' "$d/boot.out")
	kernel=$(info kernel | awk '{ print $2 }')
	table="$table
$m|${kernel:-?}|${backend:-?}|$symbol|${size:--}|${stride:--}|${pages:--}|$checks|${took:--}"
done
# Also in a log under build/vm/test/, for test-all.sh's summaries.
mkdir -p "$vm/test"
{
echo "== what the kernels gave"
printf '%s\n' "$table" | awk -F'|' '
	{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
	NF > nf { nf = NF }
	END { for (r = 1; r <= NR; r++) { for (i = 1; i <= nf; i++)
		printf "%-*s%s", w[i], c[r, i], i < nf ? "  " : "\n" } }'
echo "$pass passed, $fail failed"
} | tee "$vm/test/vm-test.log"
exit $status
