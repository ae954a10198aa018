#!/bin/sh
# vrandom cross-built for each architecture of scripts/arch.tab that has a
# qemu-user, and its Check-free tests run under it (qemu-user maps no
# vDSO: the raw system calls and the fallbacks):
#   test/smoke              the core semantics
#   test/hostile/fake_vdso  the vDSO call path against synthetic images,
#                           where the arch has a vDSO getrandom
#   test/elf32              the lookup on ELF32 images
#   test/hostile/{closed_fds,threads}  (seccomp and address-space limits
#                           qemu-user cannot apply to the guest)
# An arch without a cross compiler in Debian: the host compiler checks the
# runtime's C with its header, nothing more.  The long loops at a tenth
# (VRANDOM_TEST_SCALE), as in vm-test.sh; the distribution checks whole
# (test/stats.h): smoke's die on each arch, and test/dist, the C API's at
# every width, on armhf, a 32-bit target (uniform.h multiplies wide
# bounds in 32-bit halves there), alone: 19 million draws, each a system
# call under qemu-user.  Usage: cross-test.sh [arch...]
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1

one() {  # arch
	local progs p
	arch "$1"
	if [ -z "$a_gnu" ]; then
		mkdir -p "$VR_BUILD/cross/$1"; : >"$VR_BUILD/cross/$1/config.h"
		${CC:-cc} -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
			-DPACKAGE_VERSION='"0"' -I"$VR_BUILD/cross/$1" -I"$top/include" \
			-I"$top/src/asm/$a_asm" -I"$top/src/runtime" -I"$top/test" "$top"/src/runtime/*.c
		ok $? "$1: the runtime's C compiles with src/asm/$a_asm (no cross compiler: nothing run)"
		return
	fi
	command -v "$a_user" >/dev/null || { missing "$1: $a_user is not installed"; return; }
	cross_tree "$1" || return
	progs="test/smoke test/elf32 test/hostile/closed_fds test/hostile/threads"
	case " $dist_arches " in
	*" $1 "*) progs="$progs test/dist" ;;
	*) echo "$1: test/dist left out here, at full power in unit (the host) and on $dist_arches" ;;
	esac
	! grep -q '^#define VRANDOM_VDSO_SYM' "$top/src/asm/$a_asm/arch.h" ||
		progs="test/hostile/fake_vdso $progs"
	cross_make $progs || { ok 1 "$1: the test programs build"; return; }
	for p in $(cross_builds $progs); do
		run "$1 $p" sh -c "cd '$b' && VRANDOM_SMOKE_NO_VDSO=1 $tenth $a_user ./$p"
	done
}

dist_arches=armhf
for a in ${*:-$(arches user) $(arches nocc)}; do
	arch "$a" || { echo "cross-test: no arch $a in scripts/arch.tab" >&2; exit 2; }
	one "$a"
done
finish
