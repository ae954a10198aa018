/* The statistics of every C distribution test: a per-cell binomial z
 * bound, its false-alarm rate and its power, computed here, not written
 * into each test.  test/lua/harness.lua holds the same for Lua.
 *
 * A check draws n values into k cells of known probability and fails when
 * one cell's count is more than z standard deviations from its mean.  z
 * gives the check a false alarm of STAT_ALPHA, shared among the cells
 * (Bonferroni): the whole test command runs fewer than 5,000 such checks,
 * so that it fails on bad luck less than once in 10^4 runs.  n is what
 * finds the named fault, one cell drawn STAT_EXCESS too often (a value of
 * a die, a sixteenth of a wide range, a bit that is 1 too often; a stuck
 * bit is the extreme case), with power STAT_POWER: the excess must exceed
 * z sigma of the fair count with that probability.
 *
 * VRANDOM_TEST_SCALE (valgrind, the sanitizers, qemu) shrinks a sample
 * only down to that n, so it leaves n whole, and the line printed says
 * so; a sample below it is an error, the check fails.  Where whole
 * samples cost too much (a machine emulated whole, each draw a system
 * call), the checks do not run at all: VRANDOM_TEST_STATS_AT names
 * where they run at full power, and a line names each check left out. */
#ifndef VRANDOM_TEST_STATS_H
#define VRANDOM_TEST_STATS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "scale.h"

#define STAT_ALPHA 2e-8         /* false alarm, one check */
#define STAT_EXCESS 0.05        /* the fault: one cell 5 % too often */
#define STAT_POWER 0.999

/* P(Z > z) for a standard normal Z. */
static inline double stat_tail(double z)
{
	return 0.5 * erfc(z / sqrt(2));
}

