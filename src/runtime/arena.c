/* The state pool: MAP_DROPPABLE pages carved into opaque states.
 *
 * The states live in droppable memory, mapped exactly as the kernel asks;
 * everything that must survive memory pressure and fork (free list, owners,
 * counters) lives in ordinary memory beside it. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "arena.h"

/* Each chunk is two mappings: its states' pages and its bookkeeping. */
struct chunk {
	struct chunk *next;
	size_t nstates;
	struct vrandom_state state[];
};

/* The pool doubles, as glibc's does, up to chunks of this much droppable
 * memory: a million 192-byte states on 4 KiB pages take 24 chunks (40
 * mappings on x86_64, where the kernel merges some neighbours), where a
 * page at a time ran the process out of vm.max_map_count at 687,855.  A
 * chunk is never larger than the pool before it, so the pool at most
 * doubles what it needs. */
#define CHUNK_MAX ((size_t)16 << 20)

static struct {
	pthread_mutex_t lock;
	size_t stride, per_page, pagesz, chunk_max;
	unsigned int prot, flags;
	struct chunk *chunks;
	struct vrandom_state *free;
	size_t pages, total, in_use, nfree, trim_at, trim_total;
	sigset_t fork_mask;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

void __vr_block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

void __vr_restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, 0);
}

/* The lock is taken with signals blocked, as glibc's own locks are: a
 * handler that called in while its thread held the lock would wait for
 * itself. */
VR_INLINE void lock(sigset_t *old)
{
	__vr_block_signals(old);
	pthread_mutex_lock(&pool.lock);
}

VR_INLINE void unlock(const sigset_t *old)
{
	pthread_mutex_unlock(&pool.lock);
	__vr_restore_signals(old);
}

int __vr_arena_setup(const struct vr_params *p, size_t pagesz)
{
	size_t line = VRANDOM_CACHE_LINE, size = p->size_of_opaque_state;

	/* A state that straddles a page makes the vDSO return -EFAULT. */
	if (!size || size > pagesz)
		return -EINVAL;
	pool.stride = (size + line - 1) / line * line;
	if (pool.stride > pagesz)
		pool.stride = size;
	pool.per_page = pagesz / pool.stride;
	pool.pagesz = pagesz;
	pool.chunk_max = CHUNK_MAX / pagesz * pool.per_page;
	pool.prot = p->mmap_prot;
	pool.flags = p->mmap_flags;
	return 0;
}

/* Map pages for at least n more states and put them on the free list.
 * The first growth is one page, which serves most programs: asking the CPU
 * count costs glibc a file read, more than the rest of the first call
 * together. */
