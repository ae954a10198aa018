/* What every room of the runtime shares, and the tests and the tool with
 * it: getrandom's flags as the kernel numbers them, the system call, the
 * wipe.  Internal functions return 0 or -errno; only the public edge
 * (rng.c) sets errno.
 *
 * The rooms, each with its header, call one way: each uses only rooms
 * listed below it (chain-test.sh checks it on the object files).
 *   draw.c       the draws that cannot fail, on rng.h's inline hot path
 *   rng.c        setup, backend choice, per-thread states, the public edge
 *   threshold.c  large requests: the system call from the size where it wins
 *   arena.c      the pool of opaque states
 *   urandom.c    /dev/urandom, where getrandom is ENOSYS
 *   vdso.c       the vDSO function and what its params query said */
#ifndef VRANDOM_BASE_H
#define VRANDOM_BASE_H

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "arch.h"

#define VR_HIDDEN __attribute__((__visibility__("hidden")))
#define VR_INLINE static inline __attribute__((__always_inline__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* getrandom(2)'s flags, for C libraries whose headers lack some. */
#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM   0x0002
#define GRND_INSECURE 0x0004

/* The getrandom system call itself: a byte count or -errno. */
static inline ssize_t __vr_sys_getrandom(void *buf, size_t len, unsigned int flags)
{
	return __vr_syscall3(SYS_getrandom, (long)buf, (long)len, flags);
}

/* Zeroes that the compiler may not drop as dead stores: random bytes and
 * states are nobody's to find after use. */
static inline void vr_wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ __volatile__ ("" : : "r"(p) : "memory");
}

#endif
