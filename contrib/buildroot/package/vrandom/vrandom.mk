################################################################################
#
# vrandom
#
################################################################################

VRANDOM_VERSION = 0.1.0
# The tarball `make dist` makes in a vrandom checkout.  VRANDOM_SITE is where
# you publish it (or a local directory, with VRANDOM_SITE_METHOD = file);
# left empty, the tarball must be in $(BR2_DL_DIR)/vrandom/ already.
VRANDOM_SOURCE = vrandom-$(VRANDOM_VERSION).tar.gz
VRANDOM_SITE =
VRANDOM_INSTALL_STAGING = YES
# The Lua module and interpreter are the lua-vrandom package's.
VRANDOM_CONF_OPTS = --without-lua

$(eval $(autotools-package))
