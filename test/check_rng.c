/* The public API: lengths, flags, errors, bounded draws, states, threads,
 * fork, signals and the forced fallbacks.  Each test runs in its own
 * process (Check's fork mode), so each sees a fresh lazy initialisation. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "vrandom.h"
#include "base.h"
#include "uniform.h"
#include "bpf.h"
#include "check_main.h"


static struct vrandom_info info(void)
{
	struct vrandom_info i;

	ck_assert_int_eq(vrandom_get_info(&i), 0);
	return i;
}

static int all_equal(const unsigned char *p, size_t n, unsigned char v)
{
	while (n--)
		if (*p++ != v)
			return 0;
	return 1;
}

/* ---- lengths and overruns ---- */

#define GUARD 64

static void check_fill(size_t len, ssize_t (*fill)(void *, size_t))
{
	unsigned char *m = malloc(len + 2 * GUARD), *p = m + GUARD;
	size_t done = 0;
	ssize_t r;

	ck_assert_ptr_nonnull(m);
	memset(m, 0xa5, len + 2 * GUARD);
	while (done < len) {
		r = fill(p + done, len - done);
		ck_assert_int_gt(r, 0);
		done += r;
	}
	ck_assert_int_eq(fill(p, 0), 0);
	ck_assert(all_equal(m, GUARD, 0xa5));
	ck_assert(all_equal(p + len, GUARD, 0xa5));
	/* 16 bytes all equal to the fill pattern: chance 2^-128. */
	if (len >= 16)
		ck_assert(!all_equal(p, len, 0xa5));
	free(m);
}

static ssize_t fill_getrandom(void *p, size_t n) { return vrandom_getrandom(p, n, 0); }

static ssize_t fill_buf(void *p, size_t n)
{
	vrandom_buf(p, n);
	return n;
}

START_TEST(lengths)
{
	size_t len;

	for (len = 0; len <= 300; len++) {
		check_fill(len, fill_getrandom);
		check_fill(len, fill_buf);
	}
	check_fill(1 << 20, fill_getrandom);
	check_fill(1 << 20, fill_buf);
}
END_TEST

/* The same lengths with requests of 256 bytes and more sent to the system
 * call: short counts above 256 bytes are its right, and vrandom_buf loops. */
START_TEST(lengths_syscall_min)
{
	size_t len;

	setenv("VRANDOM_SYSCALL_MIN", "256", 1);
	for (len = 250; len <= 300; len++) {
		check_fill(len, fill_getrandom);
		check_fill(len, fill_buf);
	}
	check_fill(1 << 20, fill_getrandom);
	check_fill(1 << 20, fill_buf);
	/* reported with the vDSO backend only (valgrind hides the vDSO) */
	ck_assert_uint_eq(info().syscall_min, info().backend == VRANDOM_VDSO ? 256 : 0);
}
END_TEST

/* Whatever the measurement finds (which method wins depends on the CPU):
 * never, or from 256 bytes on; the reserved words stay zero; and the
 * threshold reported is the one applied: with getrandom then failing
 * with EIO (a filter), a request of syscall_min bytes fails and one a
 * byte shorter is served by the vDSO; never: a MiB is served. */
