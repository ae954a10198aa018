/* Properties of the runtime that no output shows, through the synthetic
 * vDSO: a state given back reaches its next holder wiped (the "echo" image
 * hands back what it finds in the state, then marks it), whoever gave it
 * back (a handle, an exiting thread, a thread that did not survive fork);
 * and the size from which large requests take the system call follows the
 * measurement (this program's clock_gettime() answers threshold.c's
 * timings from a script).  vrandom reads the vDSO base through
 * getauxval(), which this program defines. */
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>

#include "hostile.h"
#include "chacha.h"
#include "vdso.h"
#define FAKE_GETAUXVAL
#include "../fakevdso/fakevdso.h"

#define MARK 0xa5
#define PROBE 16

static const char *dir;

static void use_image(const char *variant)
{
	fake_base = fake_map_or_exit(dir, variant, 0);
}

/* What the echo image found in the state: 0 for zeros, MARK for a state
 * already used, -1 for anything else. */
static int found(vrandom_state *st)
{
	unsigned char b[PROBE];
	size_t i;

	memset(b, 0x11, sizeof b);
	if ((st ? vrandom_state_getrandom(st, b, sizeof b, 0) :
		  vrandom_getrandom(b, sizeof b, 0)) != sizeof b)
		return -1;
	for (i = 1; i < sizeof b; i++)
		if (b[i] != b[0])
			return -1;
	return b[0] == 0 ? 0 : b[0] == MARK ? MARK : -1;
}

static size_t in_use(void)
{
	struct vrandom_info i;

	return vrandom_get_info(&i) ? (size_t)-1 : i.states_in_use;
}

/* Every free state of the pool, taken as a handle, reads as wiped, and
 * the pool did not grow for them: they were all there. */
static void free_states_wiped(void)
{
	static vrandom_state *h[256];
	struct vrandom_info a, b;
	size_t i, n;

	T(vrandom_get_info(&a) == 0);
	n = a.states_total - a.states_in_use;
	T(n > 0 && n <= 256);
	if (n > 256)
		n = 256;
	for (i = 0; i < n; i++) {
		h[i] = vrandom_state_new();
		T(found(h[i]) == 0);
	}
	T(vrandom_get_info(&b) == 0);
	T(b.states_total == a.states_total);
	for (i = 0; i < n; i++)
		vrandom_state_free(h[i]);
}

/* Handles: each used (marked), given back, taken again. */
static void handles(void)
{
	vrandom_state *h[40];
	size_t i, before;

	use_image("echo");
	T(vrandom_reserve(40) == 0);
	before = in_use();
	for (i = 0; i < 40; i++) {
		h[i] = vrandom_state_new();
		T(found(h[i]) == 0);
		T(found(h[i]) == MARK);         /* the image shows a used state */
	}
	T(in_use() == before + 40);
	for (i = 0; i < 40; i++)
		vrandom_state_free(h[i]);
	T(in_use() == before);                  /* every one given back */
	free_states_wiped();
}

/* vrandom_reserve(n): n handles then come without the pool growing, for
 * n just above what is free (it must grow) and at what is free; with none
 * free, no reserve of SIZE_MAX. */
static void reserve(void)
{
	static vrandom_state *h[512];
	struct vrandom_info a, b;
	size_t i, k, n;

	use_image("gnu");
	for (k = 0; k < 2; k++) {
		T(vrandom_get_info(&a) == 0);
		n = a.states_total - a.states_in_use + !k;
		T(n < 512 && vrandom_reserve(n) == 0);
		T(vrandom_get_info(&a) == 0);
		for (i = 0; i < n && i < 512; i++)
			h[i] = vrandom_state_new();
		T(vrandom_get_info(&b) == 0);
		T(b.states_total == a.states_total);
		T(b.states_in_use == a.states_in_use + n);
		if (k) {
			/* None free: SIZE_MAX more states cannot be had, and
			 * must not wrap to a small mapping (ENOMEM, vrandom(3)). */
			errno = 0;
			T(vrandom_reserve((size_t)-1) == -1 && errno == ENOMEM);
			errno = 0;
			T(vrandom_reserve((size_t)-2) == -1 && errno == ENOMEM);
			T(vrandom_get_info(&a) == 0);
			T(a.states_total == b.states_total);
		}
		for (i = 0; i < n && i < 512; i++)
			vrandom_state_free(h[i]);
	}
}

