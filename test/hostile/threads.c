/* The state pool under contention, for ThreadSanitizer and valgrind as much
 * as for itself: threads drawing at once, threads born and dying in waves
 * (their states go back to the pool), a handle handed from thread to thread,
 * and forks while other threads are inside vrandom. */
#include <pthread.h>

#include "hostile.h"

#define WORKERS 6
#define ROUNDS 300

static int stop;

static void *draw(void *arg)
{
	unsigned char b[64];
	int i, bad = 0;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		memset(b, 0, sizeof b);
		vrandom_buf(b, sizeof b);
		bad += !looks_random(b, sizeof b);
	}
	return (void *)(long)bad;
}

static void run_threads(int n, void *(*fn)(void *), void *arg, long *bad)
{
	pthread_t t[WORKERS];
	void *r;
	int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, fn, arg))
			_exit(99);
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &r);
		*bad += (long)r;
	}
}

static void concurrent(void)
{
	struct vrandom_info i;
	long bad = 0;
	int wave;

	for (wave = 0; wave < 10; wave++)
		run_threads(WORKERS, draw, 0, &bad);
	T(bad == 0);
	/* Every thread gave its state back when it ended. */
	T(vrandom_get_info(&i) == 0);
	if (i.backend == VRANDOM_VDSO) {
		T(i.states_in_use == 0);
		T(i.states_total >= 1);
		/* What the kernel's state size made of the arena (vm-test.sh
		 * reads it). */
		printf("arena after the threads: %zu pages, %zu states\n",
		       i.arena_pages, i.states_total);
	}
}

/* A handle may move between threads, one at a time. */
static void *use_handle(void *arg)
{
	unsigned char *b = (unsigned char *)arg + sizeof(void *);
	vrandom_state *st = *(vrandom_state **)arg;

	return (void *)(long)(vrandom_state_getrandom(st, b, 64, 0) != 64);
}

static void handle_moves(void)
{
	struct { vrandom_state *st; unsigned char b[64]; } h;
	unsigned char first[64];
	long bad = 0;

	h.st = vrandom_state_new();
	T(h.st != 0);
	if (!h.st)
		return;
	run_threads(1, use_handle, &h, &bad);
	memcpy(first, h.b, sizeof first);
	run_threads(1, use_handle, &h, &bad);
	T(bad == 0);
	T(looks_random(h.b, sizeof h.b));
	T(memcmp(first, h.b, sizeof first));
	vrandom_state_free(h.st);
}

static void *spin(void *arg)
{
	unsigned char b[64];

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		vrandom_buf(b, sizeof b);
	return 0;
}

static int child_key(int fd, void *arg)
{
	unsigned char b[32];

	(void)arg;
	vrandom_buf(b, sizeof b);
	return write(fd, b, sizeof b) != sizeof b;
}

/* Children forked mid-call draw their own bytes, never a sibling's. */
static void fork_busy(void)
{
	unsigned char seen[20][32];
	pthread_t t[3];
	int i, j, ok = 1, distinct = 1;

	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], 0, spin, 0))
			_exit(99);
	for (i = 0; i < 20; i++)
		ok &= t_fork_read(child_key, 0, seen[i], sizeof seen[i]);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	T(ok);
	for (i = 0; i < 20; i++)
		for (j = 0; j < i; j++)
			if (!memcmp(seen[i], seen[j], sizeof seen[i]))
				distinct = 0;
	T(distinct);
}

int main(void)
{
	t_init();
	t_case("threads in waves", concurrent);
	t_case("a handle moves between threads", handle_moves);
	t_case("forks while threads draw", fork_busy);
	return t_finish();
}
