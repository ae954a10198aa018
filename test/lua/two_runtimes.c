/* Two copies of the runtime in one process: this program links
 * libvrandom.so, and the Lua module carries a runtime of its own (loaded
 * RTLD_LOCAL by require, its vrandom_* symbols kept local).  Two pools, two
 * thread keys, two sets of fork handlers, all in the one libc: each copy
 * must give back its own states at thread exit and neither may touch the
 * other's, nor the program's own thread-specific data.  The workers each
 * run a Lua state of their own, as a host with one interpreter per thread
 * does. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#include "tally.h"
#include "vrandom.h"

enum { WORKERS = 64, BATCH = 16, OUT = 16 };

/* Each worker's draws, libvrandom's then the module's: 2 * OUT bytes. */
static unsigned char outs[WORKERS][2 * OUT];
static int ok[WORKERS];
static pthread_key_t program_key;

/* Runs chunk in a Lua state of the calling thread; 0 on an error. */
static int lua_run(const char *chunk, void (*take)(lua_State *, void *), void *arg)
{
	lua_State *L = luaL_newstate();
	int r;

	luaL_openlibs(L);
	r = luaL_dostring(L, chunk) == LUA_OK;
	if (r)
		take(L, arg);
	else
		fprintf(stderr, "%s\n", lua_tostring(L, -1));
	lua_close(L);
	return r;
}

static void take_int(lua_State *L, void *arg)
{
	*(long *)arg = (long)lua_tointeger(L, -1);
}

static void take_bytes(lua_State *L, void *arg)
{
	size_t len = 0;
	const char *s = lua_tolstring(L, -1, &len);

	if (s && len == OUT)
		memcpy(arg, s, OUT);
}

/* The module's count, read in a Lua state of the calling thread. */
static long module_in_use(void)
{
	long n = -1;

	lua_run("return require('vrandom').info().states_in_use", take_int, &n);
	return n;
}

/* OUT bytes from each copy: libvrandom's, then the module's. */
static int draw_both(unsigned char *out)
{
	memset(out, 0, 2 * OUT);
	return vrandom_getrandom(out, OUT, 0) == OUT &&
	       lua_run("local v = require('vrandom') "
		       "local g <close> = v.new() "
		       "assert(#g:bytes(32) == 32) "
		       "return v.bytes(16)", take_bytes, out + OUT) &&
	       memcmp(out + OUT, (unsigned char[OUT]){ 0 }, OUT);
}

static void *worker(void *arg)
{
	long i = (long)arg;
	char data[64], copy[64];

	memset(data, 0x5a, sizeof data);
	memcpy(copy, data, sizeof data);
	pthread_setspecific(program_key, data);
	ok[i] = draw_both(outs[i]) && !memcmp(data, copy, sizeof data) &&
		pthread_getspecific(program_key) == data;
	return 0;
}

static int cmp_out(const void *a, const void *b)
{
	return memcmp(a, b, OUT);
}

static size_t lib_in_use(void)
{
	struct vrandom_info i;

	return vrandom_get_info(&i) ? (size_t)-1 : i.states_in_use;
}

int main(void)
{
	size_t lib_before;
	long mod_before;
	pthread_t t[BATCH];
	unsigned char mine[2 * OUT], *child;
	int i, j, all = 1;
	pid_t pid;
	int status;

	if (pthread_key_create(&program_key, 0))
		return 99;
	lib_before = lib_in_use();
	mod_before = module_in_use();
	CHECK(mod_before >= 0);
	for (i = 0; i < WORKERS; i += BATCH) {
		for (j = 0; j < BATCH; j++)
			if (pthread_create(&t[j], 0, worker, (void *)(long)(i + j)))
				return 99;
		for (j = 0; j < BATCH; j++)
			pthread_join(t[j], 0);
	}
	for (i = 0; i < WORKERS; i++)
		all &= ok[i];
	CHECK(all);
	/* Both copies gave back every worker's state. */
	CHECK(lib_in_use() <= lib_before);
	CHECK(module_in_use() <= mod_before);
	/* No two draws alike, within a copy or across the two. */
	qsort(outs, WORKERS * 2, OUT, cmp_out);
	for (i = 1; i < WORKERS * 2; i++)
		if (!memcmp(outs[0] + (i - 1) * OUT, outs[0] + i * OUT, OUT))
			break;
	CHECK(i == WORKERS * 2);
	/* Both copies' fork handlers ran: parent and child differ in each. */
	child = mmap(0, 2 * OUT, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (child == MAP_FAILED)
		return 99;
	CHECK(draw_both(mine));
	pid = fork();
	if (!pid)
		_exit(!draw_both(child));
	CHECK(draw_both(mine));
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
	      WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(memcmp(child, mine, OUT) && memcmp(child + OUT, mine + OUT, OUT));
	return tally_finish();
}
