/* vrandom: what lrandom.c needs of Lua 5.1 to 5.5 and LuaJIT 2.1, in one
 * place, so that the module reads the same for all of them.  5.5 asks
 * nothing of its own: its math.random has 5.4's rules (5.5.1's lmathlib.c:
 * the same argument lists, random(0) all 64 bits, an empty interval
 * blamed on argument 1), and a module sees no change in its API.
 *
 * LuaJIT says LUA_VERSION_NUM 501 and is treated as 5.1 throughout: the
 * module built against either set of headers calls the 5.1 API alone, so
 * one lua/5.1/vrandom.so serves lua5.1 and luajit alike.
 *
 * Integers: 5.3 and 5.4 have 64-bit ones.  The others hold numbers in
 * doubles, where an integer is exact up to 2^53 only: vr_Int is int64_t
 * there and every integer argument must lie in [-2^53, 2^53], so that a
 * result, low + (a value up to 2^54), is exact too. */
#ifndef VRANDOM_LUA_COMPAT_H
#define VRANDOM_LUA_COMPAT_H

#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

#ifndef l_unlikely  /* Lua before 5.4.3 */
#define l_unlikely(x) (x)
#endif

#ifndef LUAMOD_API  /* 5.1 */
#define LUAMOD_API LUALIB_API
#endif

#if LUA_VERSION_NUM >= 503

typedef lua_Integer vr_Int;
#define VR_MAXINT LUA_MAXINTEGER
#define vr_checkint luaL_checkinteger
#define vr_pushint lua_pushinteger
/* random(0) is all 64 bits of an integer, the rule of 5.4 and 5.5 (5.3's
 * math.random calls the interval empty; its integers are just as wide, so
 * vrandom gives 5.3 scripts the 5.4 API). */
#define VR_RANDOM0 1

#else

typedef int64_t vr_Int;
#define VR_MAXINT ((vr_Int)1 << 53)
/* random(0) stays an error, as math.random(0) is here: 53 bits would not
 * be what the same call means on 5.4, and a script wanting them asks for
 * random(0, 2^53 - 1) or random(). */
#define VR_RANDOM0 0

/* As luaL_checkinteger does (truncation toward zero), after the range
 * check; the negated test also refuses NaN. */
static vr_Int vr_checkint (lua_State *L, int arg)
{
	lua_Number x = luaL_checknumber(L, arg);

	if (!(x >= -(lua_Number)VR_MAXINT && x <= (lua_Number)VR_MAXINT))
		luaL_argerror(L, arg, "number out of range [-2^53, 2^53]");
	return (vr_Int)x;
}

#define vr_pushint(L, v) lua_pushnumber(L, (lua_Number)(v))

#endif

/* Two bounds and an empty interval: 5.1 and 5.2 blame the upper one,
 * 5.3 to 5.5 the first argument. */
#define VR_EMPTY_AT_UP (LUA_VERSION_NUM < 503)

#if LUA_VERSION_NUM < 504

#define lua_newuserdatauv(L, sz, nuv) lua_newuserdata(L, sz)

static int vr_typeerror (lua_State *L, int arg, const char *tname)
{
	return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s",
		tname, luaL_typename(L, arg)));
}
#define luaL_typeerror vr_typeerror

/* 5.4's luaL_setfuncs: a NULL function is a placeholder set to false,
 * where 5.2 and 5.3 would push a closure of NULL. */
static void vr_setfuncs (lua_State *L, const luaL_Reg *l, int nup)
{
	int i;

	for (; l->name; l++) {
		if (!l->func) {
			lua_pushboolean(L, 0);
		} else {
			for (i = 0; i < nup; i++)
				lua_pushvalue(L, -nup);
			lua_pushcclosure(L, l->func, nup);
		}
		lua_setfield(L, -(nup + 2), l->name);
	}
	lua_pop(L, nup);
}
#define luaL_setfuncs vr_setfuncs

#endif

#if LUA_VERSION_NUM < 503  /* t[i] with metamethods, as 5.3's table.sort */

static void vr_geti (lua_State *L, int t, vr_Int i)
{
	lua_pushnumber(L, (lua_Number)i);
	lua_gettable(L, t < 0 ? t - 1 : t);
}

static void vr_seti (lua_State *L, int t, vr_Int i)
{
	lua_pushnumber(L, (lua_Number)i);
	lua_insert(L, -2);
	lua_settable(L, t < 0 ? t - 1 : t);
}
#define lua_geti vr_geti
#define lua_seti vr_seti

#endif

#if LUA_VERSION_NUM < 502  /* 5.1 and LuaJIT */

#undef luaL_newlibtable  /* LuaJIT's, for its 5.2 API */
#define luaL_newlibtable(L, l) \
	lua_createtable(L, 0, sizeof(l) / sizeof((l)[0]) - 1)
#define luaL_setmetatable(L, tname) \
	(luaL_getmetatable(L, tname), lua_setmetatable(L, -2))
/* No __len for tables in 5.1. */
#define luaL_len(L, t) ((vr_Int)lua_objlen(L, t))

/* 5.1's buffer has no room to ask for: the bytes go to a userdata on the
 * stack, copied once into the string, which then takes its place. */
typedef struct vr_Buffer {
	lua_State *L;
	char *p;
} vr_Buffer;
#define luaL_Buffer vr_Buffer

static char *vr_buffinitsize (lua_State *L, vr_Buffer *b, size_t n)
{
	b->L = L;
	b->p = (char *)lua_newuserdata(L, n);
	return b->p;
}

static void vr_pushresultsize (vr_Buffer *b, size_t n)
{
	lua_pushlstring(b->L, b->p, n);
	lua_remove(b->L, -2);
}
#define luaL_buffinitsize vr_buffinitsize
#define luaL_pushresultsize vr_pushresultsize

#endif

#endif
