#!/bin/sh
# The main library never defines a libc symbol: every global it defines is
# vrandom_* (or the runtime's hidden __vr_*; under ASan also the indicator
# __odr_asan.__vr_* it adds for each global variable).  The shim defines
# all five.
: "${top_builddir:=.}"
libs=$top_builddir/.libs
NM=${NM:-nm}
libc_names='getrandom getentropy arc4random arc4random_buf arc4random_uniform'
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/scripts/lib.sh"
defined() {  # nm arguments...: the global symbols defined
	$NM "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDBRVWi]$/ { print $3 }' | sort -u
}

checked=0
for lib in "$libs/libvrandom.a" "$libs/libvrandom.so"; do
	[ -f "$lib" ] || continue
	checked=$((checked + 1))
	case $lib in *.so) syms=$(defined -D "$lib") ;; *) syms=$(defined "$lib") ;; esac
	[ -n "$syms" ]
	ok $? "$lib defines symbols"
	stray=$(echo "$syms" | grep -v -E '^(vrandom_|__vr_|__odr_asan\.__vr_)')
	[ -z "$stray" ]
	ok $? "$lib defines only vrandom_* and __vr_*${stray:+, not:" $stray"}"
	for s in $libc_names; do
		! echo "$syms" | grep -qx "$s"
		ok $? "$lib does not define $s"
	done
done
[ "$checked" -gt 0 ]
ok $? "found the main library ($checked builds)"

shim=$libs/libvrandom-libc.a
if [ -f "$shim" ]; then
	syms=$(defined "$shim")
	for s in $libc_names; do
		echo "$syms" | grep -qx "$s"
		ok $? "the shim defines $s"
	done
fi
finish
