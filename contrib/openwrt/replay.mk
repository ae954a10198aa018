# Stand-ins for the OpenWrt build system, written for test/recipes.sh: they
# run vrandom/Makefile's own definitions the way OpenWrt's package.mk runs
# them for a PKG_INSTALL package, with the defaults of OpenWrt's configure
# arguments.  Not OpenWrt: no download, no patches, no ipk, and the build
# is out of the source tree.
#
#   make -f replay.mk SRC=vrandom-tree B=build-dir STAGING_DIR=dir \
#     TARGET_DIR=dir GNU_TARGET_NAME=triplet GNU_HOST_NAME=triplet CC=cc \
#     [CONFIG_PACKAGE_lua-vrandom=y ...]

TOPDIR := $(B)/sdk
INCLUDE_DIR := $(B)/sdk
$(shell mkdir -p $(B)/sdk && touch $(B)/sdk/rules.mk $(B)/sdk/package.mk)
PKG_BUILD_DIR := $(B)/build
PKG_INSTALL_DIR := $(B)/ipkg-install
INSTALL_DIR := install -d -m0755
INSTALL_BIN := install -m0755
INSTALL_DATA := install -m0644
CP := cp -fpR
LN := ln -sf
TARGET_CFLAGS ?= -Os -pipe
CONFIGURE_PREFIX := /usr
CONFIGURE_ARGS = --target=$(GNU_TARGET_NAME) --host=$(GNU_TARGET_NAME) \
	--build=$(GNU_HOST_NAME) --program-prefix="" --program-suffix="" \
	--prefix=/usr --exec-prefix=/usr --bindir=/usr/bin --sbindir=/usr/sbin \
	--libexecdir=/usr/lib --sysconfdir=/etc --datadir=/usr/share \
	--localstatedir=/var --mandir=/usr/man --infodir=/usr/info --disable-nls
CONFIGURE_VARS = CC="$(CC)" CFLAGS="$(TARGET_CFLAGS)" CPPFLAGS="" LDFLAGS=""
define nl


endef
PACKAGES :=
BuildPackage = $(eval PACKAGES += $(1))
include $(dir $(lastword $(MAKEFILE_LIST)))vrandom/Makefile

# libvrandom and vrandom always; a Lua package when its CONFIG_ is set.
SELECTED := libvrandom vrandom $(foreach p,$(PACKAGES),$(if $(CONFIG_PACKAGE_$(p)),$(p)))

all:
	rm -rf $(PKG_BUILD_DIR) $(PKG_INSTALL_DIR) && mkdir -p $(PKG_BUILD_DIR)
	cd $(PKG_BUILD_DIR) && $(CONFIGURE_VARS) $(SRC)/configure $(CONFIGURE_ARGS) >configure.out
	$(MAKE) -C $(PKG_BUILD_DIR) >$(B)/make.out
	$(MAKE) -C $(PKG_BUILD_DIR) DESTDIR=$(PKG_INSTALL_DIR) install >$(B)/install.out
	$(call Build/InstallDev,$(STAGING_DIR))
	$(foreach p,$(SELECTED),$(call Package/$(p)/install,$(TARGET_DIR))$(nl))
.PHONY: all
