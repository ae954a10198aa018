/* VRANDOM_TEST_SCALE: the tests' long loops at a fraction of their size,
 * where a run repeats what a native build checks whole (the sanitizers,
 * valgrind, qemu).  One reading for the C tests, Check's or not. */
#ifndef VRANDOM_TEST_SCALE_H
#define VRANDOM_TEST_SCALE_H

#include <stdio.h>
#include <stdlib.h>

/* n scaled by VRANDOM_TEST_SCALE (0 < s <= 1, default 1), never below
 * least.  Anything else there is a mistake: the program fails (status 1)
 * rather than run whole. */
static inline long scaled(long n, long least)
{
	const char *e = getenv("VRANDOM_TEST_SCALE");
	char *end;
	double s = e ? strtod(e, &end) : 1;

	if (e && !(*e && !*end && s > 0 && s <= 1)) {
		fprintf(stderr, "VRANDOM_TEST_SCALE=%s: a number in (0, 1]\n", e);
		exit(1);
	}
	return n * s > least ? (long)(n * s) : least;
}

#endif
