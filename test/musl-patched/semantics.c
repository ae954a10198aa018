/* musl's getrandom() and getentropy(), patched with contrib/musl: the
 * semantics of the unpatched ones (flags, EINVAL, EIO, cancellation, the
 * wait before the pool is seeded), served from the vDSO where the kernel
 * has it, also to a signal handler that interrupts a call. */
#include <signal.h>
#include <sys/time.h>

#include "libc-grnd.h"
#include "pool.h"

static void served(void)
{
	static unsigned char big[1 << 20];
	unsigned char b[64];
	long kb;

	errno = 1234;
	memset(b, 0, sizeof b);
	CHECK(getrandom(b, sizeof b, 0) == sizeof b);
	CHECK(errno == 1234);           /* setting up the pool is no error */
	CHECK(memcmp(b + 56, "\0\0\0\0\0\0\0\0", 8));
	kb = droppable_kb();
	printf("droppable memory after the first call: %ld kB\n", kb);
	CHECK(vdso_expected() ? kb > 0 : kb == 0);
	CHECK(getrandom(big, sizeof big, 0) == sizeof big);
	CHECK(memcmp(big + sizeof big - 8, "\0\0\0\0\0\0\0\0", 8));
}

/* A handler that calls getrandom while the interrupted call holds the
 * thread's state: the vDSO finds it in use and takes the system call. */
static volatile sig_atomic_t ticks, bad;

static void tick(int sig)
{
	unsigned char b[16] = { 0 };
	int e = errno;

	(void)sig;
	if (getrandom(b, sizeof b, 0) != sizeof b || !memcmp(b + 8, "\0\0\0\0\0\0\0\0", 8))
		bad++;
	ticks++;
	errno = e;
}

static void in_handler(void)
{
	struct itimerval it = { { 0, 500 }, { 0, 500 } };
	struct sigaction sa = { .sa_handler = tick, .sa_flags = SA_RESTART };
	unsigned char b[256];
	long calls = 0, fails = 0;

	sigaction(SIGALRM, &sa, 0);
	setitimer(ITIMER_REAL, &it, 0);
	while (ticks < 200)
		fails += getrandom(b, sizeof b, 0) != sizeof b, calls++;
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, 0);
	printf("signal handler: %d calls during %ld in the main flow\n", (int)ticks, calls);
	CHECK(fails == 0);
	CHECK(bad == 0);
}

int main(void)
{
	setvbuf(stdout, 0, _IOLBF, 0);
	early_boot();           /* before this process's first call */
	served();
	flags();
	cancellation();
	in_handler();
	return tally_finish();
}