START_TEST(syscall_min_measured)
{
	static unsigned char b[1 << 20];
	struct vrandom_info i;
	size_t k, m;

	unsetenv("VRANDOM_SYSCALL_MIN");
	vrandom_buf(b, 4096);
	memset(&i, 0xa5, sizeof i);
	ck_assert_int_eq(vrandom_get_info(&i), 0);
	for (k = 0; k < sizeof i.reserved / sizeof i.reserved[0]; k++)
		ck_assert_uint_eq(i.reserved[k], 0);
	/* Fields added later took their words from reserved: the struct ends
	 * 17 words after syscall_min, as it always has. */
	ck_assert_uint_eq(sizeof i, offsetof(struct vrandom_info, syscall_min) +
			  17 * sizeof(size_t));
	if (i.backend != VRANDOM_VDSO) {
		ck_assert_uint_eq(i.syscall_min, 0);
		ck_assert_uint_eq(i.handles_placeholder, 0);
		return;
	}
	m = i.syscall_min;
	ck_assert(m == 0 || m >= 256);
	if (bpf_deny(SYS_getrandom, EIO)) {
		ck_skip("no seccomp here: syscall_min_measured's threshold not applied");
		return;
	}
	if (m) {
		ck_assert_int_eq(vrandom_getrandom(b, m - 1, 0), (ssize_t)(m - 1));
		errno = 0;
		ck_assert_int_eq(vrandom_getrandom(b, m, 0), -1);
		ck_assert_int_eq(errno, EIO);
	} else {
		ck_assert_int_eq(vrandom_getrandom(b, sizeof b, 0), (ssize_t)sizeof b);
	}
}
END_TEST

/* Before the kernel's pool is first seeded, replayed by a filter under
 * which getrandom(GRND_NONBLOCK) answers EAGAIN, the threshold cannot be
 * measured: vrandom_get_info returns at once and says it is pending,
 * instead of waiting for the pool (the test's timeout). */
START_TEST(syscall_min_pending)
{
	struct bpf_insn f[] = {
		{ LD_ABS, 0, 0, 0 },
		{ JEQ, 0, 3, SYS_getrandom },
		{ LD_ABS, 0, 0, ARG_LOW(2) },
		{ JSET, 0, 1, GRND_NONBLOCK },
		{ RET, 0, 0, RET_ERRNO | EAGAIN },
		{ RET, 0, 0, RET_ALLOW },
	};
	struct vrandom_info i;

	unsetenv("VRANDOM_SYSCALL_MIN");
	if (bpf_install(f, sizeof f / sizeof f[0])) {
		ck_skip("no seccomp here: syscall_min_pending not tested");
		return;
	}
	ck_assert_int_eq(vrandom_get_info(&i), 0);
	if (i.backend == VRANDOM_VDSO)
		ck_assert_uint_eq(i.syscall_min, (size_t)-1);
	else
		ck_assert_uint_eq(i.syscall_min, 0);
}
END_TEST

START_TEST(two_reads_differ)
{
	unsigned char a[32], b[32];

	vrandom_buf(a, sizeof a);
	vrandom_buf(b, sizeof b);
	ck_assert(memcmp(a, b, sizeof a));
}
END_TEST

/* ---- flags and errors ---- */

START_TEST(accepted_flags)
{
	static const unsigned ok[] = {
		0, GRND_NONBLOCK, GRND_RANDOM, GRND_INSECURE,
		GRND_NONBLOCK | GRND_RANDOM, GRND_NONBLOCK | GRND_INSECURE,
	};
	unsigned char buf[64];
	size_t i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++)
		ck_assert_int_eq(vrandom_getrandom(buf, sizeof buf, ok[i]), sizeof buf);
}
END_TEST

