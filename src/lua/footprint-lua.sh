#!/bin/sh
# What vrandom adds to a static Lua interpreter: lua.c and the core from
# the same tree with the same flags, without vrandom (Lua's own linit.c)
# and with it, both stripped.  The image (text + data) is the figure to
# use; file sizes move in whole pages.
# Usage: footprint-lua.sh PLAIN WITH   (make footprint-lua passes STRIP, SIZE)
set -e
: "${STRIP:=strip}" "${SIZE:=size}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$STRIP -o "$tmp/plain" "$1"
$STRIP -o "$tmp/with" "$2"
image() { $SIZE "$1" | awk 'NR == 2 { print $1 + $2 }'; }
fp=$(wc -c <"$tmp/plain") fw=$(wc -c <"$tmp/with")
ip=$(image "$tmp/plain") iw=$(image "$tmp/with")
printf '%-24s %10s %10s\n' "stripped" "file" "image"
printf '%-24s %10d %10d\n' "${1##*/} (no vrandom)" "$fp" "$ip"
printf '%-24s %10d %10d\n' "${2##*/}" "$fw" "$iw"
printf 'vrandom costs %d B of file, %d B of image (%.1f KiB)\n' \
	$((fw - fp)) $((iw - ip)) "$(echo "$iw $ip" | awk '{ print ($1 - $2) / 1024 }')"
