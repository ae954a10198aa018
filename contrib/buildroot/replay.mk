# Stand-ins for Buildroot, written for test/recipes.sh: they run this
# external tree's packages (package/*/*.mk) the way Buildroot's autotools
# infrastructure runs a package, with its configure arguments and its
# install steps, then remove from the target what Buildroot's
# target-finalize removes.  Not Buildroot: no download, no Kconfig, and the
# build is out of the source tree.
#
#   make -f replay.mk SRC=vrandom-tree B=build-dir STAGING_DIR=dir \
#     TARGET_DIR=dir GNU_TARGET_NAME=triplet GNU_HOST_NAME=triplet CC=cc \
#     LUAINTERPRETER_ABIVER=5.x BR2_PACKAGE_LUA=y BR2_PACKAGE_VRANDOM=y \
#     BR2_PACKAGE_LUA_VRANDOM=y [BR2_STATIC_LIBS=y] [LUA_DIR=lua-tree \
#     BR2_PACKAGE_LUA_VRANDOM_INTERPRETER=y]

all:
BR2_EXTERNAL_VRANDOM_PATH := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
INSTALL := install
TARGET_MAKE_ENV :=
TARGET_CFLAGS ?= -Os
# Buildroot adds -static to its flags for a static-only configuration.
vr_static = $(if $(BR2_STATIC_LIBS),-static)
TARGET_CONFIGURE_OPTS = CC="$(CC)" CFLAGS="$(TARGET_CFLAGS) $(vr_static)" LDFLAGS="$(vr_static)"
SHARED_STATIC_LIBS_OPTS = $(if $(BR2_STATIC_LIBS),--enable-static --disable-shared,--disable-static --enable-shared)
PKGS :=
autotools-package = $(eval PKGS += $(basename $(notdir $(lastword $(MAKEFILE_LIST)))))
include $(BR2_EXTERNAL_VRANDOM_PATH)/external.mk
UC = $(subst -,_,$(shell echo $(1) | tr a-z A-Z))
tab := $(shell printf '\t')
define nl


endef

# One package: configure, build, install to staging and target, as the
# autotools infrastructure does when no *_CMDS replace its own.
define replay
$(B)/$(1)/.stamp_installed:
	rm -rf $(B)/$(1) && mkdir -p $(B)/$(1)
	cd $(B)/$(1) && $(TARGET_CONFIGURE_OPTS) $($(2)_CONF_ENV) CONFIG_SITE=/dev/null \
		$(SRC)/configure --target=$(GNU_TARGET_NAME) --host=$(GNU_TARGET_NAME) \
		--build=$(GNU_HOST_NAME) --prefix=/usr --exec-prefix=/usr \
		--sysconfdir=/etc --localstatedir=/var --program-prefix="" \
		--disable-gtk-doc --disable-gtk-doc-html --disable-doc --disable-docs \
		--disable-documentation --with-xmlto=no --with-fop=no \
		--disable-dependency-tracking --disable-nls \
		$(SHARED_STATIC_LIBS_OPTS) $($(2)_CONF_OPTS) >configure.out
	$(TARGET_MAKE_ENV) $$(MAKE) -C $$(@D) $($(2)_MAKE_OPTS) >$$(@D)/make.out
	$(foreach h,$($(2)_POST_BUILD_HOOKS),$$(call $(h))$(nl)$(tab))
	$(if $(value $(2)_INSTALL_STAGING_CMDS),$$(call $(2)_INSTALL_STAGING_CMDS),\
		$$(MAKE) -C $$(@D) DESTDIR=$(STAGING_DIR) install >$$(@D)/staging.out)
	$(if $(value $(2)_INSTALL_TARGET_CMDS),$$(call $(2)_INSTALL_TARGET_CMDS),\
		$$(MAKE) -C $$(@D) DESTDIR=$(TARGET_DIR) install >$$(@D)/target.out)
	touch $$@
endef
$(foreach p,$(PKGS),$(eval $(call replay,$(p),$(call UC,$(p)))))

# The packages selected (neither depends on the other), or those named in
# REPLAY; then what target-finalize strips from the target.
REPLAY ?= $(if $(BR2_PACKAGE_VRANDOM),vrandom) $(if $(BR2_PACKAGE_LUA_VRANDOM),lua-vrandom)
all: $(foreach p,$(REPLAY),$(B)/$(p)/.stamp_installed)
	rm -rf $(TARGET_DIR)/usr/include $(TARGET_DIR)/usr/lib/pkgconfig $(TARGET_DIR)/usr/share/man
	find $(TARGET_DIR) \( -name '*.a' -o -name '*.la' \) -delete
.PHONY: all
