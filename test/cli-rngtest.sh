#!/bin/sh
# An outside checker: rngtest (rng-tools5) runs the FIPS 140-2 tests on
# 1000 blocks of 20000 bits from `vrandom stream`.  Good random data fails a
# block about 0.08% of the time, so 1000 blocks fail 0.8 on average; more
# than 6 happens by chance about twice in 10^5 runs (Poisson tail), while a
# broken stream fails nearly every block.
. "${top_srcdir:-.}/test/cli-lib.sh"
blocks=1000
allowed=6

command -v rngtest >/dev/null 2>&1 || { echo "rngtest not installed (Debian rng-tools5): skipped"; exit 77; }

# rngtest's FIPS failure count from its report on stderr.
failed() { sed -n 's/^rngtest: FIPS 140-2 failures: //p' "$1"; }
passed() { sed -n 's/^rngtest: FIPS 140-2 successes: //p' "$1"; }

# The checker must see bad data as bad, or its verdict on ours means nothing.
head -c 100000 /dev/zero | rngtest -c 20 >/dev/null 2>"$tmp/zero"
[ "$(failed "$tmp/zero")" = 20 ] || fail "rngtest passed zeros: $(cat "$tmp/zero")"

{ $limit "$V" stream 2>"$tmp/err"; echo $? >"$tmp/status"; } |
	rngtest -c $blocks >/dev/null 2>"$tmp/report"
n=$(failed "$tmp/report")
ok=$(passed "$tmp/report")
echo "vrandom stream | rngtest -c $blocks: $ok successes, $n failures"
[ -n "$n" ] && [ -n "$ok" ] || fail "no rngtest report: $(cat "$tmp/report")"
[ "$((ok + n))" = $blocks ] || fail "rngtest tested $((ok + n)) blocks, not $blocks"
[ "$n" -le $allowed ] || fail "$n of $blocks blocks failed FIPS 140-2 (chance allows $allowed)"
# rngtest stops reading after its blocks: vrandom sees EPIPE and ends with 0.
[ "$(cat "$tmp/status")" = 0 ] || fail "vrandom stream ended with $(cat "$tmp/status"): $(cat "$tmp/err")"
finish
