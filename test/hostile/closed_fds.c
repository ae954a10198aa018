/* A program that closed every descriptor before its first call, and one that
 * fills the low numbers with its own files between calls: vrandom must not
 * read zeros from the program's /dev/zero, nor close it. */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "hostile.h"

static void close_all(void)
{
	struct rlimit rl;
	int fd, max = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < 65536)
		max = rl.rlim_cur;
	for (fd = 0; fd < max; fd++)
		close(fd);
}

static void all_closed(void)
{
	close_all();
	t_serves();
}

static void all_closed_urandom(void)
{
	setenv("VRANDOM_BACKEND", "urandom", 1);
	all_closed();
}

/* After the first call every low number holds the program's /dev/zero:
 * vrandom must neither read zeros through one of them nor close one. */
static void numbers_reused(void)
{
	unsigned char b[64];
	struct stat sb;
	int fd, z, ok = 1;

	setenv("VRANDOM_BACKEND", "urandom", 1);
	close_all();
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	z = open("/dev/zero", O_RDONLY);
	T(z >= 0);
	for (fd = 0; fd < 64; fd++)
		if (fd != z && dup2(z, fd) != fd)
			ok = 0;
	T(ok);
	memset(b, 0, sizeof b);
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	T(looks_random(b, sizeof b));
	for (fd = 0; fd < 64; fd++)
		if (fstat(fd, &sb) || !S_ISCHR(sb.st_mode) || sb.st_rdev != makedev(1, 5))
			ok = 0;
	T(ok);
}

int main(void)
{
	t_init();
	t_case("every descriptor closed", all_closed);
	t_case("every descriptor closed, VRANDOM_BACKEND=urandom", all_closed_urandom);
	t_case("descriptors 0-63 reused for /dev/zero", numbers_reused);
	return t_finish();
}
