/* config.h for builds without configure: the luarocks rockspec compiles the
 * runtime with this directory first on the include path.  The version is
 * checked against configure's by test/lua/module.lua. */
#define PACKAGE_VERSION "0.1.0"
