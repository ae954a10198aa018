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
 *   cc -O2 -pthread -o split split.c && ./split [-p] [-d] [-1] [-m] [-n ROUNDS]
 *   -p  MADV_PAGEOUT instead of MADV_DONTNEED
 *   -d  MAP_DROPPABLE memory (Linux 6.11) instead of private anonymous
 *   -1  every thread on one CPU
 *   -m  the kernel writes a known pattern (pread from a memfd) instead of
 *       random bytes, and after each split the dropper is stopped once the
 *       madvise in flight returned, and the slot read again: a stale
 *       translation that the drop's flush ends shows the word gone and the
 *       pattern there; the word and zeros still, or neither, is something
 *       else
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
/* -m: the pattern's memfd; a writer's request that the dropper stop
 * (taken under pause_lock), the dropper's answer, and the drops begun. */
static int pattern_fd = -1;
static int pause_req, paused;
static long drops_begun;
static pthread_mutex_t pause_lock = PTHREAD_MUTEX_INITIALIZER;

struct tally {
	int id;
	long dropped, split, failed;
	/* -m, what a split's slot read after the drop had returned: the word
	 * gone and the pattern there, the word and zeros still, the word
	 * gone and zeros, the word and the pattern; and splits after which
	 * the dropper had begun another drop before it stopped. */
	long moved, kept, gone, both, later;
};

/* The round's pattern: i in the first word, then bytes that are never 0. */
static void pattern(unsigned char *p, long i)
{
	int j;

	memcpy(p, &i, sizeof i);
	for (j = sizeof i; j < 32; j++)
		p[j] = 0x80 | j;
}

/* 32 bytes written by the kernel into the slot: random or the pattern. */
static long kernel_write(unsigned char *b, long i, int id)
{
	unsigned char p[32];

	if (pattern_fd < 0)
		return syscall(SYS_getrandom, b, 32, 0);
	pattern(p, i);
	if (pwrite(pattern_fd, p, 32, 32 * id) != 32)
		return -1;
	return pread(pattern_fd, b, 32, 32 * id);
}

/* After a split: stop the dropper once its madvise in flight returned,
 * then read the slot again, unless a drop began after the system call
 * returned (begun drops then). */
static void after_split(struct tally *t, volatile unsigned long *word,
			volatile unsigned char *bytes, long i, long begun)
{
	unsigned char p[32], now[32];
	int j, same;

	pthread_mutex_lock(&pause_lock);
	__atomic_store_n(&pause_req, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&paused, __ATOMIC_SEQ_CST))
		;
	if (__atomic_load_n(&drops_begun, __ATOMIC_SEQ_CST) != begun) {
		t->later++;
	} else {
		pattern(p, i);
		for (j = 0; j < 32; j++)
			now[j] = bytes[j];
		same = !memcmp(now, p, 32);
		if (*word != (unsigned long)i)
			same ? t->moved++ : t->gone++;
		else
			same ? t->both++ : t->kept++;
	}
	__atomic_store_n(&pause_req, 0, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&paused, __ATOMIC_SEQ_CST))
		;
	pthread_mutex_unlock(&pause_lock);
}

static void *writer(void *arg)
{
	struct tally *t = arg;
	volatile unsigned long *word = (void *)(page + SLOT * t->id);
	volatile unsigned char *bytes = page + SLOT * t->id + sizeof *word;
	unsigned char *b = page + SLOT * t->id + sizeof *word;
	long i, begun;
	int j, zero;

	for (i = 1; i <= rounds; i++) {
		for (j = 0; j < 32; j++)
			bytes[j] = 0;
		*word = i;
		if (kernel_write(b, i, t->id) != 32) {
			t->failed++;
			continue;
		}
		begun = __atomic_load_n(&drops_begun, __ATOMIC_SEQ_CST);
		for (zero = 1, j = 0; j < 32; j++)
			zero &= !bytes[j];
		if (*word != (unsigned long)i) {
			t->dropped++;
		} else if (zero) {
			t->split++;
			if (pattern_fd >= 0)
				after_split(t, word, bytes, i, begun);
		}
	}
	return 0;
}

static void *dropper(void *arg)
{
	long *drops = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (__atomic_load_n(&pause_req, __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&paused, 1, __ATOMIC_SEQ_CST);
			while (__atomic_load_n(&pause_req, __ATOMIC_SEQ_CST))
				;
			__atomic_store_n(&paused, 0, __ATOMIC_SEQ_CST);
			continue;
		}
		__atomic_add_fetch(&drops_begun, 1, __ATOMIC_SEQ_CST);
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
	long drops = 0, dropped = 0, split = 0, failed = 0, m[5] = { 0 };
	int o, i, flags = MAP_PRIVATE | MAP_ANONYMOUS, pin = 0;

	while ((o = getopt(argc, argv, "pd1mn:")) != -1)
		switch (o) {
		case 'p': advice = MADV_PAGEOUT; break;
		case 'd': flags = MAP_DROPPABLE | MAP_ANONYMOUS; break;
		case '1': pin = 1; break;
		case 'm':
			pattern_fd = memfd_create("split", 0);
			if (pattern_fd < 0) {
				perror("memfd_create");
				return 2;
			}
			break;
		case 'n': rounds = atol(optarg); break;
		default:
			fprintf(stderr, "usage: split [-p] [-d] [-1] [-m] [-n ROUNDS]\n");
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
		m[0] += t[i].moved, m[1] += t[i].kept, m[2] += t[i].gone;
		m[3] += t[i].both, m[4] += t[i].later;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(d, 0);
	printf("%ld rounds, %ld drops (%s, %s%s): %ld words lost, %ld split, %ld getrandom failed\n",
	       THREADS * rounds, drops, advice == MADV_PAGEOUT ? "MADV_PAGEOUT" : "MADV_DONTNEED",
	       flags & MAP_DROPPABLE ? "droppable" : "private anonymous",
	       pin ? ", one CPU" : "", dropped, split, failed);
	if (pattern_fd >= 0)
		printf("after a split, the drop returned: %ld word gone and pattern there, "
		       "%ld word and zeros still, %ld neither, %ld both; %ld with a drop begun since\n",
		       m[0], m[1], m[2], m[3], m[4]);
	return failed ? 2 : split > 0;
}
