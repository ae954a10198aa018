/* Seccomp filters that take a system call away before (or after) the first
 * call: getrandom answering ENOSYS leaves /dev/urandom to serve, even from
 * the vDSO, which makes the system call itself to reseed; mmap answering
 * EPERM leaves the pool empty and the system call to serve. */
#include <errno.h>
#include <seccomp.h>
#include <sys/random.h>

#include "hostile.h"

static void deny(int nr, int err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0) ||
	    seccomp_load(ctx)) {
		fprintf(stderr, "seccomp: cannot install the filter\n");
		_exit(99);
	}
	seccomp_release(ctx);
}

static enum vrandom_backend backend(void)
{
	struct vrandom_info i;

	return vrandom_get_info(&i) ? 0 : i.backend;
}

static void getrandom_enosys(void)
{
	deny(SCMP_SYS(getrandom), ENOSYS);
	t_serves();
}

/* Told to use the system call, setup finds it gone and says so. */
static void getrandom_enosys_syscall(void)
{
	setenv("VRANDOM_BACKEND", "syscall", 1);
	deny(SCMP_SYS(getrandom), ENOSYS);
	T(backend() == VRANDOM_URANDOM);        /* setup's own probe, before any read */
	t_serves();
	T(backend() == VRANDOM_URANDOM);
}

/* The backend was chosen and the thread's state seeded before the filter.
 * t_serves' new handle needs a reseed, so getrandom's ENOSYS shows, and
 * from then on vrandom_get_info names /dev/urandom. */
static void getrandom_enosys_later(void)
{
	unsigned char b[64];

	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	deny(SCMP_SYS(getrandom), ENOSYS);
	t_serves();
	T(backend() == VRANDOM_URANDOM);
}

/* The system call worked at setup and is gone at the next call. */
static void getrandom_enosys_after_syscall(void)
{
	struct vrandom_info i;
	unsigned char b[64];

	setenv("VRANDOM_BACKEND", "syscall", 1);
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	T(backend() == VRANDOM_SYSCALL);
	deny(SCMP_SYS(getrandom), ENOSYS);
	memset(b, 0, sizeof b);
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	T(looks_random(b, sizeof b));
	T(vrandom_get_info(&i) == 0);
	T(i.backend == VRANDOM_URANDOM && !strcmp(i.backend_name, "urandom"));
	T(!i.vdso_symbol && !i.state_size);
	t_serves();
}

static void mmap_eperm(void)
{
	deny(SCMP_SYS(mmap), EPERM);
	t_serves();
	/* With the vDSO, reserving states needs the mapping that failed. */
	if (backend() == VRANDOM_VDSO)
		T(vrandom_reserve(4) == -1 && errno == EPERM);
	else
		T(vrandom_reserve(4) == 0);
}

/* MAP_DROPPABLE refused as a 6.11 kernel without droppable pages refuses
 * it, with the kernel-internal ENOTSUPP (524): the system call serves, and
 * vrandom_reserve reports EOPNOTSUPP, the errno later kernels give. */
static void droppable_enotsupp(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(524), SCMP_SYS(mmap), 1,
				     SCMP_A3(SCMP_CMP_MASKED_EQ, 0x0f, 0x08)) ||
	    seccomp_load(ctx)) {
		fprintf(stderr, "seccomp: cannot install the filter\n");
		_exit(99);
	}
	seccomp_release(ctx);
	t_serves();
	if (backend() == VRANDOM_VDSO)
		T(vrandom_reserve(4) == -1 && errno == EOPNOTSUPP);
	else
		T(vrandom_reserve(4) == 0);
}

/* A pool not yet seeded, as /dev/urandom's users see it: poll on
 * /dev/random times out (the filter answers 0, as poll does then).
 * GRND_NONBLOCK must say EAGAIN rather than read /dev/urandom unseeded. */
static void unseeded(void)
{
	unsigned char b[16];
	int nr[] = { SCMP_SYS(poll), SCMP_SYS(ppoll),
#ifdef __SNR_ppoll_time64
		SCMP_SYS(ppoll_time64),
#endif
	};
	size_t i;

	setenv("VRANDOM_BACKEND", "urandom", 1);
	for (i = 0; i < sizeof nr / sizeof nr[0]; i++)
		if (nr[i] >= 0)         /* not a pseudo number: the arch has it */
			deny(nr[i], 0);
	errno = 0;
	T(vrandom_getrandom(b, sizeof b, GRND_NONBLOCK) == -1 && errno == EAGAIN);
}

int main(void)
{
	t_init();
	t_case("getrandom ENOSYS from the start", getrandom_enosys);
	t_case("getrandom ENOSYS, VRANDOM_BACKEND=syscall", getrandom_enosys_syscall);
	t_case("getrandom ENOSYS after the first call", getrandom_enosys_later);
	t_case("getrandom ENOSYS after setup, VRANDOM_BACKEND=syscall",
	       getrandom_enosys_after_syscall);
	t_case("an unseeded pool: GRND_NONBLOCK says EAGAIN", unseeded);
	if (T_ASAN)
		printf("mmap EPERM: skipped, ASan needs mmap for its heap\n");
	else
		t_case("mmap EPERM from the start", mmap_eperm);
	t_case("MAP_DROPPABLE ENOTSUPP (524) from the start", droppable_enotsupp);
	return t_finish();
}
