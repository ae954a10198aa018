/* A program that closed every descriptor before its first call, and one that
 * closes vrandom's /dev/urandom descriptor and puts another file on its
 * number: vrandom must notice, not read zeros from /dev/zero. */
#include <fcntl.h>
#include <sys/resource.h>

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

static void number_reused(void)
{
	unsigned char b[64];
	int fd;

	setenv("VRANDOM_BACKEND", "urandom", 1);
	close_all();
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	/* vrandom holds the lowest number, 0; swap /dev/zero in under it. */
	T(close(0) == 0);
	fd = open("/dev/zero", O_RDONLY);
	T(fd == 0);
	memset(b, 0, sizeof b);
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	T(looks_random(b, sizeof b));
	/* and the program's file is still its own */
	T(fcntl(0, F_GETFD) >= 0);
	T(read(0, b, 4) == 4 && !b[0] && !b[3]);
}

int main(void)
{
	t_init();
	t_case("every descriptor closed", all_closed);
	t_case("every descriptor closed, VRANDOM_BACKEND=urandom", all_closed_urandom);
	t_case("urandom descriptor replaced by /dev/zero", number_reused);
	return t_finish();
}
