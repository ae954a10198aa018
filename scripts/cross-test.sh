#!/bin/sh
# Cross build vrandom for each architecture whose Debian cross compiler and
# qemu-user are installed, and run the Check-free tests under qemu:
#   test/smoke             the core semantics (qemu hides the vDSO, so the
#                          raw system calls and the fallbacks)
#   test/hostile/fake_vdso the vDSO call path against synthetic images
#                          (the powerpc CR0.SO stub included; ELF32 images
#                          on 32-bit powerpc), where the arch has a vDSO
#                          getrandom
#   test/elf32             the lookup on ELF32 images (this target's own
#                          on 32-bit targets)
#   test/hostile/{closed_fds,threads}
#                          the hostile tests qemu-user can run (seccomp
#                          filters, address-space limits and page drops
#                          it cannot: qemu does not apply RLIMIT_AS to
#                          the guest)
# loongarch64 has no Debian cross compiler: the host compiler checks the
# runtime's C with its header, nothing more.  Usage: cross-test.sh [arch...]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
jobs=$(nproc 2>/dev/null || echo 2)
out=${VR_BUILD:-$top/build}   # where the cross-<arch> trees go
status=0
. "$top/scripts/cross-build.sh"

# name  triplet  qemu  arch layer (src/asm/<layer>)
targets="aarch64 aarch64-linux-gnu qemu-aarch64 aarch64
riscv64 riscv64-linux-gnu qemu-riscv64 riscv64
powerpc64 powerpc64le-linux-gnu qemu-ppc64le powerpc64
s390x s390x-linux-gnu qemu-s390x s390x
armhf arm-linux-gnueabihf qemu-arm arm
i686 i686-linux-gnu qemu-i386 i386
mipsel mipsel-linux-gnu qemu-mipsel mips
powerpc powerpc-linux-gnu qemu-ppc powerpc"

run() {  # arch, qemu, program: prints the program's summary line
	log=$(cd "$out/cross-$1" && VRANDOM_SMOKE_NO_VDSO=1 "$2" "./$3" 2>&1) && r=0 || r=$?
	line=$(printf "%s\n" "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	case $r in
	0) echo "PASS: $1 $3: $line" ;;
	77) echo "SKIP: $1 $3" ;;
	*) printf "%s\n" "$log" | tail -n 20; echo "FAIL: $1 $3 (exit $r)"; status=1 ;;
	esac
}

cross() {  # name, triplet, qemu, arch layer
	if ! command -v "$3" >/dev/null; then
		echo "SKIP: $1: $3 not installed"
		return
	fi
	cross_tree "$1" "$2" "$4" fresh || { [ -n "$cross_skip" ] || status=1; return; }
	progs=$(cross_builds test/smoke test/elf32 test/hostile/closed_fds test/hostile/threads)
	grep -q '^#define VRANDOM_VDSO_SYM' "src/asm/$4/arch.h" &&
		progs="test/hostile/fake_vdso $progs"
	cross_make $progs || { echo "FAIL: $1: build"; status=1; return; }
	for p in $progs; do
		run "$1" "$3" "$p"
	done
}

# No Debian cross compiler for loongarch64: the host compiler checks the
# runtime's C with the loongarch64 header in place (its asm is not assembled).
loongarch() {
	if command -v loongarch64-linux-gnu-gcc >/dev/null; then
		echo "loongarch64-linux-gnu-gcc found: add it to the targets above"
	fi
	d=$out/cross-loongarch64
	rm -rf "$d"; mkdir -p "$d"; : >"$d/config.h"
	if ${CC:-cc} -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
		-DPACKAGE_VERSION='"0"' -I"$d" -Iinclude -Isrc/asm/loongarch64 \
		-Isrc/runtime src/runtime/*.c; then
		echo "CHECKED: loongarch64: the runtime's C compiles with its header" \
			"(no cross compiler in Debian 12: asm not assembled, nothing run)"
	else
		echo "FAIL: loongarch64: the runtime does not compile with its header"; status=1
	fi
}

while read -r arch triplet qemu layer; do
	[ $# -eq 0 ] || case " $* " in *" $arch "*) ;; *) continue ;; esac
	cross "$arch" "$triplet" "$qemu" "$layer"
done <<EOF
$targets
EOF
case " ${*:-loongarch64} " in *" loongarch64 "*) loongarch ;; esac
exit $status
