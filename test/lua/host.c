/* An embedding host for any Lua from 5.1: linked with that Lua's liblua
 * and the static archive built for it (libvrandom-lua5.1.a, ...), it puts
 * vrandom in package.preload, empties package.cpath so that no vrandom.so
 * can stand in, and runs the script named on its command line with arg
 * set as lua.c sets it.  Only calls every Lua has: no luaL_requiref. */
#include <stdio.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lvrandom.h"

int main(int argc, char **argv)
{
	lua_State *L;
	int i, status;

	if (argc < 2 || !(L = luaL_newstate()))
		return 2;
	luaL_openlibs(L);
	lua_getglobal(L, "package");
	lua_pushliteral(L, "");
	lua_setfield(L, -2, "cpath");
	lua_getfield(L, -1, "preload");
	lua_pushcfunction(L, luaopen_vrandom);
	lua_setfield(L, -2, "vrandom");
	lua_pop(L, 2);
	lua_createtable(L, argc, 0);
	for (i = 0; i < argc; i++) {
		lua_pushstring(L, argv[i]);
		lua_rawseti(L, -2, i - 1);
	}
	lua_setglobal(L, "arg");

	status = luaL_loadfile(L, argv[1]) || lua_pcall(L, 0, 0, 0);
	if (status)
		fprintf(stderr, "%s: %s\n", argv[0], lua_tostring(L, -1));
	lua_close(L);
	return status != 0;
}
