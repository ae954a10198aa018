#!/bin/sh
# Fetch the Debian kernel MACHINE boots (scripts/vm-machines.sh) and keep
# its boot image, nothing else of the package, under build/vm/kernels/.
# The package comes through a private apt configuration for its suite and
# architecture (scripts/apt-private.sh): the machine's apt setup and dpkg
# architectures stay as they are.  The cache is keyed by the package and
# its version; once an image is cached, no download happens at all
# (VR_VM_REFRESH=1 asks the archive again for a newer one).
#
# Usage: vm-kernel.sh MACHINE
# Prints the image's path as its last line; exit 1 with the reason on
# standard error when it cannot be had.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/apt-private.sh"
. "$here/vm-machines.sh"
m=${1:-}
vm_machine "$m" || { echo "usage: vm-kernel.sh MACHINE (one of: $vm_machines)" >&2; exit 2; }
out=${VR_BUILD:-$top/build}/vm
cache=$out/kernels/$m
current=$cache/current            # the cached image's path

if [ -z "${VR_VM_REFRESH:-}" ] && [ -f "$current" ] && [ -f "$(cat "$current")" ]; then
	cat "$current"
	exit 0
fi

fail() { echo "vm-kernel: $m: $*" >&2; exit 1; }
command -v apt-get >/dev/null || fail "apt-get is missing"
command -v dpkg-deb >/dev/null || fail "dpkg-deb is missing"

# One private apt per suite and architecture; its lists (tens of MB) go
# once the image is cached.
apt=$out/apt/$vm_suite-$vm_debarch
mkdir -p "$apt"
apt_private "$apt" deb "$vm_suite" "$vm_debarch" || exit 1
printf 'Acquire::Languages "none";\n' >>"$apt/apt.conf"
# apt-get update exits 0 when an index could not be fetched: its warning
# says so.
apt-get -qq -c "$apt/apt.conf" update >"$apt/update.out" 2>&1 &&
	! grep -q '^[WE]: Failed to fetch' "$apt/update.out" ||
	fail "apt-get update for $vm_suite/$vm_debarch failed:" \
		"$(sed -n 's/^[WE]: //p' "$apt/update.out" | head -n 1)"

# The metapackage names the versioned image package; its first
# linux-image-* dependency is the one (the signed one on amd64 and arm64,
# which holds the same image).
show() { apt-cache -c "$apt/apt.conf" show --no-all-versions "$1" 2>/dev/null; }
field() { sed -n "s/^$1: //p" | head -n 1; }
dep=$(show "$vm_package" | field Depends | tr ',|' '\n\n' |
	sed -n 's/^ *\(linux-image-[^ ]*\).*/\1/p' | head -n 1)
[ -n "$dep" ] || fail "$vm_package has no linux-image dependency in $vm_suite/$vm_debarch"
ver=$(show "$dep" | field Version)
[ -n "$ver" ] || fail "$dep is not in $vm_suite/$vm_debarch"

key=$cache/${dep}_$(printf %s "$ver" | tr ':~/' '___')
if [ ! -f "$key/$vm_image" ]; then
	dl=$cache/download
	rm -rf "$dl"; mkdir -p "$dl"
	(cd "$dl" && apt-get -qq -c "$apt/apt.conf" download "$dep") >"$cache/download.out" 2>&1 ||
		{ tail -n 5 "$cache/download.out" >&2; fail "apt-get download $dep failed"; }
	deb=$(ls "$dl"/*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || fail "apt-get download $dep left no package"
	mkdir -p "$dl/x"
	dpkg-deb --fsys-tarfile "$deb" | (cd "$dl/x" && tar -x --wildcards './boot/vmlinu*') ||
		fail "$dep holds no /boot/vmlinu*"
	img=$(ls "$dl"/x/boot/"$vm_image"-* 2>/dev/null | head -n 1)
	[ -n "$img" ] || fail "$dep holds no /boot/$vm_image-*"
	rm -rf "$key"; mkdir -p "$key"
	mv "$img" "$key/$vm_image"
	printf '%s %s %s\n' "$dep" "$ver" "$(basename "$img")" >"$key/package"
	rm -rf "$dl"
fi
# Older versions go, and the lists.
for old in "$cache"/linux-image-*; do
	[ "$old" = "$key" ] || rm -rf "$old"
done
rm -rf "$apt"
echo "$key/$vm_image" >"$current"
echo "$key/$vm_image"
