#!/bin/sh
# The kernel's window under qemu (contrib/kernel/README.md): Debian
# trixie's x86_64 kernel (scripts/arch.tab's x86_64 row) booted pti=off,
# RUNS times, each running
#   split -m, split -d -m    a split read again once the drop returned
#   zerokey -g, -v, -V       glibc 2.41's getrandom(), vrandom with and
#                            without its check, the same rounds each
# then a table of what each boot printed.  Before the boots, on this
# machine: zerokey -g once under strace (the getrandom system calls
# beside the answers), and the static build's, which shows that a static
# glibc 2.41 program never calls the vDSO.
# zerokey is built against glibc 2.41 from Debian trixie (downloaded once
# into $VR_CACHE) and dynamic, its loader and libc.so.6 in the initramfs:
# static, glibc asks the vDSO for its state size before it has found the
# vDSO.  split is static, with this machine's C library.
# Usage: contrib/kernel/run.sh [RUNS]
# SPLIT_ROUNDS, ZEROKEY_ROUNDS: rounds a thread (200000, 5000000: a boot
# takes about 3 minutes under TCG);
# ZEROKEY_FLAGS: more for each zerokey (-p: MADV_PAGEOUT; -P: threads pinned);
# VR_VM_KERNEL: another image (a kernel built with or without a fix);
# VR_VM_APPEND: the command line's addition (default pti=off).
# Not part of the test command: what it finds is the kernel's.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
runs=${1:-1} sr=${SPLIT_ROUNDS:-200000} zr=${ZEROKEY_ROUNDS:-5000000}
VR_VM_APPEND=${VR_VM_APPEND-pti=off}
export VR_VM_APPEND
need gcc strace qemu-system-x86_64 dpkg-deb file
vr_src || exit 1
w=$VR_BUILD/kernel-window

# glibc 2.41 of Debian trixie (lib.sh: glibc_trixie, zerokey), and the
# runtime for zerokey's -v and -V from a tree of its own.
configure "$w/tree" --without-lua --disable-shared && build "$w/tree" libvrandom-core.la || exit 1
b=$w/tree d=$w/vm
S=$(glibc_trixie) || exit 1
L=$S/usr/lib/x86_64-linux-gnu
rm -rf "$d"
zerokey "$d" && zerokey_cc "$w/zerokey-static" -static &&
	gcc -static -O2 -Wall -pthread -o "$d/split" "$src/contrib/kernel/split.c" || exit 1

# Here: the vDSO serves glibc's getrandom() (system calls: the reseeds
# after the drops), and never the static program's (one a call).
ld="$S/lib64/ld-linux-x86-64.so.2 --library-path $L"
echo "== on this machine: $(uname -r), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), load $(cut -d' ' -f1-3 /proc/loadavg)"
for p in "$ld $d/zerokey" "$w/zerokey-static"; do
	strace -f -c -e trace=getrandom -o "$w/native.strace" $p -g -n 100000 >"$w/native.out" 2>&1
	echo "${p##*/} exited $?: $(cat "$w/native.out")" \
		"[$(awk '$NF == "getrandom" { n = $4 } END { print n + 0 }' "$w/native.strace") getrandom system calls]"
done

{
	echo "split -m -n $sr"
	echo "split -d -m -n $sr"
	for m in g v V; do echo "zerokey -$m ${ZEROKEY_FLAGS:-} -n $zr"; done
} >"$d/tests"
qemu=$(qemu-system-x86_64 --version | head -n 1)
kernel=${VR_VM_KERNEL:-$(fetch_kernel x86_64)} || exit 1
kernel=$(file -bL "$kernel" | sed -n 's/.*, version \([^ ]*\).*/\1/p')
for r in $(seq "$runs"); do
	boot x86_64 "$d" 3000 >"$w/boot.out" 2>&1
	cp "$d/console.log" "$w/console-$r.log"
	arch x86_64
	echo "== boot $r: $kernel (${VR_VM_KERNEL:-Debian's}), $a_flags, $VR_VM_APPEND; $qemu"
	grep -E '^(vm-init: (PASS|FAIL|SKIP)|[0-9]+ rounds|after a split|zerokey)' "$d/console.log"
	grep -E '^(FAIL|SKIP)' "$w/boot.out" | grep -v 'programs failed' || true
done
