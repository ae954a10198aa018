/* No address space left before the first call: the pool can map nothing and
 * malloc may fail too, yet every call must still be served, by system call. */
#include <errno.h>
#include <sys/resource.h>

#include "hostile.h"

static void exhaust(void)
{
	struct rlimit rl;
	void *p;

	/* Below current use: every new mapping, brk included, now fails. */
	if (getrlimit(RLIMIT_AS, &rl))
		_exit(99);
	rl.rlim_cur = 4096;
	if (setrlimit(RLIMIT_AS, &rl)) {
		perror("setrlimit");
		_exit(99);
	}
	p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T(p == MAP_FAILED);
}

static void as_exhausted(void)
{
	struct vrandom_info i;
	unsigned char b[64];
	vrandom_state *st;

	exhaust();
	memset(b, 0, sizeof b);
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	T(looks_random(b, sizeof b));
	memset(b, 0, sizeof b);
	vrandom_buf(b, sizeof b);
	T(looks_random(b, sizeof b));
	T(vrandom_u64() != vrandom_u64());
	T(vrandom_get_info(&i) == 0);
	if (i.backend == VRANDOM_VDSO) {
		T(i.states_in_use == 0);
		T(vrandom_reserve(4) == -1 && errno == ENOMEM);
	}
	/* A handle needs a little heap; without it the failure is reported. */
	errno = 0;
	st = vrandom_state_new();
	T(st || errno == ENOMEM);
	if (st) {
		T(vrandom_state_getrandom(st, b, sizeof b, 0) == sizeof b);
		T(looks_random(b, sizeof b));
		vrandom_state_free(st);
	}
}

static void as_exhausted_urandom(void)
{
	setenv("VRANDOM_BACKEND", "urandom", 1);
	as_exhausted();
}

int main(void)
{
	t_init();
	if (T_ASAN) {
		printf("RLIMIT_AS: skipped, ASan reserves its shadow up front\n");
		return 77;
	}
	t_case("RLIMIT_AS exhausted before the first call", as_exhausted);
	t_case("RLIMIT_AS exhausted, VRANDOM_BACKEND=urandom", as_exhausted_urandom);
	return t_finish();
}
