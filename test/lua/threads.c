/* The binding linked into the program (libvrandom-lua.a and libvrandom.a,
 * no dlopen, nothing pinned): Lua states in threads that draw and exit
 * give their threads' states back through the runtime's thread-exit
 * destructor; a forked child, through Lua, never repeats its parent.
 * Built for every Lua from 5.1 (scripts/lua-versions-test.sh links it
 * with each one's archive; under LuaJIT it runs both paths). */
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lvrandom.h"

#include "vrandom.h"
#include "../tally.h"

#ifndef LUA_OK  /* 5.1 */
#define LUA_OK 0
#endif

#define NTHREADS 16

static size_t in_use(void)
{
	struct vrandom_info info;

	return vrandom_get_info(&info) ? (size_t)-1 : info.states_in_use;
}

/* A fresh Lua state with vrandom registered (as a global: every Lua from
 * 5.1 can, luaL_requiref is 5.2's); 16 bytes into out. */
static int draw(char *out)
{
	lua_State *L = luaL_newstate();
	const char *s;
	size_t n = 0;
	int ok;

	luaL_openlibs(L);
	lua_pushcfunction(L, luaopen_vrandom);  /* no luaL_requiref before 5.2 */
	lua_call(L, 0, 1);
	lua_setglobal(L, LUA_VRANDOMLIBNAME);
	/* LuaJIT's FFI path serves unless VRANDOM_LUAJIT_FFI=0. */
	ok = luaL_dostring(L, "local b = vrandom.info().binding "
		"assert(b == (rawget(_G, 'jit') and os.getenv('VRANDOM_LUAJIT_FFI') ~= '0' "
		"and 'ffi' or 'classic'), b) return vrandom.bytes(16)") == LUA_OK &&
	     (s = lua_tolstring(L, -1, &n)) && n == 16;
	if (ok)
		memcpy(out, s, 16);
	lua_close(L);
	return ok;
}

static void *worker(void *arg)
{
	char buf[16];

	*(int *)arg = draw(buf);
	return 0;
}

int main(void)
{
	struct vrandom_info info;
	pthread_t t[NTHREADS];
	int ok[NTHREADS], i, fd[2], st;
	size_t base;
	char parent[16], child[16];

	CHECK(draw(parent));  /* the main thread holds its state from here */
	CHECK(vrandom_get_info(&info) == 0);
	base = in_use();
	for (i = 0; i < NTHREADS; i++)
		CHECK(pthread_create(&t[i], 0, worker, &ok[i]) == 0);
	for (i = 0; i < NTHREADS; i++) {
		CHECK(pthread_join(t[i], 0) == 0);
		CHECK(ok[i]);
	}
	/* Only the vDSO backend pools states; the others hold none. */
	CHECK(in_use() == (info.backend == VRANDOM_VDSO ? base : 0));

	CHECK(pipe(fd) == 0);
	switch (fork()) {
	case -1:
		CHECK(0);
		break;
	case 0:
		close(fd[0]);
		_exit(!draw(child) || write(fd[1], child, 16) != 16);
	default:
		close(fd[1]);
		CHECK(draw(parent));
		CHECK(read(fd[0], child, 16) == 16);
		CHECK(wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CHECK(memcmp(parent, child, 16) != 0);
	}
	return tally_finish();
}
