/* Every byte of a request, and bounded integers and doubles from as few
 * kernel bytes as they need, shared by the C API, the libc shim (through
 * vrandom_uniform) and the Lua module, each with its own way to draw
 * bytes: the C API aborts when the kernel fails, Lua raises an error. */
#ifndef VRANDOM_UNIFORM_H
#define VRANDOM_UNIFORM_H

#include <stdint.h>

#include "base.h"

/* A read as the runtime makes them: a byte count or -errno. */
typedef ssize_t vr_read_fn(struct vrandom_state *st, void *buf, size_t len,
			   unsigned int flags);

/* The rest of a read that came back short or failed (r: its count or
 * -errno; -EINTR for none made yet): 0 once all len bytes at buf are in,
 * else -errno (-EIO when the kernel gave nothing).  Interrupted reads are
 * made again.  What every caller that wants all the bytes shares: the C
 * API aborts on a failure, getentropy returns it, Lua raises it. */
static inline int vr_fill_rest(vr_read_fn *rd, struct vrandom_state *st,
			       void *buf, size_t len, ssize_t r)
{
	unsigned char *p = buf;

	for (;;) {
		if (r > 0) {
			p += r;
			len -= r;
		} else if (r != -EINTR) {
			return r ? (int)r : -EIO;
		}
		if (!len)
			return 0;
		r = rd(st, p, len, 0);
	}
}

typedef void vr_draw_fn(void *ctx, void *buf, size_t len);

/* Each width gets a copy with its constants (VR_INLINE), not one copy with
 * n in a register: the compiler left alone merges them. */

/* n random bytes (1, 2, 4 or 8) as an integer below 2^(8n). */
VR_INLINE uint64_t vr_draw_int(vr_draw_fn *draw, void *ctx, unsigned n)
{
	union { uint8_t b; uint16_t h; uint32_t w; uint64_t d; } u;

	draw(ctx, &u, n);
	return n == 1 ? u.b : n == 2 ? u.h : n == 4 ? u.w : u.d;
}

/* The high and low 64 bits of x * y, in 32-bit halves: for targets without
 * a 128-bit type (and for the test that compares the two). */
static inline uint64_t vr_mul64_halves(uint64_t x, uint64_t y, uint64_t *lo)
{
	uint64_t xl = x & 0xffffffff, xh = x >> 32, yl = y & 0xffffffff, yh = y >> 32;
	uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);

	*lo = (mid << 32) | (ll & 0xffffffff);
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static inline uint64_t vr_mul64(uint64_t x, uint64_t y, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 m = (unsigned __int128)x * y;

	*lo = (uint64_t)m;
	return (uint64_t)(m >> 64);
#else
	return vr_mul64_halves(x, y, lo);
#endif
}

/* [0, bound) from draws of n < 8 bytes, w = 8n bits, bound <= 2^w.
 * x * bound / 2^w maps the 2^w draws onto [0, bound), each value taken
 * floor(2^w / bound) or one more times; those one more are exactly the
 * draws whose low part x * bound mod 2^w falls below 2^w mod bound, so
 * rejecting them evens the counts (Lemire's multiply and shift).  The
 * product fits 64 bits, and the division that finds 2^w mod bound is
 * needed only when the low part is below bound, rare for small bounds. */
VR_INLINE uint64_t vr_uniform_n(uint64_t bound, unsigned n,
				    vr_draw_fn *draw, void *ctx)
{
	unsigned w = 8 * n;
	uint64_t mask = ((uint64_t)1 << w) - 1, m, t;

	m = vr_draw_int(draw, ctx, n) * bound;
	if ((m & mask) < bound) {
		t = (((uint64_t)1 << w) - bound) % bound;
		while ((m & mask) < t)
			m = vr_draw_int(draw, ctx, n) * bound;
	}
	return m >> w;
}

/* The same with 8-byte draws and a 128-bit product. */
VR_INLINE uint64_t vr_uniform_8(uint64_t bound, vr_draw_fn *draw, void *ctx)
{
	uint64_t m, lo, t;

	m = vr_mul64(vr_draw_int(draw, ctx, 8), bound, &lo);
	if (lo < bound) {
		t = -bound % bound;
		while (lo < t)
			m = vr_mul64(vr_draw_int(draw, ctx, 8), bound, &lo);
	}
	return m;
}

#if defined __GNUC__
__attribute__((__noinline__))
#endif
static uint64_t vr_uniform_wide(uint64_t bound, vr_draw_fn *draw, void *ctx)
{
	if (bound <= (uint64_t)1 << 32)
		return vr_uniform_n(bound, 4, draw, ctx);
	return vr_uniform_8(bound, draw, ctx);
}

/* [0, bound), unbiased, from the fewest whole bytes that cover bound;
 * 0 for bounds below 2.  One copy per width, each with its constants;
 * the small bounds inline, where dice and shuffles live. */
static inline uint64_t vr_uniform(uint64_t bound, vr_draw_fn *draw, void *ctx)
{
	if (bound < 2)
		return 0;
	if (bound <= 1u << 8)
		return vr_uniform_n(bound, 1, draw, ctx);
	if (bound <= 1u << 16)
		return vr_uniform_n(bound, 2, draw, ctx);
	return vr_uniform_wide(bound, draw, ctx);
}

/* [0, 1) in steps of 2^-53, from 7 bytes: 56 bits, the top 53 kept.
 * Read back in pieces of 4, 2 and 1 bytes, the sizes the kernel's vDSO
 * writes them in: one 8-byte load over three smaller stores cannot be
 * forwarded from the store buffer and stalls.  Which byte lands where
 * does not matter, so the byte order does not either. */
static inline double vr_double(vr_draw_fn *draw, void *ctx)
{
	unsigned char b[8];
	uint32_t lo;
	uint16_t mid;

	draw(ctx, b, 7);
	memcpy(&lo, b, 4);
	memcpy(&mid, b + 4, 2);
	return (((uint64_t)b[6] << 48 | (uint64_t)mid << 32 | lo) >> 3) * 0x1p-53;
}

#endif
