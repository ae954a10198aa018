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
 * starts at the zero key.  An answer of at least 8 bytes found in the
 * first DEPTH keys of either chain (c = 0 or 2; by chance once in 2^46
 * answers) counts, and so do the thread's answers after it as long as
 * each is what the chain serves next: under the zero key from block 0 or
 * from block 2, or under a key after it.  Where a thread enters a chain
 * is counted too, and whether at its start: a reseed to a zero key.  Not
 * counted: a chain's later refills made on a second pass, and answers of
 * 64 bytes or more (never asked for).
 *
 *   zerokey [-g|-v|-V|-F IMAGE] [-p] [-P] [-n ROUNDS] [-t THREADS] [-s BYTES]
 *   -g  the C library's getrandom() (glibc 2.41, linked dynamically,
 *       serves it from the vDSO; in a static program it never does)
 *   -v  vrandom_buf, with vrandom's check for a zero key
 *   -V  the vDSO on vrandom's per-thread state, without the check
 *   -F  IMAGE's getrandom (a fake vDSO, test/fakevdso-*.so) on states of
 *       this program's own, nothing dropped: the detector's own test
 *   -p  MADV_PAGEOUT, as reclaim drops droppable memory, not MADV_DONTNEED
 *   -P  thread i on the i-th CPU it may run on (modulo their count), so
 *       that no thread moves between CPUs; the dropper stays free
 *   -n  answers a thread (100000); -t threads (4); -s bytes an answer (16)
 * Prints one line "zerokey: ..." with the answers, the drops and Z
 * zero-keyed.  Exit status: 1 when Z > 0, 0 when none, 2 on an error. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
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

#define DEPTH 1024              /* keys of a chain looked up */
#define SPAN (96 * DEPTH)       /* the bytes served under them */
#define MAXTHREADS 64
#define MAXRANGES 64

enum { BLOCK0, BLOCK2, AFTER, ENTERED, RESEEDS, KINDS };

/* The chains from block 0 and from block 2, and where each 8 bytes of
 * them start: a position + 1 in pub, 0 for an empty slot. */
static unsigned char pub[2 * SPAN];
static uint32_t slot[1 << 19];
static size_t size = 16;

/* A thread's place in a chain: the 96 bytes served under one key, the
 * next key, and how far it is from the zero key (k < 0: not in one). */
struct follow {
	unsigned char out[96];
	uint32_t key[8];
	size_t pos;
	long k;
	int c;          /* the chain from block 2 */
};

/* The refill from blocks c and c + 1 under the key: the batch, and the
 * next key, whose words the kernel reads in the machine's order. */
static void refill(struct follow *f, uint64_t c)
{
	unsigned char b[128];

	vr_chacha20_block(b, f->key, c);
	vr_chacha20_block(b + 64, f->key, c + 1);
	memcpy(f->out, b, 96);
	memcpy(f->key, b + 96, 32);
	f->pos = 0;
}

/* f at byte p of pub, DEPTH keys at most from the zero key. */
static void follow_from(struct follow *f, size_t p)
{
	long k;

	memset(f, 0, sizeof *f);
	f->c = p >= SPAN;
	for (k = 0; k <= (long)(p % SPAN / 96); k++)
		refill(f, k ? 0 : 2 * f->c);
	f->k = k - 1;
	f->pos = p % 96;
}

/* Whether the answer at b is what the chain serves next: then f moves
 * on, else it is left (k = -1). */
static int follows(struct follow *f, const unsigned char *b)
{
	size_t i;

	for (i = 0; i < size; i++) {
		if (f->pos == 96)
			refill(f, 0), f->k++;
		if (f->out[f->pos++] != b[i])
			return f->k = -1, 0;
	}
	return 1;
}

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

static void index_chains(void)
{
	struct follow f;
	size_t p, h;

	for (p = 0; p < sizeof pub; p += 96) {
		if (p % SPAN == 0)
			memset(&f, 0, sizeof f);
		refill(&f, p % SPAN ? 0 : p / SPAN * 2);
		memcpy(pub + p, f.out, 96);
	}
	for (p = 0; p + 8 <= sizeof pub; p++) {
		if (p % SPAN > SPAN - 8)
			continue;
		for (h = hash(word8(pub + p)); slot[h]; h = (h + 1) % (sizeof slot / sizeof *slot))
			;
		slot[h] = p + 1;
	}
}

/* Where the answer at b starts in pub, or -1. */
static long find(const unsigned char *b)
{
	uint64_t w = word8(b);
	size_t h, p;

	for (h = hash(w); slot[h]; h = (h + 1) % (sizeof slot / sizeof *slot)) {
		p = slot[h] - 1;
		if (word8(pub + p) == w && p % SPAN + size <= SPAN && !memcmp(pub + p, b, size))
			return p;
	}
	return -1;
}

static char mode = 'g';
static int advice = MADV_DONTNEED;
static long rounds = 100000;
static int stop, pin;
static pthread_barrier_t started;
/* -V and -F: the function and the size of its state. */
static void *fn;
static size_t state_size;