START_TEST(rejected_flags)
{
	static const unsigned bad[] = {
		GRND_INSECURE | GRND_RANDOM, GRND_INSECURE | GRND_RANDOM | GRND_NONBLOCK,
		0x8, 0x10, 0x80000000u, ~0u,
	};
	vrandom_state *st = vrandom_state_new();
	unsigned char buf[16];
	size_t i;

	ck_assert_ptr_nonnull(st);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		errno = 0;
		ck_assert_int_eq(vrandom_getrandom(buf, sizeof buf, bad[i]), -1);
		ck_assert_int_eq(errno, EINVAL);
		errno = 0;
		ck_assert_int_eq(vrandom_state_getrandom(st, buf, sizeof buf, bad[i]), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	vrandom_state_free(st);
}
END_TEST

START_TEST(getentropy_limits)
{
	unsigned char buf[257];

	ck_assert_int_eq(vrandom_getentropy(buf, 0), 0);
	ck_assert_int_eq(vrandom_getentropy(buf, 256), 0);
	errno = 0;
	ck_assert_int_eq(vrandom_getentropy(buf, 257), -1);
	ck_assert_int_eq(errno, EIO);
}
END_TEST

START_TEST(info_and_version)
{
	struct vrandom_info i = info();

	ck_assert_int_eq(vrandom_get_info(0), -1);
	ck_assert_str_eq(vrandom_version(), PACKAGE_VERSION);
	ck_assert(i.backend >= VRANDOM_VDSO && i.backend <= VRANDOM_URANDOM);
	if (i.backend == VRANDOM_VDSO) {
		ck_assert_str_eq(i.backend_name, "vdso");
		ck_assert_ptr_nonnull(i.vdso_symbol);
		ck_assert_ptr_nonnull(i.vdso_version);
		ck_assert_uint_gt(i.state_size, 0);
		ck_assert_uint_ge(i.state_stride, i.state_size);
		ck_assert_uint_eq(i.state_stride % 8, 0);
	} else {
		ck_assert_ptr_null(i.vdso_symbol);
		ck_assert_uint_eq(i.state_size, 0);
	}
}
END_TEST

/* The kernel of this project's machines has the vDSO: losing it silently
 * would lose the point.  VRANDOM_TEST_NO_VDSO=1 marks hosts without it. */
START_TEST(vdso_in_use)
{
	const char *no = getenv("VRANDOM_TEST_NO_VDSO");
	struct vrandom_info i = info();

	/* Where the harness knows there is none (valgrind hides it), the
	 * fallback must serve: the vDSO in use there would be a lie. */
	if (no && *no == '1') {
		ck_assert_int_ne(i.backend, VRANDOM_VDSO);
		ck_assert_uint_eq(i.mmap_prot, 0);
		return;
	}
	ck_assert_str_eq(i.backend_name, "vdso");
	ck_assert_uint_eq(i.mmap_prot, 0x3);
	ck_assert_uint_eq(i.mmap_flags, 0x28);  /* MAP_DROPPABLE|MAP_ANONYMOUS */
}
END_TEST

/* ---- bounded draws (their distributions: test/dist.c) ---- */

START_TEST(uniform_degenerate)
{
	ck_assert_uint_eq(vrandom_uniform(0), 0);
	ck_assert_uint_eq(vrandom_uniform(1), 0);
	ck_assert_uint_lt(vrandom_uniform(2), 2);
}
END_TEST

/* ---- byte economy: one width per bound, exactly unbiased ---- */

/* A draw function that hands out every value below 2^(8 len) in turn,
 * then 2^(8 len) - 1 (which vr_uniform always accepts), and notes the
 * widths asked for. */
struct seq {
	uint64_t next, n;
	size_t width;   /* bytes of the last draw */
	int mixed;      /* draws of more than one width */
};

static void seq_draw(void *ctx, void *buf, size_t len)
{
	struct seq *s = ctx;
	uint64_t v = s->next < s->n ? s->next : s->n - 1;

	if (s->width && s->width != len)
		s->mixed = 1;
	s->width = len;
	s->next++;
	switch (len) {
	case 1: *(uint8_t *)buf = v; break;
	case 2: *(uint16_t *)buf = v; break;
	case 4: *(uint32_t *)buf = v; break;
	default: *(uint64_t *)buf = v; break;
	}
}

/* Feeds all 2^w draws of width w to vr_uniform(bound): every result must
 * come exactly floor(2^w / bound) times, the remainder rejected. */
static void check_exact(uint64_t bound, unsigned bytes)
{
	uint64_t n = (uint64_t)1 << (8 * bytes), r, v, bad = 0;
	uint32_t *count = calloc(bound + 1, sizeof *count);
	struct seq s = { 0, n, 0, 0 };

	/* Asserted once at the end: Check's assertions are slow under valgrind. */
	ck_assert_ptr_nonnull(count);
	while (s.next < n) {
		r = vr_uniform(bound, seq_draw, &s);
		count[r < bound ? r : bound]++;
	}
	ck_assert_uint_eq(count[bound], 0);
	ck_assert_uint_eq(s.width, bytes);
	ck_assert(!s.mixed);
	if (s.next > n)         /* the accepted 2^w - 1 that ended the last call */
		count[bound - 1]--;
	for (v = 0; v < bound; v++)
		if (count[v] != n / bound && !bad++)
			ck_assert_msg(0, "bound %llu: %llu came %u times, not %llu",
				      (unsigned long long)bound, (unsigned long long)v,
				      count[v], (unsigned long long)(n / bound));
	free(count);
}

START_TEST(uniform_exact_1_byte)
{
	uint64_t b;

	for (b = 2; b <= 256; b++)
		check_exact(b, 1);
}
END_TEST

START_TEST(uniform_exact_2_bytes)
{
	static const uint64_t bounds[] = { 257, 258, 1000, 4095, 4096, 4097,
					   32767, 32769, 65535, 65536 };
	size_t i;

	for (i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
		check_exact(bounds[i], 2);
}
END_TEST

/* The width each bound takes: the 2^k - 1, 2^k, 2^k + 1 edges. */
START_TEST(uniform_widths)
{
	static const struct { uint64_t bound; size_t bytes; } w[] = {
		{ 2, 1 }, { 255, 1 }, { 256, 1 }, { 257, 2 }, { 65535, 2 },
		{ 65536, 2 }, { 65537, 4 }, { 0xffffffffull, 4 }, { 1ull << 32, 4 },
		{ (1ull << 32) + 1, 8 }, { (1ull << 63) - 1, 8 }, { 1ull << 63, 8 },
		{ (1ull << 63) + 1, 8 }, { ~0ull, 8 },
	};
	size_t i;

	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		/* n = 0: every draw is n - 1, all ones, always accepted */
		struct seq s = { 0, 0, 0, 0 };
		uint64_t r;

		r = vr_uniform(w[i].bound, seq_draw, &s);
		ck_assert_uint_lt(r, w[i].bound);
		ck_assert_msg(s.width == w[i].bytes, "bound %llu drew %zu bytes, not %zu",
			      (unsigned long long)w[i].bound, s.width, w[i].bytes);
		ck_assert_uint_eq(s.next, 1);
	}
	ck_assert_uint_eq(vr_uniform(0, seq_draw, 0), 0);
	ck_assert_uint_eq(vr_uniform(1, seq_draw, 0), 0);
}
END_TEST

/* The 128-bit product's portable fallback against the compiler's. */
START_TEST(mul64_halves)
{
	static const uint64_t edge[] = { 0, 1, 2, 0xffffffff, 1ull << 32,
					 (1ull << 32) + 1, 1ull << 63, ~0ull - 1, ~0ull };
	enum { N = 20000 };
	uint64_t x, y, lo1, lo2, hi1, hi2, *r = malloc(2 * N * sizeof *r);
	size_t i, j;
	int k;

	ck_assert_ptr_nonnull(r);
	vrandom_buf(r, 2 * N * sizeof *r);     /* one call: cheap under valgrind */
	for (k = 0; k < N + 81; k++) {
		if (k < 81) {
			i = k / 9, j = k % 9;
			x = edge[i], y = edge[j];
		} else {
			x = r[2 * (k - 81)], y = r[2 * (k - 81) + 1] >> (k % 64);
		}
		hi1 = vr_mul64_halves(x, y, &lo1);
#ifdef __SIZEOF_INT128__
		{
			unsigned __int128 m = (unsigned __int128)x * y;

			hi2 = m >> 64, lo2 = (uint64_t)m;
		}
#else
		lo2 = x * y;    /* the low half at least */
		hi2 = hi1;
#endif
		if (hi1 != hi2 || lo1 != lo2)
			ck_assert_msg(0, "%#llx * %#llx: %#llx:%#llx, not %#llx:%#llx",
				      (unsigned long long)x, (unsigned long long)y,
				      (unsigned long long)hi1, (unsigned long long)lo1,
				      (unsigned long long)hi2, (unsigned long long)lo2);
	}
	free(r);
}
END_TEST

START_TEST(double_range)
{
	double sum = 0, lo = 1, hi = 0;
	long i, n = scaled(100000, 20000);

	for (i = 0; i < n; i++) {
		double d = vrandom_double(), scaled = d * 0x1p53;

		ck_assert(d >= 0.0 && d < 1.0);
		ck_assert(scaled == (double)(uint64_t)scaled);
		sum += d;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	/* P(min > 0.001) = 0.999^n, below 2e-9 from n = 20000 on. */
	ck_assert_double_lt(lo, 0.001);
	ck_assert_double_gt(hi, 0.999);
	/* The mean of n uniforms: sd = 1/sqrt(12 n), 6 of them allowed. */
	ck_assert_double_lt(fabs(sum / n - 0.5), 6 / sqrt(12.0 * n));
}
END_TEST

/* ---- explicit states and the pool ---- */

START_TEST(explicit_states)
{
	enum { N = 50 };
	vrandom_state *st[N];
	unsigned char out[N][16];
	size_t base;
	int i, j;

	vrandom_u32();                  /* the thread's own state */
	base = info().states_in_use;
	for (i = 0; i < N; i++) {
		st[i] = vrandom_state_new();
		ck_assert_ptr_nonnull(st[i]);
		ck_assert_int_eq(vrandom_state_getrandom(st[i], out[i], 16, 0), 16);
		vrandom_state_buf(st[i], out[i] + 8, 8);
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < i; j++)
			ck_assert(memcmp(out[i], out[j], 16));
	if (info().backend == VRANDOM_VDSO) {
		ck_assert_uint_eq(info().states_in_use, base + N);
		ck_assert_uint_ge(info().states_total, base + N);
	}
	for (i = 0; i < N; i++)
		vrandom_state_free(st[i]);
	vrandom_state_free(0);
	ck_assert_uint_eq(info().states_in_use, base);
}
END_TEST

START_TEST(reserve_premaps)
{
	struct vrandom_info before, after;
	vrandom_state *st[100];
	int i;

	ck_assert_int_eq(vrandom_reserve(100), 0);
	before = info();
	if (before.backend == VRANDOM_VDSO)
		ck_assert_uint_ge(before.states_total - before.states_in_use, 100);
	for (i = 0; i < 100; i++)
		ck_assert_ptr_nonnull(st[i] = vrandom_state_new());
	after = info();
	ck_assert_uint_eq(after.arena_pages, before.arena_pages);
	ck_assert_uint_eq(after.states_total, before.states_total);
	for (i = 0; i < 100; i++)
		vrandom_state_free(st[i]);
}
END_TEST

/* States never straddle a page and never share a cache line. */
START_TEST(state_layout)
{
	struct vrandom_info i;
	long page = sysconf(_SC_PAGESIZE);

	vrandom_reserve(200);
	i = info();
	if (i.backend != VRANDOM_VDSO)
		return;
	ck_assert_uint_eq(i.state_stride % 64, 0);
	ck_assert_uint_le(i.states_total, i.arena_pages * (page / i.state_stride));
	ck_assert_uint_ge(i.states_total, 200);
}
END_TEST

/* ---- threads ---- */

static void *one_call(void *arg)
{
	*(uint64_t *)arg = vrandom_u64();
	return 0;
}

START_TEST(short_lived_threads)
{
	enum { WIDTH = 8 };
	pthread_t t[WIDTH];
	uint64_t v[WIDTH];
	struct vrandom_info i;
	long r, rounds = scaled(500, 50);
	int k;

	vrandom_u32();
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < WIDTH; k++)
			ck_assert_int_eq(pthread_create(&t[k], 0, one_call, &v[k]), 0);
		for (k = 0; k < WIDTH; k++)
			ck_assert_int_eq(pthread_join(t[k], 0), 0);
		for (k = 1; k < WIDTH; k++)
			ck_assert_uint_ne(v[k], v[0]);
	}
	i = info();
	if (i.backend == VRANDOM_VDSO) {
		/* rounds * 8 threads came and went: their states came back. */
		ck_assert_uint_eq(i.states_in_use, 1);
		ck_assert_uint_le(i.states_total, 4 * (WIDTH + 1) + 64);
	}
}
END_TEST

