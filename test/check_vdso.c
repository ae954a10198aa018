/* The vDSO lookup against synthetic images built by the test suite: GNU hash
 * only, SysV hash only, a wrong version node, a params query that refuses.
 * vrandom reads the vDSO base through getauxval(), which this program
 * defines itself, so the library finds whichever image the test chose. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include "chacha.h"
#include "rng.h"
#include "threshold.h"
#include "vdso.h"
#include "fakevdso/fakevdso.h"
#include "fakevdso/kstate.h"
#include "check_main.h"


static const void *fake_base;
static int fake_set, fake_secure;

unsigned long getauxval(unsigned long type)
{
	if (type == AT_SYSINFO_EHDR && fake_set)
		return (unsigned long)fake_base;
	if (type == AT_SECURE && fake_secure)
		return 1;
	return fake_real_auxval(type);
}

static const void *map_image(const char *variant, size_t *size)
{
	const void *p = fake_map(FAKEVDSO_DIR, variant, size);

	ck_assert_msg(p, "cannot map %s/fakevdso-%s.so: %s", FAKEVDSO_DIR, variant,
		      strerror(errno));
	return p;
}

static void use_image(const char *variant)
{
	fake_base = variant ? map_image(variant, 0) : 0;
	fake_set = 1;
}

static struct vrandom_info info(void)
{
	struct vrandom_info i;

	ck_assert_int_eq(vrandom_get_info(&i), 0);
	return i;
}

static void expect_fake_backend(void)
{
	struct vrandom_info i = info();

	ck_assert_str_eq(i.backend_name, "vdso");
	ck_assert_str_eq(i.vdso_symbol, VRANDOM_VDSO_SYM);
	ck_assert_str_eq(i.vdso_version, VRANDOM_VDSO_VER);
	ck_assert_uint_eq(i.state_size, FAKEVDSO_STATE_SIZE);
	ck_assert_uint_eq(i.state_stride % VRANDOM_CACHE_LINE, 0);
	ck_assert_uint_ge(i.state_stride, FAKEVDSO_STATE_SIZE);
	/* Exactly what the params query returned, nothing added. */
	ck_assert_uint_eq(i.mmap_prot, 0x3);
	ck_assert_uint_eq(i.mmap_flags, 0x22);
	ck_assert(fake_served(0, 0));
	ck_assert(fake_served(0, GRND_NONBLOCK));
	ck_assert(fake_served(0, GRND_INSECURE));
}

static void expect_syscall_backend(void)
{
	ck_assert_str_eq(info().backend_name, "syscall");
	ck_assert(!fake_served(0, 0));
}

START_TEST(gnu_hash_only) { use_image("gnu"); expect_fake_backend(); }
END_TEST

START_TEST(sysv_hash_only) { use_image("sysv"); expect_fake_backend(); }
END_TEST

START_TEST(wrong_version) { use_image("badver"); expect_syscall_backend(); }
END_TEST

START_TEST(params_refused) { use_image("enosys"); expect_syscall_backend(); }
END_TEST

START_TEST(no_vdso) { use_image(0); expect_syscall_backend(); }
END_TEST

/* The fake returns -EFAULT for a state that straddles a page or is not
 * cache-line aligned, as the kernel does for the first. */
START_TEST(states_never_straddle)
{
	enum { N = 200 };
	vrandom_state *st[N];
	int i;

	use_image("gnu");
	for (i = 0; i < N; i++) {
		st[i] = vrandom_state_new();
		ck_assert_ptr_nonnull(st[i]);
		ck_assert_msg(fake_served(st[i], 0), "state %d", i);
	}
	ck_assert_uint_eq(info().states_in_use, N);
	for (i = 0; i < N; i++)
		vrandom_state_free(st[i]);
	ck_assert_uint_eq(info().states_in_use, 0);
}
END_TEST

/* ---- a vDSO that serves from a zero key (src/runtime/vdso.h) ---- */

/* The fakes serve as the kernel's vDSO would with the reseed's key lost,
 * on the call's first pass (zerokey) or on its second (zeroretry), at the
 * lengths the check treats apart and on each side of a block. */
