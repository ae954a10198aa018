#!/bin/sh
# A dynamic musl system, as Alpine and OpenWrt are, simulated with
# Debian's musl (its dynamic linker is /lib/ld-musl-*.so.1):
#   - dynamic musl Lua 5.4, 5.1 and 5.5 interpreters built from Debian's
#     sources (scripts/lua-src.sh; 5.5 from unstable) with musl-gcc,
#     exporting the Lua API (-Wl,-E) to the C modules they load;
#   - vrandom configured as a distribution would, CC=musl-gcc
#     --enable-shared, LUA_CFLAGS, LUA51_CFLAGS and LUA55_CFLAGS naming
#     those Luas' headers and --with-lua=5.1,5.4,5.5, built and installed
#     into a stage;
#   - the test scripts under the musl interpreters with LUA_CPATH at the
#     staged lua/5.x/vrandom.so (failure.lua: all three backends);
#   - test/lua/unload.c per version, linked with that Lua: the module
#     loaded and unloaded in threads that exit, a second lua_State, fork;
#   - test/lua/two_runtimes.c, a C program dynamically linked against the
#     staged libvrandom.so (NEEDED: musl's libc.so, checked with readelf)
#     that loads the 5.4 module too.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
b=$VR_BUILD/lua-musl
rm -rf "$b"; mkdir -p "$b"
need musl-gcc
ldso=$(ls /lib/ld-musl-*.so.1 2>/dev/null | head -n 1)
[ -n "$ldso" ] || skip "no musl dynamic linker /lib/ld-musl-*.so.1 (package musl)"
for v in 5.4 5.1; do
	sh "$top/scripts/lua-src.sh" "$v" >"$b/tree-$v" 2>"$b/lua-src.err" ||
		skip "no Lua $v source: $(tail -n 1 "$b/lua-src.err")"
done
t54=$(tail -n 1 "$b/tree-5.4") t51=$(tail -n 1 "$b/tree-5.1")
# 5.5 comes from another suite: without it, the others still run.
vs="5.4 5.1" with55=
if sh "$top/scripts/lua-src.sh" 5.5 >"$b/tree-5.5" 2>"$b/lua-src.err"; then
	t55=$(tail -n 1 "$b/tree-5.5") vs="5.4 5.1 5.5"
	with55="LUA55_CFLAGS=-I$t55/src LUA55=$b/lua5.5/lua"
else
	missing "no Lua 5.5 source: $(tail -n 1 "$b/lua-src.err")"
fi

echo "== lua-musl: dynamic musl Lua $vs from" $(for v in $vs; do basename "$(tail -n 1 "$b/tree-$v")"; done)
for v in $vs; do
	c=; [ "$v" = 5.4 ] && c=-DLUA_COMPAT_5_3
	build_lua musl-gcc "$(tail -n 1 "$b/tree-$v")" "$b/lua$v" $c >"$b/lua$v.out" 2>&1 &
done
wait
for v in $vs; do
	[ -x "$b/lua$v/lua" ] || { cat "$b/lua$v.out"; ok 1 "Lua $v builds"; finish; }
done

echo "== lua-musl: configure CC=musl-gcc --enable-shared with their headers"
(cd "$b" && "$src/configure" CC=musl-gcc --enable-shared --prefix=/usr \
	--with-lua=$(echo $vs | tr ' ' ,) LUA_CFLAGS="-I$t54/src" LUA_LIBS="$b/lua5.4/liblua.a" \
	LUA51_CFLAGS="-I$t51/src" LUA="$b/lua5.4/lua" LUA51="$b/lua5.1/lua" $with55 \
	>configure.out 2>&1) || { tail -n 30 "$b/configure.out"; ok 1 "configure"; finish; }
sed -n '/^  vrandom /,$p' "$b/configure.out"
make -s -C "$b" -j2 >"$b/make.out" 2>&1 &&
	make -s -C "$b" install DESTDIR="$b/stage" >"$b/install.out" 2>&1 ||
	{ tail -n 30 "$b/make.out" "$b/install.out"; ok 1 "make, make install"; finish; }
lib=$b/stage/usr/lib
grep -qx "  lua modules:  $(echo $vs | tr ' ' '\n' | sort | xargs)" "$b/configure.out"
ok $? "configure's summary: $(grep '^  lua modules:' "$b/configure.out")"