/* ---- fork ---- */

struct holder {
	pthread_barrier_t *ready, *done;
};

static void *hold_state(void *arg)
{
	struct holder *h = arg;

	vrandom_u64();
	pthread_barrier_wait(h->ready);
	pthread_barrier_wait(h->done);
	return 0;
}

/* The child reports 32 bytes, its states in use and the pool size after
 * forking a grandchild several times. */
static void child_report(int fd)
{
	struct { unsigned char bytes[32]; size_t in_use, total, total_after; } m;
	int k;

	vrandom_buf(m.bytes, sizeof m.bytes);
	m.in_use = info().states_in_use;
	m.total = info().states_total;
	for (k = 0; k < 5; k++) {
		pid_t p = fork();

		if (p == 0) {
			vrandom_u64();
			_exit(info().states_in_use == m.in_use ? 0 : 1);
		}
		waitpid(p, &p, 0);
		if (!WIFEXITED(p) || WEXITSTATUS(p))
			_exit(2);
	}
	m.total_after = info().states_total;
	_exit(write(fd, &m, sizeof m) == sizeof m ? 0 : 3);
}

START_TEST(fork_multithreaded)
{
	enum { THREADS = 4, CHILDREN = 16 };
	struct { unsigned char bytes[32]; size_t in_use, total, total_after; } m[CHILDREN];
	pthread_barrier_t ready, done;
	struct holder h = { &ready, &done };
	pthread_t t[THREADS];
	unsigned char mine[32];
	vrandom_state *handle;
	struct vrandom_info parent;
	int fd[2], i, j, status;

	pthread_barrier_init(&ready, 0, THREADS + 1);
	pthread_barrier_init(&done, 0, THREADS + 1);
	vrandom_u64();
	handle = vrandom_state_new();
	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], 0, hold_state, &h);
	pthread_barrier_wait(&ready);
	parent = info();
	ck_assert_int_eq(pipe(fd), 0);
	for (i = 0; i < CHILDREN; i++) {
		pid_t p = fork();

		ck_assert_int_ge(p, 0);
		if (p == 0)
			child_report(fd[1]);
		ck_assert_int_eq(read(fd[0], &m[i], sizeof m[i]), sizeof m[i]);
		ck_assert_int_eq(waitpid(p, &status, 0), p);
		ck_assert(WIFEXITED(status));
		ck_assert_int_eq(WEXITSTATUS(status), 0);
	}
	vrandom_buf(mine, sizeof mine);
	for (i = 0; i < CHILDREN; i++) {
		ck_assert(memcmp(m[i].bytes, mine, sizeof mine));
		for (j = 0; j < i; j++)
			ck_assert(memcmp(m[i].bytes, m[j].bytes, sizeof mine));
		if (parent.backend == VRANDOM_VDSO) {
			/* The main thread's state and the handle; not the four threads'. */
			ck_assert_uint_eq(parent.states_in_use, THREADS + 2);
			ck_assert_uint_eq(m[i].in_use, 2);
			ck_assert_uint_eq(m[i].total, parent.states_total);
			ck_assert_uint_eq(m[i].total_after, m[i].total);
		}
	}
	pthread_barrier_wait(&done);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], 0);
	vrandom_state_free(handle);
	if (parent.backend == VRANDOM_VDSO)
		ck_assert_uint_eq(info().states_in_use, 1);
}
END_TEST

