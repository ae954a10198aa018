/* The getrandom pool of a musl patched with contrib/musl, seen from
 * outside: its states live in MAP_DROPPABLE mappings, which
 * /proc/self/smaps marks "dp" in VmFlags. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* kB of droppable memory in this process, or -1 when smaps is unreadable. */
static long droppable_kb(void)
{
	char line[256];
	long size = 0, total = 0;
	FILE *f = fopen("/proc/self/smaps", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "Size:", 5))
			size = atol(line + 5);
		else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " dp"))
			total += size;
	}
	fclose(f);
	return total;
}

/* The script says whether this kernel has the vDSO getrandom and the musl
 * under test is the patched one: then the pool must be in use. */
static int vdso_expected(void)
{
	const char *e = getenv("MUSL_PATCHED_VDSO");

	return e && !strcmp(e, "1");
}