struct tally {
	pthread_t t;
	int id;
	long kind[KINDS], failed, run, longest;
	struct follow f;
};

/* Counts the answer at b if it is public: next in the chain the thread
 * follows, or found in one, which the thread then follows. */
static void look(struct tally *t, const unsigned char *b)
{
	struct follow *f = &t->f;
	long k = f->k < 0 ? -1 : f->k + (f->pos == 96), p;

	if (k < 0 || !follows(f, b)) {
		if ((p = find(b)) < 0) {
			t->run = 0;
			return;
		}
		follow_from(f, p);
		k = f->k, t->run = 0;
		t->kind[ENTERED]++;
		t->kind[RESEEDS] += p % SPAN == 0;
		follows(f, b);
	}
	t->kind[k ? AFTER : f->c ? BLOCK2 : BLOCK0]++;
	if (++t->run > t->longest)
		t->longest = t->run;
}

/* The calling thread on the n-th CPU of those it may run on, modulo. */
static int pin_to(int n)
{
	cpu_set_t s;
	int c, k;

	if (sched_getaffinity(0, sizeof s, &s) || !(k = CPU_COUNT(&s)))
		return -1;
	for (c = 0, n %= k; !CPU_ISSET(c, &s) || n--; c++)
		;
	CPU_ZERO(&s);
	CPU_SET(c, &s);
	return sched_setaffinity(0, sizeof s, &s);
}

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
	long i, r;
	int ok;

	/* -V: the thread's vrandom state, made by a first read; -F: a page. */
	if (mode == 'V') {
		vrandom_buf(b, 1);
		st = __vr_thread_mem;
	} else if (mode == 'F') {
		st = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (st == MAP_FAILED)
			st = 0;
	}
	ok = (st || mode == 'g' || mode == 'v') && !(pin && pin_to(t->id));
	for (i = 0; i < rounds; i++) {
		r = ok ? answer(b, st) : -1;
		if (r == (long)size)
			look(t, b);
		/* Every thread holds its state before the dropper looks for
		 * them, and asks again once it has looked. */
		if (!i) {
			pthread_barrier_wait(&started);
			pthread_barrier_wait(&started);
		}
		if (r != (long)size) {
			t->failed++;
			break;
		}
	}
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
	int i, n;

	(void)arg;
	pthread_barrier_wait(&started);
	mappings = n = droppable(r);
	pthread_barrier_wait(&started);
	for (pass = 1; !__atomic_load_n(&stop, __ATOMIC_RELAXED); pass++) {
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
#ifdef VRANDOM_VDSO_SYM
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
#else
	(void)path;     /* no vDSO getrandom on this architecture to fake */
	return -1;
#endif
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
	long kind[KINDS] = { 0 }, failed = 0, longest = 0, z;
	int o, i, threads = 4;

	while ((o = getopt(argc, argv, "gvVF:pPn:t:s:")) != -1)
		switch (o) {
		case 'g': case 'v': case 'V': mode = o; break;
		case 'F': mode = o, image = optarg; break;
		case 'p': advice = MADV_PAGEOUT; break;
		case 'P': pin = 1; break;
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
		t[i].id = i;
		t[i].f.k = -1;
		if (pthread_create(&t[i].t, 0, asker, &t[i]))
			return 2;
	}
	if (mode == 'F') {
		pthread_barrier_wait(&started);
		pthread_barrier_wait(&started);
	} else if (pthread_create(&d, 0, dropper, 0)) {
		return 2;
	}
	for (i = 0; i < threads; i++) {
		pthread_join(t[i].t, 0);
		failed += t[i].failed;
		for (o = 0; o < KINDS; o++)
			kind[o] += t[i].kind[o];
		if (t[i].longest > longest)
			longest = t[i].longest;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	if (mode != 'F')
		pthread_join(d, 0);
	served_by(what, sizeof what);
	z = kind[BLOCK0] + kind[BLOCK2] + kind[AFTER];
	printf("zerokey: %s, %d threads: %ld answers of %zu bytes, %ld drops (%s, %d droppable mappings): "
	       "%ld zero-keyed (%ld from block 0, %ld from block 2, %ld under the keys after; "
	       "chains entered %ld times, %ld at a reseed to a zero key; at most %ld answers in a row)\n",
	       what, threads, threads * rounds, size, drops,
	       advice == MADV_PAGEOUT ? "MADV_PAGEOUT" : "MADV_DONTNEED", mappings,
	       z, kind[BLOCK0], kind[BLOCK2], kind[AFTER], kind[ENTERED], kind[RESEEDS], longest);
	if (failed)
		fprintf(stderr, "zerokey: %ld threads stopped on a failed call\n", failed);
	if (mode != 'F' && !mappings) {
		fprintf(stderr, "zerokey: no droppable mapping: no vDSO state to drop\n");
		return 2;
	}
	return failed ? 2 : z > 0;
usage:
	fprintf(stderr, "usage: zerokey [-g|-v|-V|-F IMAGE] [-p] [-P] [-n ROUNDS] [-t THREADS] [-s 8..63]\n");
	return 2;
}
