/* Internal interfaces of vrandom.  Functions return 0 or -errno; only the
 * public edge in rng.c sets errno.
 *
 * rng.c: setup, backend choice, per-thread states, the public edge
 * draw.c: the public draws that cannot fail, built on __vr_read below
 * vdso.c: the ELF lookup of the vDSO function, the kernel's getrandom there
 * arena.c: the pool of opaque states
 * threshold.c: large requests, by system call from the size where it wins
 * urandom.c: /dev/urandom, where getrandom is ENOSYS */
#ifndef VRANDOM_INTERNAL_H
#define VRANDOM_INTERNAL_H

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "arch.h"
#include "vrandom.h"

#define VR_HIDDEN __attribute__((__visibility__("hidden")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* The SysV hash table's entries are 32-bit everywhere but s390x. */
#ifndef VRANDOM_HASH_ENTRY
#define VRANDOM_HASH_ENTRY uint32_t
#endif

/* Only powerpc needs a stub: its vDSO reports errors in CR0.SO. */
typedef ssize_t (*vr_vgetrandom_fn)(void *, size_t, unsigned int, void *, size_t);
#ifndef VRANDOM_VDSO_CALL
#define VRANDOM_VDSO_CALL(fn, buf, len, flags, st, stlen) \
	((vr_vgetrandom_fn)(fn))(buf, len, flags, st, stlen)
#endif

/* getrandom(2)'s flags, as the kernel numbers them. */
#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM   0x0002
#define GRND_INSECURE 0x0004

/* The getrandom system call itself: a byte count or -errno. */
static inline ssize_t __vr_sys_getrandom(void *buf, size_t len, unsigned int flags)
{
	return __vr_syscall3(SYS_getrandom, (long)buf, (long)len, flags);
}

/* What the vDSO's params query (NULL, 0, 0, &params, ~0UL) writes. */
struct vr_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

/* vdso.c: find name@version in the ELF image [img, img + size). */
VR_HIDDEN size_t __vr_elf_extent(const void *base);
VR_HIDDEN void *__vr_vdso_sym(const void *img, size_t size,
			      const char *name, const char *version);
VR_HIDDEN void *__vr_vdso_getrandom(struct vr_params *p);

/* arena.c: the state pool.  Callers block signals around every call but
 * setup, so a signal handler can never meet the lock held.  A failed get
 * returns NULL: its callers fall back to the system call. */
/* VR_NONE: no state of its own; such a thread or handle takes the system call. */
enum vr_owner { VR_FREE, VR_THREAD, VR_HANDLE, VR_NONE };

struct vrandom_state {
	void *mem;                  /* opaque state in droppable memory */
	struct vrandom_state *next; /* free list */
	unsigned char owner;        /* enum vr_owner */
};

VR_HIDDEN int __vr_arena_setup(const struct vr_params *p, size_t pagesz);
VR_HIDDEN struct vrandom_state *__vr_arena_get(enum vr_owner owner);
VR_HIDDEN void __vr_arena_put(struct vrandom_state *st);
VR_HIDDEN int __vr_arena_reserve(size_t nstates);
VR_HIDDEN void __vr_arena_stats(struct vrandom_info *info);
VR_HIDDEN void __vr_arena_fork_prepare(void);
VR_HIDDEN void __vr_arena_fork_parent(void);
VR_HIDDEN void __vr_arena_fork_child(struct vrandom_state *keep);

/* rng.c: the vDSO function and what its params query said, set once by
 * setup before any state exists (NULL and zeros without the vDSO). */
VR_HIDDEN extern void *__vr_vdso_fn;
VR_HIDDEN extern struct vr_params __vr_params;

/* threshold.c.  Requests of __vr_big_from bytes or more on the vDSO path go
 * to __vr_big_read, which measures once (with the caller's state mem) and
 * serves by system call from the threshold on.  __vr_threshold_setup reads
 * VRANDOM_SYSCALL_MIN at setup; __vr_threshold_now measures if nothing has
 * yet (with mem, else a borrowed state) and returns the threshold, 0 for
 * never. */
VR_HIDDEN extern size_t __vr_big_from;
VR_HIDDEN ssize_t __vr_big_read(void *mem, void *buf, size_t len, unsigned int flags);
VR_HIDDEN void __vr_threshold_setup(void);
VR_HIDDEN void __vr_threshold_fork_child(void);
VR_HIDDEN size_t __vr_threshold_now(void *mem);
/* The size from which the system call serves, given the best times (ns) of
 * the vDSO and of the system call at 256 and 1024 bytes; 0: never.
 * Exposed so that tests can feed it either outcome. */
VR_HIDDEN size_t __vr_crossover(const double vdso[2], const double sys[2]);

/* urandom.c: len bytes (or fewer) of /dev/urandom, after waiting once for
 * the kernel's pool to be seeded (not with GRND_NONBLOCK: -EAGAIN);
 * cancellation is disabled meanwhile.  A byte count or -errno. */
VR_HIDDEN ssize_t __vr_urandom_read(void *buf, size_t len, unsigned int flags);

VR_HIDDEN void __vr_block_signals(sigset_t *old);
VR_HIDDEN void __vr_restore_signals(const sigset_t *old);

/* rng.c: the calling thread's state memory, NULL until its first read.
 * Initial-exec keeps the lookup to one load, but musl refuses to dlopen a
 * library that uses it, so what is built for dlopen (the Lua module) goes
 * without. */
#ifdef VRANDOM_DLOPEN
VR_HIDDEN extern __thread void *__vr_thread_mem;
#else
VR_HIDDEN extern __thread void *__vr_thread_mem
	__attribute__((__tls_model__("initial-exec")));
#endif

/* rng.c: a whole read out of line, for what the hot path below leaves
 * (flags, no state memory yet, a large request) and for every read where
 * size counts more (-Os: firmware), so that there is one copy; and
 * /dev/urandom, which serves from the first ENOSYS on. */
VR_HIDDEN ssize_t __vr_read_slow(struct vrandom_state *st, void *buf, size_t len,
				 unsigned int flags);
VR_HIDDEN ssize_t __vr_read_urandom(struct vrandom_state *st, void *buf, size_t len,
				    unsigned int flags);

/* The hot path, inline wherever the public functions read: state memory
 * means the vDSO is set up, so call it without the dispatcher, unless the
 * request is large enough that the system call may serve it faster.  A
 * null st stands for the calling thread's state.  A byte count or -errno.
 * A seccomp filter may take getrandom away after setup: the vDSO's own
 * fallback to the system call then answers ENOSYS. */
static inline ssize_t __vr_read(struct vrandom_state *st, void *buf, size_t len,
				unsigned int flags)
{
#ifndef __OPTIMIZE_SIZE__
	void *mem = st ? st->mem : __vr_thread_mem;
	ssize_t r;

	if (likely(!flags) && likely(mem) &&
	    likely(len < __atomic_load_n(&__vr_big_from, __ATOMIC_RELAXED))) {
		r = VRANDOM_VDSO_CALL(__vr_vdso_fn, buf, len, 0, mem,
				      __vr_params.size_of_opaque_state);
		if (unlikely(r < 0) && r == -ENOSYS)
			r = __vr_read_urandom(st, buf, len, 0);
		return r;
	}
#endif
	return __vr_read_slow(st, buf, len, flags);
}

#endif
