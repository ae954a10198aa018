/* The dispatcher: lazy backend choice, per-thread states, the public edge.
 *
 * Backends, best first: the vDSO with a state from the pool, the getrandom
 * system call, /dev/urandom (kernels before 3.17 only: urandom.c).  Whatever
 * the fast path cannot serve -- no state, a re-entrant call, a failed
 * mapping -- goes to the system call, which is always correct.  Large
 * requests may go to the system call by choice: threshold.c.  The hot path
 * itself is inline in rng.h; the draws that cannot fail are draw.c's. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "rng.h"
#include "uniform.h"
#include "urandom.h"

#ifdef HAVE_LINK_NAMESPACES
#include <dlfcn.h>
#include <link.h>
#endif

/* Known here, not only in vdso.c: where the architecture has no vDSO
 * getrandom, the compiler then drops the vDSO backend, the pool and the
 * per-thread states from rng.c, and a static program links none of them
 * (doc/firmware.md, Footprint). */
#ifdef VRANDOM_VDSO_SYM
#define HAVE_VDSO_GETRANDOM 1
#else
#define HAVE_VDSO_GETRANDOM 0
#define VRANDOM_VDSO_SYM 0
#define VRANDOM_VDSO_VER 0
#endif

typedef ssize_t read_fn(struct vrandom_state *, void *, size_t, unsigned int);

static read_fn read_first, vdso_read, syscall_read;

/* The backends, indexed by enum vrandom_backend: what dispatch calls and
 * what vrandom_get_info names.  Entry 0 stands for "not chosen yet": its
 * read runs setup, and setup swaps in its choice; the first ENOSYS from
 * getrandom swaps in /dev/urandom.  Where the architecture has no vDSO
 * getrandom, nothing refers to vdso_read, and the per-thread states go
 * with it. */
static const struct backend {
	const char *name;
	read_fn *read;
} backends[] = {
	{ 0, read_first },
	[VRANDOM_VDSO] = { "vdso", HAVE_VDSO_GETRANDOM ? vdso_read : syscall_read },
	[VRANDOM_SYSCALL] = { "syscall", syscall_read },
	[VRANDOM_URANDOM] = { "urandom", __vr_urandom_read },
};
static int backend;     /* enum vrandom_backend, 0 until setup chose */

/* Loaded with acquire: another thread's setup may just have stored it.
 * Every compare-and-swap here and in threshold.c has the same order,
 * acq_rel: on aarch64 each order is a helper function of its own. */
VR_INLINE int current(void)
{
	return __atomic_load_n(&backend, __ATOMIC_ACQUIRE);
}

static pthread_key_t thread_key;

/* The calling thread's opaque state for the hot path: __vr_thread_mem
 * (rng.h); its bookkeeping is the thread key's value.  &no_state
 * stands for every thread and handle the pool could not serve: they take
 * the system call. */
__thread void *__vr_thread_mem;
static __thread int thread_exiting;
static struct vrandom_state no_state;

/* ---- /dev/urandom, for kernels without getrandom ---- */

/* Only getrandom's ENOSYS leads here: a kernel without it, or a seccomp
 * filter installed after setup chose another backend.  From the first
 * such call on, what the system call would have served comes straight
 * to /dev/urandom, and get_info names it whatever setup chose.  States
 * seeded before keep serving through the vDSO until their next reseed,
 * which needs the system call. */
ssize_t __vr_switch_to_urandom(struct vrandom_state *st, void *buf, size_t len,
			       unsigned int flags)
{
	if (current() != VRANDOM_URANDOM)
		__atomic_store_n(&backend, VRANDOM_URANDOM, __ATOMIC_RELEASE);
	return __vr_urandom_read(st, buf, len, flags);
}

/* ---- the system call ---- */

static ssize_t syscall_read(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	(void)st;
	return __vr_sys_getrandom(buf, len, flags);
}

/* ---- the vDSO ---- */

