/* A patched musl's getrandom() where the pool cannot be had: no
 * descriptors, no address space, seccomp filters that take mmap,
 * rt_sigprocmask or getrandom itself away.  The system call serves, with
 * the system call's errors; nothing hangs or crashes. */
#include <errno.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define HOSTILE_LIBC
#include "hostile.h"
#include "bpf.h"
#include "pool.h"

static void serves(void)
{
	unsigned char a[64] = { 0 }, b[64] = { 0 };

	T(getrandom(a, sizeof a, 0) == sizeof a);
	T(looks_random(a, sizeof a));
	T(getentropy(b, sizeof b) == 0);
	T(looks_random(b, sizeof b));
	T(memcmp(a, b, sizeof a));
	T(getrandom(a, 16, GRND_NONBLOCK) == 16);
	errno = 0;
	T(getrandom(a, 16, GRND_INSECURE | GRND_RANDOM) == -1 && errno == EINVAL);
}

static void closed_fds(void)
{
	int fd;

	for (fd = 0; fd < 1024; fd++)
		close(fd);
	serves();
	/* smaps needs a descriptor, and there are plenty again. */
	T(vdso_expected() ? droppable_kb() > 0 : droppable_kb() == 0);
}

static void no_address_space(void)
{
	struct rlimit rl, was;

	if (getrlimit(RLIMIT_AS, &was))
		_exit(99);
	rl = was;
	rl.rlim_cur = 4096;
	if (setrlimit(RLIMIT_AS, &rl))
		_exit(99);
	T(mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
	  MAP_FAILED);
	serves();
	/* The limit lifted again, so that smaps can be read: no pool was
	 * mapped meanwhile (-1 would be smaps unread, proving nothing). */
	if (setrlimit(RLIMIT_AS, &was))
		_exit(99);
	T(droppable_kb() == 0);
}

static void deny(long nr, int err)
{
	if (bpf_deny(nr, err)) {
		fprintf(stderr, "seccomp: cannot install the filter\n");
		_exit(99);
	}
}

static void mmap_eperm(void)
{
	deny(SYS_mmap, EPERM);
	serves();
}

static void sigprocmask_eperm(void)
{
	deny(SYS_rt_sigprocmask, EPERM);
	serves();
}

/* As unpatched musl: the system call's ENOSYS, the vDSO's reseed included. */
static void getrandom_enosys(void)
{
	unsigned char b[16];

	deny(SYS_getrandom, ENOSYS);
	errno = 0;
	T(getrandom(b, sizeof b, 0) == -1 && errno == ENOSYS);
	errno = 0;
	T(getentropy(b, sizeof b) == -1 && errno == ENOSYS);
}

int main(void)
{
	t_init();
	t_case("every descriptor closed", closed_fds);
	t_case("RLIMIT_AS exhausted before the first call", no_address_space);
	t_case("mmap EPERM (seccomp)", mmap_eperm);
	t_case("rt_sigprocmask EPERM (seccomp)", sigprocmask_eperm);
	t_case("getrandom ENOSYS (seccomp)", getrandom_enosys);
	return t_finish();
}
