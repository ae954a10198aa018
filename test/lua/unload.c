/* A host that runs Lua in a worker thread: the thread loads vrandom, draws,
 * closes its Lua state (which dlcloses the module) and exits.  The runtime's
 * thread-exit destructor must still be there to run. */
#include <pthread.h>
#include <stdio.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

static void *worker(void *arg)
{
	lua_State *L = luaL_newstate();
	int *ok = arg;

	luaL_openlibs(L);
	*ok = luaL_dostring(L, "local v = require('vrandom') "
			    "assert(#v.bytes(16) == 16)") == LUA_OK;
	if (!*ok)
		fprintf(stderr, "%s\n", lua_tostring(L, -1));
	lua_close(L);
	return 0;
}

int main(void)
{
	pthread_t t;
	int ok = 0;

	if (pthread_create(&t, 0, worker, &ok) || pthread_join(t, 0))
		return 99;
	printf("%d passed, %d failed\n", ok, !ok);
	return !ok;
}
