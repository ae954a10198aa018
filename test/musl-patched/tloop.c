/* N getrandom() calls (default 100,000) spread over 4 threads (main makes
 * none), for a counter to count the system calls of: one per thread at
 * most with the patched musl. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#define THREADS 4

static long calls = 100000 / THREADS;   /* each thread's */

static void *loop(void *arg)
{
	unsigned v, acc = 0;
	long i;

	for (i = 0; i < calls; i++) {
		if (getrandom(&v, sizeof v, 0) != sizeof v)
			return (void *)1;
		acc |= v;
	}
	/* 2,500 draws or more that never set a bit mean no draws at all. */
	return (void *)(long)(acc != 0xffffffff);
}

int main(int argc, char **argv)
{
	pthread_t t[THREADS];
	long bad = 0;
	void *r;
	int i;

	if (argc > 1)
		calls = atol(argv[1]) / THREADS;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], 0, loop, 0))
			return 99;
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("%d threads x %ld calls: %s\n", THREADS, calls, bad ? "FAILED" : "ok");
	return bad != 0;
}
