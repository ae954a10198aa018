#!/bin/sh
# vrandom: --help, --version, and the one-line usage errors with status 2.
. "${top_srcdir:-.}/test/cli-lib.sh"

expect 0 "$V" --help
case $out in "Usage: vrandom COMMAND"*) ;; *) fail "--help: $out" ;; esac
helptext=$out
for c in info bytes uuid token stream bench; do
	echo "$helptext" | grep -q "^  $c " || fail "--help does not list $c"
	expect 0 "$V" $c --help
	case $out in "Usage: vrandom $c"*) ;; *) fail "$c --help: $out" ;; esac
	expect 0 "$V" $c -h
done
expect 0 "$V" --version
echo "$out" | grep -Eq '^vrandom [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version: $out"

# Each class of usage error: status 2, one line, nothing on stdout.
usage() {
	expect 2 "$V" "$@"
	[ -z "$out" ] || fail "$*: wrote to stdout on a usage error"
	case $err in vrandom*) ;; *) fail "$*: message lacks the program name: $err" ;; esac
}
usage
usage frobnicate
usage --frobnicate
usage bytes
usage bytes -1
usage bytes -- -1
usage uuid -3
usage token -32
usage stream -100
usage bytes abc
usage bytes 12x
usage bytes ''
usage bytes +5
usage bytes ' 5'
usage bytes 0x10
usage uuid 1.5
usage bytes 18446744073709551616
usage bytes 99999999999999999999999
usage stream 17179869184G
usage bytes 16 --frobnicate
usage bytes 16 -z
usage bytes 16 17
usage uuid 1 2
usage token 16 --hex
usage info extra
usage info --csv
usage bench --hex
usage bench 5
case $(cat "$tmp/err") in *"'5'"*) ;; *) fail "the message does not name the argument" ;; esac

# The largest count that fits is a count, not an error.
"$V" bytes 18446744073709551615 --raw | head -c 10 >"$tmp/big"
[ "$(wc -c <"$tmp/big")" = 10 ] || fail "bytes 2^64-1 | head -c 10"

# Suffixes are powers of 1024; options may come before or after N.
[ "$("$V" bytes 1K --raw | wc -c)" = 1024 ] || fail "bytes 1K"
[ "$("$V" stream 2M | wc -c)" = 2097152 ] || fail "stream 2M"
[ "$("$V" bytes --raw 3 | wc -c)" = 3 ] || fail "bytes --raw 3"
[ "$("$V" bytes 3 -- | wc -c)" = 7 ] || fail "bytes 3 --"

finish
