#!/bin/sh
# vrandom bytes, uuid, token, info, bench: lengths, alphabets, UUID version
# and variant, valid encodings, and no two outputs alike.
. "${top_srcdir:-.}/test/cli-lib.sh"

# length FILE: bytes in FILE
length() { wc -c <"$1" | tr -d ' '; }

# bytes: hex is 2N lowercase digits and a newline, whatever N.
for n in 0 1 2 3 16 49151 49152 49153 100000; do
	expect 0 "$V" bytes $n
	[ "$(length "$tmp/out")" = $((2 * n + 1)) ] || fail "bytes $n: $(length "$tmp/out") characters"
	[ "$n" = 0 ] || echo "$out" | grep -Eqx '[0-9a-f]+' || fail "bytes $n: not lowercase hex"
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "bytes $n: not one line"
	expect 0 "$V" bytes $n --hex
	[ "$(length "$tmp/out")" = $((2 * n + 1)) ] || fail "bytes $n --hex"
	expect 0 "$V" bytes $n --raw
	[ "$(length "$tmp/out")" = $n ] || fail "bytes $n --raw: $(length "$tmp/out") bytes"
	# base64: one line, padded, and decodes to exactly N bytes.
	expect 0 "$V" bytes $n --base64
	[ "$(length "$tmp/out")" = $(((n + 2) / 3 * 4 + 1)) ] || fail "bytes $n --base64: length"
	[ "$n" = 0 ] || echo "$out" | grep -Eqx '[A-Za-z0-9+/]+={0,2}' || fail "bytes $n --base64: alphabet"
	[ "$(base64 -d <"$tmp/out" | wc -c)" = $n ] || fail "bytes $n --base64: does not decode to $n bytes"
done
# 2000 hex digits all but surely use every digit (a miss: 16*(15/16)^2000).
"$V" bytes 1000 | fold -w1 | sort -u | tr -d '\n' >"$tmp/digits"
[ "$(cat "$tmp/digits")" = 0123456789abcdef ] || fail "bytes 1000 uses only: $(cat "$tmp/digits")"
[ "$("$V" bytes 16)" != "$("$V" bytes 16)" ] || fail "bytes 16 twice gave the same"

# uuid: version 4, variant 10, lowercase, one a line, all distinct.
expect 0 "$V" uuid
echo "$out" | grep -Eqx '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}' ||
	fail "uuid: $out"
expect 0 "$V" uuid 0
[ -z "$out" ] || fail "uuid 0 printed something"
expect 0 "$V" uuid 5000
[ "$(echo "$out" | wc -l)" = 5000 ] || fail "uuid 5000: line count"
[ "$(echo "$out" | grep -Ecx '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}')" = 5000 ] ||
	fail "uuid 5000: malformed lines"
[ "$(echo "$out" | sort -u | wc -l)" = 5000 ] || fail "uuid 5000: duplicates"
# The 122 free bits are random: every variant nibble shows up.
[ "$(echo "$out" | cut -c20 | sort -u | tr -d '\n')" = 89ab ] || fail "uuid: variant nibble not uniform"