static const size_t zk_len[] = { 1, 4, 8, 9, 15, 16, 63, 64, 65, 127, 128, 200, 4096 };
#define ZK_LENS (sizeof zk_len / sizeof zk_len[0])

static void *zk_fn;

/* Where the zero-key image's function is, and no threshold to measure: a
 * measurement would call the vDSO between a prediction and the read. */
static void use_zero_key_image(const char *variant)
{
	size_t size;
	const void *img = map_image(variant, &size);

	zk_fn = __vr_vdso_sym(img, size, VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER);
	ck_assert_ptr_nonnull(zk_fn);
	setenv("VRANDOM_SYSCALL_MIN", "0", 1);
	fake_base = img;
	fake_set = 1;
	ck_assert_str_eq(info().backend_name, "vdso");
}

/* What the fake answers to n bytes on the state at mem, from a copy of
 * it: what the read about to be made on mem gets from the vDSO. */
static void zk_predict(const void *mem, unsigned char *e, size_t n)
{
	static _Alignas(256) unsigned char copy[256];

	memcpy(copy, mem, FAKEVDSO_STATE_SIZE);
	ck_assert_int_eq(VRANDOM_VDSO_CALL(zk_fn, e, n, 0, copy, FAKEVDSO_STATE_SIZE),
			 (ssize_t)n);
}

/* e starts as ChaCha20's stream under a zero key from block c. */
static int zk_from(const unsigned char *e, size_t n, uint64_t c)
{
	unsigned char x[64];

	vr_chacha20_block(x, 0, c);
	return !memcmp(e, x, n < 64 ? n : 64);
}

/* Built for size the runtime asks the vDSO for VR_VDSO_MAX bytes a call
 * (src/runtime/vdso.h), and each call may meet a zero key again: no piece
 * of 9 bytes or more that one call made may start as the zero key's block
 * 0, 2 or c does (chance 2^-72 each).  Built for speed the whole answer is
 * one piece. */
static void zk_pieces(const unsigned char *b, size_t n, long c)
{
	unsigned char x[3][64];
	size_t o, k, j;

	vr_chacha20_block(x[0], 0, 0);
	vr_chacha20_block(x[1], 0, 2);
	vr_chacha20_block(x[2], 0, c < 0 ? 0 : (uint64_t)c);
	for (o = 0; o < n; o = n - o > VR_VDSO_MAX ? o + VR_VDSO_MAX : n) {
		k = n - o < 16 ? n - o : 16;
		for (j = 0; k >= 9 && j < 3; j++)
			ck_assert_msg(memcmp(b + o, x[j], k),
				      "%zu zero-keyed bytes at %zu of %zu returned", k, o, n);
	}
}

/* One read of n bytes on the state at mem (h, or the thread's when h is
 * NULL), which the vDSO answers from a zero key starting at block c
 * (c < 0: anywhere): the caller must not get it.  Under 8 bytes the system call's answer matches it by chance;
 * *same counts those. */
static void zk_read(vrandom_state *h, size_t n, long c, int *same)
{
	static unsigned char b[4096], e[4096];
	void *mem = h ? h->mem : __vr_thread_mem;

	zk_predict(mem, e, n);
	ck_assert_int_eq(h ? vrandom_state_getrandom(h, b, n, 0) : vrandom_getrandom(b, n, 0),
			 (ssize_t)n);
	if (n >= 8)
		ck_assert_msg(memcmp(b, e, n), "%zu zero-keyed bytes returned (block %ld)", n, c);
	else
		*same += !memcmp(b, e, n);
	zk_pieces(b, n, c);
	ck_assert_msg(c < 0 || zk_from(e, n, c),
		      "%zu bytes not from block %ld: a zero-keyed state not wiped", n, c);
}

/* Rounds of every length on the thread's state and on a handle: each read
 * meets the state the last detection wiped.  Single bytes match the
 * system call's by chance 1 in 256: more than 8 in 128 is chance once in
 * 10^8, and without the check all 128 do. */
