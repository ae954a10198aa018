/* The dispatcher: lazy backend choice, per-thread states, the public API.
 *
 * Backends, best first: the vDSO with a state from the pool, the getrandom
 * system call, /dev/urandom (kernels before 3.17 only).  Whatever the fast
 * path cannot serve -- no state, a re-entrant call, a failed mapping -- goes
 * to the system call, which is always correct. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "uniform.h"

#ifdef HAVE_LINK_NAMESPACES
#include <dlfcn.h>
#include <link.h>
#endif

#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM   0x0002
#define GRND_INSECURE 0x0004

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

typedef ssize_t (*read_fn)(struct vrandom_state *, void *, size_t, unsigned int);

static ssize_t read_first(struct vrandom_state *, void *, size_t, unsigned int);
static read_fn backend_read = read_first;
static enum vrandom_backend backend;

static void *vdso_fn;
static struct vr_params params;

static pthread_key_t thread_key;

/* The calling thread's opaque state, for the hot path.  The state's
 * bookkeeping is the thread key's value.  &no_state stands for every
 * thread and handle the pool could not serve: they take the system call.
 * Initial-exec keeps the lookup to one load, but musl refuses to dlopen a
 * library that uses it, so what is built for dlopen (the Lua module) goes
 * without. */
#ifdef VRANDOM_DLOPEN
static __thread void *thread_mem;
#else
static __thread void *thread_mem __attribute__((__tls_model__("initial-exec")));
#endif
static __thread int thread_exiting;
static struct vrandom_state no_state = { .owner = VR_NONE };

static const char *const backend_names[] = {
	[VRANDOM_VDSO] = "vdso", [VRANDOM_SYSCALL] = "syscall",
	[VRANDOM_URANDOM] = "urandom",
};

/* ---- /dev/urandom, for kernels without getrandom ---- */

static int urandom_ready;

/* /dev/urandom never blocks, even before the pool is seeded: wait once. */
static int urandom_wait(unsigned int flags)
{
	struct pollfd p = { .events = POLLIN };
	int r;

	if (__atomic_load_n(&urandom_ready, __ATOMIC_ACQUIRE))
		return 0;
	p.fd = open("/dev/random", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (p.fd < 0)
		return -errno;
	do
		r = poll(&p, 1, flags & GRND_NONBLOCK ? 0 : -1);
	while (r < 0 && errno == EINTR);
	r = r < 0 ? -errno : r == 0 ? -EAGAIN : 0;
	close(p.fd);
	if (!r)
		__atomic_store_n(&urandom_ready, 1, __ATOMIC_RELEASE);
	return r;
}

/* A descriptor of our own per call: one kept open could be closed by the
 * program and its number reused for a file of the program's between our
 * check and our read.  This path serves only kernels before 3.17. */
static ssize_t urandom_fill(void *buf, size_t len, unsigned int flags)
{
	int fd, r = urandom_wait(flags);
	ssize_t n;

	if (r)
		return r;
	do
		fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len);
	n = n < 0 ? -errno : n;
	close(fd);
	return n;
}

/* Only getrandom's ENOSYS leads here: a kernel without it, or a seccomp
 * filter installed after setup chose another backend.  From the first
 * such call on, what the system call would have served comes straight
 * here, and get_info names this backend whatever setup chose.  States
 * seeded before keep serving through the vDSO until their next reseed,
 * which needs the system call. */
static int urandom_serves;

static ssize_t urandom_read(struct vrandom_state *, void *, size_t, unsigned int);

