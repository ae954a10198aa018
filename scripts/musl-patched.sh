#!/bin/sh
# musl with contrib/musl's vDSO getrandom series: for each musl that
# scripts/apt-source.sh can fetch (Debian 12's 1.2.3, the next release's
# 1.2.5), apply the series (fuzz 0), build the patched and the unpatched
# musl into build/musl-patched/VERSION/, and run the plain getrandom() and
# getentropy() programs of test/musl-patched/ against both, statically
# linked, and for the newest version the patched build also dynamically
# linked against its libc.so (a dlopen()ed library that calls getrandom
# too; the unpatched comparison is static): semantics,
# threads and forks (bare _Fork included), the pool giving pages back,
# the cache line, hostile environments, the strace proof, the size cost,
# the call time.  The other architectures' patched files compile with
# Debian's cross compilers.  One "N passed, N failed" line per version
# (also in build/musl-patched/test/musl-VERSION.log); SKIP with the
# reason when a source cannot be fetched.
# No set -e: each step checks its own status and counts it.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build/musl-patched
tests=$top/test/musl-patched
mkdir -p "$out/test"
status=0
. "$top/scripts/musl-lib.sh"   # musl_source, musl_series, musl_patch, musl_build

# Whether this kernel exports the vDSO getrandom: the first release per
# architecture (a 64-bit ABI only); VRANDOM_SMOKE_NO_VDSO=1 says no.
kernel_vdso() {
	[ "${VRANDOM_SMOKE_NO_VDSO:-0}" != 1 ] || return 1
	case $(uname -m) in
	x86_64) need=611 ;;
	aarch64|loongarch64) need=612 ;;
	riscv64) need=616 ;;
	*) return 1 ;;
	esac
	rel=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
	set -- $rel
	[ $(($1 * 100 + $2)) -ge "$need" ]
}
if kernel_vdso; then vdso=1; else vdso=0; fi

# Synthetic vDSO images, built as vrandom's test/local.mk builds them, with
# this architecture's symbol and version (a wrong version for badver).
arch_h=$top/src/asm/$(uname -m)/arch.h
fakevdso() {  # kind, hash style, params query result
	sym=$(sed -n 's/^#define VRANDOM_VDSO_SYM "\(.*\)"/\1/p' "$arch_h")
	ver=$(sed -n 's/^#define VRANDOM_VDSO_VER "\(.*\)"/\1/p' "$arch_h")
	[ "$1" != badver ] || ver=LINUX_0.1
	printf '%s {\n global: %s;\n local: *;\n};\n' "$ver" "$sym" >"$out/fakevdso-$1.ver"
	${CC:-cc} -shared -nostdlib -fPIC -O2 -fno-stack-protector \
		-fno-asynchronous-unwind-tables -fno-builtin -Wl,--build-id=none \
		-DFAKE_STATE_SIZE=200 -DFAKE_SYM="$sym" -DFAKE_PARAMS_RET="$3" \
		-Wl,--hash-style="$2" -Wl,-T,"$top/test/fakevdso/fakevdso.lds" \
		-Wl,--version-script="$out/fakevdso-$1.ver" \
		-o "$out/fakevdso-$1.so" "$top/test/fakevdso/fakevdso.c"
}
if [ -f "$arch_h" ]; then
	fakevdso gnu gnu 0 && fakevdso sysv sysv 0 && fakevdso badver both 0 &&
		fakevdso enosys both -38 || { echo "musl-patched: cannot build the fake vDSO images"; exit 1; }
fi

# The getrandom row of strace -c, or -1 when the program failed.
syscalls() {  # program
	strace -f -c -e trace=getrandom -o "$1.strace" "$1" >"$1.out" 2>&1 ||
		{ echo -1; return; }
	awk '$NF == "getrandom" { n = $4 } END { print n + 0 }' "$1.strace"
}

# Nanoseconds per call of a loop program, from date +%s%N around it.
calltime() {  # program, calls
	t0=$(date +%s%N) && "$1" "$2" >/dev/null && t1=$(date +%s%N) &&
		echo $(((t1 - t0) / $2))
}
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)

