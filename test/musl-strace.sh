#!/bin/sh
# Proof that the shim works: the same plain static program calling
# getrandom() 100000 times makes only the kernel's reseeds as system calls
# when linked ahead of libc with -lvrandom-libc -lvrandom, and one a call
# without it (which shows this test can fail; 10000 of them, as strace
# stops at each).
: "${top_builddir:=.}"
calls=100000 plain_calls=10000
shim=$top_builddir/test/musl-loop-shim
plain=$top_builddir/test/musl-loop-plain
keygen=$top_builddir/examples/musl-static/keygen

if [ "${VRANDOM_SMOKE_NO_VDSO:-0}" = 1 ]; then
	echo "no vDSO here (VRANDOM_SMOKE_NO_VDSO=1): the shim makes system calls"
	exit 77
fi
command -v strace >/dev/null 2>&1 || { echo "strace not found"; exit 77; }
command -v file >/dev/null 2>&1 || { echo "file not found"; exit 77; }

top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/scripts/lib.sh"

for p in "$shim" "$plain" "$keygen"; do
	file "$p" | grep -q 'statically linked'
	ok $? "${p##*/}: $(file -b "$p")"
done

# strace itself may be forbidden (no ptrace in some containers).
strace -o /dev/null true 2>/dev/null || { echo "strace cannot trace here"; exit 77; }
n_shim=$(count "$shim" "$shim" $calls) || n_shim=-1
n_plain=$(count "$plain" "$plain" $plain_calls) || n_plain=-1
echo "getrandom system calls: $n_shim for $calls getrandom() calls with the shim," \
	"$n_plain for $plain_calls without"
[ "$n_shim" -ge 0 ] && [ "$n_shim" -le 16 ]
ok $? "with the shim: $n_shim <= 16"
[ "$n_plain" -ge "$plain_calls" ]
ok $? "without the shim: $n_plain >= $plain_calls"
# The example: 1000 getentropy() calls and a getrandom() through the shim.
n_key=$(count "$keygen" "$keygen" 1000) || n_key=-1
[ "$n_key" -ge 0 ] && [ "$n_key" -le 16 ]
ok $? "examples/musl-static/keygen 1000: $n_key getrandom system calls"
for p in "$shim" "$plain" "$keygen"; do rm -f "$p.strace" "$p.out"; done
finish