static void urandom_taken(void)
{
	if (__atomic_load_n(&urandom_serves, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&urandom_serves, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&backend_read, urandom_read, __ATOMIC_RELEASE);
}

/* poll and read are cancellation points: a cancelled thread would leak
 * the descriptor. */
static ssize_t urandom_read(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	ssize_t n;
	int cs;

	(void)st;
	urandom_taken();
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	n = urandom_fill(buf, len, flags);
	pthread_setcancelstate(cs, 0);
	return n;
}

/* ---- the system call ---- */

static ssize_t syscall_read(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	(void)st;
	return __vr_syscall3(SYS_getrandom, (long)buf, (long)len, flags);
}

/* ---- the vDSO ---- */

static void thread_exit(void *arg)
{
	sigset_t old;

	__vr_block_signals(&old);
	thread_mem = 0;
	/* A later destructor or a signal handler may still call in: it must
	 * not take a state that nothing would give back. */
	thread_exiting = 1;
	if (arg != &no_state)
		__vr_arena_put(arg);
	__vr_restore_signals(&old);
}

/* Signals stay blocked until the key is set: a handler that ran in between
 * would take a state that we then overwrite. */
static __attribute__((__noinline__)) struct vrandom_state *thread_state(void)
{
	struct vrandom_state *st;
	int saved = errno;
	sigset_t old;

	if (thread_exiting)
		return &no_state;
	__vr_block_signals(&old);
	st = pthread_getspecific(thread_key);
	if (!st) {
		st = __vr_arena_get(VR_THREAD);
		if (!st)
			st = &no_state;
		if (pthread_setspecific(thread_key, st) && st != &no_state) {
			__vr_arena_put(st);
			st = &no_state;
		}
		thread_mem = st->mem;
	}
	__vr_restore_signals(&old);
	errno = saved;          /* a failed mmap is no error of the caller's */
	return st;
}

/* A state in use by an interrupted call on this thread makes the vDSO take
 * the system call itself, so a signal handler may call in at any time. */
static ssize_t vdso_read(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	if (!st && !(st = pthread_getspecific(thread_key)))
		st = thread_state();
	if (unlikely(!st->mem))
		return syscall_read(st, buf, len, flags);
	return VRANDOM_VDSO_CALL(vdso_fn, buf, len, flags, st->mem,
				 params.size_of_opaque_state);
}


/* ---- large requests: the system call where it is faster ---- */

/* Above a few hundred bytes the kernel's own ChaCha20 (the system call) can
 * beat the vDSO's one-block loop; which wins depends on the CPU.  The first
 * request of PROBE_MIN bytes or more times both at two sizes and fits a line
 * to each: a process that never asks for that much never pays. */
#define PROBE_MIN 256
#define PROBE_MAX 1024
#define PROBE_ROUNDS 4
#define CROSSOVER_LIMIT ((size_t)1 << 20)  /* beyond: too far to extrapolate */

enum { BIG_UNDECIDED, BIG_MEASURING, BIG_DECIDED };
static int big_state;
static size_t syscall_min;              /* 0: never */
/* Where read_any leaves the inline vDSO call: PROBE_MIN until decided. */
static size_t big_from = PROBE_MIN;

/* The smallest size at which the system call is faster, from the best
 * times (ns) of both at PROBE_MIN and PROBE_MAX bytes; 0: never. */
size_t __vr_crossover(const double vdso[2], const double sys[2])
{
	double d = PROBE_MAX - PROBE_MIN, bv = (vdso[1] - vdso[0]) / d,
	       bs = (sys[1] - sys[0]) / d, x;

	if (!(vdso[0] > 0 && sys[0] > 0 && vdso[1] > 0 && sys[1] > 0))
		return 0;
	if (sys[0] <= vdso[0] && sys[1] <= vdso[1])
		return PROBE_MIN;
	if (bs >= bv)           /* never catches up, or falls behind */
		return sys[1] <= vdso[1] ? PROBE_MIN : 0;
	x = PROBE_MIN + (sys[0] - vdso[0]) / (bv - bs);
	if (x <= PROBE_MIN)
		return PROBE_MIN;
	return x > CROSSOVER_LIMIT ? 0 : (size_t)x + 1;
}

static double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -1;
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#define NOT_YET ((size_t)-1)

/* Best of PROBE_ROUNDS, the two methods taking turns, into a scratch buffer
 * that is wiped after.  About 25 us on the project machine.  Both asked
 * with GRND_NONBLOCK: before the kernel's pool is seeded they would block,
 * signals blocked, inside a call the caller may have made non-blocking;
 * then it is NOT_YET, and a later request measures. */
static size_t measure(void *mem)
{
	unsigned char b[PROBE_MAX];
	double v[2] = { 0 }, sy[2] = { 0 }, t;
	static const size_t len[2] = { PROBE_MIN, PROBE_MAX };
	size_t min = 0;
	ssize_t n = 0;
	int r, i;

	for (r = 0; r < PROBE_ROUNDS; r++)
		for (i = 0; i < 2; i++) {
			t = now_ns();
			n = VRANDOM_VDSO_CALL(vdso_fn, b, len[i], GRND_NONBLOCK, mem,
					      params.size_of_opaque_state);
			if (n != (ssize_t)len[i])
				goto out;
			t = now_ns() - t;
			if (!r || t < v[i])
				v[i] = t;
			t = now_ns();
			n = syscall_read(0, b, len[i], GRND_NONBLOCK);
			if (n != (ssize_t)len[i])
				goto out;
			t = now_ns() - t;
			if (!r || t < sy[i])
				sy[i] = t;
		}
	min = __vr_crossover(v, sy);
out:
	memset(b, 0, sizeof b);
	__asm__ __volatile__("" : : "r"(b) : "memory");
	/* A failure other than an unseeded pool leaves the vDSO serving. */
	return n == -EAGAIN ? NOT_YET : min;
}

static void decide(size_t min)
{
	syscall_min = min;
	__atomic_store_n(&big_from, min ? min : (size_t)-1, __ATOMIC_RELAXED);
	__atomic_store_n(&big_state, BIG_DECIDED, __ATOMIC_RELEASE);
}

/* Signals stay blocked while measuring, so that whoever waits for the
 * measurement (vrandom_get_info) is never the thread making it. */
static int decided(void *mem)
{
	int s = __atomic_load_n(&big_state, __ATOMIC_ACQUIRE);
	sigset_t old;

	if (s == BIG_UNDECIDED && mem) {
		__vr_block_signals(&old);
		if (__atomic_compare_exchange_n(&big_state, &s, BIG_MEASURING, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
			size_t min = measure(mem);

			if (min == NOT_YET) {
				__atomic_store_n(&big_state, BIG_UNDECIDED, __ATOMIC_RELEASE);
				s = BIG_UNDECIDED;
			} else {
				decide(min);
				s = BIG_DECIDED;
			}
		}
		__vr_restore_signals(&old);
	}
	return s == BIG_DECIDED;
}

/* A request of big_from bytes or more on the vDSO path.  The system call
 * keeps its own rules: above 256 bytes a signal may cut it short, which
 * vrandom_getrandom passes on and the functions that cannot fail loop on. */
static __attribute__((__noinline__)) ssize_t big_read(void *mem, void *buf, size_t len, unsigned int flags)
{
	if (decided(mem) && syscall_min && len >= syscall_min)
		return syscall_read(0, buf, len, flags);
	return VRANDOM_VDSO_CALL(vdso_fn, buf, len, flags, mem,
				 params.size_of_opaque_state);
}

/* VRANDOM_SYSCALL_MIN=<bytes> (0: never) instead of measuring; not under
 * AT_SECURE, like VRANDOM_BACKEND.  Decimal digits only, parsed here:
 * strtoull would bring musl's stdio scanner into every static program. */
static void forced_syscall_min(void)
{
	const char *s = getauxval(AT_SECURE) ? 0 : getenv("VRANDOM_SYSCALL_MIN");
	size_t v = 0;

	if (!s || !*s)
		return;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > ((size_t)-1 - (*s - '0')) / 10)
			return;
		v = v * 10 + (*s - '0');
	}
	if (!*s)
		decide(v);
}

