/* /dev/urandom, for kernels without getrandom (before 3.17), or a seccomp
 * filter that makes it fail with ENOSYS.  rng.c decides when this serves;
 * this file only reads the device, as the system call would have. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include "urandom.h"

static int urandom_ready;

/* /dev/urandom never blocks, even before the pool is seeded: wait once. */
static int urandom_wait(unsigned int flags)
{
	struct pollfd p = { .events = POLLIN };
	int r;

	if (__atomic_load_n(&urandom_ready, __ATOMIC_ACQUIRE))
		return 0;
	p.fd = open("/dev/random", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (p.fd < 0)
		return -errno;
	do
		r = poll(&p, 1, flags & GRND_NONBLOCK ? 0 : -1);
	while (r < 0 && errno == EINTR);
	r = r < 0 ? -errno : r == 0 ? -EAGAIN : 0;
	close(p.fd);
	if (!r)
		__atomic_store_n(&urandom_ready, 1, __ATOMIC_RELEASE);
	return r;
}

/* A descriptor of our own per call: one kept open could be closed by the
 * program and its number reused for a file of the program's between our
 * check and our read.  This path serves only kernels before 3.17. */
static ssize_t urandom_fill(void *buf, size_t len, unsigned int flags)
{
	int fd, r = urandom_wait(flags);
	ssize_t n;

	if (r)
		return r;
	do
		fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len);
	n = n < 0 ? -errno : n;
	close(fd);
	return n;
}

/* poll and read are cancellation points: a cancelled thread would leak
 * the descriptor. */
ssize_t __vr_urandom_read(struct vrandom_state *unused, void *buf, size_t len,
			  unsigned int flags)
{
	ssize_t n;
	int cs;

	(void)unused;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	n = urandom_fill(buf, len, flags);
	pthread_setcancelstate(cs, 0);
	return n;
}
