/* vrbench: what bench/lua_bench.lua compares the binding with, as a Lua
 * module of its own: an empty C function, and loops of raw vDSO calls
 * (the kernel's share of a call), timed from Lua like the rest.  Built
 * for every Lua (local.mk, versions.mk). */
#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

#include "raw.h"

static struct vr_raw raw;

static int b_nop (lua_State *L)
{
	(void)L;
	return 0;
}

/* raw(nbytes, n): n raw vDSO calls of nbytes (at most 64); false
 * without a vDSO. */
static int b_raw (lua_State *L)
{
	lua_Integer len = luaL_checkinteger(L, 1), n = luaL_checkinteger(L, 2), i;
	unsigned char buf[64];

	luaL_argcheck(L, 0 <= len && len <= (lua_Integer)sizeof buf, 1, "size out of range");
	if (!raw.fn && vr_raw_setup(&raw)) {
		lua_pushboolean(L, 0);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (vr_raw_call(&raw, buf, (size_t)len) != len)
			return luaL_error(L, "raw vDSO call failed");
	lua_pushboolean(L, 1);
	return 1;
}

/* The least a binding can do for random(): one raw 7-byte vDSO call,
 * one float pushed (set up by a first raw() call). */
static int b_rawfloat (lua_State *L)
{
	uint64_t v = 0;

	vr_raw_call(&raw, &v, 7);
	lua_pushnumber(L, (lua_Number)((v >> 3) * 0x1p-53));
	return 1;
}

static const luaL_Reg funcs[] = {
	{"nop", b_nop},
	{"raw", b_raw},
	{"rawfloat", b_rawfloat},
	{NULL, NULL}
};

/* Every Lua from 5.1: no luaL_newlib. */
int luaopen_vrbench (lua_State *L)
{
	const luaL_Reg *f;

	lua_newtable(L);
	for (f = funcs; f->name; f++) {
		lua_pushcfunction(L, f->func);
		lua_setfield(L, -2, f->name);
	}
	return 1;
}