static int grow(size_t n)
{
	size_t pages, i;
	struct chunk *c;
	unsigned char *mem;

	/* vrandom_reserve(SIZE_MAX) must fail, not wrap to a small mapping. */
	if (n > SIZE_MAX - pool.per_page)
		return -ENOMEM;
	pages = (n + pool.per_page - 1) / pool.per_page;
	n = pages * pool.per_page;
	if (pages > SIZE_MAX / pool.pagesz ||
	    n > (SIZE_MAX - sizeof *c) / sizeof c->state[0])
		return -ENOMEM;
	/* Bookkeeping by mmap too: malloc would double a static binary's cost. */
	c = mmap(0, sizeof *c + n * sizeof c->state[0], PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return -errno;
	mem = mmap(0, pages * pool.pagesz, pool.prot, pool.flags, -1, 0);
	if (mem == MAP_FAILED) {
		/* Where a configuration lacks droppable pages, 6.11's mmap says
		 * so with the kernel's own ENOTSUPP (524), which no libc names;
		 * later kernels say EOPNOTSUPP, and so do we. */
		int err = errno == 524 ? EOPNOTSUPP : errno;

		munmap(c, sizeof *c + n * sizeof c->state[0]);
		return -err;
	}
	c->nstates = n;
	for (i = n; i--; ) {
		struct vrandom_state *st = &c->state[i];

		st->mem = mem + i / pool.per_page * pool.pagesz +
			  i % pool.per_page * pool.stride;
		st->owner = VR_FREE;
		st->next = pool.free;
		pool.free = st;
	}
	c->next = pool.chunks;
	pool.chunks = c;
	pool.pages += pages;
	pool.total += n;
	pool.nfree += n;
	return 0;
}

struct vrandom_state *__vr_arena_get(enum vr_owner owner)
{
	struct vrandom_state *st = 0;
	sigset_t old;
	size_t n;
	int err = 0;

	lock(&old);
	if (!pool.free) {
		n = pool.total < pool.chunk_max ? pool.total : pool.chunk_max;
		err = grow(n ? n : 1);
	}
	if (!err) {
		st = pool.free;
		pool.free = st->next;
		st->next = 0;
		st->owner = owner;
		pool.nfree--;
		pool.in_use++;
	}
	unlock(&old);
	return st;
}

/* Wiping the state makes its next holder reseed from the kernel instead of
 * continuing the key stream of the last one. */
static void release(struct vrandom_state *st)
{
	vr_wipe(st->mem, pool.stride);
	st->owner = VR_FREE;
	st->next = pool.free;
	pool.free = st;
	pool.nfree++;
	pool.in_use--;
}

void __vr_arena_put(struct vrandom_state *st)
{
	sigset_t old;

	lock(&old);
	release(st);
	unlock(&old);
}

#ifndef __OPTIMIZE_SIZE__
/* Give back the chunks whose states are all free, but never the first:
 * one state made and freed over and over would map and unmap each time.
 * The free list is made again from the chunks that stay, so nothing points
 * into those that go; the oldest chunks' states come first, and the newer
 * ones, the largest, have the better chance to fall free next time. */
static void trim(void)
{
	struct chunk **pc = &pool.chunks, *c;
	struct vrandom_state *before;
	size_t i, n;

	pool.free = 0;
	while ((c = *pc)) {
		before = pool.free;
		for (n = 0, i = c->nstates; i--; )
			if (c->state[i].owner == VR_FREE) {
				c->state[i].next = pool.free;
				pool.free = &c->state[i];
				n++;
			}
		if (n < c->nstates || !c->next) {
			pc = &c->next;
			continue;
		}
		pool.free = before;
		*pc = c->next;
		pool.pages -= n / pool.per_page;
		pool.total -= n;
		pool.nfree -= n;
		munmap(c->state[0].mem, n / pool.per_page * pool.pagesz);
		munmap(c, sizeof *c + n * sizeof c->state[0]);
	}
}

/* A handle's end may give memory back; a thread's does not, so that the
 * programs that use no handles link no trim.  The pool is swept when the
 * states in use fall to a quarter of it, and then again only once they
 * have halved or the pool has grown: a sweep reads every state's owner. */
void __vr_arena_free(struct vrandom_state *st)
{
	sigset_t old;

	lock(&old);
	release(st);
	if (pool.in_use <= pool.total / 4 &&
	    (pool.in_use <= pool.trim_at || pool.total > pool.trim_total)) {
		trim();
		pool.trim_at = pool.in_use / 2;
		pool.trim_total = pool.total;
	}
	unlock(&old);
}
#endif

int __vr_arena_reserve(size_t nstates)
{
	sigset_t old;
	int err = 0;

	lock(&old);
	if (pool.nfree < nstates)
		err = grow(nstates - pool.nfree);
	unlock(&old);
	return err;
}

void __vr_arena_stats(struct vrandom_info *info)
{
	sigset_t old;

	lock(&old);
	info->state_stride = pool.stride;
	info->arena_pages = pool.pages;
	info->states_total = pool.total;
	info->states_in_use = pool.in_use;
	unlock(&old);
}

/* fork: hold the lock across it, so the child inherits consistent lists. */
void __vr_arena_fork_prepare(void)
{
	sigset_t old;

	lock(&old);
	pool.fork_mask = old;
}

void __vr_arena_fork_parent(void)
{
	sigset_t old = pool.fork_mask;

	unlock(&old);
}

/* In the child only the forking thread exists: the states of all the others
 * go back to the pool (the kernel already wiped their pages).  The lock is
 * the one prepare took, held by this very thread: unlock it, as POSIX
 * intends; initialising a locked mutex again is undefined (TSan says so). */
void __vr_arena_fork_child(struct vrandom_state *keep)
{
	sigset_t old = pool.fork_mask;
	struct chunk *c;
	size_t i;

	for (c = pool.chunks; c; c = c->next)
		for (i = 0; i < c->nstates; i++)
			if (c->state[i].owner == VR_THREAD && &c->state[i] != keep)
				release(&c->state[i]);
	unlock(&old);
}
