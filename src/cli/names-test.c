/* The names `vrandom info` gives mmap protection and flags. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cli.h"


static int failures;

static void check(void (*fn)(FILE *, unsigned int), unsigned int v, const char *want)
{
	char *got = 0;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);

	if (!f) {
		perror("open_memstream");
		exit(99);
	}
	fn(f, v);
	fclose(f);
	if (strcmp(got, want)) {
		printf("FAIL: 0x%x: '%s', want '%s'\n", v, got, want);
		failures++;
	} else
		printf("ok: 0x%x: %s\n", v, got);
	free(got);
}

int main(void)
{
	check(cli_prot_names, 0, "PROT_NONE");
	check(cli_prot_names, PROT_READ | PROT_WRITE, "PROT_READ|PROT_WRITE");
	check(cli_prot_names, PROT_READ | PROT_WRITE | PROT_EXEC,
	      "PROT_READ|PROT_WRITE|PROT_EXEC");
	check(cli_prot_names, PROT_READ | 0x100, "PROT_READ|0x100");
	check(cli_prot_names, 0x80000000u, "0x80000000");

	/* What Linux 6.11+ asks for its getrandom states. */
	check(cli_map_names, MAP_DROPPABLE | MAP_ANONYMOUS, "MAP_DROPPABLE|MAP_ANONYMOUS");
	check(cli_map_names, MAP_PRIVATE | MAP_ANONYMOUS, "MAP_PRIVATE|MAP_ANONYMOUS");
	/* The type is a value: 3 is one name, not MAP_SHARED|MAP_PRIVATE. */
	check(cli_map_names, MAP_SHARED_VALIDATE, "MAP_SHARED_VALIDATE");
	check(cli_map_names, MAP_SHARED | MAP_FIXED, "MAP_SHARED|MAP_FIXED");
	/* No type has the value 0xa (DROPPABLE|PRIVATE is invalid). */
	check(cli_map_names, MAP_DROPPABLE | MAP_PRIVATE | MAP_ANONYMOUS, "MAP_ANONYMOUS|0xa");
	check(cli_map_names, MAP_DROPPABLE | MAP_ANONYMOUS | 0x80000000u,
	      "MAP_DROPPABLE|MAP_ANONYMOUS|0x80000000");
	check(cli_map_names, 0, "0");
	return failures != 0;
}
