/* The main() of every Check suite: fork mode, so each test starts with
 * vrandom uninitialised, and the exit status make check reads; scale.h's
 * scaled(), the size of a long loop (VRANDOM_TEST_SCALE).
 *
 * A case that cannot run here (no seccomp, say) calls ck_skip(why) and
 * returns: Check has no skip of its own, so the reason lands in memory
 * shared with the forked cases, and once every case has passed the
 * program exits 77 (Automake's SKIP) with it as its last line.  A run of
 * no case at all (CK_RUN_CASE naming none) fails. */
#ifndef VRANDOM_CHECK_MAIN_H
#define VRANDOM_CHECK_MAIN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "scale.h"

static char *ck_skipped;        /* shared: "; "-separated reasons */

static void ck_skip(const char *why)
{
	size_t n;

	if (!ck_skipped)
		return;
	n = strlen(ck_skipped);
	snprintf(ck_skipped + n, 4096 - n, "%s%s", n ? "; " : "", why);
	printf("SKIP: %s\n", why);
}

static int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed, ran;

	ck_skipped = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ck_skipped == MAP_FAILED)
		ck_skipped = 0;
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	ran = srunner_ntests_run(sr);
	srunner_free(sr);
	if (failed)
		return EXIT_FAILURE;
	if (!ran) {
		printf("FAIL: no case ran (CK_RUN_SUITE=%s CK_RUN_CASE=%s)\n",
		       getenv("CK_RUN_SUITE") ? getenv("CK_RUN_SUITE") : "",
		       getenv("CK_RUN_CASE") ? getenv("CK_RUN_CASE") : "");
		return EXIT_FAILURE;
	}
	if (ck_skipped && *ck_skipped) {
		printf("SKIP: %s\n", ck_skipped);
		return 77;
	}
	return EXIT_SUCCESS;
}

#endif
