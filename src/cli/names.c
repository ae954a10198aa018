/* mmap protection and flags by name, for `vrandom info`. */
#include "config.h"

#include <stdio.h>
#include <sys/mman.h>

#include "cli.h"

#ifndef MAP_TYPE
#define MAP_TYPE 0x0f
#endif

struct name {
	unsigned int mask, value;
	const char *name;
};

#define BIT(x) { x, x, #x }
/* The low four bits of the flags are one value, not four flags:
 * MAP_SHARED_VALIDATE is 3, not MAP_SHARED|MAP_PRIVATE. */
#define TYPE(x) { MAP_TYPE, x, #x }

static const struct name prot_names[] = {
	BIT(PROT_READ), BIT(PROT_WRITE), BIT(PROT_EXEC),
	{ 0 }
};

static const struct name map_names[] = {
	TYPE(MAP_SHARED), TYPE(MAP_PRIVATE), TYPE(MAP_SHARED_VALIDATE),
	TYPE(MAP_DROPPABLE),
	BIT(MAP_ANONYMOUS), BIT(MAP_FIXED), BIT(MAP_GROWSDOWN), BIT(MAP_LOCKED),
	BIT(MAP_NORESERVE), BIT(MAP_POPULATE), BIT(MAP_NONBLOCK), BIT(MAP_STACK),
	BIT(MAP_HUGETLB),
#ifdef MAP_SYNC
	BIT(MAP_SYNC),
#endif
#ifdef MAP_FIXED_NOREPLACE
	BIT(MAP_FIXED_NOREPLACE),
#endif
	{ 0 }
};

/* "A|B|0x40": names first, whatever no name covers in hex. */
static void names(FILE *f, unsigned int v, const struct name *t, const char *zero)
{
	const char *sep = "";

	if (!v)
		fputs(zero, f);
	for (; v && t->name; t++)
		if (t->value && (v & t->mask) == t->value) {
			fprintf(f, "%s%s", sep, t->name);
			v &= ~t->mask;
			sep = "|";
		}
	if (v)
		fprintf(f, "%s0x%x", sep, v);
}

void cli_prot_names(FILE *f, unsigned int prot)
{
	names(f, prot, prot_names, "PROT_NONE");
}

void cli_map_names(FILE *f, unsigned int flags)
{
	names(f, flags, map_names, "0");
}
