/* luaL_openlibs for the vrandom-lua interpreters, in place of the Lua
 * tree's linit.c: the tree's own luaL_openlibs (5.5's luaL_openselectedlibs),
 * compiled under the name vrandom_lua_stdlibs (static.mk), opens every
 * standard library of that version as lua.c expects them; then vrandom
 * goes in package.preload, so require("vrandom") finds it with no
 * searcher, no package.cpath and no shared object -- a static binary
 * cannot dlopen one.  Only calls every Lua from 5.1 has: 5.1 has no
 * luaL_requiref. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lvrandom.h"

/* Preloaded, not opened: a script that never requires it pays nothing
 * (no state is taken from the pool). */
static void vrandom_preload (lua_State *L)
{
	lua_getglobal(L, "package");
	lua_getfield(L, -1, "preload");
	lua_pushcfunction(L, luaopen_vrandom);
	lua_setfield(L, -2, LUA_VRANDOMLIBNAME);
	lua_pop(L, 2);
}

#if LUA_VERSION_NUM >= 505
/* 5.5's lua.c opens them through luaL_openselectedlibs, which its
 * luaL_openlibs names (a macro now). */
void vrandom_lua_stdlibs(lua_State *L, int load, int preload);

LUALIB_API void luaL_openselectedlibs (lua_State *L, int load, int preload)
{
	vrandom_lua_stdlibs(L, load, preload);
	if (load & LUA_LOADLIBK)
		vrandom_preload(L);
}
#else
void vrandom_lua_stdlibs(lua_State *L);

LUALIB_API void luaL_openlibs (lua_State *L)
{
	vrandom_lua_stdlibs(L);
	vrandom_preload(L);
}
#endif
