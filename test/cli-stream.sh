#!/bin/sh
# vrandom stream, and how every command ends: a reader that closes the pipe
# early is a normal end (status 0), a failed write is status 1, raw bytes
# to a terminal are refused with status 2.
. "${top_srcdir:-.}/test/cli-lib.sh"

# piped CMD...: run CMD into `head -c 100`; sets $status to CMD's status,
# which a plain pipeline would lose, and $count to what head passed on.
piped() {
	count=$({ $limit "$@" 2>"$tmp/err"; echo $? >"$tmp/status"; } | head -c 100 | wc -c)
	status=$(cat "$tmp/status")
	[ "$status" = 0 ] || fail "$* | head -c 100: status $status"
	[ ! -s "$tmp/err" ] || fail "$* | head -c 100: stderr: $(cat "$tmp/err")"
	[ "$count" = 100 ] || fail "$* | head -c 100: $count bytes"
}
piped "$V" stream
piped "$V" stream 10M
piped "$V" bytes 1M --raw
piped "$V" bytes 1M
piped "$V" uuid 100000
piped "$V" token 1M
piped "$V" stream --threads 4
piped "$V" bytes 10M --raw --threads 3

# stream N writes exactly N bytes, across the chunk boundaries too.
for n in 0 1 49151 49152 49153 1000000; do
	expect 0 "$V" stream $n
	[ "$(wc -c <"$tmp/out")" = $n ] || fail "stream $n: $(wc -c <"$tmp/out") bytes"
done
# On several threads (blocks of 192 KiB, dealt round-robin): exactly N
# bytes or characters, across the block boundaries, every block a
# different one (a slot written twice or skipped would show).
blk=196608
for t in 1 2 3; do
	for n in 1 $((blk - 1)) $blk $((blk + 1)) $((5 * blk + 7)); do
		expect 0 $limit "$V" stream $n --threads $t
		[ "$(wc -c <"$tmp/out")" = $n ] || fail "stream $n --threads $t: $(wc -c <"$tmp/out") bytes"
		expect 0 $limit "$V" bytes $n --threads $t
		[ "$(wc -c <"$tmp/out")" = $((2 * n + 1)) ] || fail "bytes $n --threads $t: $(wc -c <"$tmp/out") characters"
		grep -Eq '^[0-9a-f]+$' "$tmp/out" || fail "bytes $n --threads $t: not hex"
		$limit "$V" bytes $n --base64 --threads $t | base64 -d >"$tmp/dec" || fail "bytes $n --base64 --threads $t: not base64"
		[ "$(wc -c <"$tmp/dec")" = $n ] || fail "bytes $n --base64 --threads $t: $(wc -c <"$tmp/dec") bytes decoded"
	done
done
$limit "$V" stream $((16 * blk)) --threads 3 >"$tmp/big" || fail "stream --threads 3: status $?"
(cd "$tmp" && split -b $blk big blk. && cksum blk.* | cut -d' ' -f1,2 | sort | uniq -d) >"$tmp/dup"
[ -s "$tmp/dup" ] && fail "stream --threads 3: a block written twice"
[ "$(ls "$tmp" | grep -c '^blk\.')" = 16 ] || fail "stream --threads 3: not 16 blocks"
for t in 0 257 x 2x ""; do
	expect 2 "$V" stream --threads "$t"
	grep -q -- "--threads takes a number from 1 to 256" "$tmp/err" || fail "--threads '$t': $err"
done

"$V" stream 64 >"$tmp/a"
"$V" stream 64 >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && fail "stream 64 twice gave the same bytes"

# A full disk is an error, and says so.
if [ -w /dev/full ]; then
	for c in "stream" "stream 10" "bytes 16" "bytes 16 --raw" "uuid" "token" \
		 "stream --threads 3" "bytes 2M --threads 2" \
		 "info" "--help" "--version" "bytes --help" "bench --quick --csv"; do
		$limit "$V" $c >/dev/full 2>"$tmp/err"
		status=$?
		[ "$status" = 1 ] || fail "$c > /dev/full: status $status"
		grep -q "write error: No space left on device" "$tmp/err" ||
			fail "$c > /dev/full: $(cat "$tmp/err")"
		[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$c > /dev/full: not one line"
	done
else
	skip_part "no writable /dev/full: write errors"
fi

# Raw bytes to a terminal: script(1) gives the tool a pseudo-terminal.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	for c in "bytes 16 --raw" "stream" "stream 16"; do
		$limit script -qec "'$V' $c" /dev/null </dev/null >"$tmp/tty" 2>&1
		status=$?
		[ "$status" = 2 ] || fail "$c on a terminal: status $status"
		grep -q "refusing to write raw bytes to a terminal" "$tmp/tty" ||
			fail "$c on a terminal: $(cat "$tmp/tty")"
	done
	# Text formats are what a terminal gets.
	script -qec "'$V' bytes 16" /dev/null </dev/null >"$tmp/tty" 2>&1
	status=$?
	[ "$status" = 0 ] || fail "bytes 16 on a terminal: status $status"
	tr -d '\r' <"$tmp/tty" | grep -Eqx '[0-9a-f]{32}' || fail "bytes 16 on a terminal: $(cat "$tmp/tty")"
else
	skip_part "script(1) from bsdutils not usable: raw bytes to a terminal"
fi

finish
