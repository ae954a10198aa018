# vrandom for a static firmware image: copy this file beside your Makefile,
# `include vrandom.mk`, and link with $(VRANDOM_LIBS).
#
#   VRANDOM_SRC     vrandom's source tree (a release tarball unpacked)
#   VRANDOM_HOST    the target triplet for configure, e.g. aarch64-linux-musl
#   VRANDOM_STAGE   where vrandom is installed for the build (DESTDIR)
#   VRANDOM_LUA_INC the directory of the target's lua.h, for the Lua
#                   binding; unset, no Lua part
#   VRANDOM_LUA_VERSION  that Lua's version, 5.1 to 5.5 (default 5.4):
#                   the binding is libvrandom-lua.a for 5.4, else
#                   libvrandom-lua5.x.a
#
# $(VRANDOM_LIBS) puts the libc shim ahead of libc: every getrandom(),
# getentropy() and arc4random*() in the program -- yours and your
# libraries' -- goes through the vDSO.  Code that only calls vrandom_*()
# can use $(VRANDOM_API_LIBS) and keep libc's own getrandom().
#
# A program that embeds Lua links $(VRANDOM_LUA_LIBS) after its own objects
# and before its liblua, and registers the module itself:
#   #include <lvrandom.h>
#   luaL_requiref(L, LUA_VRANDOMLIBNAME, luaopen_vrandom, 1);
# (examples/embed/).

VRANDOM_SRC ?= ../vrandom
VRANDOM_HOST ?=
VRANDOM_STAGE ?= $(CURDIR)/vrandom-stage
VRANDOM_CFLAGS = -I$(VRANDOM_STAGE)/usr/include
VRANDOM_API_LIBS = -L$(VRANDOM_STAGE)/usr/lib -lvrandom
VRANDOM_LIBS = -L$(VRANDOM_STAGE)/usr/lib -lvrandom-libc -lvrandom
VRANDOM_A = $(VRANDOM_STAGE)/usr/lib/libvrandom.a
VRANDOM_LUA_INC ?=
VRANDOM_LUA_VERSION ?= 5.4
# configure's name for that Lua (LUA_CFLAGS for 5.4, LUA55_CFLAGS...).
vrandom_lua_id = $(if $(filter 5.4,$(VRANDOM_LUA_VERSION)),,$(subst .,,$(VRANDOM_LUA_VERSION)))
vrandom_lua_lib = vrandom-lua$(if $(vrandom_lua_id),$(VRANDOM_LUA_VERSION))
VRANDOM_LUA_LIBS = -L$(VRANDOM_STAGE)/usr/lib -l$(vrandom_lua_lib) -lvrandom
VRANDOM_LUA_A = $(VRANDOM_STAGE)/usr/lib/lib$(vrandom_lua_lib).a

# Configured like any autotools package for the target; static only.  The
# binding needs Lua's headers only: configure takes them as LUA_CFLAGS
# (LUA51_CFLAGS, ... for the other versions).
vrandom_lua = $(if $(VRANDOM_LUA_INC),LUA$(vrandom_lua_id)_CFLAGS=-I$(abspath $(VRANDOM_LUA_INC)) LUA_LIBS=-llua,--without-lua)
# A source tree configured in place (its own build) cannot be built
# elsewhere: a clean copy of it, made by its `make distdir`, serves then.
vrandom_inplace = $(wildcard $(VRANDOM_SRC)/config.status)
vrandom_src = $(abspath $(if $(vrandom_inplace),vrandom-src,$(VRANDOM_SRC)))
$(VRANDOM_A):
	$(if $(vrandom_inplace),rm -rf vrandom-src && \
		$(MAKE) -s -C $(VRANDOM_SRC) distdir distdir=$(abspath vrandom-src))
	mkdir -p vrandom-build
	cd vrandom-build && $(vrandom_src)/configure -q \
		$(if $(VRANDOM_HOST),--host=$(VRANDOM_HOST)) CC="$(CC)" \
		CFLAGS="-Os -ffunction-sections -fdata-sections" \
		--prefix=/usr --enable-static --disable-shared $(vrandom_lua)
	$(MAKE) -C vrandom-build install DESTDIR=$(VRANDOM_STAGE)

vrandom-clean:
	rm -rf vrandom-build vrandom-src $(VRANDOM_STAGE)
.PHONY: vrandom-clean
