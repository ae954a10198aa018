/* urandom.c: /dev/urandom, where getrandom is ENOSYS. */
#ifndef VRANDOM_URANDOM_H
#define VRANDOM_URANDOM_H

#include "base.h"

struct vrandom_state;

/* len bytes (or fewer) of /dev/urandom, after waiting once for the
 * kernel's pool to be seeded (not with GRND_NONBLOCK: -EAGAIN);
 * cancellation is disabled meanwhile.  A byte count or -errno.  The
 * state is not used: the signature is a backend's read (rng.c). */
VR_HIDDEN ssize_t __vr_urandom_read(struct vrandom_state *unused, void *buf,
				    size_t len, unsigned int flags);

#endif
