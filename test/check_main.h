/* The main() of every Check suite: fork mode, so each test starts with
 * vrandom uninitialised, and the exit status make check reads.  And the
 * size of a long loop: VRANDOM_TEST_SCALE, as the Lua tests take it. */
#ifndef VRANDOM_CHECK_MAIN_H
#define VRANDOM_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

/* n scaled by VRANDOM_TEST_SCALE (0 < s <= 1, default 1), never below
 * least: where the runs under valgrind and TSan take a tenth of a sample
 * that every plain build checks whole.  Anything else there is a mistake,
 * which fails the test rather than running it whole. */
static long scaled(long n, long least)
{
	const char *e = getenv("VRANDOM_TEST_SCALE");
	char *end;
	double s = e ? strtod(e, &end) : 1;

	ck_assert_msg(!e || (*e && !*end && s > 0 && s <= 1),
		      "VRANDOM_TEST_SCALE=%s: a number in (0, 1]", e);
	return n * s > least ? (long)(n * s) : least;
}

static int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