/* ---- setup ---- */

/* Setup runs once per process, with signals blocked.  A read that finds
 * another thread inside it takes the system call instead of waiting, and a
 * child forked in the middle starts it over: nothing waits on a setup that
 * cannot finish. */
enum { SETUP_NONE, SETUP_RUNNING, SETUP_DONE };
static int setup_state;
/* 1: the thread key and fork handlers exist; -1: they would not serve. */
static int process_ready;

static void fork_child(void)
{
	if (__atomic_load_n(&setup_state, __ATOMIC_RELAXED) == SETUP_RUNNING)
		__atomic_store_n(&setup_state, SETUP_NONE, __ATOMIC_RELAXED);
	if (__atomic_load_n(&big_state, __ATOMIC_RELAXED) == BIG_MEASURING)
		__atomic_store_n(&big_state, BIG_UNDECIDED, __ATOMIC_RELAXED);
	__vr_arena_fork_child(pthread_getspecific(thread_key));
}

/* A copy of us loaded into a link namespace of its own (dlmopen, LD_AUDIT)
 * runs on that namespace's libc: its thread keys index the same slots as
 * the program's, and the program's libc runs neither their destructors nor
 * the namespace's fork handlers.  Such a copy keeps no states and takes
 * the system call, as glibc's own getrandom does there.  dladdr1 finds no
 * object in a static program, which has one namespace only. */