static void zk_rounds(long (*block)(size_t))
{
	vrandom_state *h = vrandom_state_new();
	unsigned char c;
	int r, same = 0;
	size_t i;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(vrandom_getrandom(&c, 1, 0), 1);      /* the thread's state */
	for (r = 0; r < 64; r++)
		for (i = 0; i < ZK_LENS; i++) {
			zk_read(0, zk_len[i], block(zk_len[i]), &same);
			zk_read(h, zk_len[i], block(zk_len[i]), &same);
		}
	ck_assert_msg(same <= 8, "%d of 128 short reads were the zero key's", same);
	vrandom_state_free(h);
}

static long first_pass(size_t n) { (void)n; return 0; }
/* The second pass after a first that reseeded: the first's blocks and its
 * batch refill's two. */
static long second_pass(size_t n) { return n / 64 + 2; }

START_TEST(zero_key_refused)
{
	use_zero_key_image("zerokey");
	zk_rounds(first_pass);
}
END_TEST

START_TEST(zero_key_retry_refused)
{
	use_zero_key_image("zeroretry");
	zk_rounds(second_pass);
}
END_TEST

/* A second pass after a first that served from a batch left by an earlier
 * call (pos bytes of it used): the first pass stops after fewer blocks,
 * n/64 or n/64 - 1, or before any when the batch had enough. */
START_TEST(zero_key_retry_after_batch)
{
	static const struct { unsigned pos; size_t n; long c; } t[] = {
		{ 0, 100, 2 },          /* n/64 + 1 */
		{ 0, 128, 2 },          /* n/64 */
		{ 0, 200, 3 },          /* n/64 */
		{ 32, 200, 4 },         /* n/64 + 1 */
		{ 96, 200, 5 },         /* n/64 + 2: nothing left */
		{ 0, 4096, 64 },        /* n/64 */
		{ 90, 4, 0 },           /* from the batch alone */
		{ 0, 63, 0 },
		{ 40, 60, 2 },
	};
	vrandom_state *h;
	struct fake_kstate *k;
	int same = 0;
	size_t i, j;

	use_zero_key_image("zeroretry");
	h = vrandom_state_new();
	ck_assert_ptr_nonnull(h);
	k = h->mem;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		memset(k, 0, FAKEVDSO_STATE_SIZE);
		for (j = 0; j < sizeof k->batch_key; j++)
			k->batch_key[j] = 0x3c ^ j;
		k->generation = FAKE_GENERATION;
		k->pos = t[i].pos;
		zk_read(h, t[i].n, t[i].c, &same);
	}
	ck_assert_int_eq(same, 0);      /* one read of 4 bytes: chance 2^-32 */
	vrandom_state_free(h);
}
END_TEST

/* 1-byte reads through the public function: neither zero-key block's
 * first byte comes more than chance allows (each about 10 times in 2560,
 * 40 is chance once in 10^12; without the check, every read is one). */
static void zk_bytes(const char *variant, unsigned char zk)
{
	unsigned char c;
	int i, same = 0;

	use_zero_key_image(variant);
	for (i = 0; i < 2560; i++) {
		ck_assert_int_eq(vrandom_getrandom(&c, 1, 0), 1);
		same += c == zk;
	}
	ck_assert_int_lt(same, 40);
}

START_TEST(zero_key_bytes) { zk_bytes("zerokey", VR_ZERO_KEY_BYTE0); }
END_TEST

START_TEST(zero_key_retry_bytes) { zk_bytes("zeroretry", VR_ZERO_KEY_BYTE2); }
END_TEST

/* The check by itself, on states the fakes do not make.  buf, n bytes of
 * it: does the check keep them?  Refused, the system call rewrites them
 * (matching them by chance 2^-64 at 8 bytes). */
static int zk_kept(void *mem, const unsigned char *buf, size_t n)
{
	unsigned char b[64];

	memcpy(b, buf, n);
	ck_assert_int_eq(__vr_zero_keyed(mem, b, n, 0, (ssize_t)n), (ssize_t)n);
	return !memcmp(b, buf, n);
}