/* An explicit handle survives fork and keeps working in both processes. */
START_TEST(fork_keeps_handles)
{
	vrandom_state *st = vrandom_state_new();
	unsigned char a[16], b[16];
	int fd[2], status;
	pid_t p;

	ck_assert_ptr_nonnull(st);
	vrandom_state_buf(st, a, sizeof a);
	ck_assert_int_eq(pipe(fd), 0);
	p = fork();
	if (p == 0) {
		vrandom_state_buf(st, b, sizeof b);
		vrandom_state_free(st);
		_exit(write(fd[1], b, sizeof b) == sizeof b ? 0 : 1);
	}
	vrandom_state_buf(st, a, sizeof a);
	ck_assert_int_eq(read(fd[0], b, sizeof b), sizeof b);
	waitpid(p, &status, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert(memcmp(a, b, sizeof a));
	vrandom_state_free(st);
}
END_TEST

/* ---- signals ---- */

/* Atomics, not sig_atomic_t: the handler runs on several threads at once. */
static int handled, handler_bad;

static void on_alarm(int sig)
{
	unsigned char b[32];
	int saved = errno;

	(void)sig;
	if (vrandom_getrandom(b, sizeof b, 0) != sizeof b || all_equal(b, sizeof b, 0))
		__atomic_store_n(&handler_bad, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
	errno = saved;
}

static void *signal_victim(void *arg)
{
	(void)arg;
	vrandom_u32();
	return 0;
}

START_TEST(signal_reentry)
{
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	static unsigned char big[1 << 16];
	pthread_t t;
	int i;

	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, 0);
	for (i = 0; i < 2000 || __atomic_load_n(&handled, __ATOMIC_RELAXED) < 20; i++) {
		vrandom_buf(big, sizeof big);
		/* New threads take their first state while signals fly. */
		if (i % 50 == 0) {
			pthread_create(&t, 0, signal_victim, 0);
			pthread_join(t, 0);
		}
	}
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, 0);
	ck_assert_int_ge(__atomic_load_n(&handled, __ATOMIC_RELAXED), 20);
	ck_assert_int_eq(__atomic_load_n(&handler_bad, __ATOMIC_RELAXED), 0);
}
END_TEST

