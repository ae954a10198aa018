# Lua in firmware: the binding as a static archive, and with
# --with-lua-src=DIR an interpreter, the lua.c and core of the Lua 5.1 to
# 5.5 tree DIR with vrandom preloaded (src/lua/preload.c): vrandom-lua5.1,
# vrandom-lua5.2, vrandom-lua5.3, vrandom-lua5.5, or for 5.4 vrandom-lua (installed as
# vrandom-lua5.4 too).  versions.mk builds the other versions' archives.

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
DISTCLEANFILES = src/lua/deb/*-deb-multiarch.h
EXTRA_DIST += src/lua/preload.c src/lua/footprint-lua.sh \
	test/lua/static.lua examples/embed/Makefile \
	examples/embed/host.c examples/embed/session.lua

if HAVE_LUA_SRC
# The tree's files by name (configure lists them): automake cannot know a
# directory given at configure time, so these are plain make rules.
luasrc_objs = $(LUA_SRC_CORE:%=src/lua/luasrc/%.$(OBJEXT))
luasrc_lua = src/lua/luasrc/lua.$(OBJEXT)

# A static binary cannot dlopen: POSIX only, and C modules say so.  Else
# POSIX and dlopen, as LUA_USE_LINUX has them without 5.1 to 5.3's readline.
if LUA_ALL_STATIC
luasrc_sys = -DLUA_USE_POSIX
luasrc_ldflags = -all-static
else
luasrc_sys = -DLUA_USE_POSIX -DLUA_USE_DLOPEN
luasrc_ldflags = -Wl,-E
endif
luasrc_cflags = -std=gnu99 $(LUA_SRC_COMPAT) $(luasrc_sys) -I$(LUA_SRC)/src

src/lua/luasrc/%.$(OBJEXT): $(LUA_SRC)/src/%.c
	$(AM_V_CC)$(MKDIR_P) src/lua/luasrc && \
	  $(CC) $(luasrc_cflags) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
# The tree's luaL_openlibs under another name, for preload.c's to call:
# every standard library of that version, as the tree itself opens them.
# 5.5's linit.c defines luaL_openselectedlibs, and luaL_openlibs is a macro.
if LUA_SRC_55
luasrc_openlibs = luaL_openselectedlibs
else
luasrc_openlibs = luaL_openlibs
endif
src/lua/luasrc/linit-std.$(OBJEXT): $(LUA_SRC)/src/linit.c
	$(AM_V_CC)$(MKDIR_P) src/lua/luasrc && \
	  $(CC) $(luasrc_cflags) -D$(luasrc_openlibs)=vrandom_lua_stdlibs \
	  $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
src/lua/luasrc/preload.$(OBJEXT): $(srcdir)/src/lua/preload.c
	$(AM_V_CC)$(MKDIR_P) src/lua/luasrc && \
	  $(CC) -I$(builddir) -I$(srcdir)/include $(luasrc_cflags) $(CPPFLAGS) $(CFLAGS) -c -o $@ $(srcdir)/src/lua/preload.c
CLEANFILES += src/lua/luasrc/*.$(OBJEXT)

# The interpreter, named after the tree's version, with that version's
# archive.  The names differ; what goes in is the same.
luasrc_ldadd = $(luasrc_lua) src/lua/luasrc/preload.$(OBJEXT) \
	src/lua/luasrc/linit-std.$(OBJEXT) $(luasrc_objs) \
	$(luasrc_archive) libvrandom.la -lm
if LUA_SRC_51
luasrc_archive = src/lua/libvrandom-lua5.1.a
luasrc_bin = src/lua/vrandom-lua5.1$(EXEEXT)
bin_PROGRAMS += src/lua/vrandom-lua5.1
src_lua_vrandom_lua5_1_SOURCES =
src_lua_vrandom_lua5_1_LDFLAGS = $(luasrc_ldflags)
src_lua_vrandom_lua5_1_LDADD = $(luasrc_ldadd)
endif
if LUA_SRC_52
luasrc_archive = src/lua/libvrandom-lua5.2.a
luasrc_bin = src/lua/vrandom-lua5.2$(EXEEXT)
bin_PROGRAMS += src/lua/vrandom-lua5.2
src_lua_vrandom_lua5_2_SOURCES =
src_lua_vrandom_lua5_2_LDFLAGS = $(luasrc_ldflags)
src_lua_vrandom_lua5_2_LDADD = $(luasrc_ldadd)
endif
if LUA_SRC_53
luasrc_archive = src/lua/libvrandom-lua5.3.a
luasrc_bin = src/lua/vrandom-lua5.3$(EXEEXT)
bin_PROGRAMS += src/lua/vrandom-lua5.3
src_lua_vrandom_lua5_3_SOURCES =
src_lua_vrandom_lua5_3_LDFLAGS = $(luasrc_ldflags)
src_lua_vrandom_lua5_3_LDADD = $(luasrc_ldadd)
endif
if LUA_SRC_55
luasrc_archive = src/lua/libvrandom-lua5.5.a
luasrc_bin = src/lua/vrandom-lua5.5$(EXEEXT)
bin_PROGRAMS += src/lua/vrandom-lua5.5
src_lua_vrandom_lua5_5_SOURCES =
src_lua_vrandom_lua5_5_LDFLAGS = $(luasrc_ldflags)
src_lua_vrandom_lua5_5_LDADD = $(luasrc_ldadd)
endif
if LUA_SRC_54
luasrc_archive = src/lua/libvrandom-lua.a
luasrc_bin = src/lua/vrandom-lua$(EXEEXT)
bin_PROGRAMS += src/lua/vrandom-lua
src_lua_vrandom_lua_SOURCES =
src_lua_vrandom_lua_LDFLAGS = $(luasrc_ldflags)
src_lua_vrandom_lua_LDADD = $(luasrc_ldadd)
# 5.4's interpreter by its version's name too, as the others have theirs.
install-vrandom-lua54:
	cd $(DESTDIR)$(bindir) && rm -f vrandom-lua5.4$(EXEEXT) && \
	  $(LN_S) vrandom-lua$(EXEEXT) vrandom-lua5.4$(EXEEXT)
uninstall-vrandom-lua54:
	rm -f $(DESTDIR)$(bindir)/vrandom-lua5.4$(EXEEXT)
endif

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
	$(luasrc_archive) libvrandom.la -lm

# bench/lua_bench.lua under the interpreter built here.
bench-lua-static: $(luasrc_bin)
	$(luasrc_bin) $(srcdir)/bench/lua_bench.lua

footprint-lua: $(luasrc_bin) src/lua/lua-plain$(EXEEXT)
	@STRIP='$(STRIP)' SIZE='$(STRIP:strip=size)' \
	  $(SHELL) $(srcdir)/src/lua/footprint-lua.sh \
	  src/lua/lua-plain$(EXEEXT) $(luasrc_bin)
else
footprint-lua bench-lua-static:
	@echo "$@: configure --with-lua-src=DIR first"
endif
if !LUA_SRC_54
install-vrandom-lua54 uninstall-vrandom-lua54:
endif
install-exec-hook: install-vrandom-lua54
uninstall-hook: uninstall-vrandom-lua54
.PHONY: footprint-lua bench-lua-static install-vrandom-lua54 uninstall-vrandom-lua54

# lvrandom.h declares luaopen_vrandom for the hosts that link one of the
# static bindings (this file's, or versions.mk's for 5.1-5.3, 5.5 and LuaJIT).
if HAVE_LUA_ARCHIVE
include_HEADERS += include/lvrandom.h
endif
