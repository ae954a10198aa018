# The binding for Lua 5.1, 5.2, 5.3, 5.5 and LuaJIT 2.1 (5.4's is in local.mk
# and static.mk): a module for each Lua configure found, installed in its
# own lua/5.x directory, and a static archive for each, which an embedding
# host links with its own liblua (-lvrandom-lua5.1 -lvrandom).  The
# sources are the same; compat.h tells the versions apart.
#
# LuaJIT keeps its C modules in lua/5.1 too, and a module built for 5.1
# calls the 5.1 API alone, which LuaJIT exports: lua/5.1/vrandom.so serves
# both.  The one built against LuaJIT's headers is for the tests, and
# installed only where there is no 5.1 to build one.

vr_module_ldflags = -module -avoid-version -shared \
	-export-symbols-regex '^luaopen_vrandom$$'
vr_module_sources = src/lua/lrandom.c $(libvrandom_core_la_SOURCES)
noinst_HEADERS += src/lua/compat.h
# LuaJIT's FFI path: its Lua half, which the assembler embeds in
# lrandom.c's object for the 5.1 API (its path given here; the object
# depends on it, which the compiler's dependency files cannot know).
EXTRA_DIST += src/lua/ffi.lua
vr_ffi_lua = $(abs_top_srcdir)/src/lua/ffi.lua
vr_ffi_cppflags = -DVRANDOM_FFI_LUA='"$(vr_ffi_lua)"'
src/lua/src_lua_5_1_vrandom_la-lrandom.lo src/lua/src_lua_luajit_vrandom_la-lrandom.lo \
src/lua/libvrandom_lua5_1_a-lrandom.$(OBJEXT) \
src/lua/libvrandom_luajit_a-lrandom.$(OBJEXT): $(vr_ffi_lua)
EXTRA_DIST += test/lua/random64.lua test/lua/host.c \
	test/lua/jit.lua \
	test/lua/close54.lua

lua51c_LTLIBRARIES =
if HAVE_LUA51
lua51c_LTLIBRARIES += src/lua/5.1/vrandom.la
src_lua_5_1_vrandom_la_SOURCES = $(vr_module_sources)
src_lua_5_1_vrandom_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA51_CFLAGS) -DVRANDOM_DLOPEN \
	$(vr_ffi_cppflags)
src_lua_5_1_vrandom_la_LDFLAGS = $(vr_module_ldflags)
endif
if HAVE_LUA51_HEADERS
lib_LIBRARIES += src/lua/libvrandom-lua5.1.a
src_lua_libvrandom_lua5_1_a_SOURCES = src/lua/lrandom.c
src_lua_libvrandom_lua5_1_a_CPPFLAGS = $(AM_CPPFLAGS) $(LUA51_CFLAGS) -DVRANDOM_NO_FFI
endif

if HAVE_LUA52
lua52c_LTLIBRARIES = src/lua/5.2/vrandom.la
src_lua_5_2_vrandom_la_SOURCES = $(vr_module_sources)
src_lua_5_2_vrandom_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA52_CFLAGS) -DVRANDOM_DLOPEN
src_lua_5_2_vrandom_la_LDFLAGS = $(vr_module_ldflags)
endif
if HAVE_LUA52_HEADERS
lib_LIBRARIES += src/lua/libvrandom-lua5.2.a
src_lua_libvrandom_lua5_2_a_SOURCES = src/lua/lrandom.c
src_lua_libvrandom_lua5_2_a_CPPFLAGS = $(AM_CPPFLAGS) $(LUA52_CFLAGS)
endif

if HAVE_LUA53
lua53c_LTLIBRARIES = src/lua/5.3/vrandom.la
src_lua_5_3_vrandom_la_SOURCES = $(vr_module_sources)
src_lua_5_3_vrandom_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA53_CFLAGS) -DVRANDOM_DLOPEN
src_lua_5_3_vrandom_la_LDFLAGS = $(vr_module_ldflags)
endif
if HAVE_LUA53_HEADERS
lib_LIBRARIES += src/lua/libvrandom-lua5.3.a
src_lua_libvrandom_lua5_3_a_SOURCES = src/lua/lrandom.c
src_lua_libvrandom_lua5_3_a_CPPFLAGS = $(AM_CPPFLAGS) $(LUA53_CFLAGS)
endif

if HAVE_LUA55
lua55c_LTLIBRARIES = src/lua/5.5/vrandom.la
src_lua_5_5_vrandom_la_SOURCES = $(vr_module_sources)
src_lua_5_5_vrandom_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA55_CFLAGS) -DVRANDOM_DLOPEN
src_lua_5_5_vrandom_la_LDFLAGS = $(vr_module_ldflags)
endif
if HAVE_LUA55_HEADERS
lib_LIBRARIES += src/lua/libvrandom-lua5.5.a
src_lua_libvrandom_lua5_5_a_SOURCES = src/lua/lrandom.c
src_lua_libvrandom_lua5_5_a_CPPFLAGS = $(AM_CPPFLAGS) $(LUA55_CFLAGS)
endif

