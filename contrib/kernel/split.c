/* split: does a thread that writes to a page, then has the kernel write
 * to it, read back both writes while another thread drops the page?
 *
 * Four threads own 64 bytes each of one page.  Each, round after round,
 * zeroes 32 bytes, stores a word before them, has the getrandom system
 * call fill the 32 bytes, and reads all back.  Another thread drops the
 * page meanwhile (madvise).  A drop may take the word, or the word and
 * the random bytes, but not the random bytes alone: the system call
 * wrote them after the word was stored.  A word read back beside 32 zero
 * bytes is a split: the kernel wrote to a new page while this thread
 * still read the old one.
 *
 * The vDSO getrandom reseeds a state in this order (the generation by a
 * store, then the key by the system call), so a split there leaves a
 * state keyed with zeros (doc/design.md, "Limits and security notes").
 *
 *   cc -O2 -pthread -o split split.c && ./split [-p] [-d] [-1] [-n ROUNDS]
 *   -p  MADV_PAGEOUT instead of MADV_DONTNEED
 *   -d  MAP_DROPPABLE memory (Linux 6.11) instead of private anonymous
 *   -1  every thread on one CPU
 *   -n  rounds a thread (200000)
 * Exit status: 1 when a split was seen, 0 when none, 2 on an error. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define THREADS 4
#define SLOT 64

static unsigned char *page;
static long rounds = 200000;
static int advice = MADV_DONTNEED;
static int stop;

struct tally {
	int id;
	long dropped, split, failed;
};

static void *writer(void *arg)
{
	struct tally *t = arg;
	volatile unsigned long *word = (void *)(page + SLOT * t->id);
	volatile unsigned char *bytes = page + SLOT * t->id + sizeof *word;
	unsigned char *b = page + SLOT * t->id + sizeof *word;
	long i;
	int j, zero;

	for (i = 1; i <= rounds; i++) {
		for (j = 0; j < 32; j++)
			bytes[j] = 0;
		*word = i;
		if (syscall(SYS_getrandom, b, 32, 0) != 32) {
			t->failed++;
			continue;
		}
		for (zero = 1, j = 0; j < 32; j++)
			zero &= !bytes[j];
		if (*word != (unsigned long)i)
			t->dropped++;
		else if (zero)
			t->split++;
	}
	return 0;
}

static void *dropper(void *arg)
{
	long *drops = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (madvise(page, 4096, advice)) {
			perror("madvise");
			exit(2);
		}
		++*drops;
	}
	return 0;
}

/* The whole process on the first CPU it may run on: threads inherit it. */
static int one_cpu(void)
{
	cpu_set_t s;
	int c;

	if (sched_getaffinity(0, sizeof s, &s))
		return -1;
	for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &s); c++)
		;
	CPU_ZERO(&s);
	CPU_SET(c, &s);
	return sched_setaffinity(0, sizeof s, &s);
}

int main(int argc, char **argv)
{
	struct tally t[THREADS];
	pthread_t w[THREADS], d;
	long drops = 0, dropped = 0, split = 0, failed = 0;
	int o, i, flags = MAP_PRIVATE | MAP_ANONYMOUS, pin = 0;

	while ((o = getopt(argc, argv, "pd1n:")) != -1)
		switch (o) {
		case 'p': advice = MADV_PAGEOUT; break;
		case 'd': flags = MAP_DROPPABLE | MAP_ANONYMOUS; break;
		case '1': pin = 1; break;
		case 'n': rounds = atol(optarg); break;
		default:
			fprintf(stderr, "usage: split [-p] [-d] [-1] [-n ROUNDS]\n");
			return 2;
		}
	if (rounds < 1 || (pin && one_cpu())) {
		fprintf(stderr, "split: %s\n", rounds < 1 ? "-n wants a positive count" : strerror(errno));
		return 2;
	}
	page = mmap(0, 4096, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (page == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	if (pthread_create(&d, 0, dropper, &drops))
		return 2;
	for (i = 0; i < THREADS; i++) {
		t[i] = (struct tally){ .id = i };
		if (pthread_create(&w[i], 0, writer, &t[i]))
			return 2;
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(w[i], 0);
		dropped += t[i].dropped;
		split += t[i].split;
		failed += t[i].failed;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(d, 0);
	printf("%ld rounds, %ld drops (%s, %s%s): %ld words lost, %ld split, %ld getrandom failed\n",
	       THREADS * rounds, drops, advice == MADV_PAGEOUT ? "MADV_PAGEOUT" : "MADV_DONTNEED",
	       flags & MAP_DROPPABLE ? "droppable" : "private anonymous",
	       pin ? ", one CPU" : "", dropped, split, failed);
	return failed ? 2 : split > 0;
}
