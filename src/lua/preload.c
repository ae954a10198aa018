/* luaL_openlibs for vrandom-lua, in place of the Lua tree's linit.c: the
 * standard libraries as lua.c expects them, and vrandom in package.preload,
 * so require("vrandom") finds it with no searcher, no package.cpath and no
 * shared object -- a static binary cannot dlopen one. */
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lvrandom.h"

static const luaL_Reg stdlibs[] = {
	{LUA_GNAME, luaopen_base},
	{LUA_LOADLIBNAME, luaopen_package},
	{LUA_COLIBNAME, luaopen_coroutine},
	{LUA_TABLIBNAME, luaopen_table},
	{LUA_IOLIBNAME, luaopen_io},
	{LUA_OSLIBNAME, luaopen_os},
	{LUA_STRLIBNAME, luaopen_string},
	{LUA_MATHLIBNAME, luaopen_math},
	{LUA_UTF8LIBNAME, luaopen_utf8},
	{LUA_DBLIBNAME, luaopen_debug},
	{NULL, NULL}
};

LUALIB_API void luaL_openlibs (lua_State *L)
{
	const luaL_Reg *lib;

	for (lib = stdlibs; lib->name; lib++) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	/* Preloaded, not opened: a script that never requires it pays nothing
	 * (no state is taken from the pool). */
	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
	lua_pushcfunction(L, luaopen_vrandom);
	lua_setfield(L, -2, LUA_VRANDOMLIBNAME);
	lua_pop(L, 1);
}
