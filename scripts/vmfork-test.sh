#!/bin/sh
# VM-fork safety (doc/design.md): clones resumed from one snapshot of a
# running machine must not repeat the original's draws.  x86_64 on
# Debian's 6.12 kernel (the vDSO getrandom; test/vm/fork.c reads the vDSO's
# generation where 6.11 to 6.14 keep it), PID 1 running fork: just after a
# reseed of the kernel's own, one draw, then it waits for a line on the
# console.  The host stops the machine, puts the line in the serial port,
# snapshots it (savevm) and lets it go on: the original makes draws 2 to 7
# as it resumes, and so does each of three clones resumed from the
# snapshot (-loadvm).  Twice:
#   with vmgenid   `-device vmgenid,guid=auto`, a new generation ID at
#                  each start: the vDSO's generation moved in each clone
#                  and not in the original, and no clone's draw N equals
#                  the original's draw N, nor another clone's draw
#   without        no generation moved, and every draw of every clone
#                  repeats the original's: the hazard doc/design.md
#                  names, and proof that this comparison sees a repeat
# Usage: vmfork-test.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
m=x86_64 clones=3 draws=6
d=$VR_BUILD/vmfork
vr_src || exit 1
arch "$m" && [ "$a_backend" = vdso ] || { echo "vmfork-test: $m: no vDSO kernel (arch.tab)" >&2; exit 2; }
for c in "$a_system" qemu-img cpio; do
	command -v "$c" >/dev/null || { missing "$m: $c is not installed"; finish; }
done
rm -rf "$d"; mkdir -p "$d/root"
kernel=$(fetch_kernel "$m" 2>"$d/kernel.err") ||
	{ missing "$m: no kernel: $(tail -n 1 "$d/kernel.err")"; finish; }
cross_tree "$m" && build "$b" Makefile && build "$b" libvrandom.la &&
	"$a_gnu-gcc" -static -O2 -Wall -I"$top/include" -o "$d/root/fork" "$top/test/vm/fork.c" \
		"$b/.libs/libvrandom.a" -lpthread ||
	{ ok 1 "$m: fork builds"; finish; }

# start NAME [flags]: the machine in the background ($q) until it powers
# off, 120 s at most.  Its monitor reads $d/NAME.mon.in (fd 3: say) and
# answers in NAME.mon, its console writes NAME.log and reads NAME.in (fd
# 4).  The snapshots' drive is there at every start, unused by the guest:
# a snapshot resumes only on the same machine.
start() {
	local n=$1; shift
	rm -f "$d/$n".*; mkfifo "$d/$n.mon.in" "$d/$n.in" "$d/$n.out"
	exec 3<>"$d/$n.mon.in" 4<>"$d/$n.in"
	cat "$d/$n.out" >"$d/$n.log" &
	timeout -k 5 120 "$a_system" $a_flags -m 256M -nodefaults -display none -no-reboot \
		-kernel "$kernel" -initrd "$d/$mode/initramfs.cpio" \
		-append "console=$a_console rdinit=/init quiet panic=-1" \
		-chardev "pipe,id=con,path=$d/$n" -serial chardev:con -monitor stdio \
		-drive "if=none,id=snap,format=qcow2,file=$d/snap.qcow2" "$@" <&3 >"$d/$n.mon" 2>&1 &
	q=$!
}
say() { printf '%s\n' "$1" >&3; }
halt() { wait $q; r=$?; wait; exec 3>&- 4>&-; }
end() { halt; ok $r "$1 ran to power-off (exit $r)"; }
# The draws of a console log: "N HEX" lines.
drawn() { sed -n 's/^fork: \([0-9][0-9]* [0-9a-f]*\)\r*$/\1/p' "$1"; }
# await SECONDS COMMAND...: until the command succeeds, while the
# machine runs; 1 when it does not within the time.
await() {
	local w=$(($1 * 5)); shift
	until "$@"; do
		[ $w -gt 0 ] && kill -0 $q 2>/dev/null || return 1
		sleep 0.2; w=$((w - 1))
	done
}