# The two other cases configure tells apart, configured only: musl-gcc on
# a Debian host (no headers named: pkg-config's are glibc's, so no module,
# and the summary says why; archives for every version, each with the
# multiarch header written into the tree), and glibc (every module).
summary() {  # name, configure arguments...
	_d=$b/summary-$1; shift
	rm -rf "$_d"; mkdir -p "$_d"
	(cd "$_d" && "$src/configure" "$@" >configure.out 2>&1) || tail -n 20 "$_d/configure.out"
	sed -n 's/^  \(lua modules\|lua archives\): */\1: /p' "$_d/configure.out"
}
sum=$(summary musl-debian CC=musl-gcc --enable-shared)
echo "$sum" | sed 's/^/  musl-gcc, no headers named: /'
case $sum in *"lua modules: none: the Lua headers pkg-config finds are the build host's"*) r=0 ;; *) r=1 ;; esac
ok $r "musl-gcc on this host, no Lua headers named: no module, and the reason"
echo "$sum" | grep -q '^lua archives: 5.1 5.2 5.3 5.4 luajit$'
ok $? "musl-gcc on this host: a static binding for every version"
sum=$(summary glibc)
echo "$sum" | sed 's/^/  glibc: /'
echo "$sum" | grep -q '^lua modules: 5.1 5.2 5.3 5.4 luajit$'
ok $? "glibc: a module for every Lua installed"

# What is dynamically linked names musl's libc.so and nothing of glibc.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }
for f in $(for v in $vs; do echo lua$v/lua; done); do
	n=$(needed "$b/$f")
	[ "$n" = "libc.so " ]; ok $? "$f: NEEDED $n"
done
for f in $(for v in $vs; do echo lua/$v/vrandom.so; done) libvrandom.so.1; do
	[ -f "$lib/$f" ] || { ok 1 "make install puts lib/$f"; continue; }
	n=$(needed "$lib/$f")
	[ "$n" = "libc.so " ]; ok $? "lib/$f installed, NEEDED $n"
done

# The test scripts under each musl Lua, with only the staged module's
# directory on its C path; failure.lua finds its seccomp helper (a glibc
# program, which runs the musl Lua under its filter) in helper/.
mkdir -p "$b/helper/test/lua"
cc -I"$top/test" -o "$b/helper/test/lua/nogetrandom" "$top/test/lua/nogetrandom.c" ||
	ok 1 "test/lua/nogetrandom builds"
for v in $vs; do
	lua=$b/lua$v/lua d=$lib/lua/$v/?.so
	for s in random strings generator module failure; do
		run "$v: $s.lua under musl lua$v, module from the stage" \
			env -u VRANDOM_BACKEND LUA_CPATH="$d" LUA_CPATH_5_4="$d" LUA_CPATH_5_5="$d" \
			top_builddir="$b/helper" top_srcdir="$top" "$lua" "$top/test/lua/$s.lua"
	done
	# The module loaded and unloaded in threads that exit, a second
	# lua_State, fork; in a host linked with this Lua.
	if musl-gcc -O2 -I"$top/test" -I"$(tail -n 1 "$b/tree-$v")/src" -Wl,-E \
		-o "$b/unload-$v" "$top/test/lua/unload.c" "$b/lua$v/liblua.a" -lm \
		>"$b/unload-$v.out" 2>&1; then
		run "$v: test/lua/unload (threads, a second lua_State, fork)" \
			env -u VRANDOM_BACKEND LUA_CPATH="$d" LUA_CPATH_5_4="$d" LUA_CPATH_5_5="$d" "$b/unload-$v"
	else
		cat "$b/unload-$v.out"; ok 1 "$v: test/lua/unload builds"
	fi
done

# A C program against the staged libvrandom.so, loading the module too.
prog=$b/two_runtimes
if musl-gcc -O2 -I"$b/stage/usr/include" -I"$top/test" -I"$t54/src" -Wl,-E -o "$prog" \
	"$top/test/lua/two_runtimes.c" -L"$lib" -lvrandom "$b/lua5.4/liblua.a" -lm \
	>"$b/two_runtimes.out" 2>&1; then
	n=$(needed "$prog")
	[ "$n" = "libvrandom.so.1 libc.so " ]; ok $? "two_runtimes: NEEDED $n"
	interp=$(readelf -l "$prog" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
	[ "$interp" = "$ldso" ]; ok $? "two_runtimes: interpreter $interp"
	# musl's loader lists what it loads: the staged library.
	LD_LIBRARY_PATH=$lib "$ldso" --list "$prog" 2>&1 | grep -q "=> $lib/libvrandom.so.1 "
	ok $? "two_runtimes loads the staged libvrandom.so.1"
	run "two_runtimes (staged libvrandom.so and the 5.4 module)" \
		env -u VRANDOM_BACKEND LD_LIBRARY_PATH="$lib" LUA_CPATH="$lib/lua/5.4/?.so" \
		LUA_CPATH_5_4="$lib/lua/5.4/?.so" "$prog"
else
	cat "$b/two_runtimes.out"; ok 1 "two_runtimes builds against the staged libvrandom.so"
fi

finish
