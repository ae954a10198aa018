#!/bin/sh
# The smallest appliance, in one command:
#   sh examples/firmware/run.sh aarch64     (or armhf)
# builds the static vrandom-lua for ARCH on musl (scripts/firmware-build.sh:
# musl and Lua from Debian's sources, Debian's cross compiler), packs an
# initramfs whose only programs are a tiny init (init.c) and vrandom-lua
# running app.lua, and boots Debian's kernel for ARCH under qemu-system
# (fetched once into the cache).  The console is the output.
# Exit 0 when the application ran and exited 0; 1 when it did not, or
# something it needs is missing (the reason on standard error); 2 for an
# ARCH that is not one of the firmware machines.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/lib.sh"
arch "${1:-aarch64}" && [ -n "$a_fw" ] ||
	{ echo "usage: run.sh $(arches fw | tr '\n' '|' | sed 's/|$//')" >&2; exit 2; }
for c in "$a_system" cpio; do
	command -v "$c" >/dev/null || { echo "run.sh: $c is not installed" >&2; exit 1; }
done

echo "== building vrandom-lua for $a_name (musl, static)"
set -- $(sh "$top/scripts/firmware-build.sh" "$a_name" | tail -n 1)
[ -d "${1:-}" ] && [ -x "${2:-}/bin/musl-gcc" ] ||
	{ echo "run.sh: vrandom-lua for $a_name was not built (above)" >&2; exit 1; }
b=$1 prefix=$2
echo "== Debian's $a_kernel ($a_suite) kernel"
kernel=$(fetch_kernel "$a_name") || { echo "run.sh: no kernel (above)" >&2; exit 1; }

# The initramfs: /init, /bin/vrandom-lua, /app.lua; nothing else.
root=$b/example/root
rm -rf "$b/example"; mkdir -p "$root/bin"
"$prefix/bin/musl-gcc" -static -Os -s -o "$root/init" "$here/init.c" || exit 1
cp "$b/_inst/usr/local/bin/vrandom-lua" "$here/app.lua" "$root/"
mv "$root/vrandom-lua" "$root/bin/"
"$prefix/bin/$3-strip" "$root/bin/vrandom-lua"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$b/example/initramfs.cpio"
echo "== initramfs: $(cd "$root" && find . -type f | sort | tr '\n' ' ')" \
	"($(wc -c <"$b/example/initramfs.cpio") bytes)"
echo "== booting $kernel on $a_system"

# The console, the kernel's lines included, is the output.
timeout -k 10 300 "$a_system" $a_flags -m 256M -nic none -nographic -no-reboot \
	-kernel "$kernel" -initrd "$b/example/initramfs.cpio" \
	-append "console=$a_console rdinit=/init quiet panic=-1" </dev/null |
	tr -d '\r' | tee "$b/example/console.log"
grep -q '^init: the application exited with 0;' "$b/example/console.log"
