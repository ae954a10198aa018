/* zerokey: does the vDSO getrandom serve output anyone can compute while
 * the pages of its states are dropped?
 *
 * Threads ask for small answers in a loop; a dropper thread finds the
 * droppable mappings (VmFlags "dp" in /proc/self/smaps, VM_DROPPABLE) and
 * drops them in a loop, as reclaim would.  A state dropped between the
 * vDSO's store of the new generation and the system call's write of the
 * new key may read back with the generation and a key of zeros (split.c,
 * README.md): the vDSO then serves ChaCha20 under that key.  Each answer
 * is looked up in that stream as the vDSO would serve it.
 *
 * What is counted.  After a reseed the batch is empty, so for a request
 * under 64 bytes the vDSO refills it from blocks c and c + 1: c = 0, or 2
 * on the call's second pass when its first refilled (the counter is not
 * reset at retry_generation).  It serves those 96 bytes over the calls
 * that follow and keeps bytes 32 to 63 of block c + 1 as the next key
 * (fast key erasure), which is as public; each later refill starts a
 * call's counter at 0 again.  So a thread's answers after a zero-keyed
 * reseed are one public stream: 96 bytes under each key of a chain that
 * starts at the zero key.  Both chains (c = 0 and 2) are followed DEPTH
 * keys deep, and an answer of at least 8 bytes found anywhere in them
 * (by chance once in 2^46 answers) counts: under the zero key from block
 * 0 or from block 2, or under a key after it; one at a chain's start is
 * a reseed to a zero key.  Not counted: a chain's later refills made on a
 * second pass, and answers of 64 bytes or more (never asked for).
 *
 *   zerokey [-g|-v|-V|-F IMAGE] [-p] [-n ROUNDS] [-t THREADS] [-s BYTES]
 *   -g  the C library's getrandom() (glibc 2.41 serves it from the vDSO)
 *   -v  vrandom_buf, with vrandom's check for a zero key
 *   -V  the vDSO on vrandom's per-thread state, without the check
 *   -F  IMAGE's getrandom (a fake vDSO, test/fakevdso-*.so) on states of
 *       this program's own, nothing dropped: the detector's own test
 *   -p  MADV_PAGEOUT, as reclaim drops droppable memory, not MADV_DONTNEED
 *   -n  answers a thread (100000); -t threads (4); -s bytes an answer (16)
 * Prints one line "zerokey: ..." with the answers, the drops and Z
 * zero-keyed.  Exit status: 1 when Z > 0, 0 when none, 2 on an error. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "chacha.h"
#include "rng.h"
#include "vrandom.h"

/* The C library's own, declared here: sys/random.h defines the flags
 * again that base.h defines. */
ssize_t getrandom(void *, size_t, unsigned int);

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define DEPTH 1024              /* keys a chain is followed */
#define SPAN (96 * DEPTH)       /* the bytes served under them */
#define MAXTHREADS 64
#define MAXRANGES 64

enum { BLOCK0, BLOCK2, AFTER, RESEEDS, KINDS };

/* The chains from block 0 and from block 2, and where each 8 bytes of
 * them start: a position + 1 in pub, 0 for an empty slot. */
static unsigned char pub[2 * SPAN];
static uint32_t slot[1 << 19];

