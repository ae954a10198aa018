#!/bin/sh
# Install what vrandom needs on Debian 12 (as root); what is there stays.
#   deps.sh        building, the demo and `make check`: the compiler,
#                  autotools, musl, Lua 5.4, Check
#   deps.sh --all  and what scripts/test-all.sh needs besides: every Lua,
#                  clang, valgrind, the cross compilers, qemu-user, the
#                  qemu-systems of scripts/arch.tab and qemu-img (vmfork),
#                  and what a Linux build needs (kernel-patch)
set -e
here=$(cd "$(dirname "$0")" && pwd)
pkgs="build-essential autoconf automake libtool pkg-config musl-tools check
	liblua5.4-dev lua5.4 libseccomp-dev strace file man-db groff-base"
if [ "${1:-}" = --all ]; then
	pkgs="$pkgs git dpkg-dev cpio luarocks rng-tools5 gnuplot-nox clang
		libclang-rt-14-dev valgrind lua5.1 liblua5.1-0-dev lua5.2 liblua5.2-dev
		lua5.3 liblua5.3-dev luajit libluajit-5.1-dev qemu-user qemu-utils
		bc bison flex libelf-dev
		$(awk -v host="$(dpkg --print-architecture)" '
			/^#/ || !NF { next }
			$2 != "-" && $10 != host { print "gcc-" $2, "libc6-dev-" $10 "-cross" }
			$8 != "-" { print $8 }' "$here/arch.tab" | sort -u)"
elif [ -n "${1:-}" ]; then
	echo "usage: deps.sh [--all]" >&2; exit 2
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
