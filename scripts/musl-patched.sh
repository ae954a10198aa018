#!/bin/sh
# musl with contrib/musl's vDSO getrandom series, on this machine: for
# Debian 12's musl (1.2.3) and the next release's (1.2.5), the series
# applied (each patch alone, with fuzz 0, and by git am), the patched and
# the unpatched musl built (scripts/musl-cross.sh host; 1.2.5 patched with
# libc.so too), and test/musl-patched's programs run against both,
# statically linked, and against 1.2.5's libc.so dynamically (dlopen.c
# with libdraw.so besides): semantics, threads and forks, the pool, the
# hostile environments, the lookup on synthetic images; the strace proof,
# the size cost and the call time, side by side.  The series' files for the
# other vDSO architectures compile with their cross compilers.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
tests=$top/test/musl-patched
out=$VR_BUILD/musl-patched
rm -rf "$out"; mkdir -p "$out"
# Whether this machine's vDSO holds the architecture header's getrandom
# symbol (VRANDOM_SMOKE_NO_VDSO=1 says no).
host_vdso() {
	local sym
	[ "${VRANDOM_SMOKE_NO_VDSO:-0}" != 1 ] || return 1
	sym=$(sed -n 's/^#define VRANDOM_VDSO_SYM "\(.*\)"/\1/p' "$top/src/asm/$(uname -m)/arch.h" 2>/dev/null)
	[ -n "$sym" ] || return 1
	mkdir -p "$VR_BUILD"
	cat >"$VR_BUILD/has_vdso.c" <<-'C'
	#define _GNU_SOURCE
	#include <link.h>
	#include <string.h>
	#include <sys/auxv.h>
	int main(int argc, char **argv)
	{
		const ElfW(Ehdr) *e = (const void *)getauxval(AT_SYSINFO_EHDR);
		return argc < 2 || !e || !memmem(e, e->e_shoff + e->e_shnum * e->e_shentsize,
			argv[1], strlen(argv[1]) + 1);
	}
	C
	cc -o "$VR_BUILD/has_vdso" "$VR_BUILD/has_vdso.c" && "$VR_BUILD/has_vdso" "$sym"
}
# text + data of the smallest getrandom() program, static, -Os, stripped.
musl_image() {  # musl-gcc, output, size tool
	"$1" -static -Os -ffunction-sections -fdata-sections -Wl,--gc-sections -s \
		-o "$2" "$top/test/musl-patched/size.c" &&
		"${3:-size}" "$2" | awk 'NR == 2 { print $1 + $2 }'
}
if host_vdso; then vdso=1; else vdso=0; fi
echo "== kernel $(uname -r) $(uname -m); the vDSO getrandom here: $vdso"
# Without it the patched programs take the system call like the plain
# ones: they pass, and the series' point (the vDSO serves) goes unproved.
[ "$vdso" = 1 ] || missing "no vDSO getrandom here ($(uname -r)): the patched musl's vDSO path is not exercised"

# Synthetic vDSO images with this architecture's symbol and version (a
# wrong version for badver), built as test/local.mk builds them.
fakevdso() {  # kind, hash style, params query result
	local h=$top/src/asm/$(uname -m)/arch.h sym ver
	sym=$(sed -n 's/^#define VRANDOM_VDSO_SYM "\(.*\)"/\1/p' "$h")
	ver=$(sed -n 's/^#define VRANDOM_VDSO_VER "\(.*\)"/\1/p' "$h")
	[ "$1" != badver ] || ver=LINUX_0.1
	printf '%s {\n global: %s;\n local: *;\n};\n' "$ver" "$sym" >"$out/fakevdso-$1.ver"
	cc -shared -nostdlib -fPIC -O2 -fno-stack-protector -fno-asynchronous-unwind-tables \
		-fno-builtin -Wl,--build-id=none -DFAKE_STATE_SIZE=200 -DFAKE_SYM="$sym" \
		-DFAKE_PARAMS_RET="$3" -Wl,--hash-style="$2" -Wl,-T,"$top/test/fakevdso/fakevdso.lds" \
		-Wl,--version-script="$out/fakevdso-$1.ver" -o "$out/fakevdso-$1.so" "$top/test/fakevdso/fakevdso.c"
}
fakevdso gnu gnu 0 && fakevdso sysv sysv 0 && fakevdso badver both 0 && fakevdso enosys both -38
ok $? "the synthetic vDSO images build"

# A program built with a musl, run, its own checks folded in.
prog() {  # musl prefix, name, source, flags...
	local p=$1 n=$2 s=$3; shift 3
	"$p/bin/musl-gcc" "$@" -O2 -Wall -I"$top/test" -I"$top/test/hostile" -o "$w/$n" "$s" \
		>"$w/$n.build" 2>&1 || { cat "$w/$n.build"; ok 1 "$v: $n builds"; return 1; }
}

