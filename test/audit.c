/* An LD_AUDIT module linked with libvrandom.so: glibc loads audit modules
 * and what they link into a link namespace of their own.  Before the
 * program's main runs, it draws and reports what it got on the descriptor
 * named by VRANDOM_AUDIT_FD, for test/namespace to judge. */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrandom.h"

unsigned int la_version(unsigned int version)
{
	return version ? LAV_CURRENT : 0;
}

void la_preinit(uintptr_t *cookie)
{
	const char *fd = getenv("VRANDOM_AUDIT_FD");
	unsigned char b[32], zero[32] = { 0 };
	struct vrandom_info i;
	char line[128];
	ssize_t got;
	int n;

	(void)cookie;
	if (!fd)
		return;
	memset(b, 0, sizeof b);
	got = vrandom_getrandom(b, sizeof b, 0);
	n = snprintf(line, sizeof line, "%s %zd %d\n",
		     vrandom_get_info(&i) ? "none" : i.backend_name,
		     got, memcmp(b, zero, sizeof b) != 0);
	if (write(atoi(fd), line, n) != n)
		_exit(98);
}
