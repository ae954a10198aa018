################################################################################
#
# lua-vrandom
#
################################################################################

# The same tarball as vrandom's, configured for the selected Lua.
LUA_VRANDOM_VERSION = $(VRANDOM_VERSION)
LUA_VRANDOM_SOURCE = $(VRANDOM_SOURCE)
LUA_VRANDOM_SITE = $(VRANDOM_SITE)
LUA_VRANDOM_DL_SUBDIR = vrandom
LUA_VRANDOM_DEPENDENCIES = luainterpreter
LUA_VRANDOM_INSTALL_STAGING = YES

# configure takes each Lua's headers in a variable of its own: LUA51_CFLAGS,
# LUA53_CFLAGS, LUA_CFLAGS (5.4), LUAJIT_CFLAGS.  --with-lua names the
# version, and configure fails if it cannot build that module; without
# shared libraries there is none to build, and the headers give the static
# binding alone.
ifeq ($(BR2_PACKAGE_LUAJIT),y)
LUA_VRANDOM_LUA = luajit
LUA_VRANDOM_CONF_ENV = LUAJIT_CFLAGS="-I$(STAGING_DIR)/usr/include/luajit-2.1"
else
LUA_VRANDOM_LUA = $(LUAINTERPRETER_ABIVER)
LUA_VRANDOM_CONF_ENV = \
	LUA$(subst .,,$(filter-out 5.4,$(LUAINTERPRETER_ABIVER)))_CFLAGS="-I$(STAGING_DIR)/usr/include"
endif
ifeq ($(BR2_STATIC_LIBS),)
LUA_VRANDOM_CONF_OPTS = --with-lua=$(LUA_VRANDOM_LUA)
endif
# The interpreter is the lua package's source tree, built again here.
ifeq ($(BR2_PACKAGE_LUA_VRANDOM_INTERPRETER),y)
LUA_VRANDOM_CONF_OPTS += --with-lua-src=$(LUA_DIR)
endif

# vrandom's own files are the vrandom package's: this build is installed
# aside, and only its Lua parts go to staging and the target.
define LUA_VRANDOM_INSTALL_ASIDE
	rm -rf $(@D)/lua-stage
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) DESTDIR=$(@D)/lua-stage install
endef
LUA_VRANDOM_POST_BUILD_HOOKS += LUA_VRANDOM_INSTALL_ASIDE

define LUA_VRANDOM_INSTALL_STAGING_CMDS
	$(INSTALL) -d $(STAGING_DIR)/usr/include $(STAGING_DIR)/usr/lib
	$(INSTALL) -m 0644 $(@D)/lua-stage/usr/include/lvrandom.h \
		$(STAGING_DIR)/usr/include/
	$(INSTALL) -m 0644 $(@D)/lua-stage/usr/lib/libvrandom-lua*.a \
		$(STAGING_DIR)/usr/lib/
endef

define LUA_VRANDOM_INSTALL_TARGET_CMDS
	for f in $(@D)/lua-stage/usr/lib/lua/*/vrandom.so; do \
		d=$${f%/vrandom.so}; [ ! -e "$$f" ] || $(INSTALL) -D -m 0755 "$$f" \
			$(TARGET_DIR)/usr/lib/lua/$${d##*/}/vrandom.so || exit 1; \
	done
	mkdir -p $(TARGET_DIR)/usr/bin
	for f in $(@D)/lua-stage/usr/bin/vrandom-lua*; do \
		[ ! -e "$$f" ] || cp -dpf "$$f" $(TARGET_DIR)/usr/bin/ || exit 1; \
	done
endef

$(eval $(autotools-package))
