#!/bin/sh
# The smallest appliance, in one command:
#   sh examples/firmware/run.sh aarch64     (or armhf)
# builds the static vrandom-lua for ARCH on musl (scripts/firmware-build.sh:
# musl and Lua from Debian's sources, Debian's cross compiler), packs an
# initramfs whose only programs are a tiny init (init.c) and vrandom-lua
# running app.lua, and boots Debian's kernel for ARCH under qemu-system
# (scripts/vm-kernel.sh fetches it once).  The console is the output.
# Exit 0 when the application ran and exited 0.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
arch=${1:-aarch64}
case $arch in
aarch64|armhf) ;;
*) echo "usage: run.sh aarch64|armhf" >&2; exit 2 ;;
esac
. "$top/scripts/vm-machines.sh"
vm_machine "$arch"
command -v "$vm_qemu" >/dev/null || { echo "run.sh: $vm_qemu is not installed" >&2; exit 1; }
command -v cpio >/dev/null || { echo "run.sh: cpio is not installed" >&2; exit 1; }

echo "== building vrandom-lua for $arch (musl, static)"
out=$(sh "$top/scripts/firmware-build.sh" "$arch") ||
	{ echo "run.sh: vrandom-lua for $arch was not built (above)" >&2; exit 1; }
set -- $(printf '%s\n' "$out" | tail -n 1)
b=${1:-} prefix=${2:-}
[ -d "$b" ] && [ -x "$prefix/bin/musl-gcc" ] ||
	{ echo "run.sh: firmware-build.sh said '$out'" >&2; exit 1; }
echo "== fetching Debian's $vm_package ($vm_suite) kernel"
kernel=$(sh "$top/scripts/vm-kernel.sh" "$arch" | tail -n 1) && [ -f "$kernel" ] ||
	{ echo "run.sh: no $vm_package kernel (above)" >&2; exit 1; }

# The initramfs: /init, /bin/vrandom-lua, /app.lua; nothing else.
root=$b/example/root
rm -rf "$b/example"; mkdir -p "$root/bin"
"$prefix/bin/musl-gcc" -static -Os -s -o "$root/init" "$here/init.c"
cp "$b/_inst/usr/local/bin/vrandom-lua" "$root/bin/"
strip_=$(ls "$prefix"/bin/*-strip)
"$strip_" "$root/bin/vrandom-lua"
cp "$here/app.lua" "$root/app.lua"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$b/example/initramfs.cpio"
echo "== initramfs: $(cd "$root" && find . -type f | sort | tr '\n' ' ')" \
	"($(wc -c <"$b/example/initramfs.cpio") bytes)"
echo "== booting $kernel on $vm_qemu"

# The console, the kernel's lines included, is the output.
timeout -k 10 300 "$vm_qemu" $vm_flags -m 256M -nic none -nographic -no-reboot \
	-kernel "$kernel" -initrd "$b/example/initramfs.cpio" \
	-append "console=$vm_console rdinit=/init quiet panic=-1" </dev/null |
	tr -d '\r' | tee "$b/example/console.log"
grep -q '^init: the application exited with 0;' "$b/example/console.log"
