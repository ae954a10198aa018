/* uniform.h against its definitions, with scripted reads and draws.  The
 * rest of a short read: completed, interrupted reads made again, a read
 * that gives nothing or fails reported.  The bounded draw at every width: a draw x of w bits maps to floor(x * bound / 2^w), and is
 * rejected (the next one taken) exactly when x * bound mod 2^w falls below
 * 2^w mod bound.  check_rng feeds every draw of 1 and 2 bytes; 4 and 8
 * bytes cannot be enumerated, so here random draws, half of them chosen
 * to be rejected where the bound allows, near each power of two and near
 * 2^63, where rejection takes up to half the draws.  The arithmetic of
 * the expectation is 128-bit division, not uniform.h's tricks.  And a
 * double's 53 bits, each from one bit of the 7 bytes drawn. */
#include <stdint.h>

#include "hostile.h"
#include "scale.h"
#include "uniform.h"

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

struct script {
	uint64_t x[2];
	unsigned n, want;       /* draws made; the width they must have */
	int bad;
};

static void draw(void *ctx, void *buf, size_t len)
{
	struct script *s = ctx;
	uint64_t v = s->n < 2 ? s->x[s->n] : 0;

	if (len != s->want || s->n >= 2)
		s->bad = 1;
	s->n++;
	/* The low bytes of v, as vr_draw_int reads them back. */
	switch (len) {
	case 1: { uint8_t b = v; memcpy(buf, &b, 1); break; }
	case 2: { uint16_t h = v; memcpy(buf, &h, 2); break; }
	case 4: { uint32_t w = v; memcpy(buf, &w, 4); break; }
	default: memcpy(buf, &v, 8);
	}
}

static unsigned width(uint64_t bound)
{
	return bound <= 1u << 8 ? 1 : bound <= 1u << 16 ? 2 :
	       bound <= (uint64_t)1 << 32 ? 4 : 8;
}

/* The test's own random picks, straight from the kernel: linked with no
 * vrandom, the program is all a change to uniform.h has to rebuild. */
static uint64_t any(void)
{
	static uint64_t v[512];
	static size_t left;

	while (!left)
		if (__vr_sys_getrandom(v, sizeof v, 0) == sizeof v)
			left = 512;
	return v[--left];
}

/* A random draw of w bits that the rule rejects (reject 1) or accepts.
 * Rejected draws are rare for most bounds: they are searched among the
 * x = ceil(k 2^w / bound), whose x * bound mod 2^w is below bound, 64
 * tries; then 0, which is always one. */
static uint64_t pick(uint64_t bound, unsigned w, int reject, uint64_t t)
{
	u128 one = (u128)1 << w;
	uint64_t x;
	int i;

	for (i = 0; i < (reject ? 64 : 1000); i++) {
		if (reject) {
			u128 k = any() % bound;

			x = (uint64_t)((k * one + bound - 1) / bound);
		} else {
			x = any();
			if (w < 64)
				x &= ((uint64_t)1 << w) - 1;
		}
		if (((u128)x * bound % one < t) == reject)
			return x;
	}
	return 0;
}

static void bound_right(uint64_t bound, long trials)
{
	unsigned n = width(bound), w = 8 * n;
	u128 one = (u128)1 << w;
	uint64_t t = (uint64_t)(one % bound), r, want;
	long i, bad = 0;

	for (i = 0; i < trials; i++) {
		int reject = t && i % 2;
		struct script s = { { pick(bound, w, reject, t), pick(bound, w, 0, t) }, 0, n, 0 };

		if (((u128)s.x[0] * bound % one < t) != reject)
			bad++;
		want = (uint64_t)((u128)s.x[reject] * bound >> w);
		r = vr_uniform(bound, draw, &s);
		bad += r != want || r >= bound || s.bad || s.n != 1u + reject;
	}
	if (bad)
		printf("bound %#llx (%u bytes): %ld of %ld draws wrong\n",
		       (unsigned long long)bound, n, bad, trials);
	T(bad == 0);
}

/* Bounds 0 and 1 give 0 and draw nothing; the portable 128-bit product
 * (for targets without a 128-bit type) agrees with the compiler's. */
static void edges(void)
{
	struct script s = { { 0, 0 }, 0, 0, 0 };
	uint64_t x, y, lo, hi, bad = 0;
	long i;

	T(vr_uniform(0, draw, &s) == 0 && vr_uniform(1, draw, &s) == 0 && s.n == 0);
	for (i = 0; i < scaled(20000, 2000); i++) {
		x = any(), y = any();
		if (i % 4 == 1)
			x |= 0xffffffff;        /* the carries out of the middle */
		if (i % 4 == 2)
			x = ~(uint64_t)0, y |= 0xffffffff00000000;
		hi = vr_mul64_halves(x, y, &lo);
		bad += hi != (uint64_t)((u128)x * y >> 64) || lo != (uint64_t)((u128)x * y);
	}
	T(bad == 0);
}

