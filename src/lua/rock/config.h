/* config.h for builds without configure: the luarocks rockspec compiles the
 * runtime with this directory first on the include path.  The version is
 * checked against configure's by test/lua/module.lua. */
/* The module exports luaopen_vrandom alone, as configure's build does with
 * -export-symbols-regex (luarocks' builtin backend takes no linker flags):
 * vrandom.h declares the runtime's C API hidden. */
#define VRANDOM_HIDE_API 1

/* What configure's AC_USE_SYSTEM_EXTENSIONS gives every source file,
 * which includes config.h first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#define PACKAGE_VERSION "0.1.0"
/* glibc has link namespaces (dlmopen, LD_AUDIT) for the runtime to detect;
 * musl has none.  configure probes for it; here the C library tells. */
#include <features.h>
#ifdef __GLIBC__
#define HAVE_LINK_NAMESPACES 1
#endif