for mode in with without; do
	dev=; [ $mode = without ] || dev="-device vmgenid,guid=auto"
	echo fork >"$d/root/tests"
	initramfs "$m" "$d/root" "$d/$mode" || { ok 1 "$m: the initramfs"; break; }
	rm -f "$d/snap.qcow2"
	qemu-img create -q -f qcow2 "$d/snap.qcow2" 16M || { ok 1 "qemu-img create"; break; }
	o=$mode-original
	# A kernel that panics before init boots once more, as in boot().
	for try in 1 2; do
		t0=$(date +%s)
		start $o $dev
		await 100 grep -q '^fork: generation [0-9]* waiting' "$d/$o.log" && break
		halt
		[ $try = 1 ] && grep -q 'Kernel panic' "$d/$o.log" || break
		echo "$mode: $(grep -m 1 'Kernel panic' "$d/$o.log" | tr -d '\r'); booting again"
	done
	if kill -0 $q 2>/dev/null; then
		echo "$mode: booted to the snapshot in $(($(date +%s) - t0)) s"
		say stop; printf 'go\n' >&4; sleep 1
		say "savevm s0"; say "info snapshots"; say cont
		await 60 grep -q ' s0 ' "$d/$o.mon"; ok $? "$mode: savevm ($o.mon)"
		end "$mode: the original"
	else
		ok 1 "$mode: the original waits after its first draw ($o.log)"; continue
	fi
	grep -q '^fork: backend vdso' "$d/$o.log"
	ok $? "$mode: the original draws from the vDSO ($(sed -n 's/^fork: backend //p' "$d/$o.log" | tr -d '\r'))"
	for i in $(seq $clones); do
		start $mode-$i $dev -loadvm s0; end "$mode: clone $i"
	done
	# The generation the kernel gives the vDSO: moved in a clone with the
	# device, its reseed on the notification; nowhere else, no reseed of
	# its own within the half second (fork.c).
	g0=$(sed -n 's/^fork: generation \([0-9]*\) waiting\r*$/\1/p' "$d/$o.log")
	for i in $o $(seq $clones); do
		n=original; [ $i = $o ] || n=clone\ $i i=$mode-$i
		g=$(sed -n 's/^fork: generation \([0-9]*\)\r*$/\1/p' "$d/$i.log")
		if [ $mode = with ] && [ "$n" != original ]; then
			[ -n "$g0" ] && [ -n "$g" ] && [ "$g" != "$g0" ]
			ok $? "$mode: $n: the vDSO's generation moved on resume ($g0 to $g)"
		else
			[ -n "$g0" ] && [ "$g" = "$g0" ]
			ok $? "$mode: $n: the vDSO's generation stayed ($g0 to $g)"
		fi
	done
	for i in $(seq $clones); do
		drawn "$d/$mode-$i.log" | while read -r k x; do
			y=$(drawn "$d/$o.log" | awk -v k="$k" '$1 == k { print $2 }')
			echo "$k $( [ -n "$y" ] && { [ "$x" = "$y" ] && echo same || echo differs; } || echo none)"
		done >"$d/$mode-$i.cmp"
		set -- $(awk '$1 > 1 { c[$2]++; n++ } END { print c["same"] + 0, c["none"] + 0, n + 0 }' "$d/$mode-$i.cmp")
		[ "$2" = 0 ] && [ "$3" = $draws ]
		ok $? "$mode: clone $i made draws 2 to 7, and the original too ($3 draws, $2 not the original's)"
		if [ $mode = with ]; then
			[ "$1" = 0 ]; ok $? "$mode: clone $i: $1 of $3 draws repeat the original's"
		else
			[ "$1" = "$3" ] && [ "$3" -gt 0 ]
			ok $? "$mode: clone $i: $1 of $3 draws repeat the original's (the hazard: no vmgenid)"
		fi
	done
	if [ $mode = with ]; then  # and no two clones alike
		r=$(for i in $(seq $clones); do drawn "$d/$mode-$i.log"; done |
			awk '$1 > 1 { print $2 }' | sort | uniq -d | wc -l)
		[ "$r" = 0 ]; ok $? "$mode: $r draws alike between clones"
	fi
done
finish