static uint64_t word8(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

static size_t hash(uint64_t w)
{
	return (w * 0x9e3779b97f4a7c15u) >> (64 - 19);
}

/* 96 bytes a key of the chain, from block c under the zero key. */
static void chain(unsigned char *out, uint64_t c)
{
	unsigned char b[128];
	uint32_t key[8] = { 0 };
	int k;

	for (k = 0; k < DEPTH; k++, c = 0) {
		vr_chacha20_block(b, key, c);
		vr_chacha20_block(b + 64, key, c + 1);
		memcpy(out + 96 * k, b, 96);
		/* The kernel reads its key as words in the machine's order. */
		memcpy(key, b + 96, 32);
	}
}

static void index_chains(void)
{
	size_t p, h;

	chain(pub, 0);
	chain(pub + SPAN, 2);
	for (p = 0; p + 8 <= sizeof pub; p++) {
		if (p % SPAN > SPAN - 8)
			continue;
		for (h = hash(word8(pub + p)); slot[h]; h = (h + 1) % (sizeof slot / sizeof *slot))
			;
		slot[h] = p + 1;
	}
}

/* Where n bytes at b sit in the chains: BLOCK0 or BLOCK2 under the zero
 * key, AFTER under a key after it, or -1; *start, whether a chain's. */
static int zero_keyed(const unsigned char *b, size_t n, int *start)
{
	uint64_t w = word8(b);
	size_t h, p;

	for (h = hash(w); slot[h]; h = (h + 1) % (sizeof slot / sizeof *slot)) {
		p = slot[h] - 1;
		if (word8(pub + p) != w || p % SPAN + n > SPAN || memcmp(pub + p, b, n))
			continue;
		*start = p % SPAN == 0;
		return p % SPAN >= 96 ? AFTER : p < SPAN ? BLOCK0 : BLOCK2;
	}
	return -1;
}

static char mode = 'g';
static int advice = MADV_DONTNEED;
static long rounds = 100000;
static size_t size = 16;
static int stop;
static pthread_barrier_t started;
/* -V and -F: the function and the size of its state. */
static void *fn;
static size_t state_size;

struct tally {
	pthread_t t;
	long kind[KINDS], failed;
};

/* One answer of size bytes, or -1. */
static long answer(unsigned char *b, void *st)
{
	switch (mode) {
	case 'g':
		return getrandom(b, size, 0);
	case 'v':
		vrandom_buf(b, size);
		return size;
	default:
		return VRANDOM_VDSO_CALL(fn, b, size, 0, st, state_size);
	}
}

static void *asker(void *arg)
{
	struct tally *t = arg;
	unsigned char b[64];
	void *st = 0;
	long i;
	int k, start;

	/* -V: the thread's vrandom state, made by a first read; -F: a page. */
	if (mode == 'V') {
		vrandom_buf(b, 1);
		st = __vr_thread_mem;
	} else if (mode == 'F') {
		st = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (st == MAP_FAILED)
			st = 0;
	}
	if ((mode == 'V' || mode == 'F') && !st)
		t->failed++;
	for (i = 0; i < rounds && !t->failed; i++) {
		if (answer(b, st) != (long)size) {
			t->failed++;
			break;
		}
		if ((k = zero_keyed(b, size, &start)) >= 0)
			t->kind[k]++, t->kind[RESEEDS] += start;
		/* Every thread holds its state before the dropper looks. */
		if (!i)
			pthread_barrier_wait(&started);
	}
	if (!i)
		pthread_barrier_wait(&started);
	return 0;
}

struct range { uintptr_t lo, hi; };

/* The droppable mappings: "dp" in VmFlags. */
static int droppable(struct range *r)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long lo = 0, hi = 0, a, b;
	int n = 0;

	if (!f)
		return -1;
	/* A field name may start like a hex number ("FilePmdMapped"). */
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2)
			lo = a, hi = b;
		else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " dp") && n < MAXRANGES)
			r[n++] = (struct range){ lo, hi };
	fclose(f);
	return n;
}

static long drops;
static int mappings;

/* Drops every droppable mapping in a loop; looks for them again now and
 * then, as the pool may grow. */
static void *dropper(void *arg)
{
	struct range r[MAXRANGES];
	long pass;
	int i, n = 0;

	(void)arg;
	for (pass = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); pass++) {
		if (pass % 256 == 0 && (n = droppable(r)) > mappings)
			mappings = n;
		for (i = 0; i < n; i++)
			drops += !madvise((void *)r[i].lo, r[i].hi - r[i].lo, advice);
	}
	return 0;
}

/* -F: IMAGE mapped whole as the kernel maps a vDSO, its getrandom, and the
 * state size its params query gives. */
static int fake(const char *path)
{
	struct vr_params p;
	struct stat sb;
	void *img;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &sb))
		return -1;
	img = mmap(0, sb.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED ||
	    !(fn = __vr_vdso_sym(img, sb.st_size, VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER)) ||
	    VRANDOM_VDSO_CALL(fn, 0, 0, 0, &p, ~0UL))
		return -1;
	state_size = p.size_of_opaque_state;
	return 0;
}

