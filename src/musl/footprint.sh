#!/bin/sh
# What a static binary pays for vrandom: one tiny program built -Os, static
# and stripped, calling the libc's getrandom() or vrandom_buf(), bare and
# again with malloc() already linked in (as any real daemon has it: musl's
# malloc is some 8 KiB of what the runtime brings).  The runtime is compiled
# from source with the same flags, as a firmware build would.
# make footprint passes CC, STRIP, SIZE, srcdir, builddir and VR_ARCH.
set -e
: "${CC:=cc}" "${STRIP:=strip}" "${SIZE:=size}" "${srcdir:=.}" "${builddir:=.}" "${VR_ARCH:=generic}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-Os -static -pthread -ffunction-sections -fdata-sections -Wl,--gc-sections"
inc="-I$srcdir/include -I$srcdir/src/asm/$VR_ARCH -I$srcdir/src/runtime -I$builddir"
runtime="$srcdir/src/runtime/*.c"   # expanded where used

cat >"$tmp/p.c" <<'C'
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>
#include <vrandom.h>
int main(int argc, char **argv)
{
	unsigned char b[16], *k = b;

	(void)argv;
#ifdef USE_MALLOC
	if (!(k = malloc(sizeof b + argc)))
		return 1;
#endif
#ifdef USE_VRANDOM
	vrandom_buf(k, sizeof b);
#else
	if (getrandom(k, sizeof b, 0) != sizeof b)
		return 1;
#endif
	argc = write(1, k, sizeof b) != sizeof b;
#ifdef USE_MALLOC
	free(k);        /* without free() musl links a bump allocator */
#endif
	return argc;
}
C
build() {  # name, extra arguments
	n=$1; shift
	$CC $flags $inc -o "$tmp/$n" "$tmp/p.c" "$@"
	$STRIP "$tmp/$n"
	echo "$(wc -c <"$tmp/$n") $($SIZE "$tmp/$n" | awk 'NR == 2 { print $1 + $2 }')"
}
# File sizes move in whole pages (-z separate-code); the image, text plus
# data, is what flash really holds and the figure to go by.
line() {  # label, "file text+data", baseline "file text+data"
	echo "$2 $3" | awk -v l="$1" '{
		printf "  %-31s %6d %6d  %+6d = %+5.1f KiB\n", l, $1, $2, $2 - $4, ($2 - $4) / 1024 }'
}
libc=$(build libc)
vr=$(build vrandom -DUSE_VRANDOM $runtime)
shim=$(build shim "$srcdir/src/musl/getrandom_vdso.c" $runtime)
libc_m=$(build libc-malloc -DUSE_MALLOC)
vr_m=$(build vrandom-malloc -DUSE_MALLOC -DUSE_VRANDOM $runtime)
echo "footprint: $CC $flags, stripped"
printf '  %-31s %6s %6s  %s\n' program file image "cost (image)"
line "getrandom() from libc" "$libc" "$libc"
line "vrandom_buf()" "$vr" "$libc"
line "getrandom() through the shim" "$shim" "$libc"
line "malloc + getrandom() from libc" "$libc_m" "$libc_m"
line "malloc + vrandom_buf()" "$vr_m" "$libc_m"
