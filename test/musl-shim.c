/* The libc shim's semantics, in a program linked with it ahead of libc:
 * musl's getrandom/getentropy (flags, EINVAL, EIO, cancellation) and
 * OpenBSD's arc4random family.  Exit 0 when all passed, 1 when one failed,
 * 99 when the test could not run. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrandom.h"
#include "tally.h"

uint32_t arc4random(void);
void arc4random_buf(void *, size_t);
uint32_t arc4random_uniform(uint32_t);


static int fails(ssize_t r, int err)
{
	return r == -1 && errno == err;
}

/* The calls land in vrandom: this thread now holds a state of its pool. */
static void routed(void)
{
	struct vrandom_info i;
	unsigned char b[4];

	CHECK(getrandom(b, sizeof b, 0) == sizeof b);
	CHECK(vrandom_get_info(&i) == 0);
	printf("backend: %s, states in use %zu\n", i.backend_name, i.states_in_use);
	if (i.backend == VRANDOM_VDSO)
		CHECK(i.states_in_use == 1);
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

static void arc4(void)
{
	unsigned char b[64 + 2] = { 0 };
	unsigned count[6] = { 0 };
	uint32_t big = 0x80000001u;
	int i, inrange = 1;

	arc4random_buf(b, 64);
	CHECK(memcmp(b + 56, "\0\0\0\0\0\0\0\0", 8) && !b[64] && !b[65]);
	arc4random_buf(b, 0);
	CHECK(arc4random() != arc4random() || arc4random() != arc4random());
	CHECK(arc4random_uniform(0) == 0);
	CHECK(arc4random_uniform(1) == 0);
	for (i = 0; i < 6000; i++) {
		uint32_t v = arc4random_uniform(6);

		inrange &= v < 6 && arc4random_uniform(big) < big;
		if (v < 6)
			count[v]++;
	}
	CHECK(inrange);
	/* Expected 1000 each; 600 and 1400 are more than 13 sigma away. */
	for (i = 0; i < 6; i++)
		CHECK(count[i] > 600 && count[i] < 1400);
}

/* musl's getentropy is no cancellation point and its getrandom is one:
 * with a cancellation pending, the first call returns, the second never. */
static int reached;

static void *cancel_me(void *arg)
{
	unsigned char b[16];

	(void)arg;
	pthread_cancel(pthread_self());
	if (getentropy(b, sizeof b) == 0)
		reached = 1;
	arc4random_buf(b, sizeof b);
	reached |= 2;
	getrandom(b, sizeof b, 0);
	reached |= 4;
	return 0;
}

static void cancellation(void)
{
	pthread_t t;
	void *res = 0;

	if (pthread_create(&t, 0, cancel_me, 0) || pthread_join(t, &res)) {
		perror("pthread");
		exit(99);
	}
	CHECK(res == PTHREAD_CANCELED);
	CHECK(reached == 3);
}

/* Before the kernel's pool is first seeded, getrandom(GRND_NONBLOCK) says
 * EAGAIN.  A seccomp filter replays that boot for a child on the system
 * call backend: a blocking caller must still get its bytes (the shim waits
 * and asks again without GRND_NONBLOCK), a non-blocking one EAGAIN.  Raw
 * BPF, as musl ships no <linux/filter.h>. */
struct bpf_insn { uint16_t code; uint8_t jt, jf; uint32_t k; };
struct bpf_prog { unsigned short len; struct bpf_insn *insns; };

#define LD_ABS 0x20
#define JEQ 0x15
#define JSET 0x45
#define RET 0x06
#define RET_ALLOW 0x7fff0000u
#define RET_ERRNO 0x00050000u
/* struct seccomp_data: nr at 0, args[] from 16; the low half of args[2]. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG2_LOW (16 + 2 * 8 + 4)
#else
#define ARG2_LOW (16 + 2 * 8)
#endif

static int unseeded(void)
{
	struct bpf_insn f[] = {
		{ LD_ABS, 0, 0, 0 },
		{ JEQ, 0, 3, SYS_getrandom },
		{ LD_ABS, 0, 0, ARG2_LOW },
		{ JSET, 0, 1, GRND_NONBLOCK },
		{ RET, 0, 0, RET_ERRNO | EAGAIN },
		{ RET, 0, 0, RET_ALLOW },
	};
	struct bpf_prog prog = { sizeof f / sizeof f[0], f };
	unsigned char b[16];
	int blocking, nonblocking;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, 2, &prog, 0, 0))
		return 77;
	blocking = getrandom(b, sizeof b, 0) == sizeof b;
	errno = 0;
	nonblocking = fails(getrandom(b, sizeof b, GRND_NONBLOCK), EAGAIN);
	return (!blocking) | (!nonblocking) << 1;
}

/* In a child forked before this process first calls vrandom, which picks
 * its backend once. */
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
		printf("no seccomp here: the early-boot wait is not tested\n");
		return;
	}
	printf("early boot (GRND_NONBLOCK gives EAGAIN): status %d\n", status);
	CHECK(!(status & 1));   /* a blocking call waited and got its bytes */
	CHECK(!(status & 2));   /* a non-blocking call saw EAGAIN */
	CHECK(status < 4);
}

int main(void)
{
	early_boot();
	routed();
	flags();
	arc4();
	cancellation();
	return tally_finish();
}
