/* The tally of the Check-free tests (smoke, musl-shim): CHECK counts, a
 * failure names its line, and the closing line is `N passed, N failed`. */
#ifndef VRANDOM_TALLY_H
#define VRANDOM_TALLY_H

#include <stdio.h>

static int passed, failed;
static const char *skipped;    /* why a part could not run here */

#define CHECK(c) check(!!(c), #c, __LINE__)

static void check(int ok, const char *what, int line)
{
	if (ok)
		passed++;
	else {
		failed++;
		printf("FAIL line %d: %s\n", line, what);
	}
}

/* The exit status: 0 when all passed, 1 when one failed or none ran, 77
 * (Automake's SKIP, its reason the last line) when a part could not run. */
static int tally_finish(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	if (failed)
		return 1;
	if (skipped) {
		printf("SKIP: %s\n", skipped);
		return 77;
	}
	return passed ? 0 : 1;
}

#endif