if HAVE_LUAJIT
if HAVE_LUA51
noinst_LTLIBRARIES += src/lua/luajit/vrandom.la
src_lua_luajit_vrandom_la_LDFLAGS = $(vr_module_ldflags) -rpath $(lua51cdir)
else
lua51c_LTLIBRARIES += src/lua/luajit/vrandom.la
src_lua_luajit_vrandom_la_LDFLAGS = $(vr_module_ldflags)
endif
src_lua_luajit_vrandom_la_SOURCES = $(vr_module_sources)
src_lua_luajit_vrandom_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUAJIT_CFLAGS) -DVRANDOM_DLOPEN \
	$(vr_ffi_cppflags)
# The test scripts under LuaJIT, its FFI path and the classic one: the
# one place make check runs ffi.lua.
TESTS += test/lua/luajit.sh
AM_TESTS_ENVIRONMENT += LUAJIT='$(LUAJIT)'; export LUAJIT;
endif
EXTRA_DIST += test/lua/luajit.sh
if HAVE_LUAJIT_HEADERS
lib_LIBRARIES += src/lua/libvrandom-luajit.a
src_lua_libvrandom_luajit_a_SOURCES = src/lua/lrandom.c
src_lua_libvrandom_luajit_a_CPPFLAGS = $(AM_CPPFLAGS) $(LUAJIT_CFLAGS) $(vr_ffi_cppflags)
endif

# bench/vrbench for each of them (local.mk builds 5.4's): what
# scripts/lua-versions-test.sh --bench compares the binding with.
vr_vrbench_sources = bench/lua_vrbench.c bench/raw.c src/runtime/vdso.c
vr_vrbench_ldflags = -module -avoid-version -shared -rpath $(libdir)
if HAVE_LUA51
noinst_LTLIBRARIES += bench/5.1/vrbench.la
bench_5_1_vrbench_la_SOURCES = $(vr_vrbench_sources)
bench_5_1_vrbench_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA51_CFLAGS)
bench_5_1_vrbench_la_LDFLAGS = $(vr_vrbench_ldflags)
endif
if HAVE_LUA52
noinst_LTLIBRARIES += bench/5.2/vrbench.la
bench_5_2_vrbench_la_SOURCES = $(vr_vrbench_sources)
bench_5_2_vrbench_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA52_CFLAGS)
bench_5_2_vrbench_la_LDFLAGS = $(vr_vrbench_ldflags)
endif
if HAVE_LUA53
noinst_LTLIBRARIES += bench/5.3/vrbench.la
bench_5_3_vrbench_la_SOURCES = $(vr_vrbench_sources)
bench_5_3_vrbench_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA53_CFLAGS)
bench_5_3_vrbench_la_LDFLAGS = $(vr_vrbench_ldflags)
endif
if HAVE_LUA55
noinst_LTLIBRARIES += bench/5.5/vrbench.la
bench_5_5_vrbench_la_SOURCES = $(vr_vrbench_sources)
bench_5_5_vrbench_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUA55_CFLAGS)
bench_5_5_vrbench_la_LDFLAGS = $(vr_vrbench_ldflags)
endif
if HAVE_LUAJIT
noinst_LTLIBRARIES += bench/luajit/vrbench.la
bench_luajit_vrbench_la_SOURCES = $(vr_vrbench_sources)
bench_luajit_vrbench_la_CPPFLAGS = $(AM_CPPFLAGS) $(LUAJIT_CFLAGS)
bench_luajit_vrbench_la_LDFLAGS = $(vr_vrbench_ldflags)
endif

# make bench-lua's LuaJIT rows: the FFI path, then the classic one.
if HAVE_LUAJIT
bench_luajit_cpath = $(abs_builddir)/src/lua/luajit/.libs/?.so;$(abs_builddir)/bench/luajit/.libs/?.so
bench-lua-luajit: src/lua/luajit/vrandom.la bench/luajit/vrbench.la
	@if [ "$(LUAJIT)" = false ]; then echo "bench-lua: no luajit to run"; exit 0; fi; \
	for ffi in 1 0; do \
	  echo "== LuaJIT, VRANDOM_LUAJIT_FFI=$$ffi (load average $$(cut -d' ' -f1-3 /proc/loadavg))"; \
	  VRANDOM_LUAJIT_FFI=$$ffi LUA_CPATH='$(bench_luajit_cpath)' \
	    $(LUAJIT) $(srcdir)/bench/lua_bench.lua || exit 1; \
	done
else
bench-lua-luajit:
	@echo "bench-lua: the LuaJIT module is not built (configure found no LuaJIT)"
endif
.PHONY: bench-lua-luajit
