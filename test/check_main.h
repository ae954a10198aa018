/* The main() of every Check suite: fork mode, so each test starts with
 * vrandom uninitialised, and the exit status make check reads; scale.h's
 * scaled(), the size of a long loop (VRANDOM_TEST_SCALE). */
#ifndef VRANDOM_CHECK_MAIN_H
#define VRANDOM_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#include "scale.h"

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
