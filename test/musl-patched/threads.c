/* The pool of a patched musl under threads and forks: 2000 short-lived
 * threads leave it bounded (their states come back), 2000 threads at once
 * give their pages back when they end (both, and the forks, scaled by
 * VRANDOM_TEST_SCALE: in an emulated machine a thread costs milliseconds),
 * every thread and every fork child draws its own bytes, forks of a
 * threaded parent give the vanished threads' states back in the child
 * without growing the pool, the child of a bare _Fork draws without
 * growing it while other threads take and give back states, and the
 * states are padded to the architecture's cache line. */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <sys/random.h>

#define HOSTILE_LIBC
#include "hostile.h"
#include "pool.h"
#include "scale.h"

#define THREADS 2000
#define BURST 2000
#define WAVE 8
#define KEY 32

static unsigned char (*keys)[KEY];
static long threads, forks_n, burst_n, bare_forks_n;
static int per_page;  /* states a page, as full_pool counts them */

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, KEY);
}

/* n keys, all different (and none all zero) */
static int distinct(unsigned char (*k)[KEY], size_t n)
{
	static const unsigned char zero[KEY];
	size_t i;

	qsort(k, n, KEY, cmp);
	for (i = 0; i < n; i++)
		if (!memcmp(k[i], zero, KEY) || (i && !memcmp(k[i], k[i - 1], KEY)))
			return 0;
	return 1;
}

static void *draw(void *arg)
{
	unsigned char *k = arg;

	return (void *)(long)(getrandom(k, KEY, 0) != KEY);
}

static long spawn(unsigned char (*k)[KEY], int n)
{
	pthread_t t[WAVE];
	long bad = 0;
	void *r;
	int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, draw, k[i]))
			_exit(99);
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	return bad;
}

static void waves(void)
{
	long bad = 0, kb;
	int i;

	for (i = 0; i + WAVE <= threads; i += WAVE)
		bad += spawn(keys + i, WAVE);
	kb = droppable_kb();
	printf("droppable memory after %d threads, %d at a time: %ld kB\n",
	       i, WAVE, kb);
	T(bad == 0);
	T(distinct(keys, i));
	/* 9 threads at most at once: their states fit in a page or two. */
	T(vdso_expected() ? kb > 0 && kb <= 2 * page_kb() : kb == 0);
}

static int stop;

static void *spin(void *arg)
{
	unsigned char b[16];

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		if (getrandom(b, sizeof b, 0) != sizeof b)
			return (void *)1;
	return 0;
}

#define FORKS 40

/* In the child: its own key, two threads of its own with keys of their
 * own, and no pool growth: the three vanished spinners' states serve. */
static int child(int fd, void *arg)
{
	unsigned char k[3][KEY];
	long kb = *(long *)arg;
	int ok;

	ok = getrandom(k[0], KEY, 0) == KEY;
	ok &= spawn(k + 1, 2) == 0;
	ok &= write(fd, k, sizeof k) == sizeof k;
	ok &= droppable_kb() == kb;
	return !ok;
}

static void forks(void)
{
	pthread_t t[3];
	long kb, bad = 0;
	void *r;
	int i, ok = 1;

	if (getrandom(keys[0], KEY, 0) != KEY)
		ok = 0;
	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], 0, spin, 0))
			_exit(99);
	/* Every spinner holds its state before the first fork. */
	usleep(100000);
	kb = droppable_kb();
	for (i = 0; i < forks_n; i++)
		ok &= t_fork_read(child, &kb, keys[1 + 3 * i], 3 * KEY);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 3; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("droppable memory in a 4-thread parent: %ld kB, after %ld forks: %ld kB\n",
	       kb, forks_n, droppable_kb());
	T(ok);
	T(bad == 0);
	T(droppable_kb() == kb);
	T(distinct(keys, 1 + 3 * forks_n));
}

/* Threads that draw, say so, and hold their state until told to end. */
static int hold_fd;
static pthread_barrier_t all_drawn;

