/* A million explicit states, as a server with a coroutine each would make:
 * every handle a state of its own in a few mappings, the program still able
 * to map memory and start a thread, the pool given back when they end; and
 * when the pool cannot grow, the handles on the system call are counted. */
#include <pthread.h>
#include <sys/resource.h>

#include "hostile.h"
#include "../scale.h"

static struct vrandom_info info(void)
{
	struct vrandom_info i;

	if (vrandom_get_info(&i))
		_exit(99);
	return i;
}

static long mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	if (!f)
		_exit(99);
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The pages of address space the process has mapped. */
static long mapped(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long n = -1;

	if (!f || fscanf(f, "%ld", &n) != 1)
		_exit(99);
	fclose(f);
	return n;
}

static int cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;

	return (x > y) - (x < y);
}

/* Every handle a state of its own: the placeholder is one shared pointer. */
static int distinct(vrandom_state **h, size_t n)
{
	vrandom_state **s = malloc(n * sizeof *s);
	size_t i;
	int ok = 1;

	if (!s)
		_exit(99);
	memcpy(s, h, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp);
	for (i = 1; i < n; i++)
		ok &= s[i] != s[i - 1];
	free(s);
	return ok;
}

static int draw(vrandom_state **h, size_t from, size_t to)
{
	unsigned char b[16], all[64 * 16];
	size_t i;
	int ok = 1;

	for (i = from; i < to; i++) {
		ok &= vrandom_state_getrandom(h[i], b, sizeof b, 0) == sizeof b;
		memcpy(all + (i - from) % 64 * 16, b, 16);
		if ((i - from) % 64 == 63)
			ok &= looks_random(all, sizeof all);
	}
	return ok;
}

static void *thread(void *arg)
{
	unsigned char b[16];

	return vrandom_getrandom(b, sizeof b, 0) == sizeof b ? arg : 0;
}

static void million(void)
{
	size_t n = scaled(1000000, 10000), i, keep = n / 8;
	struct vrandom_info before = info(), mid, after;
	vrandom_state **h = malloc(n * sizeof *h);
	long m0, m1, vm;
	pthread_t t;
	void *r = 0;
	char *p;

	if (!h)
		_exit(99);
	m0 = mappings();
	for (i = 0; i < n; i++)
		h[i] = vrandom_state_new();
	T(draw(h, 0, n));
	m1 = mappings();
	mid = info();
	printf("%zu states: %ld new mappings, %zu pages\n", n, m1 - m0, mid.arena_pages);
	/* 40 on x86_64's 4 KiB pages; a page at a time reached
	 * vm.max_map_count (65,530) at 687,855 states. */
	T(m1 - m0 <= 64);
	T(mid.handles_placeholder == 0);
	T(mid.states_in_use == before.states_in_use + n);
	T(distinct(h, n));
	/* The program can still map memory and start a thread. */
	p = malloc(1 << 20);
	T(p != 0);
	if (p)
		memset(p, 1, 1 << 20);
	free(p);
	T(pthread_create(&t, 0, thread, &n) == 0 && pthread_join(t, &r) == 0 && r);
	/* Most go: the chunks that fall free go back, the rest still serve.
	 * A build for size keeps its peak (arena.h). */
	vm = mapped();
	for (i = 0; i < n - keep; i++)
		vrandom_state_free(h[i]);
	T(draw(h, n - keep, n));
#ifndef __OPTIMIZE_SIZE__
	T(info().states_total < mid.states_total);
#endif
	for (; i < n; i++)
		vrandom_state_free(h[i]);
	/* They come back: the free list holds only states still mapped. */
	for (i = 0; i < keep; i++)
		h[i] = vrandom_state_new();
	T(draw(h, 0, keep));
	T(distinct(h, keep) && info().handles_placeholder == 0);
	for (i = 0; i < keep; i++)
		vrandom_state_free(h[i]);
	after = info();
	printf("after: %zu pages, %zu states, %ld mappings more than before\n",
	       after.arena_pages, after.states_total, mappings() - m0);
	T(after.states_in_use == before.states_in_use);
#ifndef __OPTIMIZE_SIZE__
	/* All but the first chunk, a page; its pages unmapped, at least (a
	 * sanitizer's allocator may keep what malloc had). */
	T(after.states_total == (size_t)sysconf(_SC_PAGESIZE) / after.state_stride);
	T(vm - mapped() >= (long)(mid.arena_pages - after.arena_pages));
#else
	T(after.states_total == mid.states_total);
	(void)vm;
#endif
	free(h);
}

/* The pool cannot grow: the handles it could not serve are counted. */
static void exhausted(void)
{
	enum { N = 2000 };
	static vrandom_state *h[N];
	struct rlimit rl = { 0, 0 };
	size_t held = 0, i;

	/* Below current use: every new mapping fails. */
	getrlimit(RLIMIT_AS, &rl);
	rl.rlim_cur = 4096;
	if (setrlimit(RLIMIT_AS, &rl))
		_exit(99);
	for (i = 0; i < N; i++)
		h[i] = vrandom_state_new();
	for (i = 0; i < N; i++)
		held += h[i] == h[N - 1];
	T(held > 0 && held < N);
	T(info().handles_placeholder == held);
	T(draw(h, 0, N));
	for (i = 0; i < N; i++)
		vrandom_state_free(h[i]);
	T(info().handles_placeholder == 0);
}

int main(void)
{
	vrandom_state *st;

	st = vrandom_state_new();
	if (info().backend != VRANDOM_VDSO) {
		printf("SKIP: no vDSO getrandom here (backend %s)\n", info().backend_name);
		return 77;
	}
	vrandom_state_free(st);
	t_init();
	t_case("a million states", million);
	t_case("the pool cannot grow", exhausted);
	return t_finish();
}