static void thread_exit(void *arg)
{
	sigset_t old;

	__vr_block_signals(&old);
	__vr_thread_mem = 0;
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
		__vr_thread_mem = st->mem;
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
	return __vr_vdso_read(st->mem, buf, len, flags);
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
	__vr_threshold_fork_child();
	__vr_arena_fork_child(process_ready == 1 ? pthread_getspecific(thread_key)
						: 0);
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
 * costs a system call.  The handlers first: they cannot be taken back, and
 * serve harmlessly without the key, whereas a key taken back would link
 * pthread_key_delete into every static program. */
__attribute__((__constructor__)) static void process_setup(void)
{
	if (process_ready)
		return;
	if (foreign_namespace())
		process_ready = -1;
	else if (!pthread_atfork(__vr_arena_fork_prepare, __vr_arena_fork_parent,
				 fork_child))
		process_ready = pthread_key_create(&thread_key, thread_exit) ? -1 : 1;
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

static int vdso_setup(void)
{
	struct vr_params p;
	void *fn;

	/* Linux always passes AT_PAGESZ; without it (0) the arena refuses,
	 * and the system call serves. */
	if (!HAVE_VDSO_GETRANDOM || !(fn = __vr_vdso_getrandom(&p)))
		return 0;
	if (process_ready != 1 || __vr_arena_setup(&p, getauxval(AT_PAGESZ)))
		return 0;
	__vr_vdso_fn = fn;
	__vr_params = p;
	return 1;
}

/* The choice replaces unset only: an ENOSYS met meanwhile (the reads
 * that do not wait for setup take the system call) already chose. */
static void setup(void)
{
	enum vrandom_backend b = forced_backend();
	int unset = 0;
	int saved = errno;

	/* Another constructor may call us before ours has run. */
	process_setup();
	if (b == VRANDOM_VDSO && !vdso_setup())
		b = VRANDOM_SYSCALL;
	if (b == VRANDOM_SYSCALL &&
	    syscall_read(0, 0, 0, GRND_NONBLOCK) == -ENOSYS)
		b = VRANDOM_URANDOM;
	__vr_threshold_setup();
	errno = saved;
	__atomic_compare_exchange_n(&backend, &unset, b, 0,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
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
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
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
	return backends[current()].read(st, buf, len, flags);
}

/* ---- the public edge ---- */

/* What the hot path (__vr_read, rng.h) leaves: flags, which the
 * vDSO takes as the system call would; large requests; and all else by
 * the backend in use, loaded with acquire since another thread's setup
 * may just have stored it. */
ssize_t __vr_read_slow(struct vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	/* Only the vDSO's states have memory: without it, no vDSO read nor
	 * threshold is linked. */
	void *mem = !HAVE_VDSO_GETRANDOM ? 0 : st ? st->mem : __vr_thread_mem;
	ssize_t r;

	/* The system call's rules; the vDSO lets INSECURE|RANDOM through. */
	if ((flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) ||
	    (flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if (mem && len < __atomic_load_n(&__vr_big_from, __ATOMIC_RELAXED))
		r = __vr_vdso_read(mem, buf, len, flags);
	else if (mem)
		r = __vr_big_read(mem, buf, len, flags);
	else
		r = backends[current()].read(st, buf, len, flags);
	if (unlikely(r < 0) && r == -ENOSYS)
		r = __vr_switch_to_urandom(st, buf, len, flags);
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
	return ret(__vr_read(0, buf, len, flags));
}

ssize_t vrandom_state_getrandom(vrandom_state *st, void *buf, size_t len, unsigned int flags)
{
	return ret(__vr_read(st, buf, len, flags));
}

int vrandom_getentropy(void *buf, size_t len)
{
	ssize_t r;

	if (len > 256)
		return ret(-EIO);
	r = __vr_read(0, buf, len, 0);
	if (r != (ssize_t)len)
		return ret(vr_fill_rest(__vr_read_slow, 0, buf, len, r));
	return 0;
}

/* Handles that hold no_state. */
static size_t placeholders;

vrandom_state *vrandom_state_new(void)
{
	struct vrandom_state *st = 0;
	int saved = errno;

	wait_ready();
	if (current() == VRANDOM_VDSO)
		st = __vr_arena_get(VR_HANDLE);
	/* Without a state from the pool the handle serves by system call;
	 * vrandom_get_info counts such handles. */
	errno = saved;
	if (st)
		return st;
	__atomic_fetch_add(&placeholders, 1, __ATOMIC_RELAXED);
	return &no_state;
}

void vrandom_state_free(vrandom_state *st)
{
	if (st == &no_state)
		__atomic_fetch_sub(&placeholders, 1, __ATOMIC_RELAXED);
	else if (st)
		__vr_arena_free(st);
}

int vrandom_reserve(size_t nstates)
{
	int r = 0;

	wait_ready();
	if (current() == VRANDOM_VDSO)
		r = __vr_arena_reserve(nstates);
	return ret(r);
}

int vrandom_get_info(struct vrandom_info *info)
{
	if (!info)
		return ret(-EINVAL);
	wait_ready();
	memset(info, 0, sizeof *info);
	info->backend = current();
	info->backend_name = backends[info->backend].name;
	if (info->backend == VRANDOM_VDSO) {
		info->vdso_symbol = VRANDOM_VDSO_SYM;
		info->vdso_version = VRANDOM_VDSO_VER;
		info->state_size = __vr_params.size_of_opaque_state;
		info->mmap_prot = __vr_params.mmap_prot;
		info->mmap_flags = __vr_params.mmap_flags;
		info->syscall_min = __vr_threshold_now(__vr_thread_mem);
		info->handles_placeholder = __atomic_load_n(&placeholders,
							    __ATOMIC_RELAXED);
		__vr_arena_stats(info);
	}
	return 0;
}