static void all(void)
{
	static const uint64_t b[] = {
		3, 6, 255, 256, 257, 1000, 65535, 65536, 65537, 100003,
		((uint64_t)1 << 31) + 1, 3 * ((uint64_t)1 << 30), 0xffffffff,
		(uint64_t)1 << 32, ((uint64_t)1 << 32) + 1, ((uint64_t)1 << 48) + 5,
		((uint64_t)1 << 63) - 1, (uint64_t)1 << 63, ((uint64_t)1 << 63) + 1,
		3 * ((uint64_t)1 << 62), ~(uint64_t)0,
	};
	long trials = scaled(2000, 400);
	size_t i;

	for (i = 0; i < sizeof b / sizeof b[0]; i++)
		bound_right(b[i], trials);
}

/* Reads that answer from a script: a count (at most what was asked) or
 * -errno each, then 0. */
static const ssize_t *answers;
static size_t asked, filled;

static ssize_t scripted(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	ssize_t r = answers[asked++];

	(void)st;
	if (flags)
		return -EINVAL;
	if (r > 0) {
		if ((size_t)r > len)
			r = len;
		memset(buf, 0xee, r);
		filled += r;
	}
	return r;
}

static int rest(const ssize_t *a, size_t len, ssize_t first)
{
	unsigned char b[64];

	answers = a;
	asked = filled = 0;
	return vr_fill_rest(scripted, 0, b, len, first);
}

static void fill_rest(void)
{
	static const ssize_t more[] = { 10, 20, 30, 0 }, intr[] = { -EINTR, 64, 0 },
		nothing[] = { 0 }, again[] = { 5, -EAGAIN, 0 }, fault[] = { -EFAULT, 0 };

	T(rest(more, 64, 4) == 0 && asked == 3 && filled == 60);
	T(rest(intr, 64, -EINTR) == 0 && asked == 2 && filled == 64);
	T(rest(nothing, 64, 0) == -EIO && asked == 0);
	T(rest(nothing, 64, 10) == -EIO && asked == 1);
	T(rest(again, 64, 10) == -EAGAIN && asked == 2 && filled == 5);
	T(rest(fault, 64, -EFAULT) == -EFAULT && asked == 0);
	T(rest(nothing, 64, 64) == 0 && asked == 0);
}

/* A double from 7 bytes: each of their 56 bits alone makes 0 or one bit
 * of the 53 of x = d * 2^53, and together they make each of the 53 once
 * (3 dropped).  Whatever the byte order, a map that overlaps two bytes,
 * drops one, or shifts wrong breaks that; every bit set gives the largest
 * double below 1.  Scripted bytes: the draw is asked for 7 at a time. */
struct bytes {
	unsigned char b[7];
	int bad;
};

static void draw7(void *ctx, void *buf, size_t len)
{
	struct bytes *s = ctx;

	if (len != sizeof s->b)
		s->bad = 1;
	memcpy(buf, s->b, len < sizeof s->b ? len : sizeof s->b);
}

static void doubles(void)
{
	struct bytes s = { { 0 }, 0 };
	uint64_t hit = 0, x;
	unsigned j, dropped = 0, twice = 0, other = 0;

	for (j = 0; j < 56; j++) {
		memset(s.b, 0, sizeof s.b);
		s.b[j / 8] = 1u << j % 8;
		x = (uint64_t)(vr_double(draw7, &s) * 0x1p53);
		if (!x)
			dropped++;
		else if (x & (x - 1) || x >> 53)
			other++;
		else if (hit & x)
			twice++;
		else
			hit |= x;
	}
	printf("a double's bits from 56 drawn: %u dropped, %u not one bit, %u twice\n",
	       dropped, other, twice);
	T(dropped == 3 && other == 0 && twice == 0 && hit == ((uint64_t)1 << 53) - 1);
	memset(s.b, 0xff, sizeof s.b);
	T(vr_double(draw7, &s) == 1 - 0x1p-53);
	memset(s.b, 0, sizeof s.b);
	T(vr_double(draw7, &s) == 0);
	T(s.bad == 0);
}

int main(void)
{
	t_init();
	t_case("the rest of a short read: completed, or why not", fill_rest);
	t_case("bounds 0 and 1; the portable 128-bit product", edges);
	t_case("each width's draws mapped and rejected as defined", all);
	t_case("a double: each of 53 bits from one drawn bit", doubles);
	return t_finish();
}
#else
int main(void)
{
	printf("no 128-bit integers in this compiler: the expectation needs them\n");
	return 77;
}
#endif
