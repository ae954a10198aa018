/* A host with the module loaded by require (dlopen), for every Lua from
 * 5.1, glibc and musl alike:
 *   - worker threads each load vrandom, draw, close their Lua state (which
 *     dlcloses the module) and exit: the runtime's thread-exit destructor
 *     must still be there to run, and give their states back;
 *   - the first state closed, a second lua_State loads the module again
 *     and keeps working: the pool, which outlives every lua_State (glibc
 *     keeps the module because it pins itself, musl never unloads), gives
 *     it a state back from the pool, none leaks;
 *   - fork: the child's draws are not the parent's. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#include "../tally.h"

enum { WORKERS = 8, OUT = 16 };

/* The workers' draws, then the second state's, the parent's after the
 * fork, and the child's from the state it inherited and from a new one. */
static unsigned char drawn[WORKERS + 4][OUT];

/* A new Lua state with the standard libraries; 0 when none. */
static lua_State *state(void)
{
	lua_State *L = luaL_newstate();

	if (L)
		luaL_openlibs(L);
	return L;
}

/* Runs chunk in L; its one result, a number, in *n and a string of OUT
 * bytes in out, when given.  1 on success. */
static int run(lua_State *L, const char *chunk, long *n, unsigned char *out)
{
	const char *s;
	size_t len = 0;
	int ok = luaL_loadstring(L, chunk) == 0 && lua_pcall(L, 0, 1, 0) == 0;

	if (!ok) {
		printf("# %s\n", lua_tostring(L, -1));
	} else if (n) {
		*n = (long)lua_tonumber(L, -1);
	} else if (out) {
		ok = (s = lua_tolstring(L, -1, &len)) && len == OUT;
		if (ok)
			memcpy(out, s, OUT);
	}
	lua_pop(L, 1);
	return ok;
}

static const char bytes[] = "return require('vrandom').bytes(16)";
static const char in_use[] = "return require('vrandom').info().states_in_use";

static void *worker(void *arg)
{
	long i = (long)arg;
	lua_State *L = state();

	if (L && !run(L, bytes, 0, drawn[i]))
		memset(drawn[i], 0, OUT);
	if (L)
		lua_close(L);
	return 0;
}

int main(void)
{
	pthread_t t[WORKERS];
	lua_State *L = state();
	long base = -1, n = -1;
	int i, j, fd[2], st, distinct = 1;
	pid_t pid;

	if (!L)
		return 99;
	CHECK(run(L, in_use, &base, 0) && base >= 0);
	for (i = 0; i < WORKERS; i++)
		CHECK(pthread_create(&t[i], 0, worker, (void *)(long)i) == 0);
	for (i = 0; i < WORKERS; i++)
		CHECK(pthread_join(t[i], 0) == 0);
	/* The exited threads' states are back in the pool (the vDSO backend
	 * pools; the others hold none and count 0). */
	CHECK(run(L, in_use, &n, 0) && n == base);
	printf("# states in use: %ld with one Lua state open, %ld after %d threads\n",
	       base, n, WORKERS);

	/* A second lua_State after the first is closed: the same count. */
	lua_close(L);
	L = state();
	if (!L)
		return 99;
	CHECK(run(L, bytes, 0, drawn[WORKERS]));
	CHECK(run(L, in_use, &n, 0) && n == base);

	/* fork: the child draws from the state it inherited and a new one. */
	CHECK(pipe(fd) == 0);
	pid = fork();
	if (pid == 0) {
		unsigned char child[2][OUT];
		lua_State *C = state();

		_exit(!run(L, bytes, 0, child[0]) || !C || !run(C, bytes, 0, child[1]) ||
		      write(fd[1], child, sizeof child) != sizeof child);
	}
	CHECK(pid > 0);
	CHECK(run(L, bytes, 0, drawn[WORKERS + 1]));
	/* The child's two draws land in the last two rows, one read. */
	CHECK(read(fd[0], (void *)(drawn + WORKERS + 2), 2 * OUT) == 2 * OUT);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	lua_close(L);

	/* Every draw differs from every other. */
	for (i = 0; i < WORKERS + 4; i++)
		for (j = i + 1; j < WORKERS + 4; j++)
			distinct &= memcmp(drawn[i], drawn[j], OUT) != 0;
	CHECK(distinct);
	return tally_finish();
}
