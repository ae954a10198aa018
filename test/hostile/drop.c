/* Pages the kernel drops: MAP_DROPPABLE memory may read back as zeros at
 * any moment (memory pressure).  Here a thread drops the pool's pages
 * itself, again and again, with MADV_DONTNEED and MADV_PAGEOUT on every
 * mapping /proc/self/smaps flags "dp", while threads draw through their
 * own states and through explicit handles they take and give back.  No
 * call may fail, no 16-byte output may come twice, and a dropped state
 * must come back reseeded.  The same again in a process under
 * mlockall(MCL_CURRENT | MCL_FUTURE).  Needs the real vDSO: exits 77
 * (skip) without it, e.g. under qemu-user or before Linux 6.11. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "../scale.h"
#include "hostile.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif

#define DRAWERS 4
#define MAXRANGES 64

struct range { uintptr_t lo, hi; };

/* The droppable mappings, from the "dp" flag in VmFlags; with locked set,
 * only those locked too ("lo"). */
static int droppable_if(struct range *r, int max, int locked)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long lo = 0, hi = 0, a, b;
	int n = 0;

	if (!f)
		return 0;
	/* A field name may start like a hex number ("FilePmdMapped"). */
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2)
			lo = a, hi = b;
		else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " dp") &&
			 (!locked || strstr(line, " lo")) && n < max)
			r[n++] = (struct range){ lo, hi };
	fclose(f);
	return n;
}

static int droppable(struct range *r, int max) { return droppable_if(r, max, 0); }

static struct range ranges[MAXRANGES];

/* Drops every droppable page; the count of madvise calls that succeeded. */
static int drop_all(void)
{
	int i, n = droppable(ranges, MAXRANGES), ok = 0;

	for (i = 0; i < n; i++) {
		ok += !madvise((void *)ranges[i].lo, ranges[i].hi - ranges[i].lo, MADV_DONTNEED);
		ok += !madvise((void *)ranges[i].lo, ranges[i].hi - ranges[i].lo, MADV_PAGEOUT);
	}
	return ok;
}

static unsigned char (*out)[16];        /* every output, for the repeat check */
static int done, drops, errors;
static long rounds;                     /* per drawer, two outputs a round */

static void *drawer(void *arg)
{
	unsigned char (*o)[16] = out + (uintptr_t)arg * 2 * rounds;
	vrandom_state *h = vrandom_state_new();
	long i;

	for (i = 0; i < rounds; i++) {
		if (vrandom_getrandom(o[2 * i], 16, 0) != 16)
			__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
		if (vrandom_state_getrandom(h, o[2 * i + 1], 16, 0) != 16)
			__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
		if (i % 1000 == 999) {  /* handles come and go while pages drop */
			vrandom_state_free(h);
			h = vrandom_state_new();
		}
	}
	vrandom_state_free(h);
	return 0;
}

static void *dropper(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		__atomic_add_fetch(&drops, drop_all(), __ATOMIC_RELAXED);
	return 0;
}

/* Outputs are sorted by index, so that a repeat can say where it came
 * from: drawer, round, and whether through the thread's state or a handle
 * (the handle's number: a new one every 1000 rounds). */
static int cmp_at(const void *a, const void *b)
{
	return memcmp(out[*(const uint32_t *)a], out[*(const uint32_t *)b], 16);
}

static void where(uint32_t at)
{
	long r = at % (2 * rounds) / 2;

	printf(" drawer %lu round %ld %s", (unsigned long)(at / (2 * rounds)), r,
	       at % 2 ? "handle" : "thread state");
	if (at % 2)
		printf(" %ld", r / 1000);
}

static void show_repeat(uint32_t a, uint32_t b)
{
	int k;

	printf("  repeated ");
	for (k = 0; k < 16; k++)
		printf("%02x", out[a][k]);
	printf(":");
	where(a);
	printf(";");
	where(b);
	printf("\n");
}

