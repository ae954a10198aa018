/* The libc shim: getrandom, getentropy and the arc4random family on top of
 * vrandom, for static programs whose libc makes a system call every time
 * (musl).  It is a separate archive that the program links ahead of libc,
 *
 *	cc -static prog.o -lvrandom-libc -lvrandom
 *
 * so these definitions resolve the program's references and libc.a's
 * members for the same names are never pulled in.  All five live in this
 * one object: a program that uses any of them gets the whole family, and
 * never a mix of ours and libc's. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

#include "vrandom.h"

uint32_t arc4random(void);
void arc4random_buf(void *, size_t);
uint32_t arc4random_uniform(uint32_t);

static void close_fd(void *p)
{
	close(*(int *)p);
}

/* Only before the kernel's pool is first seeded can getrandom block.  Wait
 * in poll(), a cancellation point, where the system call inside the vDSO
 * or vrandom could not be cancelled.  Without /dev/random (a bare chroot)
 * the caller blocks in the system call after all. */
static int wait_seeded(void)
{
	struct pollfd p = { .events = POLLIN };
	int r;

	p.fd = open("/dev/random", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (p.fd < 0)
		return 0;
	pthread_cleanup_push(close_fd, &p.fd);
	r = poll(&p, 1, -1);
	pthread_cleanup_pop(1);
	return r < 0 ? -1 : 0;
}

/* As musl's: the system call's flags and errors, and a cancellation point.
 * Once the pool is seeded nothing blocks, so a pending cancellation is
 * acted on at entry, as musl's syscall_cp would. */
ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
	ssize_t r;

	pthread_testcancel();
	r = vrandom_getrandom(buf, len, flags | GRND_NONBLOCK);
	if (r < 0 && errno == EAGAIN && !(flags & GRND_NONBLOCK) && !wait_seeded())
		r = vrandom_getrandom(buf, len, flags);
	return r;
}

/* As musl's: EIO above 256 bytes, EINTR retried, and no cancellation
 * point, so that no thread is cancelled holding half a key. */
int getentropy(void *buf, size_t len)
{
	int cs, r;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	r = vrandom_getentropy(buf, len);
	pthread_setcancelstate(cs, 0);
	return r;
}

/* OpenBSD's: never fails and is no cancellation point, though vrandom's
 * /dev/urandom fallback for old kernels goes through open() and read(). */
void arc4random_buf(void *buf, size_t len)
{
	int cs;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	vrandom_buf(buf, len);
	pthread_setcancelstate(cs, 0);
}

uint32_t arc4random(void)
{
	uint32_t v;

	arc4random_buf(&v, sizeof v);
	return v;
}

/* vrandom_uniform is unbiased for any bound (rejection), draws only the
 * bytes the bound needs, and gives 0 below 2, as OpenBSD's does.  No
 * cancellation state to guard: vrandom reaches no cancellation point with
 * cancellation enabled (its /dev/urandom path disables it itself). */
uint32_t arc4random_uniform(uint32_t bound)
{
	return vrandom_uniform(bound);
}
