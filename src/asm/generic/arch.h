/* Targets without an architecture layer of their own (x32, unknown): the C
 * library's syscall(), turned into the -errno convention of the raw
 * wrappers. */
#include <errno.h>
#include <unistd.h>

#define VRANDOM_CACHE_LINE 64

static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	long ret = syscall(n, a, b, c);
	return ret < 0 ? -errno : ret;
}
