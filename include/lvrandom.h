/* lvrandom.h: the vrandom Lua module, for hosts that link it in.
 *
 * A program that embeds Lua links one of the static bindings
 * (-lvrandom-lua for 5.4, -lvrandom-lua5.1, -lvrandom-lua5.2,
 * -lvrandom-lua5.3 or -lvrandom-luajit, then -lvrandom) and registers the
 * module itself, for instance:
 *
 *	luaL_requiref(L, LUA_VRANDOMLIBNAME, luaopen_vrandom, 1);
 *	lua_pop(L, 1);
 *
 * See vrandom-lua(3). */
#ifndef LVRANDOM_H
#define LVRANDOM_H

#include "lua.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LUA_VRANDOMLIBNAME "vrandom"

/* Leaves the module table on the stack, as require would return it. */
int luaopen_vrandom(lua_State *L);

#ifdef __cplusplus
}
#endif

#endif