/* What served the answers, for the summary. */
static void served_by(char *s, size_t n)
{
	struct vrandom_info v;

	switch (mode) {
	case 'g':
#ifdef __GLIBC__
		snprintf(s, n, "glibc %s getrandom()", gnu_get_libc_version());
#else
		snprintf(s, n, "the C library's getrandom()");
#endif
		break;
	case 'v':
	case 'V':
		vrandom_get_info(&v);
		snprintf(s, n, "vrandom %s %s, %s", vrandom_version(),
			 mode == 'v' ? "vrandom_buf" : "vDSO calls", mode == 'v' ? "checked" : "unchecked");
		break;
	default:
		snprintf(s, n, "a fake vDSO");
	}
}

int main(int argc, char **argv)
{
	struct tally t[MAXTHREADS];
	pthread_t d;
	const char *image = 0;
	char what[128];
	long kind[KINDS] = { 0 }, failed = 0, z;
	int o, i, threads = 4;

	while ((o = getopt(argc, argv, "gvVF:pn:t:s:")) != -1)
		switch (o) {
		case 'g': case 'v': case 'V': mode = o; break;
		case 'F': mode = o, image = optarg; break;
		case 'p': advice = MADV_PAGEOUT; break;
		case 'n': rounds = atol(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 's': size = atol(optarg); break;
		default: goto usage;
		}
	if (optind < argc || rounds < 1 || threads < 1 || threads > MAXTHREADS ||
	    size < 8 || size > 63)
		goto usage;
	index_chains();
	if (mode == 'V') {
		vrandom_buf(what, 1);
		fn = __vr_vdso_fn;
		state_size = __vr_params.size_of_opaque_state;
		if (!fn) {
			fprintf(stderr, "zerokey: -V: vrandom found no vDSO getrandom\n");
			return 2;
		}
	}
	if (mode == 'F' && fake(image)) {
		fprintf(stderr, "zerokey: -F %s: no fake vDSO getrandom there\n", image);
		return 2;
	}
	if (pthread_barrier_init(&started, 0, threads + 1))
		return 2;
	for (i = 0; i < threads; i++) {
		memset(&t[i], 0, sizeof t[i]);
		if (pthread_create(&t[i].t, 0, asker, &t[i]))
			return 2;
	}
	pthread_barrier_wait(&started);
	if (mode != 'F' && pthread_create(&d, 0, dropper, 0))
		return 2;
	for (i = 0; i < threads; i++) {
		pthread_join(t[i].t, 0);
		failed += t[i].failed;
		for (o = 0; o < KINDS; o++)
			kind[o] += t[i].kind[o];
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	if (mode != 'F')
		pthread_join(d, 0);
	served_by(what, sizeof what);
	z = kind[BLOCK0] + kind[BLOCK2] + kind[AFTER];
	printf("zerokey: %s, %d threads: %ld answers of %zu bytes, %ld drops (%s, %d droppable mappings): "
	       "%ld zero-keyed (%ld from block 0, %ld from block 2, %ld under the keys after; "
	       "%ld reseeds to a zero key)\n",
	       what, threads, threads * rounds, size, drops,
	       advice == MADV_PAGEOUT ? "MADV_PAGEOUT" : "MADV_DONTNEED", mappings,
	       z, kind[BLOCK0], kind[BLOCK2], kind[AFTER], kind[RESEEDS]);
	if (failed)
		fprintf(stderr, "zerokey: %ld threads stopped on a failed call\n", failed);
	if (mode != 'F' && !mappings) {
		fprintf(stderr, "zerokey: no droppable mapping: no vDSO state to drop\n");
		return 2;
	}
	return failed ? 2 : z > 0;
usage:
	fprintf(stderr, "usage: zerokey [-g|-v|-V|-F IMAGE] [-p] [-n ROUNDS] [-t THREADS] [-s 8..63]\n");
	return 2;
}