/* A handler that takes a thread's first state while that thread is inside
 * vrandom_get_info (which holds the pool lock) must not deadlock. */
static int usr1_done;     /* atomic: the handler runs on another thread */

static void on_usr1(int sig)
{
	(void)sig;
	vrandom_u32();
	__atomic_store_n(&usr1_done, 1, __ATOMIC_RELEASE);
}

static void *info_loop(void *arg)
{
	struct vrandom_info i;

	(void)arg;
	while (!__atomic_load_n(&usr1_done, __ATOMIC_ACQUIRE))
		vrandom_get_info(&i);
	return 0;
}

START_TEST(signal_during_info)
{
	pthread_t t;
	long k, n = scaled(3000, 300);

	signal(SIGUSR1, on_usr1);
	vrandom_u32();
	/* The window is narrow: many fresh threads to hit it. */
	for (k = 0; k < n; k++) {
		__atomic_store_n(&usr1_done, 0, __ATOMIC_RELEASE);
		ck_assert_int_eq(pthread_create(&t, 0, info_loop, 0), 0);
		while (!__atomic_load_n(&usr1_done, __ATOMIC_ACQUIRE)) {
			pthread_kill(t, SIGUSR1);
			sched_yield();
		}
		pthread_join(t, 0);
	}
	if (info().backend == VRANDOM_VDSO)
		ck_assert_uint_eq(info().states_in_use, 1);
}
END_TEST

