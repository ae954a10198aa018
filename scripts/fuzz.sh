#!/bin/sh
# Fuzz the vDSO lookup (src/runtime/vdso.c) with libFuzzer, bounded in time:
# FUZZ_SECONDS (default 60) split 3:1 between the native build and one with
# s390x's 64-bit SysV hash entries.  Seeds: the test build's synthetic
# images, ELF64 and ELF32 (and the cross builds' where present), this
# machine's own vDSO, and every one of them cut short at several lengths.
# A crash fails the run and leaves its input in build/fuzz/crash-*.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
out=${VR_BUILD:-$top/build}
b=$out/fuzz
secs=${FUZZ_SECONDS:-60}
CLANG=${CLANG:-clang}

echo "== fuzz: the vDSO lookup, ${secs}s"
if ! command -v "$CLANG" >/dev/null ||
   ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
	"$CLANG" -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null; then
	echo "SKIP: fuzz: $CLANG with -fsanitize=fuzzer (clang, libclang-rt-dev) not installed"
	exit 0
fi
rm -rf "$b"; mkdir -p "$b/seeds" "$b/corpus" "$b/corpus64"

# The synthetic images, built by the test build's own rules.
if ! ls "$out"/glibc/test/fakevdso-*.so >/dev/null 2>&1; then
	mkdir -p "$b/tree"
	(cd "$b/tree" && "$top/configure" -q --disable-shared --without-lua >configure.out 2>&1 &&
		elf32= && { ! grep -q '^FAKEVDSO32_CC = .' Makefile ||
			elf32="test/fakevdso-32-gnu.so test/fakevdso-32-sysv.so test/fakevdso-32-badver.so"; } &&
		make -s test/fakevdso-gnu.so test/fakevdso-sysv.so test/fakevdso-badver.so \
			test/fakevdso-enosys.so $elf32 >make.out 2>&1) ||
		{ cat "$b/tree/configure.out" "$b/tree/make.out" 2>/dev/null; exit 1; }
	imgs=$b/tree/test
else
	imgs=$out/glibc/test
fi
for f in "$imgs"/fakevdso-*.so; do cp "$f" "$b/seeds/"; done
for f in "$out"/cross-*/test/fakevdso-gnu.so "$out"/cross-*/test/fakevdso-sysv.so; do
	[ -f "$f" ] || continue
	a=${f%/test/*}; cp "$f" "$b/seeds/${a##*/cross-}-${f##*/}"
done

# The generic header: the parser needs no arch code, and it builds anywhere.
inc="-I$top/include -I$top/src/asm/generic -I$top/src/runtime"
"$CLANG" -O1 $inc -o "$b/dump_vdso" test/fuzz/dump_vdso.c src/runtime/vdso.c
"$b/dump_vdso" >"$b/seeds/vdso-live" || rm -f "$b/seeds/vdso-live"
for f in "$b"/seeds/*; do
	for n in 16 63 64 120 200 256 400 700 1000 2000; do
		head -c $n "$f" >"$f.cut$n"
	done
done
echo "seeds: $(ls "$b/seeds" | wc -l) files, $(ls "$b/seeds" | grep -c -- '-32-') of them ELF32"
ls "$b"/seeds/*-32-gnu.so >/dev/null 2>&1 ||
	echo "NOTE: fuzz: no ELF32 seeds (configure found no 32-bit cross compiler)"

san="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
"$CLANG" $san $inc -o "$b/fuzz_vdso" test/fuzz/fuzz_vdso.c src/runtime/vdso.c
"$CLANG" $san $inc -DVRANDOM_HASH_ENTRY=uint64_t -o "$b/fuzz_vdso64" \
	test/fuzz/fuzz_vdso.c src/runtime/vdso.c

run() {  # fuzzer, corpus, seconds
	if (cd "$b" && "./$1" -max_total_time="$3" -print_final_stats=1 \
		-artifact_prefix="$b/" "$2" seeds >"$1.log" 2>&1); then
		echo "PASS: $1: $(sed -n 's/^stat::number_of_executed_units: *//p' "$b/$1.log") executions" \
			"in ${3}s, corpus $(ls "$b/$2" | wc -l) inputs, no crash"
	else
		grep -A30 -E '^==[0-9]+==ERROR|runtime error|deadly signal' "$b/$1.log" | head -n 50
		echo "FAIL: $1: see $b/$1.log and $b/crash-*"
		exit 1
	fi
}
run fuzz_vdso corpus $((secs * 3 / 4))
run fuzz_vdso64 corpus64 $((secs - secs * 3 / 4))
