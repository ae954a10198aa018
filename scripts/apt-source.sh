#!/bin/sh
# Fetch and unpack a Debian source package, leaving the machine's apt setup
# as it is: the deb-src entries are derived from the machine's own deb
# entries into a private apt configuration (scripts/apt-private.sh), with
# private lists.  Prints the unpacked tree's path.
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
here=$(cd "$(dirname "$0")" && pwd)
. "$here/apt-private.sh"
apt=$dir/.apt
rm -rf "$apt"
apt_private "$apt" deb-src "$suite" || exit 1
set -- -c "$apt/apt.conf"
apt-get -qq "$@" update >"$apt/update.out" 2>&1 ||
	{ tail -n 5 "$apt/update.out" >&2; echo "apt-source: apt-get update failed" >&2; exit 1; }
(cd "$dir" && apt-get -qq "$@" source "$pkg${suite:+/$suite}") >"$apt/source.out" 2>&1 ||
	{ tail -n 5 "$apt/source.out" >&2; echo "apt-source: apt-get source $pkg failed" >&2; exit 1; }

tree=$(find "$dir" -mindepth 1 -maxdepth 1 -type d -name "$pkg-[0-9]*" -newer "$apt/update.out" |
	sort | tail -n 1)
[ -n "$tree" ] || { echo "apt-source: $pkg was fetched but no tree was unpacked" >&2; exit 1; }
echo "$tree" >"$stamp"
echo "$tree"
