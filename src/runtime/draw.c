/* The public draws that cannot fail: every byte, or abort.  Each reads
 * through the inline hot path (__vr_read, rng.h), as rng.c's
 * getrandom does. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <stdlib.h>

#include "rng.h"
#include "uniform.h"

/* The rest after a short first read, out of line: the common case makes
 * one call and keeps nothing across it.  The rare reads here take the
 * dispatcher's own path, which serves them alike, rather than another
 * copy of the inline one (firmware counts the bytes). */
static __attribute__((__noinline__)) void fill_rest(struct vrandom_state *st,
						     void *buf, size_t len, ssize_t r)
{
	if (vr_fill_rest(__vr_read_slow, st, buf, len, r))
		abort();
}

/* Every byte, or abort: what the functions that cannot fail share. */
static inline void fill(struct vrandom_state *st, void *buf, size_t len)
{
#ifdef __OPTIMIZE_SIZE__
	/* Built for size, __vr_read is the slow path itself: its loop alone
	 * (-EINTR: nothing read yet). */
	ssize_t r = -EINTR;
#else
	ssize_t r = __vr_read(st, buf, len, 0);
#endif

	if (unlikely(r != (ssize_t)len))
		fill_rest(st, buf, len, r);
}

void vrandom_state_buf(vrandom_state *st, void *buf, size_t len)
{
	fill(st, buf, len);
}

void vrandom_buf(void *buf, size_t len)
{
	fill(0, buf, len);
}

uint32_t vrandom_u32(void)
{
	uint32_t v;

	fill(0, &v, sizeof v);
	return v;
}

uint64_t vrandom_u64(void)
{
	uint64_t v;

	fill(0, &v, sizeof v);
	return v;
}

static void draw_buf(void *ctx, void *buf, size_t len)
{
	(void)ctx;
	fill(0, buf, len);
}

/* As few bytes as the bound needs; see uniform.h. */
uint64_t vrandom_uniform(uint64_t bound)
{
	return vr_uniform(bound, draw_buf, 0);
}

double vrandom_double(void)
{
	return vr_double(draw_buf, 0);
}
