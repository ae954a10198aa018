/* make bench: the benchmark table, as `vrandom bench` prints it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	struct vr_bench_opts o = { .progress = isatty(2) };
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			o.quick = 1;
		else if (!strcmp(argv[i], "--csv"))
			o.csv = 1;
		else {
			fprintf(stderr, "usage: %s [--quick] [--csv]\n", argv[0]);
			return 2;
		}
	}
	return vr_bench(stdout, &o) ? EXIT_FAILURE : EXIT_SUCCESS;
}