START_TEST(zero_key_check_alone)
{
	static _Alignas(64) unsigned char mem[FAKEVDSO_STATE_SIZE];
	unsigned char x[64], y[64], next[64];
	uint64_t c;
	size_t i;

	use_zero_key_image("zerokey");
	vr_chacha20_block(x, 0, 0);
	vr_chacha20_block(y, 0, 2);
	vr_chacha20_block(next, 0, 1);
	/* A state with nothing of the zero key's in it. */
	vrandom_buf(mem, sizeof mem);
	/* 9 bytes or more: the answer is evidence enough; the state need not
	 * hold the next key, which a drop since the call may have taken. */
	ck_assert(!zk_kept(mem, x, 16));
	vrandom_buf(mem, sizeof mem);
	ck_assert(!zk_kept(mem, y, 9));
	vrandom_buf(mem, sizeof mem);
	ck_assert(!zk_kept(mem, x, 63));
	/* 8 bytes or fewer: kept unless the state holds the next key, */
	vrandom_buf(mem, sizeof mem);
	ck_assert(zk_kept(mem, x, 8));
	ck_assert(zk_kept(mem, x, 1));
	ck_assert(zk_kept(mem, y, 8));
	memcpy(mem + 36, next + 32, 16);        /* anywhere 4-aligned */
	ck_assert(!zk_kept(mem, x, 8));
	/* the wipe: the state is all zero after a refusal, */
	for (i = 0; i < sizeof mem; i++)
		ck_assert_uint_eq(mem[i], 0);
	/* or reads as dropped: the key may have gone with the page. */
	ck_assert(!zk_kept(mem, x, 8));
	/* Answers of 64 bytes or more, from any block a zero-keyed one can
	 * start at (64 bytes: 0, 2, 3), and not from others; built for size
	 * the vDSO is never asked for so many. */
	for (c = 0; VR_VDSO_MAX >= 64 && c < 8; c++) {
		vr_chacha20_block(y, 0, c);
		vrandom_buf(mem, sizeof mem);
		ck_assert_msg(zk_kept(mem, y, 64) == !(c == 0 || c == 2 || c == 3),
			      "64 bytes from block %d", (int)c);
	}
}
END_TEST

static void *thread_check(void *arg)
{
	(void)arg;
	return (void *)(long)fake_served(0, 0);
}

START_TEST(threads_get_states)
{
	pthread_t t[16];
	void *ok;
	int i;

	use_image("sysv");
	/* Threads that race the setup take the system call meanwhile. */
	ck_assert_str_eq(info().backend_name, "vdso");
	for (i = 0; i < 16; i++)
		pthread_create(&t[i], 0, thread_check, 0);
	for (i = 0; i < 16; i++) {
		pthread_join(t[i], &ok);
		ck_assert(ok);
	}
	ck_assert_uint_eq(info().states_in_use, 0);
	ck_assert_uint_ge(info().states_total, 1);
}
END_TEST

START_TEST(env_forces_backend)
{
	use_image("gnu");
	setenv("VRANDOM_BACKEND", "syscall", 1);
	expect_syscall_backend();
}
END_TEST

START_TEST(secure_ignores_env)
{
	use_image("gnu");
	fake_secure = 1;
	setenv("VRANDOM_BACKEND", "syscall", 1);
	expect_fake_backend();
}
END_TEST

/* ---- large requests: vDSO or system call ---- */

/* n bytes all of the fake's pattern: served by the (fake) vDSO. */
static int fake_serves(size_t n)
{
	unsigned char *b = calloc(1, n);
	size_t i;
	int all = 1;

	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(vrandom_getrandom(b, n, 0), (ssize_t)n);
	for (i = 0; i < n; i++)
		all &= b[i] == 0x5a;
	free(b);
	return all;
}

START_TEST(syscall_min_env)
{
	use_image("gnu");
	setenv("VRANDOM_SYSCALL_MIN", "512", 1);
	ck_assert_uint_eq(info().syscall_min, 512);
	ck_assert(fake_serves(300));
	ck_assert(fake_serves(511));
	ck_assert(!fake_serves(512));
	ck_assert(!fake_serves(1 << 20));
	ck_assert(fake_served(0, 0));
}
END_TEST

