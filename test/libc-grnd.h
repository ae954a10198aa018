/* musl's getrandom() and getentropy() semantics, asserted of whatever
 * provides them: the libc shim (test/musl-shim.c) and a musl patched with
 * contrib/musl (test/musl-patched/).  Uses tally.h's CHECK. */
#ifndef VRANDOM_LIBC_GRND_H
#define VRANDOM_LIBC_GRND_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf.h"
#include "tally.h"

static int fails(ssize_t r, int err)
{
	return r == -1 && errno == err;
}

static void flags(void)
{
	unsigned char b[302];
	size_t len;
	int ok = 1;

	for (len = 0; len <= 300; len++) {
		memset(b, 0, sizeof b);
		ok &= getrandom(b, len, 0) == (ssize_t)len && !b[len] && !b[len + 1];
	}
	CHECK(ok);
	CHECK(getrandom(b, 16, GRND_NONBLOCK) == 16);
	CHECK(getrandom(b, 16, GRND_RANDOM) == 16);
	CHECK(getrandom(b, 16, GRND_INSECURE) == 16);
	errno = 0;
	CHECK(fails(getrandom(b, 16, GRND_INSECURE | GRND_RANDOM), EINVAL));
	errno = 0;
	CHECK(fails(getrandom(b, 16, 0x8), EINVAL));
	errno = 0;
	CHECK(fails(getrandom(b, 16, GRND_NONBLOCK | 0x40000000), EINVAL));
	CHECK(getentropy(b, 0) == 0);
	memset(b, 0, sizeof b);
	CHECK(getentropy(b, 256) == 0 && !b[256]);
	CHECK(memcmp(b + 248, "\0\0\0\0\0\0\0\0", 8));
	errno = 0;
	CHECK(fails(getentropy(b, 257), EIO));
}

/* musl's getentropy is no cancellation point and its getrandom is one:
 * with a cancellation pending, the first call returns, the second never.
 * no_cancel, if set, is another call that must not act on it. */
static int reached;
static void (*no_cancel)(void *, size_t);

static void *cancel_me(void *arg)
{
	unsigned char b[16];

	/* A thread that already holds its state takes the same path. */
	if (arg)
		getrandom(b, sizeof b, 0);
	pthread_cancel(pthread_self());
	if (getentropy(b, sizeof b) == 0)
		reached = 1;
	if (no_cancel)
		no_cancel(b, sizeof b);
	reached |= 2;
	getrandom(b, sizeof b, 0);
	reached |= 4;
	return 0;
}

static void cancellation(void)
{
	void *res = 0;
	pthread_t t;
	int warm;

	for (warm = 0; warm < 2; warm++) {
		reached = 0;
		if (pthread_create(&t, 0, cancel_me, warm ? &warm : 0) ||
		    pthread_join(t, &res)) {
			perror("pthread");
			exit(99);
		}
		CHECK(res == PTHREAD_CANCELED);
		CHECK(reached == 3);
	}
}

/* Before the kernel's pool is first seeded, getrandom(GRND_NONBLOCK) says
 * EAGAIN.  A seccomp filter replays that boot in a child: getrandom with
 * GRND_NONBLOCK answers EAGAIN, and so does the 32-byte blocking call with
 * which the vDSO reseeds a state, so that a vDSO path falls back to the
 * system call as before the first seeding.  A blocking caller must still
 * get its 16 bytes, a non-blocking one EAGAIN. */
static int unseeded(void)
{
	struct bpf_insn f[] = {
		{ LD_ABS, 0, 0, 0 },
		{ JEQ, 0, 6, SYS_getrandom },
		{ LD_ABS, 0, 0, ARG_LOW(2) },
		{ JSET, 3, 0, GRND_NONBLOCK },
		{ JEQ, 0, 3, 0 },
		{ LD_ABS, 0, 0, ARG_LOW(1) },
		{ JEQ, 0, 1, 32 },
		{ RET, 0, 0, RET_ERRNO | EAGAIN },
		{ RET, 0, 0, RET_ALLOW },
	};
	unsigned char b[16];
	int blocking, nonblocking;

	if (bpf_install(f, sizeof f / sizeof f[0]))
		return 77;
	blocking = getrandom(b, sizeof b, 0) == sizeof b;
	errno = 0;
	nonblocking = fails(getrandom(b, sizeof b, GRND_NONBLOCK), EAGAIN);
	return (!blocking) | (!nonblocking) << 1;
}

/* In a child forked before this process first calls getrandom, so that
 * the child's first call meets the filter. */
static void early_boot(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (!pid) {
		setenv("VRANDOM_BACKEND", "syscall", 1);
		_exit(unseeded());
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		CHECK(!"the early-boot child exited normally");
		return;
	}
	status = WEXITSTATUS(status);
	if (status == 77) {
		skipped = "no seccomp here: the early-boot wait is not tested";
		return;
	}
	printf("early boot (GRND_NONBLOCK gives EAGAIN): status %d\n", status);
	CHECK(!(status & 1));   /* a blocking call waited and got its bytes */
	CHECK(!(status & 2));   /* a non-blocking call saw EAGAIN */
	CHECK(status < 4);
}

#endif
