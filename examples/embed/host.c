/* A host program with Lua inside, as appliance firmware has it: one static
 * binary, the Lua core and vrandom linked in, no dlopen.  It registers
 * vrandom the standard way and runs the script named on its command line
 * (session.lua here), passing the remaining arguments as ... */
#include <stdio.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lvrandom.h"     /* luaopen_vrandom, from libvrandom-lua.a */

int main(int argc, char **argv)
{
	lua_State *L;
	int i, status;

	if (argc < 2) {
		fprintf(stderr, "usage: %s SCRIPT [ARG...]\n", argv[0]);
		return 2;
	}
	if (!(L = luaL_newstate())) {
		fprintf(stderr, "%s: cannot create a Lua state\n", argv[0]);
		return 1;
	}
	luaL_openlibs(L);
	/* As package.loaded["vrandom"], and as the global vrandom. */
	luaL_requiref(L, LUA_VRANDOMLIBNAME, luaopen_vrandom, 1);
	lua_pop(L, 1);

	status = luaL_loadfile(L, argv[1]);
	if (status == LUA_OK) {
		for (i = 2; i < argc; i++)
			lua_pushstring(L, argv[i]);
		status = lua_pcall(L, argc - 2, 0, 0);
	}
	if (status != LUA_OK)
		fprintf(stderr, "%s: %s\n", argv[0], lua_tostring(L, -1));
	lua_close(L);  /* generators' __gc give their states back */
	return status != LUA_OK;
}