one() {  # suite (empty: this release's), shared: 1 builds libc.so too
	err=$out/fetch-${1:-default}.err
	if ! tree=$(musl_source "$1" 2>"$err"); then
		echo "musl ${1:-(this release)}: SKIP: the source cannot be fetched:" \
			"$(tail -n 1 "$err")"
		return 0
	fi
	ver=${tree##*/musl-}
	w=$out/$ver
	log=$out/test/musl-$ver.log
	passed=0 failed=0
	mkdir -p "$w"
	: >"$log"
	ok() {  # status, what
		if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok: $2" >>"$log"
		else failed=$((failed + 1)); echo "FAIL: $2" | tee -a "$log"; fi
	}

	# The series, on a copy of Debian's tree, leaving out what the release
	# lacks (musl-lib.sh).  The patches touch different files, so each is
	# tried alone on Debian's tree too.
	for p in $(musl_series "$tree"); do
		(cd "$tree" && patch -p1 --fuzz=0 --dry-run -s <"$p") >>"$log" 2>&1
		ok $? "${p##*/} applies to $ver with fuzz 0"
	done
	# As a maintainer takes it: git am of the same patches, in a
	# repository of Debian's tree.
	a=$w/am; rm -rf "$a"; cp -a "$tree" "$a"
	(cd "$a" && git init -q && git add -A &&
		git -c user.name=vrandom -c user.email=vrandom@invalid commit -q -m "musl $ver" &&
		git -c user.name=vrandom -c user.email=vrandom@invalid am -q $(musl_series "$tree")) \
		>>"$log" 2>&1
	ok $? "git am takes the series on $ver"
	rm -rf "$a"
	sum=$(musl_series_sum "$tree")
	musl_patch "$tree" "$w/src" "$log" 2>>"$log" ||
		{ ok 1 "the series applies to $ver"; echo "$passed passed, $failed failed" >>"$log"; status=1; return; }
	echo "== musl $ver: build patched and unpatched (log: ${log#$top/})"
	# The unpatched build is static only: its getrandom is the same
	# system call either way, and a shared build costs as much again.
	shared=; links=static
	[ "$2" = 1 ] && shared=--enable-shared links="static dynamic"
	musl_build "$w/src" "$w/patched" "$sum $shared" $shared 2>>"$log" &&
		musl_build "$tree" "$w/plain" plain 2>>"$log" ||
		{ ok 1 "musl $ver builds"; echo "$passed passed, $failed failed" | tee -a "$log"; status=1; return; }

	for kind in patched plain; do
		cc=$w/$kind/bin/musl-gcc
		e=$vdso; [ $kind = patched ] || e=0
		for link in $links; do
		[ $link = static ] || [ $kind = patched ] || continue
		# static: patched-semantics; dynamic: patched-dyn-semantics
		x=$kind-; lf=-static; [ $link = static ] || { x=$kind-dyn-; lf=; }
		for t in semantics threads hostile tloop dlopen; do
			[ $t != dlopen ] || [ $link = dynamic ] || continue
			bin=$w/$x$t
			"$cc" $lf -O2 -Wall -I"$top/test" -I"$top/test/hostile" \
				-o "$bin" "$tests/$t.c" >>"$log" 2>&1 ||
				{ ok 1 "$x$t builds"; continue; }
			[ $t = tloop ] && continue
			args=
			if [ $link = static ]; then
				file "$bin" | grep -q 'statically linked'
				ok $? "$x$t is statically linked"
			else
				# Its interpreter is this build's libc.so (ld-musl).
				file -L "$bin" | grep -q "interpreter $w/$kind/lib/ld-musl"
				ok $? "$x$t is dynamically linked to this build's ld-musl"
			fi
			if [ $t = dlopen ]; then
				"$cc" -shared -fPIC -O2 -Wall -o "$w/$x"libdraw.so \
					"$tests/libdraw.c" >>"$log" 2>&1 || ok 1 "$x"'libdraw.so builds'
				args=$w/${x}libdraw.so
			fi
			r=0; MUSL_PATCHED_VDSO=$e "$bin" $args >"$bin.out" 2>&1 || r=$?
			sed "s/^/  /" "$bin.out" >>"$log"   # one tally line per version
			# Each program's own tally goes into the version's line.
			set -- $(awk '/^[0-9]+ passed, [0-9]+ failed/ { print $1, $3 }' "$bin.out") 0 0
			passed=$((passed + $1)) failed=$((failed + $2))
			[ "$r" = 0 ] || { failed=$((failed + 1)); echo "FAIL: $x$t exit $r" | tee -a "$log"; }
		done
		"$cc" $lf -O2 -o "$w/${x}loop" "$top/test/musl-loop.c" >>"$log" 2>&1 ||
			ok 1 "$x: musl-loop builds"
		done
	done

	# Other architectures: the patched files compile, the vDSO path in
	# (and on powerpc64 the call stub that turns cr0.so into -errno).
	for a in aarch64 riscv64 powerpc64le s390x; do
		command -v $a-linux-gnu-gcc >/dev/null ||
			{ echo "$a: SKIP: $a-linux-gnu-gcc is not installed" >>"$log"; continue; }
		# musl wants a 64-bit long double on powerpc64.
		xcc=$a-linux-gnu-gcc objs=
		[ $a != powerpc64le ] || xcc="$xcc -mlong-double-64" objs=obj/src/linux/powerpc64/vdso_getrandom.o
		x=$w/cross-$a; rm -rf "$x"; mkdir -p "$x"
		(cd "$x" && "$w/src/configure" --target=$a-linux-gnu CC="$xcc" \
			--disable-shared >configure.out 2>&1 &&
			make obj/src/linux/getrandom.o obj/src/internal/vdso.o \
				obj/src/process/_Fork.o obj/src/thread/pthread_create.o $objs >make.out 2>&1) &&
			$a-linux-gnu-nm "$x/obj/src/linux/getrandom.o" | grep -q ' U __vdsosym$' &&
			$a-linux-gnu-nm "$x/obj/src/internal/vdso.o" | grep -q ' T __vdsosym$'
		ok $? "$a: the patched files compile, getrandom with its vDSO path, the lookup in (VDSO_USEFUL)"
	done

	# The lookup against synthetic images: GNU hash only (0001), SysV
	# hash only, a wrong version node, a refusing params query.
	if [ -f "$arch_h" ]; then
		"$w/patched/bin/musl-gcc" -static -O2 -Wall -I"$top/test" -o "$w/patched-fake_vdso" \
			"$tests/fake_vdso.c" >>"$log" 2>&1 || ok 1 "patched: fake_vdso builds"
		for img in gnu:vdso sysv:vdso badver:syscall enosys:syscall; do
			r=0; "$w/patched-fake_vdso" "$out/fakevdso-${img%:*}.so" "${img#*:}" \
				>"$w/fake.out" 2>&1 || r=$?
			sed "s/^/  /" "$w/fake.out" >>"$log"
			set -- $(awk '/^[0-9]+ passed, [0-9]+ failed/ { print $1, $3 }' "$w/fake.out") 0 0
			passed=$((passed + $1)) failed=$((failed + $2))
			[ "$r" = 0 ] || { failed=$((failed + 1)); echo "FAIL: fake_vdso ${img%:*} exit $r" | tee -a "$log"; }
		done
	fi

	# strace: 100,000 calls, one thread and four; a system call per
	# thread at most when patched (on a kernel with the vDSO getrandom).
	if ! command -v strace >/dev/null || ! strace -o /dev/null true 2>/dev/null; then
		echo "musl $ver: strace proof: SKIP: strace missing or not allowed" | tee -a "$log"
	else
		for link in $links; do
		x=; [ $link = static ] || x=dyn-
		for t in loop tloop; do
			np=$(syscalls "$w/patched-$x$t") nu=$(syscalls "$w/plain-$t")
			threads=1; [ $t = loop ] || threads=4
			echo "strace $link $t: getrandom system calls for 100000 getrandom():" \
				"patched $np, unpatched $nu" | tee -a "$log"
			[ "$nu" -ge 100000 ]
			ok $? "unpatched $t: $nu >= 100000"
			if [ $vdso = 1 ]; then
				[ "$np" -ge 0 ] && [ "$np" -le $threads ]
				ok $? "patched $x$t: $np <= $threads (one per thread)"
			else
				[ "$np" -ge 100000 ]
				ok $? "patched $x$t without the vDSO getrandom: $np >= 100000"
			fi
		done
		done
	fi

	# The call time, 4-byte calls, side by side in one run (printed, not
	# asserted: the machine may be shared).
	n=1000000
	tp=$(calltime "$w/patched-loop" $n) && tu=$(calltime "$w/plain-loop" $n) &&
		echo "call time, $n calls of 4 bytes, static: patched $tp ns, unpatched $tu ns" \
			"per call ($(uname -m), $(uname -r), $cpu)" | tee -a "$log"

	ip=$(musl_image "$w/patched/bin/musl-gcc" "$w/patched-size") &&
	iu=$(musl_image "$w/plain/bin/musl-gcc" "$w/plain-size") &&
	echo "size: getrandom() in a static -Os program, text+data stripped:" \
		"patched $ip B, unpatched $iu B, the patch costs $((ip - iu)) B" | tee -a "$log"

	echo "$passed passed, $failed failed" >>"$log"
	echo "musl $ver: $passed passed, $failed failed"
	[ "$failed" = 0 ] || status=1
}

echo "== musl-patched: kernel $(uname -r) $(uname -m), vDSO getrandom expected: $vdso"
one "" 0
one trixie 1
exit $status