static void *hold(void *arg)
{
	unsigned char k[KEY];
	long bad = getrandom(k, KEY, 0) != KEY;
	char c;

	sem_post(arg);
	if (read(hold_fd, &c, 1) < 0)
		bad = 1;
	return (void *)bad;
}

static void *draw_together(void *arg)
{
	unsigned char k[KEY];
	long bad = getrandom(k, KEY, 0) != KEY;

	(void)arg;
	pthread_barrier_wait(&all_drawn);
	pthread_barrier_wait(&all_drawn);
	return (void *)bad;
}

/* Three threads holding states at once in a child whose parent's pool was
 * full: only the parent's vanished threads' states, given back at the
 * fork, can serve them without a new mapping. */
static int full_child(long kb)
{
	pthread_t t[3];
	long bad = 0, now;
	void *r;
	int i;

	pthread_barrier_init(&all_drawn, 0, 4);
	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], 0, draw_together, 0))
			return 99;
	pthread_barrier_wait(&all_drawn);
	now = droppable_kb();
	pthread_barrier_wait(&all_drawn);
	for (i = 0; i < 3; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("child of a full pool, 3 new threads: %ld kB\n", now);
	return bad || now != kb;
}

#define HOLDERS 1024

/* The cache line of each architecture, as the patch pads to it. */
#if defined __x86_64__
#define LINE 64
#elif defined __aarch64__ || defined __powerpc64__
#define LINE 128
#elif defined __s390x__
#define LINE 256
#else
#define LINE 64
#endif

/* States are carved from the start of a page at a fixed stride, per to a
 * page, so the stride lies in (page/(per+1), page/per].  No two states
 * share a line only if the stride is a multiple of the line: one must lie
 * in that range. */
static int own_lines(int per)
{
	long page = sysconf(_SC_PAGESIZE), m = page / per / LINE * LINE;

	printf("%d states in a %ld-byte page: stride %ld..%ld, %d-byte lines: %s\n",
	       per, page, page / (per + 1) + 1, page / per, LINE,
	       m > 0 && m * (per + 1) > page ? "a whole number of lines" : "lines shared");
	return m > 0 && m * (per + 1) > page;
}

static void full_pool(void)
{
	static pthread_t t[HOLDERS];
	unsigned char k[KEY];
	int p[2], n, per = 0, status;
	long kb, grown, bad = 0;
	sem_t drawn;
	pid_t pid;
	void *r;

	if (pipe(p) || sem_init(&drawn, 0, 0))
		_exit(99);
	hold_fd = p[0];
	T(getrandom(k, KEY, 0) == KEY);
	kb = droppable_kb();
	if (!vdso_expected()) {
		T(kb == 0);
		return;
	}
	/* Add holders until a second page is mapped: the first held per
	 * states; then as many more as fill the second one too. */
	for (n = 0; n < HOLDERS && (!per || 1 + n < 2 * per); n++) {
		if (pthread_create(&t[n], 0, hold, &drawn))
			_exit(99);
		sem_wait(&drawn);
		grown = droppable_kb();
		if (!per && grown > kb)
			per = 1 + n;
	}
	kb = droppable_kb();
	printf("full pool: %d states a page, %d threads hold them, %ld kB\n",
	       per, 1 + n, kb);
	T(per > 0 && 1 + n == 2 * per);
	T(own_lines(per));
	per_page = per;
	fflush(0);
	pid = fork();
	if (pid < 0)
		_exit(99);
	if (!pid)
		_exit(full_child(kb));
	T(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	  WEXITSTATUS(status) == 0);
	close(p[1]);
	while (n--) {
		pthread_join(t[n], &r);
		bad += (long)r;
	}
	T(bad == 0);
}

/* 2000 threads hold a state at once (at a scale, never fewer than fill
 * five pages), then end: the pages whose states are all free again go
 * back, all but a page or two. */
