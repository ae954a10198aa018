/* The core semantics without Check: plain C, so that it builds with any
 * libc, links fully static, and runs under qemu-user.  Exit status 0 when
 * every check passed, 1 when one failed, 99 when the test itself could not
 * run (fork, pipe, threads).
 *
 * The forced backends run first, in children forked before this process
 * makes its first vrandom call, since the backend is chosen once.  The
 * vDSO backend is required wherever the kernel exports the symbol, unless
 * VRANDOM_SMOKE_NO_VDSO=1 (emulators that hide it); VRANDOM_SMOKE_EXPECT=
 * vdso or syscall names the backend the default must be instead, whatever
 * the vDSO holds (a kernel whose answer is known). */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "vrandom.h"
#include "scale.h"
#include "tally.h"
#include "stats.h"

#ifdef VRANDOM_VDSO_SYM
#define VDSO_SYM VRANDOM_VDSO_SYM
#else
#define VDSO_SYM "getrandom"
#endif


static void hard(const char *what)
{
	perror(what);
	exit(99);
}

static struct vrandom_info info(void)
{
	struct vrandom_info i;

	if (vrandom_get_info(&i))
		hard("vrandom_get_info");
	return i;
}

static int is_vdso(void)
{
	return info().backend == VRANDOM_VDSO;
}

/* Does the kernel's vDSO carry the symbol's name at all?  A plain scan of
 * its loaded bytes, independent of the runtime's hash-table lookup. */
static int vdso_exports(void)
{
#ifdef VRANDOM_VDSO_SYM
	const unsigned char *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const void *)base;
	const ElfW(Phdr) *ph;
	size_t end = 0, n = sizeof VRANDOM_VDSO_SYM, i;
	int k;

	if (!base)
		return 0;
	ph = (const void *)(base + eh->e_phoff);
	for (k = 0; k < eh->e_phnum; k++)
		if (ph[k].p_type == PT_LOAD && ph[k].p_offset + ph[k].p_filesz > end)
			end = ph[k].p_offset + ph[k].p_filesz;
	for (i = 0; i + n <= end; i++)
		if (!memcmp(base + i, VRANDOM_VDSO_SYM, n))
			return 1;
#endif
	return 0;
}

static void backend(const char *want)
{
	struct vrandom_info i = info();
	const char *no = getenv("VRANDOM_SMOKE_NO_VDSO");
	const char *expect = getenv("VRANDOM_SMOKE_EXPECT");

	printf("backend: %s", i.backend_name);
	if (i.backend == VRANDOM_VDSO)
		printf(" (%s@%s, %zu-byte states, stride %zu)", i.vdso_symbol,
		       i.vdso_version, i.state_size, i.state_stride);
	printf("\n");
	/* A booted kernel whose answer is known (scripts/vm-test.sh). */
	if (!want && expect && *expect) {
		printf("expected backend (VRANDOM_SMOKE_EXPECT): %s\n", expect);
		want = expect;
	}
	if (!want && (!no || strcmp(no, "1"))) {
		printf("kernel's vDSO exports %s: %s\n", VDSO_SYM,
		       vdso_exports() ? "yes, required" : "no");
		if (vdso_exports())
			want = "vdso";
	}
	if (want)
		CHECK(!strcmp(i.backend_name, want));
	else if (no && !strcmp(no, "1"))     /* the harness says there is none */
		CHECK(i.backend != VRANDOM_VDSO);
	CHECK(i.backend >= VRANDOM_VDSO && i.backend <= VRANDOM_URANDOM);
}

/* ---- fills: every length lands exactly, nothing around it is touched ---- */

#define GUARD 16
#define MAXLEN 300

static int fill_ok(const unsigned char *b, size_t len)
{
	static const unsigned char pad[GUARD] = {
		0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
		0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5 };

	if (memcmp(b, pad, GUARD) || memcmp(b + GUARD + len, pad, GUARD))
		return 0;
	/* Both ends written: 8 bytes left as they were is a 2^-64 chance. */
	return len < 8 || (memcmp(b + GUARD, pad, 8) &&
			   memcmp(b + GUARD + len - 8, pad, 8));
}