static void draw_while_dropping(void)
{
	pthread_t d[DRAWERS], t;
	size_t i, n, repeats = 0, zeros = 0;
	static const unsigned char zero[16];
	uint32_t *at;

	rounds = scaled(100000, 10000);
	n = (size_t)DRAWERS * 2 * rounds;
	out = calloc(n, 16);
	at = calloc(n, sizeof *at);
	T(out && at);
	if (!out || !at)
		return;
	for (i = 0; i < n; i++)
		at[i] = i;
	T(pthread_create(&t, 0, dropper, 0) == 0);
	for (i = 0; i < DRAWERS; i++)
		T(pthread_create(&d[i], 0, drawer, (void *)i) == 0);
	for (i = 0; i < DRAWERS; i++)
		pthread_join(d[i], 0);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, 0);
	T(errors == 0);
	T(drops > 0);
	qsort(at, n, sizeof *at, cmp_at);
	for (i = 0; i < n; i++) {
		zeros += !memcmp(out[at[i]], zero, 16);
		if (i && !memcmp(out[at[i]], out[at[i - 1]], 16) && repeats++ < 3)
			show_repeat(at[i - 1], at[i]);
	}
	T(zeros == 0);
	T(repeats == 0);
	printf("  %zu outputs, %d madvise drops, %zu repeated, %d errors\n",
	       n, drops, repeats, errors);
	free(out);
	free(at);
}

static int all_zero(const struct range *r, int n)
{
	const unsigned char *p;
	int i;

	for (i = 0; i < n; i++)
		for (p = (const void *)r[i].lo; p < (const unsigned char *)r[i].hi; p++)
			if (*p)
				return 0;
	return 1;
}

/* A dropped state reads back as zeros; the next call reseeds it from the
 * kernel (a new generation and key written into it) and still serves. */
static void reseeds(void)
{
	unsigned char a[16], b[16];
	vrandom_state *h = vrandom_state_new();
	struct range r[MAXRANGES];
	int n;

	T(vrandom_state_getrandom(h, a, sizeof a, 0) == sizeof a);
	n = droppable(r, MAXRANGES);
	T(n > 0);
	T(!all_zero(r, n));
	T(drop_all() > 0);
	T(all_zero(r, n));
	T(vrandom_state_getrandom(h, b, sizeof b, 0) == sizeof b);
	T(memcmp(a, b, sizeof a));
	T(!all_zero(r, n));
	vrandom_state_free(h);
}

static void drops_with_threads(void)
{
	reseeds();
	draw_while_dropping();
	t_serves();
}

/* mlockall(MCL_CURRENT | MCL_FUTURE).  The sanitizers make mlockall() a
 * no-op (their shadow is terabytes of address space): under them the
 * system call itself, with MCL_ONFAULT, so that pages are locked as they
 * are touched, the shadow's few among them. */
#if defined __SANITIZE_ADDRESS__ || defined __SANITIZE_THREAD__
#define SANITIZED 1
#elif defined __has_feature
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static int lock_all(void)
{
	if (SANITIZED)
		return syscall(SYS_mlockall, MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) ? -1 : 0;
	return mlockall(MCL_CURRENT | MCL_FUTURE);
}

/* VmLck of /proc/self/status, in kB: the lock taken, not only asked for. */
static long locked_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[200];
	long kb = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmLck: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void drops_under_mlockall(void)
{
	struct vrandom_info i;
	struct range r[MAXRANGES];
	int n;

	if (lock_all()) {
		char why[100];

		snprintf(why, sizeof why, "mlockall: %s", strerror(errno));
		t_skip(why);
		return;
	}
	/* Pages mapped now, under MCL_FUTURE: kernels before the fix of
	 * 2026 (vma_supports_mlock) lock them, and the budget of locked
	 * memory then pays for them; later ones leave droppable pages out.
	 * Dropping works on the pages mapped before either way. */
	T(locked_kb() > 0);
	T(vrandom_get_info(&i) == 0);
	T(vrandom_reserve(i.states_total + 2 * (4096 / i.state_stride)) == 0);
	n = droppable_if(r, MAXRANGES, 1);
	printf("  droppable mappings locked under mlockall: %d of %d\n", n, droppable(r, MAXRANGES));
	reseeds();
	draw_while_dropping();
	t_serves();
}

int main(void)
{
	struct vrandom_info i;
	struct range r[1];

	(void)vrandom_u32();    /* this thread's state maps the first page */
	if (vrandom_get_info(&i) || i.backend != VRANDOM_VDSO) {
		printf("SKIP: no vDSO getrandom here (backend %s): nothing droppable\n",
		       vrandom_get_info(&i) ? "?" : i.backend_name);
		return 77;
	}
	if (!droppable(r, 1)) {
		printf("SKIP: /proc/self/smaps flags no mapping \"dp\"\n");
		return 77;
	}
	t_init();
	t_case("pages dropped while threads and handles draw", drops_with_threads);
	t_case("pages dropped under mlockall", drops_under_mlockall);
	return t_finish();
}
