#!/bin/sh
# Fetch and unpack a Debian source package, leaving the machine's apt setup
# as it is: the deb-src entries are derived from the machine's own deb
# entries into a private sources directory, with a private lists directory,
# and both are handed to apt-get with -o.  Prints the unpacked tree's path.
#
# Usage: apt-source.sh PACKAGE DIR [SUITE]
#   SUITE (e.g. trixie) takes the archive entries of this release's suite
#   and asks that suite instead: another release's source, same mirrors.
# Exit 1 with a reason on standard error when the source cannot be had.
set -e
pkg=$1 dir=$2 suite=${3:-}
[ -n "$pkg" ] && [ -n "$dir" ] || { echo "usage: apt-source.sh PACKAGE DIR [SUITE]" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# Unpacked before: nothing to fetch.
stamp="$dir/.$pkg${suite:+-$suite}.tree"
if [ -f "$stamp" ] && [ -d "$(cat "$stamp")" ]; then
	cat "$stamp"
	exit 0
fi

command -v dpkg-source >/dev/null ||
	{ echo "apt-source: dpkg-source is missing (package dpkg-dev)" >&2; exit 1; }
base=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
apt=$dir/.apt
rm -rf "$apt"; mkdir -p "$apt/sources" "$apt/lists/partial"

# One-line sources: "deb [options] uri suite components" becomes deb-src.
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	awk -v base="$base" -v suite="$suite" '
		$1 != "deb" { next }
		{ $1 = "deb-src" }
		suite == "" { print; next }
		{ for (j = 2; j <= NF; j++) if ($j == base) { $j = suite; print; next } }
	' "$f"
done >"$apt/sources/derived.list"

# deb822 sources: Types deb becomes deb-src; for another suite, only the
# stanzas that list this release's own suite, with that suite replaced.
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	awk -v base="$base" -v suite="$suite" '
		function flush() {
			if (st != "" && deb && (suite == "" || hit)) print st
			st = ""; deb = 0; hit = 0
		}
		/^[ \t]*$/ { flush(); next }
		/^#/ { next }
		/^Types:/ { if ($0 ~ /[ \t]deb([ \t]|$)/) deb = 1; $0 = "Types: deb-src" }
		/^Suites:/ && suite != "" {
			for (j = 2; j <= NF; j++) if ($j == base) hit = 1
			$0 = "Suites: " suite
		}
		{ st = st $0 "\n" }
		END { flush() }
	' "$f"
done >"$apt/sources/derived.sources"

set -- -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources" \
	-o Dir::State::Lists="$apt/lists" -o APT::Sandbox::User=root
[ -s "$apt/sources/derived.list" ] || [ -s "$apt/sources/derived.sources" ] ||
	{ echo "apt-source: no deb entries in the machine's apt sources to derive from" >&2; exit 1; }
apt-get -qq "$@" update >"$apt/update.out" 2>&1 ||
	{ tail -n 5 "$apt/update.out" >&2; echo "apt-source: apt-get update failed" >&2; exit 1; }
(cd "$dir" && apt-get -qq "$@" source "$pkg${suite:+/$suite}") >"$apt/source.out" 2>&1 ||
	{ tail -n 5 "$apt/source.out" >&2; echo "apt-source: apt-get source $pkg failed" >&2; exit 1; }

tree=$(find "$dir" -mindepth 1 -maxdepth 1 -type d -name "$pkg-[0-9]*" -newer "$apt/update.out" |
	sort | tail -n 1)
[ -n "$tree" ] || { echo "apt-source: $pkg was fetched but no tree was unpacked" >&2; exit 1; }
echo "$tree" >"$stamp"
echo "$tree"
