#!/bin/sh
# Boot MACHINE's Debian kernel (scripts/vm-kernel.sh) under qemu-system into
# an initramfs holding DIR and test/vm/init.c as PID 1, which runs the
# programs DIR/tests lists and powers the machine off.
#
# Usage: vm-boot.sh MACHINE DIR [TIMEOUT_SECONDS]
#   DIR/tests: one program a line, `[VAR=value ...] path/in/DIR [args...]`
#   (blank lines and # comments ignored).  The console goes to
#   DIR/console.log.  Prints each program's result line, init's closing
#   `N passed, N failed` and the boot-to-power-off time.
# Exit 0 when every program exited 0 (or 77, a skip); 1 on a failed
# program, a panic, a timeout (default 300 s: a machine that never powers
# off) or a missing summary; 77 with `SKIP: reason` when the kernel, the
# qemu-system or the cross compiler for init cannot be had.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/vm-machines.sh"
m=${1:-} dir=${2:-} limit=${3:-300}
vm_machine "$m" && [ -d "$dir" ] ||
	{ echo "usage: vm-boot.sh MACHINE DIR [TIMEOUT_SECONDS] (MACHINE: $vm_machines)" >&2; exit 2; }
[ -f "$dir/tests" ] || { echo "vm-boot: $dir/tests is missing" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
out=${VR_BUILD:-$top/build}/vm

skip() { echo "SKIP: $m: $*"; exit 77; }
command -v "$vm_qemu" >/dev/null || skip "$vm_qemu is not installed"
command -v cpio >/dev/null || skip "cpio is not installed"
command -v "$vm_triplet-gcc" >/dev/null || skip "$vm_triplet-gcc is not installed (for init)"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
if ! kernel=$(sh "$here/vm-kernel.sh" "$m" 2>"$err" | tail -n 1) || [ ! -f "$kernel" ]; then
	skip "no kernel: $(tr '\n' ' ' <"$err")"
fi

# PID 1, built static for the machine once (again when init.c changes).
init=$out/init/$vm_triplet/init
if [ ! -x "$init" ] || [ "$top/test/vm/init.c" -nt "$init" ]; then
	mkdir -p "$(dirname "$init")"
	"$vm_triplet-gcc" -static -O2 -Wall -Wextra -o "$init.$$" "$top/test/vm/init.c" ||
		{ rm -f "$init.$$"; echo "FAIL: $m: init does not build"; exit 1; }
	mv "$init.$$" "$init"
fi

# The initramfs: DIR's files, /init, the mount points.
run=$out/run-$m.$$
trap 'rm -f "$err"; rm -rf "$run"' EXIT
rm -rf "$run"; mkdir -p "$run/root"
cp -R "$dir/." "$run/root/"
rm -f "$run/root/console.log"
cp "$init" "$run/root/init"
mkdir -p "$run/root/dev" "$run/root/proc" "$run/root/sys" "$run/root/tmp"
(cd "$run/root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$run/initramfs.cpio"

start=$(date +%s)
rc=0
# -k: qemu that ignores the TERM is killed.
timeout -k 10 "$limit" "$vm_qemu" $vm_flags -m 1G -nodefaults -display none -serial stdio -no-reboot \
	-kernel "$kernel" -initrd "$run/initramfs.cpio" \
	-append "console=$vm_console rdinit=/init quiet panic=-1" \
	</dev/null >"$dir/console.log" 2>&1 || rc=$?
took=$(($(date +%s) - start))

log=$(tr -d '\r' <"$dir/console.log")
printf '%s\n' "$log" | sed -n -E "s/^vm-init: (PASS|SKIP|FAIL): /\1: $m: /p"
summary=$(printf '%s\n' "$log" | sed -n 's/^vm-init: \([0-9]* passed, [0-9]* failed\)/\1/p' | tail -n 1)
why=
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	why="timeout: no power-off within $limit s"
elif printf '%s\n' "$log" | grep -q 'Kernel panic'; then
	why="kernel panic: $(printf '%s\n' "$log" | grep -m 1 'Kernel panic')"
elif [ "$rc" != 0 ]; then
	why="$vm_qemu exited $rc"
elif [ -z "$summary" ]; then
	why="no summary from init"
else
	case $summary in
	*" 0 failed"*) ;;
	*) why="failed programs" ;;
	esac
fi
[ -z "$summary" ] || echo "$summary"
[ "$rc" != 0 ] || echo "$m: powered off after $took s"
if [ -n "$why" ]; then
	printf '%s\n' "$log" | tail -n 40
	echo "FAIL: $m: $why (console: $dir/console.log)"
	exit 1
fi