static void fills(void)
{
	unsigned char b[GUARD + MAXLEN + GUARD];
	vrandom_state *st = vrandom_state_new();
	int ret = 1, a = 1, c = 1, d = 1;
	size_t len;

	if (!st)
		hard("vrandom_state_new");
	for (len = 0; len <= MAXLEN; len++) {
		memset(b, 0xa5, sizeof b);
		ret &= vrandom_getrandom(b + GUARD, len, 0) == (ssize_t)len;
		a &= fill_ok(b, len);
		memset(b, 0xa5, sizeof b);
		vrandom_buf(b + GUARD, len);
		c &= fill_ok(b, len);
		memset(b, 0xa5, sizeof b);
		vrandom_state_buf(st, b + GUARD, len);
		d &= fill_ok(b, len);
	}
	vrandom_state_free(st);
	CHECK(ret);
	CHECK(a);
	CHECK(c);
	CHECK(d);
}

/* 1 MiB in one call.  A 4 KiB block carries about 16 zero bytes, one left
 * unwritten 4096: 80 is far out of chance's reach either way. */
enum { BIG = 1 << 20, BLOCK = 4096 };

static size_t zeros(const unsigned char *b, size_t *worst)
{
	size_t i, z = 0, all = 0;

	*worst = 0;
	for (i = 0; i < BIG; i++) {
		z += !b[i];
		if ((i + 1) % BLOCK == 0) {
			all += z;
			*worst = z > *worst ? z : *worst;
			z = 0;
		}
	}
	return all;
}

static void fill_big(void)
{
	static unsigned char b[BIG + GUARD];
	size_t i, worst, all;

	memset(b, 0, BIG);
	memset(b + BIG, 0x5a, GUARD);
	CHECK(vrandom_getrandom(b, BIG, 0) == BIG);
	all = zeros(b, &worst);
	CHECK(worst < 80);
	CHECK(all > 3000 && all < 5200);
	memset(b, 0, BIG);
	vrandom_buf(b, BIG);
	zeros(b, &worst);
	CHECK(worst < 80);
	for (i = BIG; i < BIG + GUARD; i++)
		if (b[i] != 0x5a)
			break;
	CHECK(i == BIG + GUARD);
}

/* ---- flags and errors, as the system call has them ---- */

static int einval(unsigned int flags)
{
	unsigned char b[16];

	errno = 0;
	return vrandom_getrandom(b, sizeof b, flags) == -1 && errno == EINVAL;
}

static void flags(void)
{
	unsigned char b[257];

	CHECK(vrandom_getrandom(b, 16, GRND_NONBLOCK) == 16);
	CHECK(vrandom_getrandom(b, 16, GRND_RANDOM) == 16);
	CHECK(vrandom_getrandom(b, 16, GRND_INSECURE) == 16);
	CHECK(vrandom_getrandom(b, 16, GRND_NONBLOCK | GRND_INSECURE) == 16);
	CHECK(einval(GRND_INSECURE | GRND_RANDOM));
	CHECK(einval(0x8));
	CHECK(einval(0x80000000u));
	CHECK(vrandom_getentropy(b, 0) == 0);
	CHECK(vrandom_getentropy(b, 256) == 0);
	errno = 0;
	CHECK(vrandom_getentropy(b, 257) == -1 && errno == EIO);
}

/* ---- ranges ---- */

/* Each side of the 1-, 2- and 4-byte draw widths: in range, and the upper
 * half about half the time: within 13 sigma (sqrt(n)/2 each), 35% and
 * 65% of the full 2000 draws. */
static void widths(void)
{
	static const uint64_t b[] = { 255, 256, 257, 65535, 65536, 65537,
		0xffffffffull, 1ull << 32, (1ull << 32) + 1 };
	long k, n = scaled(2000, 200), upper;
	size_t i;
	int inrange;

	for (i = 0; i < sizeof b / sizeof b[0]; i++) {
		inrange = 1, upper = 0;
		for (k = 0; k < n; k++) {
			uint64_t v = vrandom_uniform(b[i]);

			inrange &= v < b[i];
			upper += v >= b[i] / 2;
		}
		CHECK(inrange);
		CHECK((2 * upper - n) * (2 * upper - n) < 169 * n);
	}
}

static int forced_run;          /* in a child with a backend forced */

