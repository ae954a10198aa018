/* rng.c: setup, backend choice, per-thread states, the public edge; and
 * the hot path, inline wherever the public functions read. */
#ifndef VRANDOM_RNG_H
#define VRANDOM_RNG_H

#include "arena.h"
#include "threshold.h"
#include "vdso.h"

/* The calling thread's state memory, NULL until its first read.
 * Initial-exec keeps the lookup to one load, but musl refuses to dlopen a
 * library that uses it, so what is built for dlopen (the Lua module) goes
 * without. */
#ifdef VRANDOM_DLOPEN
VR_HIDDEN extern __thread void *__vr_thread_mem;
#else
VR_HIDDEN extern __thread void *__vr_thread_mem
	__attribute__((__tls_model__("initial-exec")));
#endif

/* A whole read out of line, for what the hot path below leaves (flags, no
 * state memory yet, a large request) and for every read where size counts
 * more (-Os: firmware), so that there is one copy; and /dev/urandom, which
 * serves from the first ENOSYS on. */
VR_HIDDEN ssize_t __vr_read_slow(struct vrandom_state *st, void *buf, size_t len,
				 unsigned int flags);
VR_HIDDEN ssize_t __vr_switch_to_urandom(struct vrandom_state *st, void *buf, size_t len,
					 unsigned int flags);

/* The hot path: state memory means the vDSO is set up, so call it without
 * the dispatcher, unless the request is large enough that the system call
 * may serve it faster.  A null st stands for the calling thread's state.
 * A byte count or -errno.  A seccomp filter may take getrandom away after
 * setup: the vDSO's own fallback to the system call then answers ENOSYS. */
static inline ssize_t __vr_read(struct vrandom_state *st, void *buf, size_t len,
				unsigned int flags)
{
#ifndef __OPTIMIZE_SIZE__
	void *mem = st ? st->mem : __vr_thread_mem;
	ssize_t r;

	if (likely(!flags) && likely(mem) &&
	    likely(len < __atomic_load_n(&__vr_big_from, __ATOMIC_RELAXED))) {
		r = __vr_vdso_read(mem, buf, len, 0);
		if (unlikely(r < 0) && r == -ENOSYS)
			r = __vr_switch_to_urandom(st, buf, len, 0);
		return r;
	}
#endif
	return __vr_read_slow(st, buf, len, flags);
}

#endif