static int foreign_namespace(void)
{
#ifdef HAVE_LINK_NAMESPACES
	struct link_map *map = 0;
	Lmid_t id;
	Dl_info di;

	if (!dladdr1((void *)foreign_namespace, &di, (void **)&map,
		     RTLD_DL_LINKMAP) || !map)
		return 0;
	return dlinfo(map, RTLD_DI_LMID, &id) || id != LM_ID_BASE;
#else
	return 0;
#endif
}

/* The key and the fork handlers come from a constructor: made lazily, they
 * would be lost to a child forked while another thread made them.  Neither
 * costs a system call. */
__attribute__((__constructor__)) static void process_setup(void)
{
	if (process_ready)
		return;
	if (foreign_namespace())
		process_ready = -1;
	else if (!pthread_key_create(&thread_key, thread_exit)) {
		if (pthread_atfork(__vr_arena_fork_prepare, __vr_arena_fork_parent,
				   fork_child))
			pthread_key_delete(thread_key);
		else
			process_ready = 1;
	}
}

/* ---- backend choice ---- */

static enum vrandom_backend forced_backend(void)
{
	const char *s = getauxval(AT_SECURE) ? 0 : getenv("VRANDOM_BACKEND");

	if (s && !strcmp(s, "syscall"))
		return VRANDOM_SYSCALL;
	if (s && !strcmp(s, "urandom"))
		return VRANDOM_URANDOM;
	return VRANDOM_VDSO;
}

#ifdef VRANDOM_VDSO_SYM
static int vdso_setup(void)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	size_t pagesz = getauxval(AT_PAGESZ);
	struct vr_params p = { 0 };

	if (!base)
		return 0;
	vdso_fn = __vr_vdso_sym(base, __vr_elf_extent(base),
				VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER);
	if (!vdso_fn)
		return 0;
	/* The kernel's word: if the query does not return 0, do not use it. */
	if (VRANDOM_VDSO_CALL(vdso_fn, 0, 0, 0, &p, ~0UL) != 0)
		goto unusable;
	if (!pagesz)
		pagesz = getpagesize();
	if (process_ready != 1 || __vr_arena_setup(&p, pagesz))
		goto unusable;
	params = p;
	return 1;
unusable:
	vdso_fn = 0;
	return 0;
}
#else
static int vdso_setup(void)
{
	return 0;
}
#define VRANDOM_VDSO_SYM 0
#define VRANDOM_VDSO_VER 0
#endif

