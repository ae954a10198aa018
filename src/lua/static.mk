# Lua in firmware: the binding as a static archive, and with
# --with-lua-src=DIR the interpreter vrandom-lua, Lua 5.4's lua.c and core
# from DIR with vrandom preloaded (src/lua/preload.c).

# libvrandom-lua.a holds lrandom.c's object alone, luaopen_vrandom its one
# global symbol: the runtime comes from libvrandom, the Lua API from the
# host (-lvrandom-lua -lvrandom).  Headers are all it needs, so it is built
# under musl too.  Linked into a program, the runtime's thread-exit and
# fork handlers stay for the program's life: nothing to pin.
if HAVE_LUA_HEADERS
lib_LIBRARIES += src/lua/libvrandom-lua.a
src_lua_libvrandom_lua_a_SOURCES = src/lua/lrandom.c
src_lua_libvrandom_lua_a_CPPFLAGS = $(AM_CPPFLAGS) $(LUA_CFLAGS)
endif

# Written by configure for Debian's headers under musl-gcc.
DISTCLEANFILES = src/lua/deb/lua5.4-deb-multiarch.h
EXTRA_DIST += src/lua/preload.c src/lua/footprint-lua.sh test/tally.sh \
	test/lua/static.lua scripts/apt-source.sh scripts/lua-src.sh \
	scripts/lua-static-test.sh examples/embed/Makefile \
	examples/embed/host.c examples/embed/session.lua

if HAVE_LUA_SRC
# The tree's files by name, as Lua's own makefile lists them: automake
# cannot know a directory given at configure time, so these are plain
# make rules.  linit.c is replaced by preload.c (lua-plain keeps it).
luasrc_core = lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem \
	lobject lopcodes lparser lstate lstring ltable ltm lundump lvm lzio \
	lauxlib lbaselib lcorolib ldblib liolib lmathlib loadlib loslib \
	lstrlib ltablib lutf8lib
luasrc_objs = $(luasrc_core:%=src/lua/luasrc/%.$(OBJEXT))
luasrc_lua = src/lua/luasrc/lua.$(OBJEXT)

# A static binary cannot dlopen: POSIX only, and C modules say so.
if LUA_ALL_STATIC
luasrc_sys = -DLUA_USE_POSIX
luasrc_ldflags = -all-static
else
luasrc_sys = -DLUA_USE_LINUX
luasrc_ldflags = -Wl,-E
endif
luasrc_cflags = -std=gnu99 -DLUA_COMPAT_5_3 $(luasrc_sys) $(LUA_CFLAGS)

src/lua/luasrc/%.$(OBJEXT): $(LUA_SRC)/src/%.c
	$(AM_V_CC)$(MKDIR_P) src/lua/luasrc && \
	  $(CC) $(luasrc_cflags) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
CLEANFILES += src/lua/luasrc/*.$(OBJEXT)

bin_PROGRAMS += src/lua/vrandom-lua
src_lua_vrandom_lua_SOURCES = src/lua/preload.c
src_lua_vrandom_lua_CPPFLAGS = -I$(srcdir)/include $(luasrc_cflags)
src_lua_vrandom_lua_LDFLAGS = $(luasrc_ldflags)
src_lua_vrandom_lua_LDADD = $(luasrc_lua) $(luasrc_objs) \
	src/lua/libvrandom-lua.a libvrandom.la -lm

# The same interpreter without vrandom, for make footprint-lua only.
EXTRA_PROGRAMS = src/lua/lua-plain
src_lua_lua_plain_SOURCES =
src_lua_lua_plain_LDFLAGS = $(luasrc_ldflags)
src_lua_lua_plain_LDADD = $(luasrc_lua) $(luasrc_objs) \
	src/lua/luasrc/linit.$(OBJEXT) -lm
CLEANFILES += src/lua/lua-plain

# The binding linked into a program: threads and fork.
check_PROGRAMS += test/lua/threads
TESTS += test/lua/threads
test_lua_threads_SOURCES = test/lua/threads.c
test_lua_threads_CPPFLAGS = $(AM_CPPFLAGS) $(luasrc_cflags)
test_lua_threads_LDFLAGS = $(luasrc_ldflags)
test_lua_threads_LDADD = $(luasrc_objs) src/lua/luasrc/linit.$(OBJEXT) \
	src/lua/libvrandom-lua.a libvrandom.la -lm

# bench/lua_bench.lua under the interpreter built here.
bench-lua-static: src/lua/vrandom-lua$(EXEEXT)
	src/lua/vrandom-lua$(EXEEXT) $(srcdir)/bench/lua_bench.lua

footprint-lua: src/lua/vrandom-lua$(EXEEXT) src/lua/lua-plain$(EXEEXT)
	@STRIP='$(STRIP)' SIZE='$(STRIP:strip=size)' \
	  $(SHELL) $(srcdir)/src/lua/footprint-lua.sh \
	  src/lua/lua-plain$(EXEEXT) src/lua/vrandom-lua$(EXEEXT)
else
footprint-lua bench-lua-static:
	@echo "$@: configure --with-lua-src=DIR first"
endif
.PHONY: footprint-lua bench-lua-static

# lvrandom.h declares luaopen_vrandom for the hosts that link one of the
# static bindings (this file's, or versions.mk's for 5.1-5.3 and LuaJIT).
if HAVE_LUA_ARCHIVE
include_HEADERS += include/lvrandom.h
endif