static void *use_and_exit(void *arg)
{
	(void)arg;
	T(found(0) == 0);
	T(found(0) == MARK);
	return 0;
}

/* Threads: each one's state, marked, given back as it exits. */
static void threads(void)
{
	pthread_t t[8];
	size_t before, i;

	use_image("echo");
	before = in_use();
	for (i = 0; i < 8; i++)
		T(pthread_create(&t[i], 0, use_and_exit, 0) == 0);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], 0);
	T(in_use() == before);
	free_states_wiped();
}

/* A key of the program's, made after vrandom's: its destructor runs after
 * vrandom's, draws, and sets itself again for another round, as many as
 * the C library runs.  Whatever state such a draw took would outlive the
 * thread. */
static pthread_key_t late;

static void late_draw(void *v)
{
	(void)v;
	(void)vrandom_u32();
	pthread_setspecific(late, (void *)1);
}

static void *draw_and_exit(void *arg)
{
	(void)arg;
	(void)vrandom_u32();
	pthread_setspecific(late, (void *)1);
	return 0;
}

static void destructors(void)
{
	pthread_t t[4];
	size_t before, i;

	use_image("gnu");
	T(pthread_key_create(&late, late_draw) == 0);
	before = in_use();
	for (i = 0; i < 4; i++)
		T(pthread_create(&t[i], 0, draw_and_exit, 0) == 0);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], 0);
	T(in_use() == before);
}

static int go[2], ready[2];

static void *hold(void *arg)
{
	char c = 0;

	(void)arg;
	T(found(0) == 0);
	T(found(0) == MARK);
	T(write(ready[1], &c, 1) == 1);
	T(read(go[0], &c, 1) == 1);
	return 0;
}

static int child(int fd, void *arg)
{
	(void)arg;
	(void)fd;
	/* Only the forking thread exists: its own state and nothing else. */
	T(in_use() == 1);
	free_states_wiped();
	return 0;
}

/* fork: the states of the threads that do not exist in the child. */
static void forked(void)
{
	pthread_t t[4];
	char c;
	size_t i;

	use_image("echo");
	T(found(0) == 0);               /* the forking thread's own state */
	if (pipe(go) || pipe(ready))
		_exit(99);
	for (i = 0; i < 4; i++)
		T(pthread_create(&t[i], 0, hold, 0) == 0);
	for (i = 0; i < 4; i++)
		T(read(ready[0], &c, 1) == 1);
	T(in_use() == 5);
	T(t_fork_read(child, 0, &c, 0));
	for (i = 0; i < 4; i++)
		T(write(go[1], &c, 1) == 1);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], 0);
}

/* The clock threshold.c measures with: while a script is set, each pair
 * of calls is one timed call, in measure()'s order (the vDSO and the
 * system call at 256 bytes, then both at 1024, each round), and lasts
 * what the script says: the vDSO so only in the third round, the system
 * call only in the second, as a busy machine makes them: the vDSO three
 * times as long in the others, the system call twice, so that the worst
 * of each would give another threshold.  The best must be taken. */
static const double *script;
static unsigned long ticks;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	unsigned long k = ticks++, call = k / 2, round = call / 4;
	double t;

	if (!script)
		return syscall(SYS_clock_gettime, id, ts);
	t = (call + 1) * 1e6;
	if (k % 2)
		t += script[call % 4] * (round == (call % 2 ? 1 : 2) ? 1 : call % 2 ? 2 : 3);
	ts->tv_sec = (time_t)(t / 1e9);
	ts->tv_nsec = (long)(t - ts->tv_sec * 1e9);
	return 0;
}

/* The fake's pattern: the vDSO served these bytes, not the system call. */
static int from_vdso(size_t len)
{
	static unsigned char b[8192];
	size_t i;

	memset(b, 0, len);
	if (vrandom_getrandom(b, len, 0) != (ssize_t)len)
		return -1;
	for (i = 0; i < len; i++)
		if (b[i] != 0x5a)
			return looks_random(b, len) ? 0 : -1;
	return 1;
}

/* Timings (ns) of the vDSO at 256 and 1024 bytes, the system call at 256
 * and 1024, in the script's order; want: the threshold they give. */