static void ranges(void)
{
	unsigned seen = 0;
	long i, n = scaled(6000, 600);
	int inrange = 1, grid = 1;
	uint64_t big = (1ULL << 63) + 1;

	CHECK(vrandom_uniform(0) == 0);
	CHECK(vrandom_uniform(1) == 0);
	for (i = 0; i < n; i++) {
		inrange &= vrandom_uniform(6) < 6;
		seen |= 1u << (vrandom_uniform(2) & 7);
		inrange &= vrandom_uniform(big) < big;
	}
	CHECK(inrange);
	CHECK(seen == 3);
	widths();
	/* The die, on the default backend: a forced one hands its bytes to
	 * the same mapping, at a system call or a read a draw. */
	if (!forced_run && !stat_away("vrandom_uniform(6)"))
		CHECK(stat_uniform("vrandom_uniform", 6, vrandom_uniform));
	for (i = 0; i < 1000; i++) {
		double d = vrandom_double(), s = d * 0x1p53;

		inrange &= d >= 0 && d < 1;
		grid &= s == (double)(uint64_t)s;
	}
	CHECK(inrange);
	CHECK(grid);
	CHECK(vrandom_u64() != vrandom_u64() || vrandom_u32() != vrandom_u32());
}

/* ---- explicit states and reserve ---- */

static void states(void)
{
	unsigned char x[64], y[64];
	size_t base = info().states_in_use;
	vrandom_state *a = vrandom_state_new(), *b = vrandom_state_new();

	if (!a || !b)
		hard("vrandom_state_new");
	/* Without the vDSO, handles share one placeholder: the system call. */
	if (is_vdso())
		CHECK(a != b && info().states_in_use == base + 2);
	CHECK(vrandom_state_getrandom(a, x, sizeof x, 0) == sizeof x);
	vrandom_state_buf(b, y, sizeof y);
	CHECK(memcmp(x, y, sizeof x));
	errno = 0;
	CHECK(vrandom_state_getrandom(a, x, 1, GRND_INSECURE | GRND_RANDOM) == -1 &&
	      errno == EINVAL);
	vrandom_state_free(a);
	vrandom_state_free(b);
	vrandom_state_free(0);
	CHECK(info().states_in_use == base);
}

static void reserve(void)
{
	enum { N = 64 };
	vrandom_state *st[N];
	struct vrandom_info before;
	int i, got = 1;

	CHECK(vrandom_reserve(N) == 0);
	before = info();
	if (before.backend == VRANDOM_VDSO)
		CHECK(before.states_total - before.states_in_use >= N);
	for (i = 0; i < N; i++)
		got &= (st[i] = vrandom_state_new()) != 0;
	CHECK(got);
	if (before.backend == VRANDOM_VDSO) {
		CHECK(info().arena_pages == before.arena_pages);
		CHECK(info().states_in_use == before.states_in_use + N);
	}
	for (i = 0; i < N; i++)
		vrandom_state_free(st[i]);
	CHECK(info().states_in_use == before.states_in_use);
}

/* ---- threads: many short-lived ones, a pool that does not grow ---- */

enum { NTHREADS = 256, BATCH = 8 };
static unsigned char thread_out[NTHREADS][16];

static void *draw(void *arg)
{
	vrandom_buf(arg, 16);
	return 0;
}

static void threads(void)
{
	struct vrandom_info before = info(), after;
	pthread_t t[BATCH];
	size_t per_page, i, j;
	int distinct = 1;

	for (i = 0; i < NTHREADS; i += BATCH) {
		for (j = 0; j < BATCH; j++)
			if (pthread_create(&t[j], 0, draw, thread_out[i + j]))
				hard("pthread_create");
		for (j = 0; j < BATCH; j++)
			pthread_join(t[j], 0);
	}
	for (i = 0; i < NTHREADS; i++)
		for (j = i + 1; j < NTHREADS; j++)
			distinct &= memcmp(thread_out[i], thread_out[j], 16) != 0;
	CHECK(distinct);
	after = info();
	CHECK(after.states_in_use == before.states_in_use);
	if (after.backend != VRANDOM_VDSO)
		return;
	/* States go back on thread exit: the pool never needs more than the
	 * states held at once, and a growth at most doubles it (the first is
	 * a page). */
	per_page = getauxval(AT_PAGESZ) / after.state_stride;
	CHECK(after.states_total <= before.states_total ||
	      after.states_total <= 2 * (before.states_in_use + BATCH) + per_page);
	printf("threads: %d, states in use %zu, carved %zu\n", NTHREADS,
	       after.states_in_use, after.states_total);
}

/* ---- fork: the child's bytes are its own, its pool is consistent ---- */

enum { HELD = 4 };
static pthread_barrier_t hold;

static void *holder(void *arg)
{
	(void)arg;
	vrandom_u32();
	pthread_barrier_wait(&hold);    /* holding a state */
	pthread_barrier_wait(&hold);    /* until the parent is done */
	return 0;
}

