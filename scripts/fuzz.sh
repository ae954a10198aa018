#!/bin/sh
# Fuzz the vDSO lookup (src/runtime/vdso.c) with libFuzzer, bounded in time:
# FUZZ_SECONDS (default 60) split 3:1 between the native build and one with
# 64-bit SysV hash entries (as one architecture's vDSO has).  Seeds: the test build's synthetic
# images, ELF64 and ELF32 (and the cross builds' where present), this
# machine's own vDSO, and every one of them cut short at several lengths.
# A crash fails the run and leaves its input in build/fuzz/crash-*.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src && cd "$top" || exit 1
out=$VR_BUILD
b=$out/fuzz
secs=${FUZZ_SECONDS:-60}
CLANG=${CLANG:-clang}
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
	"$CLANG" -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null ||
	skip "$CLANG with -fsanitize=fuzzer (clang, libclang-rt-14-dev) is not installed"
echo "== fuzz: the vDSO lookup, ${secs}s"
rm -rf "$b"; mkdir -p "$b/seeds" "$b/corpus" "$b/corpus64"

# The synthetic images, built by the test build's own rules.
imgs=$out/unit/test
if ! ls "$imgs"/fakevdso-*.so >/dev/null 2>&1; then
	configure "$b/tree" --disable-shared --without-lua && build "$b/tree" test/fakevdso-gnu.so \
		test/fakevdso-sysv.so test/fakevdso-badver.so test/fakevdso-enosys.so $(
		! grep -q '^FAKEVDSO32_CC = .' "$b/tree/Makefile" || echo test/fakevdso-32-gnu.so \
			test/fakevdso-32-sysv.so test/fakevdso-32-badver.so) || { ok 1 "the seeds build"; finish; }
	imgs=$b/tree/test
fi
for f in "$imgs"/fakevdso-*.so; do cp "$f" "$b/seeds/"; done
for f in "$out"/cross/*/test/fakevdso-gnu.so "$out"/cross/*/test/fakevdso-sysv.so; do
	[ -f "$f" ] || continue
	a=${f%/test/*}; cp "$f" "$b/seeds/${a##*/}-${f##*/}"
done

# The generic header: the parser needs no arch code, and it builds anywhere.
# The runtime's files include config.h first, for _GNU_SOURCE.
echo '#define _GNU_SOURCE 1' >"$b/config.h"
inc="-I$b -I$top/include -I$top/src/asm/generic -I$top/src/runtime"
"$CLANG" -O1 $inc -o "$b/dump_vdso" test/fuzz/dump_vdso.c src/runtime/vdso.c ||
	{ ok 1 "dump_vdso builds"; finish; }
"$b/dump_vdso" >"$b/seeds/vdso-live" || rm -f "$b/seeds/vdso-live"
for f in "$b"/seeds/*; do
	for n in 16 63 64 120 200 256 400 700 1000 2000; do
		head -c $n "$f" >"$f.cut$n"
	done
done
echo "seeds: $(ls "$b/seeds" | wc -l) files, $(ls "$b/seeds" | grep -c -- '-32-') of them ELF32"
ls "$b"/seeds/*-32-gnu.so >/dev/null 2>&1 ||
	missing "no ELF32 seeds (configure found no 32-bit cross compiler)"

san="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
"$CLANG" $san $inc -o "$b/fuzz_vdso" test/fuzz/fuzz_vdso.c src/runtime/vdso.c &&
	"$CLANG" $san $inc -DVRANDOM_HASH_ENTRY=uint64_t -o "$b/fuzz_vdso64" \
	test/fuzz/fuzz_vdso.c src/runtime/vdso.c || { ok 1 "the fuzzers build"; finish; }

# A run that ended at once (a bad option, an empty seed set) exits 0 too:
# libFuzzer's final stats must show executions, and inputs in the corpus.
fuzz() {  # fuzzer, corpus, seconds
	local n
	if (cd "$b" && "./$1" -max_total_time="$3" -print_final_stats=1 \
		-artifact_prefix="$b/" "$2" seeds >"$1.log" 2>&1); then
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$b/$1.log" | tail -n 1)
		[ "${n:-0}" -gt 0 ] && [ -n "$(ls "$b/$2")" ]
		ok $? "$1: ${n:-no} executions in ${3}s, corpus $(ls "$b/$2" | wc -l) inputs, no crash"
	else
		grep -A30 -E '^==[0-9]+==ERROR|runtime error|deadly signal' "$b/$1.log" | head -n 50
		ok 1 "$1: see $b/$1.log and $b/crash-*"
	fi
}
fuzz fuzz_vdso corpus $((secs * 3 / 4))
fuzz fuzz_vdso64 corpus64 $((secs - secs * 3 / 4))
finish