/* ---- forced backends ---- */

START_TEST(forced_syscall)
{
	unsigned char a[64], b[64];

	setenv("VRANDOM_BACKEND", "syscall", 1);
	ck_assert_str_eq(info().backend_name, "syscall");
	ck_assert_int_eq(vrandom_getrandom(a, sizeof a, 0), sizeof a);
	vrandom_buf(b, sizeof b);
	ck_assert(memcmp(a, b, sizeof a));
	ck_assert_uint_eq(info().states_total, 0);
	/* Handles work without a pool: they take the system call. */
	vrandom_state *st = vrandom_state_new();
	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(vrandom_state_getrandom(st, a, sizeof a, 0), sizeof a);
	vrandom_state_free(st);
}
END_TEST

static int open_fds(int *last)
{
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++, *last = fd;
	return n;
}

/* Runs in a grandchild: it closes every descriptor, Check's among them.
 * The exit code names the first step that went wrong. */
static int urandom_without_fds(void)
{
	unsigned char a[300], b[300];
	int fd, last = -1;

	for (fd = 0; fd < 1024; fd++)
		close(fd);
	vrandom_buf(a, sizeof a);
	/* No descriptor is left behind, and none of the program's is used:
	 * the lowest number, taken next, was free. */
	if (open_fds(&last) != 0)
		return 10;
	if (open("/dev/null", O_RDONLY) != 0)
		return 11;
	vrandom_buf(b, sizeof b);
	if (!memcmp(a, b, sizeof a) || all_equal(b, sizeof b, 0))
		return 12;
	if (open_fds(&last) != 1 || last != 0)
		return 13;
	if (vrandom_getentropy(a, 256) || vrandom_getrandom(a, 1, GRND_NONBLOCK) != 1)
		return 14;
	return 0;
}

