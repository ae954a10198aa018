#!/bin/sh
# contrib/kernel's series, the vDSO getrandom's key put into its state by
# the thread's own stores, proven on a kernel:
#   - each patch applies to the Linux source Debian trixie ships;
#   - x86_64 builds without and with the series (lib.sh's kernel_build:
#     tinyconfig and contrib/kernel/x86_64.config, cached under VR_CACHE);
#   - both boot under qemu -cpu max -smp 2 booted pti=off, where the vm
#     suite's programs pass and `vrandom info` says the vDSO serves;
#   - zerokey -g (contrib/kernel/zerokey.c: glibc 2.41's getrandom() from
#     threads while their states are dropped) counts answers made under a
#     zero key: on the kernel without the series, one run a boot until a
#     run finds some or KP_RUNS runs have found none; then the patched
#     kernel as many runs in one boot, each of KP_ROUNDS answers a thread,
#     and none may find one.
# Where the kernel without the series shows no zero-keyed answer, the
# patched kernel's none proves nothing: the suite is a SKIP that says so
# (a failure under VR_REQUIRE=all), not a pass.  Run only when named: scripts/test-all.sh
# kernel-patch (two kernel builds cold; doc/testing.md).
# KP_ROUNDS: answers a thread a run (5000000: about a minute under TCG);
# KP_RUNS: runs at most (6).
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need gcc cpio patch qemu-system-x86_64
vr_src || exit 1
out=$VR_BUILD/kernel-patch
rounds=${KP_ROUNDS:-5000000} cap=${KP_RUNS:-6}
VR_VM_APPEND=pti=off
export VR_VM_APPEND
rm -rf "$out"; mkdir -p "$out"

tree=$(fetch_source linux trixie 2>"$out/err") || skip "no Linux source: $(tail -n 1 "$out/err")"
series=$(kernel_series)
[ -n "$series" ]; ok $? "contrib/kernel has a series ($(echo $series | wc -w) patch)"
for q in $series; do
	patch -p1 --dry-run --fuzz=0 -s -d "$tree" <"$q" >"$out/patch.out" 2>&1 ||
		cat "$out/patch.out"
	ok $? "${q##*/} applies to Linux ${tree##*/linux-}"
done

for kind in plain patched; do
	t0=$(date +%s)
	k=$(kernel_build $( [ $kind = plain ] || echo --patched) 2>"$out/$kind.err")
	case $? in
	0) ok 0 "$kind kernel builds ($(($(date +%s) - t0)) s): $k" ;;
	77) skip "no Linux source: $(tail -n 1 "$out/$kind.err")" ;;
	*) tail -n 20 "$out/$kind.err"; ok 1 "$kind kernel builds"; finish ;;
	esac
	eval "k_$kind=\$k"
done

# The programs: the vm suite's, static, and zerokey, from a tree of their own.
arch x86_64
b=$out/tree
configure "$b" --host="$a_gnu" --disable-shared --without-lua && cross_make $vm_progs &&
	vm_tests "$out/vm" && zerokey "$out/zk" || { ok 1 "the programs build"; finish; }
cp -R "$out/zk/." "$out/vm/"

# kboot KERNEL NAME: $out/NAME booted; its console's zerokey lines.  Every
# program must pass but zerokey, which exits 1 when it found some.
kboot() {
	local d=$out/$2 r
	VR_VM_KERNEL=$1 boot x86_64 "$d" >"$d.out" 2>&1; r=$?
	[ $r != 77 ] || { missing "$(sed -n 's/^SKIP: //p' "$d.out")"; return 1; }
	grep -q '^vm-init: [0-9]* passed' "$d/console.log" && ! grep -q 'Kernel panic' "$d/console.log" &&
		! grep -E '^vm-init: (FAIL|SKIP): ' "$d/console.log" | grep -v '^vm-init: FAIL: zerokey .*(exit 1,' ||
		{ cat "$d.out" >&2; return 1; }
	set -- $(grep -v '^vm-init: ' "$d/console.log" | tally_of)
	passed=$((passed + $1)) failed=$((failed + $2))
	grep '^zerokey: ' "$d/console.log" || true
}
zk() { sed -n 's/.*: \([0-9]*\) zero-keyed.*/\1/p'; }  # the counts of zerokey lines

# The kernel without the series: its programs, then zerokey run by run.
found=0 runs=0 z=
cp -R "$out/vm" "$out/plain"
kboot "$k_plain" plain >"$out/plain.zk"; ok $? "without the series: booted, the vm suite's programs pass"
backend=$(info_field "$out/plain/console.log" backend)
[ "$backend" = vdso ]; ok $? "without the series: vrandom info: backend '$backend'"
while [ "$runs" -lt "$cap" ]; do
	runs=$((runs + 1))
	d=$out/plain-$runs
	mkdir -p "$d"; cp -R "$out/zk/." "$d/"
	echo "zerokey -g -n $rounds" >"$d/tests"
	kboot "$k_plain" "plain-$runs" >"$d.zk" || { ok 1 "without the series: run $runs booted"; break; }
	n=$(zk <"$d.zk"); z="$z${z:+, }${n:-none}"
	sed "s/^/  without, run $runs: /" "$d.zk"
	[ "${n:-0}" = 0 ] || { found=1; break; }
done

# The patched kernel: its programs and as many runs in one boot.
cp -R "$out/vm" "$out/patched"
for i in $(seq "$runs"); do echo "zerokey -g -n $rounds"; done >>"$out/patched/tests"
kboot "$k_patched" patched >"$out/patched.zk"; ok $? "with the series: booted, the vm suite's programs pass, no zerokey run failed"
backend=$(info_field "$out/patched/console.log" backend)
[ "$backend" = vdso ]; ok $? "with the series: vrandom info: backend '$backend'"
sed "s/^/  with: /" "$out/patched.zk"
zp=$(zk <"$out/patched.zk" | xargs | tr ' ' ,)
n=$(grep -c "^zerokey: .* 4 threads: $((4 * rounds)) answers" "$out/patched.zk")
[ "$n" = "$runs" ]; ok $? "with the series: $n zerokey runs of $((4 * rounds)) answers reported, of $runs"
[ -n "$zp" ] && [ -z "$(echo "$zp" | tr -d '0,')" ]
ok $? "with the series: zero-keyed answers in $runs runs of $((4 * rounds)) answers: ${zp:-none reported}"
why="without the series no zero-keyed answer in $runs runs of $((4 * rounds)) answers: the patched kernel's none proves nothing"
if [ "$found" = 1 ]; then
	ok 0 "without the series: zero-keyed answers in run $runs of $((4 * rounds)) answers (runs: $z)"
elif [ "$failed" = 0 ]; then  # the suite's result is a SKIP, not a pass
	echo "$passed passed, $failed failed, $skipped skipped"; skip "$why"
else
	missing "$why"
fi
finish
