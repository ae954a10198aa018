/* The getrandom pool of a musl patched with contrib/musl, seen from
 * outside: its states live in MAP_DROPPABLE mappings, which
 * /proc/self/smaps marks "dp" in VmFlags.  Read with open and read only,
 * no stdio and no malloc, so that the child of a bare _Fork may call it. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* kB of droppable memory in this process, and the number of droppable
 * mappings in *maps (when maps is not null); -1 when smaps is unreadable. */
static inline long droppable(long *maps)
{
	static char buf[4096];
	char line[256];
	long size = 0, total = 0, n = 0, len = 0, got = 0, i = 0;
	int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);

	if (maps)
		*maps = 0;
	if (fd < 0)
		return -1;
	for (;;) {
		if (i == got) {
			got = read(fd, buf, sizeof buf);
			i = 0;
			if (got <= 0)
				break;
		}
		if (buf[i] != '\n') {
			if (len < (long)sizeof line - 1)
				line[len++] = buf[i];
			i++;
			continue;
		}
		i++;
		line[len] = 0;
		len = 0;
		if (!strncmp(line, "Size:", 5)) {
			size = atol(line + 5);
		} else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " dp")) {
			total += size;
			n++;
		}
	}
	close(fd);
	if (maps)
		*maps = n;
	return total;
}

static inline long droppable_kb(void)
{
	return droppable(0);
}

/* The script says whether this kernel has the vDSO getrandom and the musl
 * under test is the patched one: then the pool must be in use. */
static inline int vdso_expected(void)
{
	const char *e = getenv("MUSL_PATCHED_VDSO");

	return e && !strcmp(e, "1");
}

/* The page size in kB. */
static inline long page_kb(void)
{
	return sysconf(_SC_PAGESIZE) / 1024;
}