static void burst(void)
{
	static pthread_t t[BURST];
	pthread_attr_t a;
	unsigned char k[KEY];
	long peak, after, maps, bad = 0, want = burst_n;
	int p[2], n, made;
	sem_t drawn;
	void *r;

	/* Five pages' worth of states and one more fill more than four. */
	if (want <= 5 * per_page)
		want = 5 * per_page < BURST ? 5 * per_page + 1 : BURST;
	if (pipe(p) || sem_init(&drawn, 0, 0) || pthread_attr_init(&a) ||
	    pthread_attr_setstacksize(&a, 65536))
		_exit(99);
	hold_fd = p[0];
	T(getrandom(k, KEY, 0) == KEY);
	for (n = 0; n < want; n++) {
		if (pthread_create(&t[n], &a, hold, &drawn))
			break;
		sem_wait(&drawn);
	}
	made = n;
	peak = droppable_kb();
	close(p[1]);
	while (n-- > 0) {
		pthread_join(t[n], &r);
		bad += (long)r;
	}
	after = droppable(&maps);
	printf("%d threads at once: %ld kB droppable; after they ended: %ld kB in %ld mappings\n",
	       made, peak, after, maps);
	T(made == want);
	T(bad == 0);
	if (!vdso_expected()) {
		T(peak == 0 && after == 0);
		return;
	}
	/* 2001 states, 21 a 4 KiB page on x86_64, fill some hundred kB; at
	 * a scale, five pages' worth and one more. */
	T(peak > 4 * page_kb());
	T(after > 0 && after <= 2 * page_kb() && maps <= 2);
}

/* Threads that come and go, each drawing once: the pool lock is taken
 * and released all the time. */
static void *churn(void *arg)
{
	pthread_t t;
	unsigned char k[KEY];
	void *r;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (pthread_create(&t, 0, draw, k))
			return (void *)1;
		pthread_join(t, &r);
		if (r)
			return r;
	}
	return 0;
}

#define BARE_FORKS 50

/* The child of a bare _Fork: no atfork handler ran, and another thread
 * may have been inside the pool (its lock is __abort_lock, which _Fork
 * holds across the fork, so the child finds the pool whole).  The child
 * of a threaded parent may only make async-signal-safe calls, so it
 * draws but starts no thread: musl's pthread_join waits on a lock
 * (vmlock, which fork() resets and _Fork does not) that a thread ending
 * at the fork may hold for ever.  The fork cases above show new threads
 * taking back the vanished threads' states; here the child's draws are
 * its own and map nothing new. */
static int bare_child(void)
{
	unsigned char k[2][KEY];
	long kb = droppable_kb(), maps, maps_after;
	int ok;

	droppable(&maps);
	ok = getrandom(k[0], KEY, 0) == KEY;
	ok &= getrandom(k[1], KEY, 0) == KEY;
	ok &= memcmp(k[0], k[1], KEY) != 0;
	ok &= droppable(&maps_after) <= kb && maps_after <= maps;
	return !ok;
}

static void bare_fork(void)
{
	pthread_t t[2];
	unsigned char k[KEY];
	int i, status, bad_children = 0;
	long bad = 0;
	void *r;
	pid_t pid;

	T(getrandom(k, KEY, 0) == KEY);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], 0, churn, 0))
			_exit(99);
	for (i = 0; i < bare_forks_n; i++) {
		pid = _Fork();
		if (pid < 0)
			_exit(99);
		if (!pid)
			_exit(bare_child());
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad_children++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("%ld bare _Fork children while 2 threads start drawing threads: %d failed\n",
	       bare_forks_n, bad_children);
	T(bad_children == 0);
	T(bad == 0);
}

int main(void)
{
	t_init();
	threads = scaled(THREADS, 10 * WAVE);
	forks_n = scaled(FORKS, 4);
	burst_n = scaled(BURST, 1);
	bare_forks_n = scaled(BARE_FORKS, 5);
	keys = mmap(0, THREADS * KEY, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (keys == MAP_FAILED)
		return 99;
	t_case("threads in waves of 8", waves);
	t_case("forks of a 4-thread parent", forks);
	t_case("a fork of a full pool", full_pool);
	t_case("threads at once", burst);
	t_case("bare _Fork while threads come and go", bare_fork);
	return t_finish();
}
