/* config.h for builds without configure: the luarocks rockspec compiles the
 * runtime with this directory first on the include path.  The version is
 * checked against configure's by test/lua/module.lua. */
/* The module exports luaopen_vrandom alone, as configure's build does with
 * -export-symbols-regex (luarocks' builtin backend takes no linker flags):
 * vrandom.h declares the runtime's C API hidden. */
#define VRANDOM_HIDE_API 1

#define PACKAGE_VERSION "0.1.0"