static void timed(const double *costs, size_t lo, size_t hi)
{
	struct vrandom_info i;
	double s[4];

	use_image("gnu");
	ticks = 0;
	script = s;
	s[0] = costs[0], s[1] = costs[2], s[2] = costs[1], s[3] = costs[3];
	T(vrandom_get_info(&i) == 0);
	script = 0;
	T(i.backend == VRANDOM_VDSO);
	T(i.syscall_min >= lo && i.syscall_min <= hi);
	if (!i.syscall_min) {
		T(from_vdso(8192) == 1);
		return;
	}
	T(from_vdso(i.syscall_min - 1) == 1);
	T(from_vdso(i.syscall_min) == 0);
	T(from_vdso(8192) == 0);
}

/* The vDSO faster at both sizes and faster-growing: never. */
static void never(void)
{
	static const double c[4] = { 256, 1024, 1000, 2000 };

	timed(c, 0, 0);
}

/* The system call faster at both sizes: from the smallest probed. */
static void always(void)
{
	static const double c[4] = { 256, 1024, 100, 200 };

	timed(c, 256, 256);
}

/* 1 ns a byte against 300 ns and half that: even at 600 bytes. */
static void from_600(void)
{
	static const double c[4] = { 256, 1024, 428, 812 };

	timed(c, 600, 601);
}

/* 1 ns a byte against 2000 ns and a tenth: even at 2222 bytes. */
static void from_2222(void)
{
	static const double c[4] = { 256, 1024, 2025.6, 2102.4 };

	timed(c, 2222, 2223);
}

/* Each byte of vrandom_u32 and vrandom_u64 takes nearly every value over
 * 4000 draws (expected some 255.8 of 256; fewer than 200 has odds below
 * 10^-40), and each of a double's 53 bits is set in 30 to 70 % of them
 * (25 standard deviations): no byte left unset, no bit stuck; and
 * vrandom_uniform(1000) reaches the top of its range. */
static void every_byte(void)
{
	static unsigned char seen32[4][256], seen64[8][256];
	unsigned bits[53] = { 0 };
	size_t i, k, d32, d64, worst32 = 256, worst64 = 256;
	unsigned lo = 4000, hi = 0;
	uint64_t umax = 0;

	/* Each function in a loop of its own: a byte it leaves unwritten
	 * then holds what its own last call left, not another's bytes. */
	for (i = 0; i < 4000; i++) {
		uint32_t a = vrandom_u32();

		for (k = 0; k < 4; k++)
			seen32[k][a >> 8 * k & 255] = 1;
	}
	for (i = 0; i < 4000; i++) {
		uint64_t b = vrandom_u64();

		for (k = 0; k < 8; k++)
			seen64[k][b >> 8 * k & 255] = 1;
	}
	for (i = 0; i < 4000; i++) {
		uint64_t u = vrandom_uniform(1000);

		umax = u > umax ? u : umax;
	}
	for (i = 0; i < 4000; i++) {
		uint64_t x = (uint64_t)(vrandom_double() * 0x1p53);

		for (k = 0; k < 53; k++)
			bits[k] += x >> k & 1;
	}
	for (k = 0; k < 8; k++) {
		for (i = d32 = d64 = 0; i < 256; i++)
			d32 += k < 4 && seen32[k][i], d64 += seen64[k][i];
		if (k < 4 && d32 < worst32)
			worst32 = d32;
		if (d64 < worst64)
			worst64 = d64;
	}
	for (k = 0; k < 53; k++) {
		lo = bits[k] < lo ? bits[k] : lo;
		hi = bits[k] > hi ? bits[k] : hi;
	}
	printf("fewest values of a byte: u32 %zu, u64 %zu; a double's bits set %u to %u times of 4000\n",
	       worst32, worst64, lo, hi);
	T(worst32 >= 200);
	T(worst64 >= 200);
	T(lo >= 1200 && hi <= 2800);
	/* The largest of 4000 draws below 1000: under 990 has odds 10^-17. */
	T(umax >= 990 && umax < 1000);
}

/* The draws that cannot fail abort when the kernel does (here: a buffer
 * it cannot write, EFAULT, with no vDSO image given): none returns with
 * its bytes unwritten. */
