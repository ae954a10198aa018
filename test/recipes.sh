#!/bin/sh
# The firmware recipes, replayed without OpenWrt or Buildroot (neither SDK
# can be had here): contrib/*/replay.mk run each recipe's own definitions
# (configure arguments, make, installs into a staging and a target
# directory) with the project's aarch64 musl; then the installed files are
# checked and each module loaded by its Lua (Debian's source, dynamic musl)
# under qemu-aarch64 -L target.  In $VR_BUILD/recipes (default build/);
# ok:/FAIL: lines, "N passed, N failed"; SKIP (77) without a tool or source:
# lib.sh's need and skip print the reason and exit 77 (finish too, when
# nothing ran), which test-all.sh counts as a skip, a failure under
# VR_REQUIRE=all.  It is a suite's script, not one of make check's tests.
. "$(cd "$(dirname "$0")/.." && pwd)/scripts/lib.sh"
vr_src || exit 1
need qemu-aarch64 pkg-config
B=$VR_BUILD/recipes
mkdir -p "$B"
no() { ok 1 "$*"; }
holds() { d=$1; shift; "$@" >/dev/null 2>&1; ok $? "$d"; }
files() { d=$1 r=$2; shift 2; m=; for f; do [ -e "$r/$f" ] || m="$m $f"; done
	[ -z "$m" ]; ok $? "$d: ${m:+missing$m, of }$*"; }
p=$(sh "$top/scripts/musl-cross.sh" aarch64 --shared 2>"$B/musl.err") || case $? in
	77) skip "musl for aarch64: $(tail -n 1 "$B/musl.err")" ;;
	*) no "musl for aarch64 with libc.so: $(tail -n 1 "$B/musl.err")"; finish ;; esac
# Debian's cross libgcc (outline atomics) calls __getauxval, which musl's
# libc.a has and its libc.so hides; an SDK's musl toolchain has its own.
p=$(echo "$p" | tail -n 1) cc=$p/bin/musl-gcc cflags="-Os -mno-outline-atomics"
# Lua 5.1, 5.3, 5.4, dynamic, as a firmware's lua packages build them.
for v in 5.1 5.3 5.4; do
	t=$(sh "$top/scripts/lua-src.sh" $v 2>>"$B/lua-src.err" | tail -n 1)
	[ -f "$t/src/lua.h" ] || skip "Lua $v source: $(tail -n 1 "$B/lua-src.err")"
	eval "src${v#5.}=\$t"
done
# Built once into the cache, beside the musl they are built with (its
# prefix, the source tree and the flags are the key).
L=$VR_CACHE/recipes-lua
mkdir -p "$L"
for v in 5.1 5.3 5.4; do eval "t=\$src${v#5.}"
	set -- -O1 -std=gnu99 -DLUA_USE_POSIX -DLUA_USE_DLOPEN -Wl,-E \
		-Wl,--dynamic-linker=/lib/ld-musl-aarch64.so.1
	if [ "$(cat "$L/lua$v.key" 2>/dev/null)" != "$cc $t $*" ] || [ ! -x "$L/lua$v" ]; then
		rm -f "$L/lua$v.key"
		(cd "$t/src" && "$cc" "$@" -o "$L/lua$v" \
			$(ls *.c | grep -v -e '^luac\.c$' -e '^print\.c$') -lm) >"$B/lua$v.out" 2>&1 &&
			echo "$cc $t $*" >"$L/lua$v.key" || no "Lua $v for aarch64 musl ($B/lua$v.out)"
	fi
	cp "$L/lua$v" "$B/lua$v" 2>/dev/null
done
# Lua headers in staging as Lua packages put them; a target with ld-musl and Lua.
dirs() { rm -rf "$B/$1-staging" "$B/$1-target" && mkdir -p "$B/$1-target/lib" "$B/$1-target/usr/bin" &&
	cp "$p/lib/libc.so" "$B/$1-target/lib/ld-musl-aarch64.so.1" &&
	for v in 5.1 5.3 5.4; do cp "$B/lua$v" "$B/$1-target/usr/bin/lua$v"; done; }
headers() { mkdir -p "$1" && (cd "$2/src" && cp lua.h luaconf.h lualib.h lauxlib.h \
	$(ls *-deb-multiarch.h 2>/dev/null) "$1/"); }
replay() {  # name, replay.mk, make arguments: run in the background
	n=$1 mk=$2; shift 2; rm -rf "$B/$n"
	(env SRC="$src" B="$B/$n" STAGING_DIR="$B/$n-staging" TARGET_DIR="$B/$n-target" CC="$cc" \
		TARGET_CFLAGS="$cflags" GNU_TARGET_NAME=aarch64-linux-musl GNU_HOST_NAME="$(gcc -dumpmachine)" \
		make -f "$top/contrib/$mk" -j2 "$@" >"$B/$n.log" 2>&1; echo $? >"$B/$n.rc") & }
dirs openwrt && headers "$B/openwrt-staging/usr/include" "$src1" &&
	headers "$B/openwrt-staging/usr/include/lua5.3" "$src3" &&
	headers "$B/openwrt-staging/usr/include/lua5.4" "$src4" &&
	replay openwrt openwrt/replay.mk CONFIG_PACKAGE_lua-vrandom=y \
		CONFIG_PACKAGE_lua5.3-vrandom=y CONFIG_PACKAGE_lua5.4-vrandom=y
# Buildroot, shared: lua-vrandom for Lua 5.3 (vrandom is as below, shared).
dirs br-shared && headers "$B/br-shared-staging/usr/include" "$src3" &&
	replay br-shared buildroot/replay.mk LUAINTERPRETER_ABIVER=5.3 BR2_PACKAGE_LUA_VRANDOM=y
