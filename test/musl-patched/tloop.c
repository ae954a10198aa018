/* 100,000 getrandom() calls spread over 4 threads (main makes none), for
 * a counter to count the system calls of: one per thread at most with the
 * patched musl. */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

#define THREADS 4
#define CALLS (100000 / THREADS)

static void *loop(void *arg)
{
	unsigned v, acc = 0;
	long i;

	for (i = 0; i < CALLS; i++) {
		if (getrandom(&v, sizeof v, 0) != sizeof v)
			return (void *)1;
		acc |= v;
	}
	/* 25,000 draws that never set a bit mean no draws at all. */
	return (void *)(long)(acc != 0xffffffff);
}

int main(void)
{
	pthread_t t[THREADS];
	long bad = 0;
	void *r;
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], 0, loop, 0))
			return 99;
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("%d threads x %d calls: %s\n", THREADS, CALLS, bad ? "FAILED" : "ok");
	return bad != 0;
}
