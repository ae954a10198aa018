/* arena.c: the pool of opaque states, in MAP_DROPPABLE pages mapped as the
 * kernel asks; its bookkeeping in ordinary memory. */
#ifndef VRANDOM_ARENA_H
#define VRANDOM_ARENA_H

#include <signal.h>

#include "vdso.h"
#include "vrandom.h"

/* Who holds a state: fork gives back the states of threads. */
enum vr_owner { VR_FREE, VR_THREAD, VR_HANDLE };

struct vrandom_state {
	void *mem;                  /* opaque state in droppable memory */
	struct vrandom_state *next; /* free list */
	unsigned char owner;        /* enum vr_owner */
};

/* Each blocks signals while it holds the pool's lock, so a signal handler
 * never meets the lock held by its own thread.  A failed get returns NULL:
 * its callers fall back to the system call. */
VR_HIDDEN int __vr_arena_setup(const struct vr_params *p, size_t pagesz);
VR_HIDDEN struct vrandom_state *__vr_arena_get(enum vr_owner owner);
VR_HIDDEN void __vr_arena_put(struct vrandom_state *st);
/* A handle's end, which may also give whole free chunks back.  Builds for
 * size keep their peak instead: the sweep cost aarch64's vrandom-lua 424
 * bytes, over its 20 KiB. */
#ifdef __OPTIMIZE_SIZE__
#define __vr_arena_free __vr_arena_put
#else
VR_HIDDEN void __vr_arena_free(struct vrandom_state *st);
#endif
VR_HIDDEN int __vr_arena_reserve(size_t nstates);
VR_HIDDEN void __vr_arena_stats(struct vrandom_info *info);
VR_HIDDEN void __vr_arena_fork_prepare(void);
VR_HIDDEN void __vr_arena_fork_parent(void);
VR_HIDDEN void __vr_arena_fork_child(struct vrandom_state *keep);

/* For what else must not be interrupted by a handler that calls in. */
VR_HIDDEN void __vr_block_signals(sigset_t *old);
VR_HIDDEN void __vr_restore_signals(const sigset_t *old);

#endif
