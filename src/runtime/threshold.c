/* Large requests: the system call where it is faster than the vDSO.
 *
 * Above a few hundred bytes the kernel's own ChaCha20 (the system call) can
 * beat the vDSO's one-block loop; which wins depends on the CPU.  The first
 * request of PROBE_MIN bytes or more times both at two sizes and fits a line
 * to each: a process that never asks for that much never pays.  rng.c's hot
 * path hands such requests here once they reach __vr_big_from bytes. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

#include "arena.h"
#include "threshold.h"
#include "vdso.h"

#define PROBE_MIN 256
#define PROBE_MAX 1024
#define PROBE_ROUNDS 4
#define CROSSOVER_LIMIT ((size_t)1 << 20)  /* beyond: too far to extrapolate */

enum { BIG_UNDECIDED, BIG_MEASURING, BIG_DECIDED };
static int big_state;
static size_t syscall_min;              /* 0: never */
/* Where __vr_read leaves the inline vDSO call: PROBE_MIN until decided. */
size_t __vr_big_from = PROBE_MIN;

/* The smallest size at which the system call is faster, from the best
 * times (ns) of both at PROBE_MIN and PROBE_MAX bytes; 0: never. */
size_t __vr_crossover(const double vdso[2], const double sys[2])
{
	double d = PROBE_MAX - PROBE_MIN, bv = (vdso[1] - vdso[0]) / d,
	       bs = (sys[1] - sys[0]) / d, x;

	if (!(vdso[0] > 0 && sys[0] > 0 && vdso[1] > 0 && sys[1] > 0))
		return 0;
	if (sys[0] <= vdso[0] && sys[1] <= vdso[1])
		return PROBE_MIN;
	if (bs >= bv)           /* never catches up, or falls behind */
		return sys[1] <= vdso[1] ? PROBE_MIN : 0;
	x = PROBE_MIN + (sys[0] - vdso[0]) / (bv - bs);
	if (x <= PROBE_MIN)
		return PROBE_MIN;
	return x > CROSSOVER_LIMIT ? 0 : (size_t)x + 1;
}

static double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -1;
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Best of PROBE_ROUNDS, the two methods taking turns, into a scratch buffer
 * that is wiped after (its cost: doc/performance.md).  Both asked
 * with GRND_NONBLOCK: before the kernel's pool is seeded they would block,
 * signals blocked, inside a call the caller may have made non-blocking;
 * then it is VR_PENDING, and a later request measures. */
static size_t measure(void *mem)
{
	unsigned char b[PROBE_MAX];
	double best[2][2] = { { 0 } }, t;       /* [vDSO, system call][size] */
	size_t min = 0, len;
	ssize_t n = 0;
	int r, i, m;

	for (r = 0; r < PROBE_ROUNDS; r++)
		for (i = 0; i < 4; i++) {       /* one timed call: both ways */
			len = i & 2 ? PROBE_MAX : PROBE_MIN;
			m = i & 1;
			t = now_ns();
			n = m ? __vr_sys_getrandom(b, len, GRND_NONBLOCK)
			      : __vr_vdso_read(mem, b, len, GRND_NONBLOCK);
			if (n != (ssize_t)len)
				goto out;
			t = now_ns() - t;
			if (!r || t < best[m][i >> 1])
				best[m][i >> 1] = t;
		}
	min = __vr_crossover(best[0], best[1]);
out:
	vr_wipe(b, sizeof b);
	/* A failure other than an unseeded pool leaves the vDSO serving. */
	return n == -EAGAIN ? VR_PENDING : min;
}

static void decide(size_t min)
{
	syscall_min = min;
	__atomic_store_n(&__vr_big_from, min ? min : (size_t)-1, __ATOMIC_RELAXED);
	__atomic_store_n(&big_state, BIG_DECIDED, __ATOMIC_RELEASE);
}

/* Signals stay blocked while measuring, so that no handler runs in the
 * middle of it: the times are the calls' alone, and the measurement ends,
 * decided or undecided again, on the thread that began it.  Nothing waits
 * for it: a request that finds it under way takes the vDSO, and
 * vrandom_get_info reports it pending. */
static int decided(void *mem)
{
	int s = __atomic_load_n(&big_state, __ATOMIC_ACQUIRE);
	sigset_t old;

	if (s == BIG_UNDECIDED && mem) {
		__vr_block_signals(&old);
		if (__atomic_compare_exchange_n(&big_state, &s, BIG_MEASURING, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			size_t min = measure(mem);

			if (min == VR_PENDING) {
				__atomic_store_n(&big_state, BIG_UNDECIDED, __ATOMIC_RELEASE);
				s = BIG_UNDECIDED;
			} else {
				decide(min);
				s = BIG_DECIDED;
			}
		}
		__vr_restore_signals(&old);
	}
	return s == BIG_DECIDED;
}

/* A request of __vr_big_from bytes or more on the vDSO path.  The system
 * call keeps its own rules: above 256 bytes a signal may cut it short,
 * which vrandom_getrandom passes on and the functions that cannot fail
 * loop on. */
__attribute__((__noinline__)) ssize_t __vr_big_read(void *mem, void *buf, size_t len,
						    unsigned int flags)
{
	if (decided(mem) && syscall_min && len >= syscall_min)
		return __vr_sys_getrandom(buf, len, flags);
	return __vr_vdso_read(mem, buf, len, flags);
}

/* VRANDOM_SYSCALL_MIN=<bytes> (0: never) instead of measuring; not under
 * AT_SECURE, like VRANDOM_BACKEND.  Decimal digits only, parsed here:
 * strtoull would bring musl's stdio scanner into every static program. */
void __vr_threshold_setup(void)
{
	const char *s = getauxval(AT_SECURE) ? 0 : getenv("VRANDOM_SYSCALL_MIN");
	size_t v = 0;

	if (!s || !*s)
		return;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > ((size_t)-1 - (*s - '0')) / 10)
			return;
		v = v * 10 + (*s - '0');
	}
	if (!*s)
		decide(v);
}

/* A measurement under way in the parent has no thread in the child. */
void __vr_threshold_fork_child(void)
{
	if (__atomic_load_n(&big_state, __ATOMIC_RELAXED) == BIG_MEASURING)
		__atomic_store_n(&big_state, BIG_UNDECIDED, __ATOMIC_RELAXED);
}

/* For vrandom_get_info, if no large request has been made yet: one try,
 * with the thread's state or one borrowed from the pool, so that the
 * counters it reports stay those of the program.  It never waits: while
 * another thread measures, or before the kernel's pool is seeded, the
 * answer is VR_PENDING. */
size_t __vr_threshold_now(void *mem)
{
	struct vrandom_state *st = 0;

	if (!decided(0) && !mem && (st = __vr_arena_get(VR_HANDLE)))
		mem = st->mem;
	decided(mem);
	if (st)
		__vr_arena_put(st);
	return decided(0) ? syscall_min : VR_PENDING;
}