# Buildroot static only, Lua 5.4: vrandom and the vrandom-lua interpreter.
dirs br-static && rm -r "$B/br-static-target/lib" "$B/br-static-target/usr/bin/"* &&
	headers "$B/br-static-staging/usr/include" "$src4" &&
	replay br-static buildroot/replay.mk LUAINTERPRETER_ABIVER=5.4 BR2_STATIC_LIBS=y \
		BR2_PACKAGE_LUA=y BR2_PACKAGE_VRANDOM=y BR2_PACKAGE_LUA_VRANDOM=y \
		BR2_PACKAGE_LUA_VRANDOM_INTERPRETER=y LUA_DIR="$src4"
wait
built() { [ "$(cat "$B/$1.rc" 2>/dev/null)" = 0 ]; ok $? "$1: the recipe's configure, make and installs ($B/$1.log)"; }
loads() {  # what, target, interpreter, package.cpath: a version 4 UUID back
	o=$(qemu-aarch64 -L "$2" "$2/usr/bin/$3" -e "package.cpath = '$4' print(require('vrandom').uuid())" 2>&1)
	echo "$o" | grep -Eq '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' &&
		ok 0 "$1: require('vrandom') under $3 in qemu-aarch64 (cpath '$4')" || no "$1 under $3 in qemu-aarch64: $o"; }
printf '#include <stdio.h>\n#include <vrandom.h>\nint main(void) { printf("%%u\\n", vrandom_u32()); }\n' >"$B/app.c"
printf '#include <stdio.h>\n#include <sys/random.h>\nint main(void) { unsigned v = 0;
	return getrandom(&v, 4, 0) != 4 || printf("%%u\\n", v) < 0; }\n' >"$B/prog.c"
links() {  # what, staging, target root (dynamic) or "" (static), program, libraries first
	st=-static; [ -z "$3" ] || st=-Wl,--dynamic-linker=/lib/ld-musl-aarch64.so.1
	f=$(PKG_CONFIG_LIBDIR="$2/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$2" \
		PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
		pkg-config --cflags --libs $([ -n "$3" ] || echo --static) vrandom) &&
	"$cc" $st -Os -o "$B/$4" "$B/$4.c" ${5:-} $f && qemu-aarch64 -L "${3:-/nonexistent}" "$B/$4" |
		grep -Eq '^[0-9]+$' && ok 0 "$1: $4.c built with staging's vrandom.pc (${5:+$5 }$f) runs" ||
		no "$1: $4.c with staging's vrandom.pc (${5:+$5 }$f)"; }
S=$B/openwrt-staging T=$B/openwrt-target; if built openwrt; then
	files "openwrt staging" "$S" usr/include/vrandom.h usr/include/lvrandom.h usr/lib/libvrandom.a \
		usr/lib/libvrandom-libc.a usr/lib/libvrandom-lua5.1.a usr/lib/libvrandom-lua5.3.a \
		usr/lib/libvrandom-lua.a usr/lib/libvrandom.so usr/lib/pkgconfig/vrandom.pc
	files "openwrt target" "$T" usr/lib/libvrandom.so.1 usr/bin/vrandom usr/lib/lua/vrandom.so \
		usr/lib/lua/5.1/vrandom.so usr/lib/lua/5.3/vrandom.so usr/lib/lua/5.4/vrandom.so
	holds "openwrt target: no .h, .a or .pc" test -z "$(cd "$T" && find . -name '*.[ah]' -o -name '*.pc')"
	loads "openwrt lua-vrandom" "$T" lua5.1 /usr/lib/lua/?.so
	loads "openwrt lua-vrandom, its lua/5.1 link" "$T" lua5.1 /usr/lib/lua/5.1/?.so
	loads "openwrt lua5.3-vrandom" "$T" lua5.3 /usr/lib/lua/5.3/?.so
	loads "openwrt lua5.4-vrandom" "$T" lua5.4 /usr/lib/lua/5.4/?.so
	holds "openwrt vrandom tool runs in qemu-aarch64" qemu-aarch64 "$T/usr/bin/vrandom" uuid
	links openwrt "$S" "$T" app
fi
S=$B/br-shared-staging T=$B/br-shared-target; if built br-shared; then
	files "buildroot shared staging" "$S" usr/include/lvrandom.h usr/lib/libvrandom-lua5.3.a
	files "buildroot shared target" "$T" usr/lib/lua/5.3/vrandom.so
	holds "buildroot shared target: lua-vrandom installs its module alone" test \
		"$(cd "$T" && find . -type f ! -name 'lua5.?' ! -name 'ld-musl-*')" = ./usr/lib/lua/5.3/vrandom.so
	loads "buildroot lua-vrandom" "$T" lua5.3 /usr/lib/lua/5.3/?.so
fi
S=$B/br-static-staging T=$B/br-static-target; if built br-static; then
	files "buildroot static staging" "$S" usr/include/vrandom.h usr/include/lvrandom.h \
		usr/lib/libvrandom.a usr/lib/libvrandom-libc.a usr/lib/libvrandom-lua.a usr/lib/pkgconfig/vrandom.pc
	files "buildroot static target" "$T" usr/bin/vrandom usr/bin/vrandom-lua usr/bin/vrandom-lua5.4
	holds "buildroot static target: no .so, .h, .a or .pc" \
		test -z "$(cd "$T" && find . -name '*.so*' -o -name '*.[ah]' -o -name '*.pc')"
	loads "buildroot vrandom-lua, no module" "$T" vrandom-lua ""
	links "buildroot static" "$S" "" app
	links "buildroot static" "$S" "" prog -lvrandom-libc
fi
finish