# token: base64url without padding, ceil(4N/3) characters, 32 bytes by default.
expect 0 "$V" token
echo "$out" | grep -Eqx '[A-Za-z0-9_-]{43}' || fail "token: $out"
for n in 1 2 3 4 16 64 1000; do
	expect 0 "$V" token $n
	[ "$(length "$tmp/out")" = $(((4 * n + 2) / 3 + 1)) ] || fail "token $n: length"
	echo "$out" | grep -Eqx '[A-Za-z0-9_-]+' || fail "token $n: alphabet: $out"
	# Back to standard base64 with its padding: it must decode to N bytes.
	pad=$(printf '%.*s' $(((4 - ${#out} % 4) % 4)) '==')
	[ "$(printf '%s%s\n' "$out" "$pad" | tr '_-' '/+' | base64 -d | wc -c)" = $n ] ||
		fail "token $n: does not decode to $n bytes"
done
for i in 1 2 3 4 5 6 7 8 9 10; do "$V" token 8; done | sort | uniq -d >"$tmp/dups"
[ ! -s "$tmp/dups" ] || fail "token: repeated across runs"

# info: the backend in use, and the kernel release uname reports.
expect 0 "$V" info
echo "$out" | grep -Eq '^backend: +(vdso|syscall|urandom)' || fail "info: no backend line"
echo "$out" | grep -q "^kernel: .* $(uname -r) " || fail "info: no kernel release"
if echo "$out" | grep -q '^backend: *vdso'; then
	echo "$out" | grep -Eq '^vdso symbol: +[_a-z]+getrandom@LINUX_' || fail "info: vdso symbol"
	echo "$out" | grep -Eq '^state size: +[1-9][0-9]* bytes' || fail "info: state size"
	echo "$out" | grep -Eq '^mmap prot: +PROT_READ\|PROT_WRITE$' || fail "info: prot"
	echo "$out" | grep -Eq '^mmap flags: +MAP_DROPPABLE\|MAP_ANONYMOUS$' || fail "info: flags"
	echo "$out" | grep -Eq '^arena: +[1-9][0-9]* pages?, [1-9][0-9]* states, 1 in use, 0 handles on the system call$' ||
		fail "info: arena counters"
	echo "$out" | grep -Eq '^syscall min: +([1-9][0-9]* bytes|never) \(measured here\)$' ||
		fail "info: syscall min"
	expect 0 env VRANDOM_SYSCALL_MIN=4096 "$V" info
	echo "$out" | grep -q '^syscall min: *4096 bytes (VRANDOM_SYSCALL_MIN)$' ||
		fail "info: VRANDOM_SYSCALL_MIN=4096"
	expect 0 env VRANDOM_SYSCALL_MIN=0 "$V" info
	echo "$out" | grep -q '^syscall min: *never (VRANDOM_SYSCALL_MIN)$' ||
		fail "info: VRANDOM_SYSCALL_MIN=0"
fi
# getrandom answering ENOSYS (a seccomp filter): info names what serves.
ng=${top_builddir:-.}/test/lua/nogetrandom
if [ -x "$ng" ]; then
	expect 0 "$ng" --enosys "$V" info
	echo "$out" | grep -q '^backend: *urandom$' || fail "info: not urandom after ENOSYS: $out"
else
	skip_part "info after ENOSYS: no $ng"
fi
expect 0 env VRANDOM_BACKEND=syscall "$V" info
echo "$out" | grep -q '^backend: *syscall (VRANDOM_BACKEND=syscall)$' || fail "info: forced syscall"
echo "$out" | grep -q '^mmap' && fail "info: mmap lines without the vDSO"
[ "$(VRANDOM_BACKEND=syscall "$V" bytes 8 --raw | wc -c)" = 8 ] || fail "bytes under the syscall backend"
expect 0 env VRANDOM_BACKEND=urandom "$V" info
echo "$out" | grep -q '^backend: *urandom (VRANDOM_BACKEND=urandom)$' || fail "info: forced urandom"
expect 0 env VRANDOM_BACKEND=urandom "$V" uuid 100
[ "$(echo "$out" | sort -u | grep -Ecx '[0-9a-f-]{36}')" = 100 ] || fail "uuid 100 under the urandom backend"

# bench --csv: a header and rows of five positive numbers.
expect 0 "$V" bench --quick --csv
echo "$out" | head -n 1 | grep -qx 'size,vrandom_ns,vdso_ns,syscall_ns,urandom_ns' ||
	fail "bench --csv: header"
rows=$(echo "$out" | grep -Ecx '[1-9][0-9]*(,[0-9]+(\.[0-9]+)?){4}')
[ "$rows" -ge 3 ] || fail "bench --csv: $rows data rows"

# bench: the bulk table, stream on 1 thread and on 2 where there are two
# CPUs, /dev/urandom, and openssl rand where it is installed, each row with
# its seconds and MiB/s.
expect 0 "$V" bench --quick
row='+[0-9]+\.[0-9]{3} +[0-9]+ +[0-9]+\.[0-9]{2}x$'
echo "$out" | grep -Eq "^vrandom stream, 1 thread $row" || fail "bench: no stream row"
[ "$(nproc)" -lt 2 ] || echo "$out" | grep -Eq "^vrandom stream, 2 threads $row" ||
	fail "bench: no stream row for 2 threads"
echo "$out" | grep -Eq "^/dev/urandom $row" || fail "bench: no /dev/urandom row"
if command -v openssl >/dev/null 2>&1; then
	echo "$out" | grep -Eq '^openssl rand +[0-9]+\.[0-9]{3} +[0-9]+ +1\.00x$' ||
		fail "bench: no openssl row"
else
	echo "$out" | grep -q '^(openssl not installed' || fail "bench: openssl's absence unsaid"
fi

finish