START_TEST(syscall_min_env_never)
{
	use_image("gnu");
	setenv("VRANDOM_SYSCALL_MIN", "0", 1);
	ck_assert(fake_serves(1 << 20));
	ck_assert_uint_eq(info().syscall_min, 0);
}
END_TEST

/* The best of 20 times (ns) of len bytes from the image's own function
 * (sys: 0) or the system call (1), as threshold.c times them. */
static double best_ns(const char *variant, int sys, size_t len)
{
	static unsigned char st[4096] __attribute__((aligned(4096))), b[1024];
	long (*fn)(void *, unsigned long, unsigned, void *, unsigned long);
	struct timespec t0, t1;
	size_t size;
	const void *img = map_image(variant, &size);
	double t, best = 0;
	int r;

	*(void **)&fn = __vr_vdso_sym(img, size, VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER);
	ck_assert_ptr_nonnull(fn);
	for (r = 0; r < 20; r++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (sys)
			syscall(SYS_getrandom, b, len, GRND_NONBLOCK);
		else
			fn(b, len, GRND_NONBLOCK, st, FAKEVDSO_STATE_SIZE);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		t = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
		if (!r || t < best)
			best = t;
	}
	return best;
}

/* Whatever the measurement found: never, or from 256 bytes on; requests
 * from syscall_min on take the system call and smaller ones the vDSO.
 * Where this test's own times of both (best of 20, against threshold.c's
 * 4) are far apart, twice or more at 256 and at 1024 bytes, the decision
 * must follow them: natively the fake's byte loop wins (never); under
 * valgrind, which slows the loop and not the kernel, the system call may.
 * A decision read the wrong way round gives the other answer. */
static void expect_measured(const char *variant)
{
	double v[2] = { best_ns(variant, 0, 256), best_ns(variant, 0, 1024) },
	       s[2] = { best_ns(variant, 1, 256), best_ns(variant, 1, 1024) };
	size_t m;

	ck_assert(fake_serves(255));
	fake_serves(4096);
	m = info().syscall_min;
	printf("fake %.0f, %.0f ns; system call %.0f, %.0f ns (256, 1024 bytes): syscall_min %zu\n",
	       v[0], v[1], s[0], s[1], m);
	if (2 * v[0] <= s[0] && 2 * v[1] <= s[1] && v[1] - v[0] <= s[1] - s[0])
		ck_assert_uint_eq(m, 0);
	else if (2 * s[0] <= v[0] && 2 * s[1] <= v[1])
		ck_assert_uint_eq(m, 256);
	ck_assert(m == 0 || m >= 256);
	if (m) {
		ck_assert(fake_serves(m - 1));
		ck_assert(!fake_serves(m));
	} else {
		ck_assert(fake_serves(1 << 20));
	}
}

/* The fake vDSO, VRANDOM_SYSCALL_MIN=value (NULL: unset), perhaps AT_SECURE:
 * the threshold must come from the measurement. */
static void measured_with(const char *value, int secure)
{
	use_image("gnu");
	fake_secure = secure;
	if (value)
		setenv("VRANDOM_SYSCALL_MIN", value, 1);
	else
		unsetenv("VRANDOM_SYSCALL_MIN");
	expect_measured("gnu");
}

/* Not a number, or one too large, or under AT_SECURE: as if unset. */
START_TEST(syscall_min_env_garbage) { measured_with("1x", 0); }
END_TEST

START_TEST(syscall_min_env_overflow) { measured_with("99999999999999999999999", 0); }
END_TEST

START_TEST(syscall_min_secure) { measured_with("1", 1); }
END_TEST

START_TEST(syscall_min_follows_measurement) { measured_with(0, 0); }
END_TEST

/* The decision, fed times (ns) at 256 and 1024 bytes: both outcomes, the
 * crossing between and beyond the probes, and timings that make no sense. */
