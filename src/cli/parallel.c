/* Bulk output on several threads: `vrandom stream` and large `bytes`.
 *
 * One kernel state serves one thread, and the kernel's ChaCha20 runs at
 * the speed of one core; a userspace generator runs faster, but it would
 * be a generator of ours.  So each filler thread draws blocks through its
 * own state (vrandom_buf on a thread of its own) and encodes them, and
 * the main thread writes the blocks in the order they stand in the output.
 * Block b belongs to filler b % n, in its slot (b / n) % 2: while the
 * writer writes one slot, the filler fills the other.  Every byte is the
 * kernel's, and every buffer is wiped before it is freed. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

#include "vrandom.h"
#include "base.h"
#include "cli.h"

/* A multiple of 3 (base64 pads only at the very end) and large enough that
 * a block's two semaphore calls cost nothing beside its fill. */
#define BLOCK (4 * 49152)

struct slot {
	sem_t full, empty;      /* the writer's turn, the filler's turn */
	unsigned char *rnd;
	char *txt;              /* the encoded block; NULL for raw output */
	size_t len;             /* what the writer writes */
};

struct filler {
	pthread_t thread;
	uint64_t first;         /* its first block */
	struct slot slot[2];
};

static struct {
	uint64_t blocks;        /* UINT64_MAX: without end */
	uint64_t n;             /* the bytes asked for */
	unsigned count;         /* fillers, each with its two slots */
	unsigned running;       /* of them, threads started */
	int fmt, stop;
	cli_encode_fn *encode;
	struct filler *f;
} job;

static size_t block_len(uint64_t b)
{
	if (job.blocks == UINT64_MAX || job.n - b * BLOCK >= BLOCK)
		return BLOCK;
	return job.n - b * BLOCK;
}

static void wait_for(sem_t *s)
{
	while (sem_wait(s) && errno == EINTR)
		;
}

static void *fill(void *arg)
{
	struct filler *f = arg;
	struct slot *s;
	uint64_t b, j;

	for (b = f->first, j = 0; b < job.blocks; b += job.count, j++) {
		s = &f->slot[j & 1];
		wait_for(&s->empty);
		if (__atomic_load_n(&job.stop, __ATOMIC_ACQUIRE))
			break;
		s->len = block_len(b);
		vrandom_buf(s->rnd, s->len);
		if (job.encode)
			s->len = job.encode(job.fmt, s->txt, s->rnd, s->len);
		sem_post(&s->full);
	}
	return 0;
}

static void free_slot(struct slot *s)
{
	if (s->rnd) {
		vr_wipe(s->rnd, BLOCK);
		free(s->rnd);
	}
	if (s->txt) {
		vr_wipe(s->txt, 2 * BLOCK);
		free(s->txt);
	}
	sem_destroy(&s->full);
	sem_destroy(&s->empty);
}

void cli_parallel_end(void)
{
	unsigned i;

	if (!job.f)
		return;
	__atomic_store_n(&job.stop, 1, __ATOMIC_RELEASE);
	/* A filler waits on one of its slots, or will after its block. */
	for (i = 0; i < job.running; i++) {
		sem_post(&job.f[i].slot[0].empty);
		sem_post(&job.f[i].slot[1].empty);
	}
	for (i = 0; i < job.running; i++)
		pthread_join(job.f[i].thread, 0);
	for (i = 0; i < job.count * 2; i++)
		free_slot(&job.f[i / 2].slot[i % 2]);
	free(job.f);
	job.f = 0;
	job.count = job.running = 0;
}

/* All or nothing: the blocks are dealt by the number of fillers, which
 * those already running read. */
static int start(unsigned threads)
{
	struct slot *s;
	unsigned i;
	int short_of_memory = 0;

	if (!(job.f = calloc(threads, sizeof *job.f)))
		return -1;
	job.count = threads;
	for (i = 0; i < threads * 2; i++) {
		s = &job.f[i / 2].slot[i % 2];
		sem_init(&s->full, 0, 0);
		sem_init(&s->empty, 0, 1);
		s->rnd = malloc(BLOCK);
		s->txt = job.encode ? malloc(2 * BLOCK) : 0;
		short_of_memory |= !s->rnd || (job.encode && !s->txt);
	}
	if (short_of_memory)
		return -1;
	for (; job.running < threads; job.running++) {
		job.f[job.running].first = job.running;
		if (pthread_create(&job.f[job.running].thread, 0, fill,
				   &job.f[job.running]))
			return -1;
	}
	return 0;
}

int cli_parallel(uint64_t n, int endless, unsigned threads, cli_encode_fn *encode, int fmt)
{
	struct slot *s;
	uint64_t b;

	job.n = n;
	job.blocks = endless ? UINT64_MAX : n / BLOCK + (n % BLOCK != 0);
	job.encode = encode;
	job.fmt = fmt;
	if (start(threads)) {
		cli_parallel_end();
		return -1;
	}
	for (b = 0; b < job.blocks; b++) {
		s = &job.f[b % job.count].slot[(b / job.count) & 1];
		wait_for(&s->full);
		cli_out(s->txt ? s->txt : (char *)s->rnd, s->len);
		sem_post(&s->empty);
	}
	cli_parallel_end();
	return 0;
}
