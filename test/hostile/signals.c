/* Signal handlers that call every vrandom function a handler may call at
 * any moment, while threads take and give back states (handles, and threads that come and
 * go): nothing deadlocks, every call serves, and the pool ends as it
 * began, no state lost or given out twice.  Signals come from an interval
 * timer (to whichever thread runs) and from a thread that aims SIGUSR1 at
 * each worker in turn; a watchdog ends a run that hangs.  Bounded: about
 * a second (VRANDOM_TEST_SCALE shortens it). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

#include "hostile.h"
#include "../scale.h"

#define WORKERS 3

static volatile int stop, done;
static long ms;         /* the run's length */
static unsigned long handled, bad;
static pthread_t worker[WORKERS];

static void fail(void)
{
	__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
}

/* Each worker's handle, for its handlers alone. */
static __thread vrandom_state *mine;

/* Every function a handler may call (vrandom(3), ATTRIBUTES: all but
 * state_new, state_free and reserve), each result checked; errno as the
 * handler found it. */
static void handler(int sig)
{
	unsigned char b[300];
	struct vrandom_info i;
	int saved = errno;
	double d;

	(void)sig;
	if (vrandom_getrandom(b, 300, 0) != 300 || vrandom_getrandom(b, 16, GRND_NONBLOCK) != 16 ||
	    vrandom_getentropy(b, 256) || vrandom_uniform(6) >= 6 ||
	    vrandom_uniform(1000) >= 1000 || vrandom_uniform((uint64_t)1 << 40) >> 40 ||
	    vrandom_uniform(3 * ((uint64_t)1 << 62)) >= 3 * ((uint64_t)1 << 62))
		fail();
	vrandom_buf(b, sizeof b);
	(void)vrandom_u32();
	(void)vrandom_u64();
	d = vrandom_double();
	if (!(d >= 0 && d < 1))
		fail();
	if (mine) {
		if (vrandom_state_getrandom(mine, b, 64, 0) != 64)
			fail();
		vrandom_state_buf(mine, b, 100);
	}
	if (vrandom_get_info(&i) || i.states_in_use > i.states_total || !vrandom_version())
		fail();
	__atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
	errno = saved;
}

static void *brief(void *arg)
{
	(void)arg;
	return (void *)(uintptr_t)(vrandom_u32() | 1);
}

/* Take and give back: handles, the thread's own state, and (worker 0)
 * threads that each take one and exit. */
static void *work(void *arg)
{
	unsigned char b[64];
	vrandom_state *h[4];
	sigset_t all;
	size_t k;

	mine = vrandom_state_new();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (vrandom_reserve(2))
			fail();
		for (k = 0; k < 4; k++)
			h[k] = vrandom_state_new();
		for (k = 0; k < 4; k++) {
			if (vrandom_state_getrandom(h[k], b, sizeof b, 0) != sizeof b)
				fail();
			vrandom_state_free(h[k]);
		}
		if (vrandom_getrandom(b, sizeof b, 0) != sizeof b)
			fail();
		if (arg == worker) {
			pthread_t t;
			void *r = 0;

			if (pthread_create(&t, 0, brief, 0) || pthread_join(t, &r) || !r)
				fail();
		}
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, 0);
	vrandom_state_free(mine);
	return 0;
}

/* SIGUSR1 at each worker in turn, some 20 µs apart. */
static void *aim(void *arg)
{
	struct timespec ts = { 0, 20000 };
	unsigned long n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		pthread_kill(worker[n++ % WORKERS], SIGUSR1);
		nanosleep(&ts, 0);
	}
	return 0;
}

static void *watchdog(void *arg)
{
	struct timespec ts = { 0, 100000000 };
	int i;

	(void)arg;
	for (i = 0; i < ms / 100 + 50; i++) {   /* the run and 5 s */
		if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
			return 0;
		nanosleep(&ts, 0);
	}
	printf("deadlock: no end %ld ms after the run (%lu handlers ran)\n", i * 100 - ms, handled);
	printf("0 passed, 1 failed\n");
	fflush(stdout);
	_exit(1);
}

static void run(void)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	struct vrandom_info i;
	struct timespec ts;
	sigset_t set, old;
	pthread_t a, w;
	static vrandom_state *h[4096];
	size_t k, j, n;

	ms = scaled(1000, 100);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigaddset(&sa.sa_mask, SIGUSR1);        /* one handler at a time */
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaction(SIGUSR1, &sa, 0);
	sigaction(SIGALRM, &sa, 0);
	/* Started with every signal blocked, the helpers keep them so: the
	 * signals go to the workers (and their brief threads). */
	sigfillset(&set);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	T(pthread_create(&w, 0, watchdog, 0) == 0);
	pthread_sigmask(SIG_SETMASK, &old, 0);
	for (k = 0; k < WORKERS; k++)
		T(pthread_create(&worker[k], 0, work, k ? 0 : worker) == 0);
	pthread_sigmask(SIG_BLOCK, &set, 0);
	T(pthread_create(&a, 0, aim, 0) == 0);
	setitimer(ITIMER_REAL, &it, 0);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000;
	nanosleep(&ts, 0);
	setitimer(ITIMER_REAL, &off, 0);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(a, 0);
	for (k = 0; k < WORKERS; k++)
		pthread_join(worker[k], 0);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(w, 0);
	printf("%lu handlers ran in %ld ms\n", handled, ms);
	T(handled >= 100);
	T(bad == 0);

	/* The pool as it should be: no state in use (this thread never
	 * drew), and each free one handed out once. */
	T(vrandom_get_info(&i) == 0);
	T(i.states_in_use == 0);
	n = i.states_total < 4096 ? i.states_total : 4096;
	for (k = 0; k < n; k++)
		h[k] = vrandom_state_new();
	for (k = 0; k < n; k++)
		for (j = 0; j < k; j++)
			if (h[j] == h[k])
				fail();
	T(bad == 0);
	T(vrandom_get_info(&i) == 0);
	T(i.states_in_use == n && i.states_total == n);
	for (k = 0; k < n; k++)
		vrandom_state_free(h[k]);
	t_serves();
}

int main(void)
{
	struct vrandom_info i;

	t_init();
	if (vrandom_get_info(&i) || i.backend != VRANDOM_VDSO) {
		printf("no vDSO getrandom here (backend %s): no pool to test\n",
		       i.backend_name ? i.backend_name : "?");
		return 77;
	}
	t_case("handlers call every function while threads take and give back states", run);
	return t_finish();
}
