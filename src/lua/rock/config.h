/* config.h for builds without configure: the luarocks rockspec compiles the
 * runtime with this directory first on the include path.  The version is
 * checked against configure's by test/lua/module.lua. */
#define PACKAGE_VERSION "0.1.0"

/* The module exports luaopen_vrandom alone, as configure's build does with
 * -export-symbols-regex; luarocks' builtin backend takes no linker flags,
 * so what follows this header in the runtime (its C API) is hidden.  The
 * system headers it needs come first, to keep their default visibility. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#pragma GCC visibility push(hidden)
