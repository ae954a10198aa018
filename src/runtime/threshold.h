/* threshold.c: large requests, by system call from the size where it is
 * faster than the vDSO on this machine. */
#ifndef VRANDOM_THRESHOLD_H
#define VRANDOM_THRESHOLD_H

#include "base.h"

/* Requests of __vr_big_from bytes or more on the vDSO path go to
 * __vr_big_read, which measures once (with the caller's state mem) and
 * serves by system call from the threshold on. */
VR_HIDDEN extern size_t __vr_big_from;
VR_HIDDEN ssize_t __vr_big_read(void *mem, void *buf, size_t len, unsigned int flags);
/* Reads VRANDOM_SYSCALL_MIN, at setup. */
VR_HIDDEN void __vr_threshold_setup(void);
VR_HIDDEN void __vr_threshold_fork_child(void);
/* Measures if nothing has yet (with mem, else a borrowed state) and
 * returns the threshold: 0 for never, VR_PENDING when it cannot be known
 * yet (another thread measures; the kernel's pool is not seeded). */
#define VR_PENDING ((size_t)-1)
VR_HIDDEN size_t __vr_threshold_now(void *mem);
/* The size from which the system call serves, given the best times (ns) of
 * the vDSO and of the system call at 256 and 1024 bytes; 0: never.
 * Exposed so that tests can feed it either outcome. */
VR_HIDDEN size_t __vr_crossover(const double vdso[2], const double sys[2]);

#endif