struct child_report {
	size_t in_use, in_use_after_thread;
	unsigned char bytes[32], handle[32];
};

static void forks(void)
{
	struct child_report r = { 0 };
	unsigned char mine[32], handle[32];
	vrandom_state *st = vrandom_state_new();
	pthread_t t[HELD], u;
	size_t in_use;
	int fd[2], status, i, vdso = is_vdso();
	pid_t pid;

	if (!st || pipe(fd) || pthread_barrier_init(&hold, 0, HELD + 1))
		hard("fork setup");
	vrandom_state_buf(st, handle, sizeof handle);
	for (i = 0; i < HELD; i++)
		if (pthread_create(&t[i], 0, holder, 0))
			hard("pthread_create");
	pthread_barrier_wait(&hold);
	in_use = info().states_in_use;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		hard("fork");
	if (!pid) {
		r.in_use = info().states_in_use;
		vrandom_buf(r.bytes, sizeof r.bytes);
		vrandom_state_buf(st, r.handle, sizeof r.handle);
		/* A thread of the child's own takes a state and gives it back.
		 * Only the pool has states to count, and qemu-user 7.2 aborts on
		 * a thread created in the child of a threaded process. */
		if (vdso && (pthread_create(&u, 0, draw, mine) || pthread_join(u, 0)))
			_exit(99);
		r.in_use_after_thread = info().states_in_use;
		_exit(write(fd[1], &r, sizeof r) == sizeof r ? 0 : 99);
	}
	close(fd[1]);
	vrandom_buf(mine, sizeof mine);
	vrandom_state_buf(st, handle, sizeof handle);
	if (read(fd[0], &r, sizeof r) != sizeof r)
		r.in_use = (size_t)-1;
	close(fd[0]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	CHECK(memcmp(mine, r.bytes, sizeof mine));
	CHECK(memcmp(handle, r.handle, sizeof handle));
	if (vdso) {
		/* Only the forking thread survives: the holders' states are free
		 * again in the child, the main thread's and the handle are not. */
		CHECK(r.in_use == in_use - HELD);
		CHECK(r.in_use_after_thread == r.in_use);
		printf("fork: states in use %zu in the parent, %zu in the child\n",
		       in_use, r.in_use);
	}
	pthread_barrier_wait(&hold);
	for (i = 0; i < HELD; i++)
		pthread_join(t[i], 0);
	pthread_barrier_destroy(&hold);
	vrandom_state_free(st);
	if (vdso)
		CHECK(info().states_in_use == in_use - HELD - 1);
}

/* ---- the forced fallbacks, each in a child that has not chosen yet ---- */

static void core(const char *want)
{
	backend(want);
	fills();
	fill_big();
	flags();
	ranges();
	states();
	threads();
}

/* In a child that has not chosen yet: var=value, then the core tests;
 * VRANDOM_BACKEND names the backend they expect. */
static void forced(const char *var, const char *name)
{
	int fd[2], n[2] = { 0, 0 }, status;
	pid_t pid;

	if (pipe(fd))
		hard("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		hard("fork");
	if (!pid) {
		close(fd[0]);
		passed = failed = 0;
		setenv(var, name, 1);
		printf("-- %s=%s\n", var, name);
		forced_run = 1;
		core(strcmp(var, "VRANDOM_BACKEND") ? 0 : name);
		/* every size from 256 bytes on took the system call */
		if (!strcmp(var, "VRANDOM_SYSCALL_MIN") && is_vdso())
			CHECK(info().syscall_min == strtoul(name, 0, 10));
		n[0] = passed;
		n[1] = failed;
		fflush(stdout);
		_exit(write(fd[1], n, sizeof n) == sizeof n ? 0 : 99);
	}
	close(fd[1]);
	if (read(fd[0], n, sizeof n) != sizeof n)
		n[0] = n[1] = 0;
	close(fd[0]);
	passed += n[0];
	failed += n[1];
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
}

int main(void)
{
	unsetenv("VRANDOM_BACKEND");
	unsetenv("VRANDOM_SYSCALL_MIN");
	forced("VRANDOM_BACKEND", "syscall");
	forced("VRANDOM_BACKEND", "urandom");
	forced("VRANDOM_SYSCALL_MIN", "256");
	printf("-- default backend\n");
	core(0);
	reserve();
	forks();
	return tally_finish();
}
