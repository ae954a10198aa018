/* A library loaded with dlopen() that calls getrandom(): with a shared
 * patched libc it is served as the program's own calls are, from the
 * main thread, from threads and in a fork child, each with bytes of its
 * own.
 *
 *	dlopen LIBRARY */
#include <dlfcn.h>
#include <pthread.h>
#include <sys/wait.h>

#include "tally.h"
#include "pool.h"

#define KEY 32
#define THREADS 4

static int (*draw)(unsigned char *, size_t);
static unsigned char keys[2 + THREADS][KEY];

static void *in_thread(void *arg)
{
	return (void *)(long)!draw(arg, KEY);
}

int main(int argc, char **argv)
{
	static const unsigned char zero[KEY];
	pthread_t t[THREADS];
	void *h, *r;
	long bad = 0, kb;
	int i, j, p[2], status, same = 0;
	pid_t pid;

	if (argc != 2)
		return 99;
	h = dlopen(argv[1], RTLD_NOW);
	CHECK(h != 0);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return tally_finish();
	}
	draw = (int (*)(unsigned char *, size_t))dlsym(h, "draw");
	CHECK(draw != 0);
	if (!draw)
		return tally_finish();
	CHECK(draw(keys[0], KEY));
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], 0, in_thread, keys[2 + i]))
			return 99;
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	CHECK(bad == 0);
	if (pipe(p))
		return 99;
	fflush(0);
	pid = fork();
	if (pid < 0)
		return 99;
	if (!pid)
		_exit(!(draw(keys[1], KEY) && write(p[1], keys[1], KEY) == KEY));
	close(p[1]);
	CHECK(read(p[0], keys[1], KEY) == KEY);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	for (i = 0; i < 2 + THREADS; i++)
		for (j = 0; j < i; j++)
			same += !memcmp(keys[i], keys[j], KEY) || !memcmp(keys[i], zero, KEY);
	CHECK(same == 0);
	kb = droppable_kb();
	printf("dlopen %s: %d keys, droppable memory %ld kB\n", argv[1], 2 + THREADS, kb);
	CHECK(vdso_expected() ? kb > 0 : kb == 0);
	return tally_finish();
}
