/* Shared by the hostile-environment tests: a tally, a way to run each case
 * in a fresh process (vrandom picks its backend once, and a seccomp filter
 * or a resource limit cannot be undone), and the property every case
 * asserts of what vrandom hands back.  With HOSTILE_LIBC defined, for the
 * tests of a patched musl, it holds no vrandom at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef HOSTILE_LIBC
#include "vrandom.h"
#endif

/* Results live in shared memory: a child may have closed stdout. */
static struct tally { int passed, failed; char first[200], skipped[200]; } *tally;

#define T(cond) t_check(!!(cond), #cond, __LINE__)

static void t_check(int ok, const char *what, int line)
{
	if (ok) {
		__atomic_add_fetch(&tally->passed, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_add_fetch(&tally->failed, 1, __ATOMIC_RELAXED);
	if (!tally->first[0])
		snprintf(tally->first, sizeof tally->first, "line %d: %s", line, what);
}

static void t_init(void)
{
	tally = mmap(0, sizeof *tally, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED) {
		perror("mmap");
		exit(99);
	}
	setvbuf(stdout, 0, _IOLBF, 0);
}

/* Run one case in a child; a crash or an early exit is a failure too. */
static void t_case(const char *name, void (*fn)(void))
{
	int before = tally->failed, status;
	pid_t pid;

	fflush(0);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (!pid) {
		fn();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		t_check(0, "child exited cleanly", __LINE__);
		printf("%s: child status %#x\n", name, status);
	}
	printf("%s: %s%s%s\n", name, tally->failed == before ? "ok" : "FAILED",
	       tally->failed == before ? "" : " at ", tally->failed == before ? "" : tally->first);
	tally->first[0] = 0;
}

/* Fork a child that runs fn(fd, arg) to write n bytes to the pipe fd, and
 * read them into buf: 1 when it wrote them all and exited with 0. */
static inline int t_fork_read(int (*fn)(int, void *), void *arg, void *buf, size_t n)
{
	int fd[2], status, ok;
	pid_t pid;

	if (pipe(fd))
		_exit(99);
	pid = fork();
	if (pid < 0)
		_exit(99);
	if (!pid)
		_exit(fn(fd[1], arg));
	close(fd[1]);
	ok = read(fd[0], buf, n) == (ssize_t)n;
	close(fd[0]);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status) && ok;
}

/* A case that cannot run here: its reason, and the program's status 77
 * (Automake's SKIP) once the others have passed. */
static void t_skip(const char *why)
{
	size_t n = strlen(tally->skipped);

	snprintf(tally->skipped + n, sizeof tally->skipped - n, "%s%s", n ? "; " : "", why);
}

static int t_finish(void)
{
	printf("%d passed, %d failed\n", tally->passed, tally->failed);
	if (tally->failed)
		return 1;
	if (tally->skipped[0]) {
		printf("SKIP: %s\n", tally->skipped);
		return 77;
	}
	return tally->passed ? 0 : 99;
}

/* 64 random bytes hold about 56 distinct values, a few thousand all 256; a
 * constant or zero-filled buffer holds one or two.  The bounds below fail a
 * true random buffer with odds far beneath 2^-100. */
static inline int looks_random(const unsigned char *b, size_t n)
{
	unsigned char seen[256] = { 0 };
	size_t i, distinct = 0;

	for (i = 0; i < n; i++)
		if (!seen[b[i]]++)
			distinct++;
	return n < 64 || distinct >= (n < 512 ? n / 4 : 128);
}

#ifndef HOSTILE_LIBC
/* The whole public surface, each call asserted on its output. */
static inline void t_serves(void)
{
	unsigned char a[64], b[64], big[5000];
	vrandom_state *st;
	uint64_t u, v;

	memset(a, 0, sizeof a);
	T(vrandom_getrandom(a, sizeof a, 0) == sizeof a);
	T(looks_random(a, sizeof a));
	memset(b, 0, sizeof b);
	T(vrandom_getentropy(b, sizeof b) == 0);
	T(looks_random(b, sizeof b));
	T(memcmp(a, b, sizeof a));
	memset(big, 0, sizeof big);
	vrandom_buf(big, sizeof big);
	T(looks_random(big, sizeof big));
	T(looks_random(big + sizeof big - 64, 64));
	u = vrandom_u64();
	v = vrandom_u64();
	T(u != v);
	T(vrandom_uniform(10) < 10);
	st = vrandom_state_new();
	T(st != 0);
	if (st) {
		memset(a, 0, sizeof a);
		T(vrandom_state_getrandom(st, a, sizeof a, 0) == sizeof a);
		T(looks_random(a, sizeof a));
		vrandom_state_free(st);
	}
}
#endif

/* ASan reserves terabytes of address space and maps its heap on demand:
 * cases that take memory away from the process cannot run under it. */
#if defined __SANITIZE_ADDRESS__
#define T_ASAN 1
#elif defined __has_feature
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif
#ifndef T_ASAN
#define T_ASAN 0
#endif