static void setup(void)
{
	enum vrandom_backend b = forced_backend();
	int saved = errno;

	/* Another constructor may call us before ours has run. */
	process_setup();
	if (b == VRANDOM_VDSO && !vdso_setup())
		b = VRANDOM_SYSCALL;
	if (b == VRANDOM_SYSCALL &&
	    syscall_read(0, 0, 0, GRND_NONBLOCK) == -ENOSYS)
		b = VRANDOM_URANDOM;
	backend = b;
	forced_syscall_min();
	errno = saved;
	__atomic_store_n(&backend_read,
			 b == VRANDOM_VDSO ? vdso_read :
			 b == VRANDOM_SYSCALL ? syscall_read : urandom_read,
			 __ATOMIC_RELEASE);
}

/* 1 once the backend is chosen, 0 while another thread chooses it. */
static int ready(void)
{
	int s = __atomic_load_n(&setup_state, __ATOMIC_ACQUIRE);
	sigset_t old;

	if (s == SETUP_DONE)
		return 1;
	/* Blocked before the claim: no handler may find its own thread's
	 * setup running and wait for it. */
	__vr_block_signals(&old);
	if (s == SETUP_NONE &&
	    __atomic_compare_exchange_n(&setup_state, &s, SETUP_RUNNING, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		setup();
		__atomic_store_n(&setup_state, s = SETUP_DONE, __ATOMIC_RELEASE);
	}
	__vr_restore_signals(&old);
	return s == SETUP_DONE;
}

/* For what needs the backend itself: setup runs with signals blocked, so
 * the thread we wait for is never the one waiting. */
static void wait_ready(void)
{
	while (!ready())
		sched_yield();
}

static ssize_t read_first(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	if (!ready())
		return syscall_read(st, buf, len, flags);
	return __atomic_load_n(&backend_read, __ATOMIC_ACQUIRE)(st, buf, len, flags);
}

/* ---- the public edge ---- */

/* The hot path: state memory means the vDSO is set up, so call it without
 * going through the dispatcher, unless the request is large enough that the
 * system call may serve it faster.  All else takes backend_read, loaded with
 * acquire since another thread's setup may just have stored it.  A null st
 * stands for the calling thread's state, taken on first use. */
static inline ssize_t read_any(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	void *mem = st ? st->mem : thread_mem;
	ssize_t r;

	/* The system call's rules; the vDSO lets INSECURE|RANDOM through.
	 * Most calls pass no flags: one test for them. */
	if (unlikely(flags) &&
	    ((flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) ||
	     (flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE)))
		return -EINVAL;
	if (likely(mem) && likely(len < __atomic_load_n(&big_from, __ATOMIC_RELAXED)))
		r = VRANDOM_VDSO_CALL(vdso_fn, buf, len, flags, mem,
				      params.size_of_opaque_state);
	else if (mem)
		r = big_read(mem, buf, len, flags);
	else
		r = __atomic_load_n(&backend_read, __ATOMIC_ACQUIRE)(st, buf, len, flags);
	/* A seccomp filter may take getrandom away after we chose a backend. */
	if (unlikely(r < 0) && r == -ENOSYS)
		r = urandom_read(st, buf, len, flags);
	return r;
}

static ssize_t ret(ssize_t r)
{
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}

const char *vrandom_version(void)
{
	return PACKAGE_VERSION;
}

ssize_t vrandom_getrandom(void *buf, size_t len, unsigned int flags)
{
	return ret(read_any(0, buf, len, flags));
}

ssize_t vrandom_state_getrandom(vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	return ret(read_any(st, buf, len, flags));
}

/* The rest after a short first read, out of line: the common case makes
 * one call and keeps nothing across it. */
static __attribute__((__noinline__)) void fill_rest(struct vrandom_state *st,
						     unsigned char *p, size_t len, ssize_t r)
{
	for (;;) {
		if (r > 0) {
			p += r;
			len -= r;
			if (!len)
				return;
		} else if (r != -EINTR) {
			abort();
		}
		r = read_any(st, p, len, 0);
	}
}

/* Every byte, or abort: what the functions that cannot fail share. */
static inline void fill(struct vrandom_state *st, void *buf, size_t len)
{
	ssize_t r = read_any(st, buf, len, 0);

	if (unlikely(r != (ssize_t)len))
		fill_rest(st, buf, len, r);
}

void vrandom_state_buf(vrandom_state *st, void *buf, size_t len)
{
	fill(st, buf, len);
}

void vrandom_buf(void *buf, size_t len)
{
	fill(0, buf, len);
}

int vrandom_getentropy(void *buf, size_t len)
{
	unsigned char *p = buf;
	ssize_t r;

	if (len > 256)
		return ret(-EIO);
	while (len) {
		r = read_any(0, p, len, 0);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return ret(r);
		p += r;
		len -= r;
	}
	return 0;
}

uint32_t vrandom_u32(void)
{
	uint32_t v;

	fill(0, &v, sizeof v);
	return v;
}

uint64_t vrandom_u64(void)
{
	uint64_t v;

	fill(0, &v, sizeof v);
	return v;
}

static void draw_buf(void *ctx, void *buf, size_t len)
{
	(void)ctx;
	fill(0, buf, len);
}

/* As few bytes as the bound needs; see uniform.h. */
uint64_t vrandom_uniform(uint64_t bound)
{
	return vr_uniform(bound, draw_buf, 0);
}

double vrandom_double(void)
{
	return vr_double(draw_buf, 0);
}

vrandom_state *vrandom_state_new(void)
{
	struct vrandom_state *st = 0;
	int saved = errno;
	sigset_t old;

	wait_ready();
	if (backend == VRANDOM_VDSO) {
		__vr_block_signals(&old);
		st = __vr_arena_get(VR_HANDLE);
		__vr_restore_signals(&old);
	}
	/* Without a state from the pool the handle serves by system call. */
	errno = saved;
	return st ? st : &no_state;
}

void vrandom_state_free(vrandom_state *st)
{
	sigset_t old;

	if (!st || st == &no_state)
		return;
	__vr_block_signals(&old);
	__vr_arena_put(st);
	__vr_restore_signals(&old);
}

int vrandom_reserve(size_t nstates)
{
	sigset_t old;
	int r = 0;

	wait_ready();
	if (backend == VRANDOM_VDSO) {
		__vr_block_signals(&old);
		r = __vr_arena_reserve(nstates);
		__vr_restore_signals(&old);
	}
	return ret(r);
}

/* For vrandom_get_info, if no large request has been made yet: with the
 * thread's state, or one borrowed from the pool, so that the counters it
 * reports stay those of the program. */
static void measure_now(void)
{
	struct vrandom_state *st = 0;
	void *mem = thread_mem;
	sigset_t old;

	if (!mem) {
		__vr_block_signals(&old);
		st = __vr_arena_get(VR_HANDLE);
		__vr_restore_signals(&old);
		mem = st ? st->mem : 0;
	}
	while (mem && !decided(mem))
		sched_yield();
	if (st) {
		__vr_block_signals(&old);
		__vr_arena_put(st);
		__vr_restore_signals(&old);
	}
}

int vrandom_get_info(struct vrandom_info *info)
{
	sigset_t old;

	if (!info)
		return ret(-EINVAL);
	wait_ready();
	memset(info, 0, sizeof *info);
	info->backend = __atomic_load_n(&urandom_serves, __ATOMIC_RELAXED) ?
			VRANDOM_URANDOM : backend;
	info->backend_name = backend_names[info->backend];
	if (info->backend == VRANDOM_VDSO) {
		info->vdso_symbol = VRANDOM_VDSO_SYM;
		info->vdso_version = VRANDOM_VDSO_VER;
		info->state_size = params.size_of_opaque_state;
		info->mmap_prot = params.mmap_prot;
		info->mmap_flags = params.mmap_flags;
		measure_now();
		if (decided(0))
			info->syscall_min = syscall_min;
		__vr_block_signals(&old);
		__vr_arena_stats(info);
		__vr_restore_signals(&old);
	}
	return 0;
}
