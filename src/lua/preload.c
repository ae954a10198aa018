/* luaL_openlibs for the vrandom-lua interpreters, in place of the Lua
 * tree's linit.c: the tree's own luaL_openlibs, compiled under the name
 * vrandom_lua_stdlibs (static.mk), opens every standard library of that
 * version as lua.c expects them; then vrandom goes in package.preload, so
 * require("vrandom") finds it with no searcher, no package.cpath and no
 * shared object -- a static binary cannot dlopen one.  Only calls every
 * Lua from 5.1 has: 5.1 has no luaL_requiref. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lvrandom.h"

void vrandom_lua_stdlibs(lua_State *L);

LUALIB_API void luaL_openlibs (lua_State *L)
{
	vrandom_lua_stdlibs(L);
	/* Preloaded, not opened: a script that never requires it pays nothing
	 * (no state is taken from the pool). */
	lua_getglobal(L, "package");
	lua_getfield(L, -1, "preload");
	lua_pushcfunction(L, luaopen_vrandom);
	lua_setfield(L, -2, LUA_VRANDOMLIBNAME);
	lua_pop(L, 2);
}
