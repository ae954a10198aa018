/* vrandom bench: the tool's door to the benchmark engine in bench/. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"

/* main draws nothing before this: the engine times the first call in
 * children forked from a process where vrandom is still untouched. */
int cli_bench(int csv, int quick)
{
	struct vr_bench_opts o = { .quick = quick, .csv = csv, .progress = isatty(2) };
	int r = vr_bench(stdout, &o), err = errno;

	/* A failed write is reported as one, whatever the engine made of it. */
	cli_flush();
	if (r)
		return cli_error("benchmark failed: %s", strerror(err));
	return 0;
}