/* The z of upper tail q (bisection: the tail falls as z grows). */
static inline double stat_z(double q)
{
	double lo = -10, hi = 40, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (stat_tail(mid) > q)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The bound of one of k cells, two-sided. */
static inline double stat_limit(unsigned k)
{
	return stat_z(STAT_ALPHA / (2.0 * k));
}

/* The power against a cell of probability p drawn STAT_EXCESS too often,
 * with n draws and bound z. */
static inline double stat_power(double p, double z, double n)
{
	double q = p * (1 + STAT_EXCESS);

	return 1 - stat_tail(((q - p) * sqrt(n) - z * sqrt(p * (1 - p))) / sqrt(q * (1 - q)));
}

/* The draws that power STAT_POWER needs against the cell of probability p. */
static inline long stat_need(double p, double z)
{
	double q = p * (1 + STAT_EXCESS), zb = stat_z(1 - STAT_POWER),
	       s = (z * sqrt(p * (1 - p)) + zb * sqrt(q * (1 - q))) / (q - p);

	return (long)ceil(s * s);
}

/* The draws n that power STAT_POWER needs: VRANDOM_TEST_SCALE may shrink
 * a sample down to them, never below (scaled() also refuses a malformed
 * scale). */
static inline long stat_draws(long need)
{
	return scaled(need, need);
}

/* The end of a check's line: what a scale did to the sample, and 0 (the
 * check fails) when n is below the need, whatever made it so. */
static inline int stat_end(long n, long need)
{
	const char *e = getenv("VRANDOM_TEST_SCALE");

	if (n < need)
		printf("; ERROR: %ld draws, below the %ld that power %g needs\n",
		       n, need, STAT_POWER);
	else if (e && strtod(e, 0) < 1)
		printf(" (VRANDOM_TEST_SCALE=%s: kept at %ld draws, the power kept)\n", e, n);
	else
		printf("\n");
	fflush(stdout);         /* a failed Check case ends without stdio's exit */
	return n >= need;
}

/* 1 where the checks are left out (VRANDOM_TEST_STATS_AT), after a line
 * naming what and where it runs at full power. */
static inline int stat_away(const char *what)
{
	const char *at = getenv("VRANDOM_TEST_STATS_AT");

	if (!at || !*at)
		return 0;
	printf("%s: left out here, at full power in %s\n", what, at);
	fflush(stdout);
	return 1;
}

/* n draws of k cells: count[i] against n p[i] (p NULL: 1/k each).  Prints
 * the check and its figures; 1 when every cell is within the bound. */
static inline int stat_judge(const char *what, const unsigned long *count, unsigned k,
			     const double *p, long n)
{
	double z = stat_limit(k), worst = 0, pmin = 1, pi, d;
	unsigned i, at = 0;

	for (i = 0; i < k; i++) {
		pi = p ? p[i] : 1.0 / k;
		pmin = pi < pmin ? pi : pmin;
		d = fabs(count[i] - n * pi) / sqrt(n * pi * (1 - pi));
		if (d > worst)
			worst = d, at = i;
	}
	printf("%s: %ld draws, %u cells, max |z| %.2f (cell %u); bound %.2f "
	       "(false alarm %.0e), power %.4f against one cell %.0f%% too often",
	       what, n, k, worst, at, z, STAT_ALPHA, stat_power(pmin, z, n),
	       100 * STAT_EXCESS);
	return stat_end(n, stat_need(pmin, z)) && worst <= z;
}

/* draw() n times into k cells; the smallest cell has probability pmin. */
static inline int stat_cells(const char *what, unsigned k, const double *p, double pmin,
			     unsigned (*draw)(void *), void *ctx)
{
	unsigned long *count = calloc(k, sizeof *count);
	long i, n = stat_draws(stat_need(pmin, stat_limit(k)));
	unsigned c;
	int ok = count != 0;

	for (i = 0; ok && i < n; i++) {
		c = draw(ctx);
		if (c >= k) {
			printf("%s: cell %u of %u\n", what, c, k);
			ok = 0;
		} else {
			count[c]++;
		}
	}
	ok = ok && stat_judge(what, count, k, p, n);
	free(count);
	return ok;
}

/* draw(bound) into cells: one a value up to 257, else 16 of
 * ceil(bound / 16) values, the last one the rest.  The named fault: one
 * value, or one sixteenth of the range, given 5 % too often. */
struct stat_bins { uint64_t (*draw)(uint64_t); uint64_t bound, q; };

static inline unsigned stat_bin(void *ctx)
{
	const struct stat_bins *b = ctx;
	uint64_t r = b->draw(b->bound);

	return r < b->bound ? (unsigned)(r / b->q) : ~0u;
}

static inline int stat_uniform(const char *what, uint64_t bound, uint64_t (*draw)(uint64_t))
{
	unsigned k = bound <= 257 ? (unsigned)bound : 16, bins, i;
	struct stat_bins b = { draw, bound, bound / k + (bound % k != 0) };
	double p[257], pmin = 1;
	char line[80];

	bins = (unsigned)(bound / b.q + (bound % b.q != 0));
	for (i = 0; i < bins; i++) {
		uint64_t size = i + 1 < bins ? b.q : bound - b.q * (bins - 1);

		p[i] = (double)size / (double)bound;
		pmin = p[i] < pmin ? p[i] : pmin;
	}
	snprintf(line, sizeof line, "%s(%llu)", what, (unsigned long long)bound);
	return stat_cells(line, bins, p, pmin, stat_bin, &b);
}

/* Each of the low w bits of draw() a cell of its own, 1 with probability
 * 1/2: the fault is one bit 1 STAT_EXCESS too often, or stuck. */
static inline int stat_bits(const char *what, unsigned w, uint64_t (*draw)(void *), void *ctx)
{
	unsigned long ones[64] = { 0 };
	double z = stat_limit(w), worst = 0, d;
	long i, n = stat_draws(stat_need(0.5, z));
	unsigned b, at = 0;
	uint64_t v;

	for (i = 0; i < n; i++)
		for (v = draw(ctx), b = 0; b < w; b++)
			ones[b] += v >> b & 1;
	for (b = 0; b < w; b++) {
		d = fabs(ones[b] - n * 0.5) / sqrt(n * 0.25);
		if (d > worst)
			worst = d, at = b;
	}
	printf("%s: %ld draws, %u bits, max |z| %.2f (bit %u); bound %.2f "
	       "(false alarm %.0e), power %.4f against one bit 1 %.0f%% too often",
	       what, n, w, worst, at, z, STAT_ALPHA, stat_power(0.5, z, n),
	       100 * STAT_EXCESS);
	return stat_end(n, stat_need(0.5, z)) && worst <= z;
}

#endif