one() {  # suite (empty: this release's), --shared or nothing
	local tree pp pl p t x lf e
	tree=$(fetch_source musl "$1" 2>"$out/err") ||
		{ missing "no musl source${1:+ of $1}: $(tail -n 1 "$out/err")"; return; }
	v=musl-${tree##*/musl-} w=$out/$v
	mkdir -p "$w"
	for p in $(musl_series "$tree"); do
		(cd "$tree" && patch -p1 --fuzz=0 --dry-run -s <"$p") >/dev/null 2>&1
		ok $? "$v: ${p##*/} applies alone with fuzz 0"
	done
	cp -a "$tree" "$w/am" && (cd "$w/am" && git init -q && git add -A &&
		git -c user.name=vrandom -c user.email=vrandom@invalid commit -q -m "$v" &&
		git -c user.name=vrandom -c user.email=vrandom@invalid am -q $(musl_series "$tree")) \
		>"$w/am.out" 2>&1
	ok $? "$v: git am takes the series"
	rm -rf "$w/am"
	pp=$(sh "$top/scripts/musl-cross.sh" host --patched ${1:+--suite $1} $2 2>"$w/err") &&
		pl=$(sh "$top/scripts/musl-cross.sh" host ${1:+--suite $1} 2>>"$w/err") ||
		{ tail -n 5 "$w/err"; ok 1 "$v: patched and unpatched build"; return; }
	pp=$(echo "$pp" | tail -n 1) pl=$(echo "$pl" | tail -n 1)

	for x in patched plain patched-dyn; do
		p=$pp lf=-static e=$vdso
		case $x in plain) p=$pl e=0 ;; patched-dyn) [ -n "$2" ] || continue; lf= ;; esac
		for t in semantics threads hostile dlopen; do
			[ $t != dlopen ] || [ $x = patched-dyn ] || continue
			prog "$p" "$x-$t" "$tests/$t.c" $lf || continue
			if [ -n "$lf" ]; then file "$w/$x-$t" | grep -q 'statically linked'
			else file -L "$w/$x-$t" | grep -q "interpreter $p/lib/ld-musl"; fi
			ok $? "$v: $x-$t is linked $lf against its own musl"
			[ $t != dlopen ] || "$p/bin/musl-gcc" -shared -fPIC -O2 -o "$w/libdraw.so" "$tests/libdraw.c"
			run "$v: $x-$t" env MUSL_PATCHED_VDSO=$e "$w/$x-$t" $( [ $t != dlopen ] || echo "$w/libdraw.so")
		done
		prog "$p" "$x-loop" "$top/test/musl-loop.c" $lf && prog "$p" "$x-tloop" "$tests/tloop.c" $lf
	done

	# The other vDSO architectures: the patched files compile, the vDSO
	# path in (getrandom.o needs __vdsosym, vdso.o defines it: VDSO_USEFUL),
	# and the series' own files for that architecture.
	seen=" $host_gnu "
	for a in $(arches musl); do
		arch "$a"
		# One a triplet: a second row of it is another kernel, not another build.
		case $seen in *" $a_gnu "*) continue ;; esac
		seen="$seen$a_gnu "
		grep -q '^#define VRANDOM_VDSO_SYM' "$top/src/asm/$a_asm/arch.h" || continue
		command -v "$a_gnu-gcc" >/dev/null || { missing "$v: $a: $a_gnu-gcc is not installed"; continue; }
		x=$w/cross-$a; p=$(echo "${a_musl%%-*}" | sed 's/le$//')
		mkdir -p "$x"
		(cd "$x" && "$pp.src/configure" --target="$a_gnu" CC="$a_gnu-gcc $a_cflags" \
			--disable-shared >configure.out 2>&1 &&
			make obj/src/linux/getrandom.o obj/src/internal/vdso.o obj/src/process/_Fork.o \
				obj/src/thread/pthread_create.o $(cd "$pp.src" && ls src/*/$p/*.[sc] 2>/dev/null |
				sed 's/^/obj\//; s/\.[sc]$/.o/') >make.out 2>&1) &&
			"$a_gnu-nm" "$x/obj/src/linux/getrandom.o" | grep -q ' U __vdsosym$' &&
			"$a_gnu-nm" "$x/obj/src/internal/vdso.o" | grep -q ' T __vdsosym$'
		ok $? "$v: $a: the patched files compile, getrandom with its vDSO path"
	done

	# The lookup against synthetic images: GNU hash only, SysV only, a
	# wrong version, a refusing params query.
	prog "$pp" patched-fake_vdso "$tests/fake_vdso.c" -static &&
		for i in gnu:vdso sysv:vdso badver:syscall enosys:syscall; do
			run "$v: fake_vdso ${i%:*}" "$w/patched-fake_vdso" "$out/fakevdso-${i%:*}.so" "${i#*:}"
		done

	# strace: 100,000 calls, one thread and four: a system call per thread
	# at most, patched, where the kernel has the vDSO getrandom; one a
	# call otherwise (10,000 calls: strace stops at each).
	strace_ok || { missing "$v: strace missing or not allowed"; return; }
	for x in patched plain patched-dyn; do
		[ -x "$w/$x-loop" ] || continue
		for t in loop tloop; do
			th=1; [ $t = loop ] || th=4
			case $x$vdso in
			plain*|patched*0) n=$(count "$w/$x-$t" "$w/$x-$t" 10000)
				[ "$n" -ge 10000 ]; ok $? "$v: $x-$t: $n getrandom system calls for 10000 (at least 10000)" ;;
			*) n=$(count "$w/$x-$t" "$w/$x-$t" 100000)
				[ "$n" -ge 0 ] && [ "$n" -le $th ]; ok $? "$v: $x-$t: $n getrandom system calls for 100000 (at most $th)" ;;
			esac
		done
	done
	# Side by side in one run, printed, not asserted: a shared machine.
	for x in patched plain; do
		t0=$(date +%s%N); "$w/$x-loop" 1000000 >/dev/null; t1=$(date +%s%N)
		echo "$v: call time, 4-byte getrandom(), static, $x: $(((t1 - t0) / 1000000)) ns"
	done
	ip=$(musl_image "$pp/bin/musl-gcc" "$w/size-patched") && iu=$(musl_image "$pl/bin/musl-gcc" "$w/size-plain") &&
		echo "$v: getrandom() in a static -Os program, text+data stripped:" \
			"patched $ip B, unpatched $iu B, the patch costs $((ip - iu)) B"
}

one ""
one trixie --shared
finish