START_TEST(crossover_decision)
{
	static const struct {
		double v[2], s[2];
		size_t want;
	} c[] = {
		{ { 746, 2900 }, { 681, 2000 }, 256 },  /* system call faster at both */
		{ { 100, 400 }, { 300, 1200 }, 0 },     /* vDSO faster at both */
		/* 256 + 200 / (2100 / 768 - 1200 / 768) = 426.7 */
		{ { 700, 2800 }, { 900, 2100 }, 427 },
		/* beyond the probes: 256 + 600 / (1800 / 768 - 1400 / 768) = 1408 */
		{ { 600, 2400 }, { 1200, 2600 }, 1409 },
		{ { 100, 400 }, { 300, 599.9 }, 0 },    /* crossing past 1 MiB */
		{ { 0, 400 }, { 300, 1200 }, 0 },       /* no clock */
		{ { 500, 2000 }, { -1, 1000 }, 0 },
	};
	size_t i, got;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		got = __vr_crossover(c[i].v, c[i].s);
		ck_assert_msg(got == c[i].want, "case %zu: %zu, not %zu", i, got, c[i].want);
	}
}
END_TEST

/* ---- the parser itself ---- */

START_TEST(lookup_direct)
{
	size_t size;
	const unsigned char *img = map_image("gnu", &size);
	void *fn = __vr_vdso_sym(img, size, VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER);

	ck_assert_ptr_nonnull(fn);
	ck_assert((const unsigned char *)fn > img && (const unsigned char *)fn < img + size);
	ck_assert_ptr_null(__vr_vdso_sym(img, size, "__vdso_clock_gettime", VRANDOM_VDSO_VER));
	ck_assert_ptr_null(__vr_vdso_sym(img, size, VRANDOM_VDSO_SYM, "LINUX_0.1"));
	ck_assert_ptr_null(__vr_vdso_sym(img, size, VRANDOM_VDSO_SYM "x", VRANDOM_VDSO_VER));
	ck_assert_ptr_null(__vr_vdso_sym(0, size, VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER));
	/* The live vDSO is sized from its program headers: they must cover it. */
	ck_assert_uint_le(__vr_elf_extent(img), size);
	ck_assert_ptr_eq(__vr_vdso_sym(img, __vr_elf_extent(img), VRANDOM_VDSO_SYM,
				       VRANDOM_VDSO_VER), fn);
}
END_TEST

static void check_damaged(const char *variant)
{
	size_t size;
	const unsigned char *img = map_image(variant, &size);

	ck_assert(fake_survives_damage(img, size, VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER));
}

START_TEST(damaged_gnu) { check_damaged("gnu"); }
END_TEST

START_TEST(damaged_sysv) { check_damaged("sysv"); }
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vdso");
	TCase *t = tcase_create("synthetic");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, gnu_hash_only);
	tcase_add_test(t, sysv_hash_only);
	tcase_add_test(t, wrong_version);
	tcase_add_test(t, params_refused);
	tcase_add_test(t, no_vdso);
	tcase_add_test(t, states_never_straddle);
	tcase_add_test(t, threads_get_states);
	tcase_add_test(t, zero_key_refused);
	tcase_add_test(t, zero_key_retry_refused);
	tcase_add_test(t, zero_key_retry_after_batch);
	tcase_add_test(t, zero_key_bytes);
	tcase_add_test(t, zero_key_retry_bytes);
	tcase_add_test(t, zero_key_check_alone);
	tcase_add_test(t, env_forces_backend);
	tcase_add_test(t, secure_ignores_env);
	tcase_add_test(t, syscall_min_env);
	tcase_add_test(t, syscall_min_env_never);
	tcase_add_test(t, syscall_min_env_garbage);
	tcase_add_test(t, syscall_min_env_overflow);
	tcase_add_test(t, syscall_min_secure);
	tcase_add_test(t, syscall_min_follows_measurement);
	tcase_add_test(t, crossover_decision);
	tcase_add_test(t, lookup_direct);
	tcase_add_test(t, damaged_gnu);
	tcase_add_test(t, damaged_sysv);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
