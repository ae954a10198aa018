# The Lua 5.4 module vrandom.so: lua loads it with dlopen, so it is built
# -module, never linked against liblua (the interpreter provides the API),
# and carries the runtime inside it: it needs no libvrandom.so at run time.

EXTRA_DIST += src/lua/rock/config.h src/lua/rock/arch.h \
	vrandom-$(PACKAGE_VERSION)-1.rockspec \
	examples/tokens.lua examples/coroutines.lua \
	bench/lua_bench.lua bench/lua_ab.lua test/lua/harness.lua test/no-lua.sh \
	test/no-lua-libs.sh

LUA_TESTS = test/lua/random.lua test/lua/strings.lua \
	test/lua/generator.lua test/lua/module.lua test/lua/failure.lua
EXTRA_DIST += $(LUA_TESTS)

# failure.lua runs the module under this filter, cli-output.sh the tool.
check_PROGRAMS += test/lua/nogetrandom
test_lua_nogetrandom_SOURCES = test/lua/nogetrandom.c
test_lua_nogetrandom_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/test

if HAVE_LUA
luac_LTLIBRARIES = src/lua/vrandom.la
# The runtime is compiled again for it with VRANDOM_DLOPEN: no
# initial-exec TLS, which musl's dlopen refuses.
src_lua_vrandom_la_SOURCES = src/lua/lrandom.c $(libvrandom_core_la_SOURCES)
src_lua_vrandom_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA_CFLAGS) -DVRANDOM_DLOPEN
src_lua_vrandom_la_LDFLAGS = -module -avoid-version -shared \
	-export-symbols-regex '^luaopen_vrandom$$'

# The tests load the module just built, never an installed one.
lua_cpath = $(abs_builddir)/src/lua/.libs/?.so
TESTS += $(LUA_TESTS)
LUA_LOG_COMPILER = $(LUA)
AM_TESTS_ENVIRONMENT += LUA_CPATH='$(lua_cpath)'; \
	LUA_CPATH_5_4='$(lua_cpath)'; export LUA_CPATH LUA_CPATH_5_4;

# Hosts linked with liblua (unlike the module), when configure has its
# LUA_LIBS: a host that unloads the module from a thread which then exits.
if HAVE_LUA_LIBS
check_PROGRAMS += test/lua/unload
TESTS += test/lua/unload
test_lua_unload_SOURCES = test/lua/unload.c
test_lua_unload_CPPFLAGS = $(LUA_CFLAGS)
test_lua_unload_LDADD = $(LUA_LIBS)

# A host linked with libvrandom.so that also loads the module, which has a
# runtime of its own: two pools and two thread keys in one process.
check_PROGRAMS += test/lua/two_runtimes
TESTS += test/lua/two_runtimes
test_lua_two_runtimes_SOURCES = test/lua/two_runtimes.c
test_lua_two_runtimes_CPPFLAGS = $(AM_CPPFLAGS) $(LUA_CFLAGS) -I$(srcdir)/test
test_lua_two_runtimes_LDADD = libvrandom.la $(LUA_LIBS)
else
TESTS += test/no-lua-libs.sh
endif

# What the Lua bench compares the binding with: an empty C function and
# raw vDSO calls, in a module of their own (never installed).
noinst_LTLIBRARIES += bench/vrbench.la
bench_vrbench_la_SOURCES = bench/lua_vrbench.c bench/raw.c src/runtime/vdso.c
bench_vrbench_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA_CFLAGS)
bench_vrbench_la_LDFLAGS = -module -avoid-version -shared -rpath $(libdir)

bench_cpath = $(lua_cpath);$(abs_builddir)/bench/.libs/?.so
bench-lua: src/lua/vrandom.la bench/vrbench.la
	@echo "== Lua 5.4 (load average $$(cut -d' ' -f1-3 /proc/loadavg))"
	LUA_CPATH='$(bench_cpath)' LUA_CPATH_5_4='$(bench_cpath)' \
	  $(LUA) $(srcdir)/bench/lua_bench.lua
	@$(MAKE) $(AM_MAKEFLAGS) bench-lua-luajit
else
# No Lua 5.4 found by configure: the Lua tests are a SKIP, not silence.
TESTS += test/no-lua.sh
bench-lua: bench-lua-luajit
	@echo "bench-lua: the Lua 5.4 module is not built (configure found no Lua 5.4)"
endif
.PHONY: bench-lua