START_TEST(forced_urandom)
{
	int status;
	pid_t p;

	setenv("VRANDOM_BACKEND", "urandom", 1);
	ck_assert_str_eq(info().backend_name, "urandom");
	p = fork();
	if (p == 0)
		_exit(urandom_without_fds());
	ck_assert_int_eq(waitpid(p, &status, 0), p);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(forced_unknown_is_auto)
{
	setenv("VRANDOM_BACKEND", "no-such-backend", 1);
	ck_assert_int_ne(info().backend, VRANDOM_URANDOM);
	ck_assert_uint_eq(vrandom_uniform(7) < 7, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vrandom");
	TCase *t = tcase_create("api");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, lengths);
	tcase_add_test(t, lengths_syscall_min);
	tcase_add_test(t, syscall_min_measured);
	tcase_add_test(t, syscall_min_pending);
	tcase_add_test(t, two_reads_differ);
	tcase_add_test(t, accepted_flags);
	tcase_add_test(t, rejected_flags);
	tcase_add_test(t, getentropy_limits);
	tcase_add_test(t, info_and_version);
	tcase_add_test(t, vdso_in_use);
	tcase_add_test(t, uniform_degenerate);
	tcase_add_test(t, uniform_exact_1_byte);
	tcase_add_test(t, uniform_exact_2_bytes);
	tcase_add_test(t, uniform_widths);
	tcase_add_test(t, mul64_halves);
	tcase_add_test(t, double_range);
	tcase_add_test(t, explicit_states);
	tcase_add_test(t, reserve_premaps);
	tcase_add_test(t, state_layout);
	tcase_add_test(t, short_lived_threads);
	tcase_add_test(t, fork_multithreaded);
	tcase_add_test(t, fork_keeps_handles);
	tcase_add_test(t, signal_reentry);
	tcase_add_test(t, signal_during_info);
	tcase_add_test(t, forced_syscall);
	tcase_add_test(t, forced_urandom);
	tcase_add_test(t, forced_unknown_is_auto);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