static void aborts(void)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_CORE, &none);  /* no core file for it */
		vrandom_buf((void *)16, 64);
		_exit(0);
	}
	T(pid > 0 && waitpid(pid, &status, 0) == pid);
	T(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

/* The zero-key check itself (vdso.h), on a state of 200 bytes placed at
 * the end of a page before a PROT_NONE one.  Under 64 bytes a zero-keyed
 * answer starts at block 0 or 2 (the vDSO's second pass).  What does not
 * come from a zero key is kept, state and bytes untouched, however it
 * starts; a zero key's first 9 bytes or more are taken back and the state
 * wiped; 8 or fewer only where the state also holds the key that stream
 * leaves (bytes 32 to 47 of the next block) or reads all zero, and the
 * state is searched without a byte past its end.  The blocks come from
 * chacha.h, itself checked against RFC 7539's vectors (A.1: the zero
 * key, blocks 0 and 1). */
static void zero_key(void)
{
	static const unsigned char rfc0[16] = {
		0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86, 0xbd, 0x28,
	}, rfc1[8] = { 0x9f, 0x07, 0xe7, 0xbe, 0x55, 0x51, 0x38, 0x7a };
	size_t pg = sysconf(_SC_PAGESIZE), n, c;
	unsigned char *p = mmap(0, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *st = p + pg - 200, b[64], keep[64], zeros[200] = { 0 }, x[64], next[64];

	if (p == MAP_FAILED || mprotect(p + pg, pg, PROT_NONE))
		_exit(99);
	vr_chacha20_block(x, 0, 0);
	vr_chacha20_block(next, 0, 1);
	T(!memcmp(x, rfc0, 16) && !memcmp(next, rfc1, 8));
	__vr_params.size_of_opaque_state = 200;
	for (c = 0; c <= 2; c += 2) {
		vr_chacha20_block(x, 0, c);
		vr_chacha20_block(next, 0, c + 1);
		for (n = 1; n <= 64; n *= 2) {
			/* The block's first byte, then others: kept. */
			memset(st, 0x33, 200);
			memset(b, 0x11, n);
			b[0] = x[0];
			memcpy(keep, b, n);
			T(__vr_zero_keyed(st, b, n, 0, n) == (ssize_t)n);
			T(!memcmp(b, keep, n) && st[0] == 0x33 && st[199] == 0x33);
			/* The stream's first bytes (16 at most compared). */
			memcpy(b, x, n < 16 ? n : 16);
			memcpy(keep, b, n);
			if (n <= 8) {
				T(__vr_zero_keyed(st, b, n, 0, n) == (ssize_t)n);
				T(!memcmp(b, keep, n) && st[0] == 0x33 && st[199] == 0x33);
				/* The key it leaves, in the state's last 16 bytes. */
				memcpy(st + 184, next + 32, 16);
				T(__vr_zero_keyed(st, b, n, 0, n) == (ssize_t)n);
				T(!memcmp(st, zeros, 200));
				T(n < 8 || memcmp(b, keep, n));         /* new bytes: 2^-64 */
				/* A state dropped since: all zero. */
				memcpy(b, keep, n);
				T(__vr_zero_keyed(st, b, n, 0, n) == (ssize_t)n);
				T(n < 8 || memcmp(b, keep, n));
				continue;
			}
			if (n >= 64 && c)
				continue;       /* 64 bytes start at block 0 or from 2 on: check_vdso */
			T(__vr_zero_keyed(st, b, n, 0, n) == (ssize_t)n);
			T(!memcmp(st, zeros, 200));
			T(memcmp(b, keep, n));
		}
	}
	munmap(p, 2 * pg);
}

int main(int argc, char **argv)
{
	t_init();
	dir = argc > 1 ? argv[1] : FAKEVDSO_DIR;
	t_case("every byte of u32 and u64, every bit of a double varies", every_byte);
	t_case("vrandom_buf aborts when the kernel fails", aborts);
	t_case("the zero-key check: kept, taken back, searched within the state", zero_key);
	t_case("handles given back reach the next holder wiped", handles);
	t_case("vrandom_reserve(n): n handles without growing", reserve);
	t_case("states of exited threads reach the next holder wiped", threads);
	t_case("a destructor after vrandom's draws: no state outlives the thread", destructors);
	t_case("states of threads lost to fork come back wiped in the child", forked);
	t_case("the vDSO faster everywhere: never the system call", never);
	t_case("the system call faster everywhere: from 256 bytes", always);
	t_case("even at 600 bytes: the system call from there", from_600);
	t_case("even at 2222 bytes: the system call from there", from_2222);
	return t_finish();
}
