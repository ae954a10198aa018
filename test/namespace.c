/* libvrandom.so in a link namespace of its own: dlmopen(LM_ID_NEWLM), as
 * plugin hosts and glibc's own tst-getrandom2 do, and LD_AUDIT modules.  That namespace has a libc
 * of its own, whose thread keys index the same per-thread slots as the
 * program's and whose key destructors the program's libc never runs.  The
 * copy loaded there must not leak a state per thread, nor take the
 * program's thread-specific data for its own.
 *
 * Not linked with libvrandom: the program's first key must get the index
 * that vrandom's key has inside the namespace, as in the reported crash.
 * Each case runs in a fresh child, so a crash counts as a failure. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "hostile.h"

#if defined __SANITIZE_THREAD__ || T_ASAN
#define T_SANITIZED 1
#else
#define T_SANITIZED 0
#endif

struct api {
	ssize_t (*getrandom)(void *, size_t, unsigned int);
	int (*get_info)(struct vrandom_info *);
	vrandom_state *(*state_new)(void);
	void (*state_free)(vrandom_state *);
	ssize_t (*state_getrandom)(vrandom_state *, void *, size_t, unsigned int);
};

static struct api ns;

static void bind(struct api *a, void *h)
{
#define SYM(f) (*(void **)&a->f = dlsym(h, "vrandom_" #f))
	if (!SYM(getrandom) || !SYM(get_info) || !SYM(state_new) ||
	    !SYM(state_free) || !SYM(state_getrandom)) {
		printf("dlsym: %s\n", dlerror());
		_exit(99);
	}
#undef SYM
}

/* lmid: LM_ID_NEWLM for a namespace of its own, else plain dlopen. */
static struct api load(Lmid_t lmid)
{
	void *h = lmid == LM_ID_NEWLM ? dlmopen(lmid, VRANDOM_SO, RTLD_NOW) :
		  dlopen(VRANDOM_SO, RTLD_NOW);
	struct api a;

	if (!h) {
		printf("%s: %s\n", lmid == LM_ID_NEWLM ? "dlmopen" : "dlopen", dlerror());
		_exit(99);
	}
	bind(&a, h);
	return a;
}

static struct vrandom_info info(const struct api *a)
{
	struct vrandom_info i;

	T(a->get_info(&i) == 0);
	return i;
}

/* ---- the leak: every thread draws once, and is joined ---- */

enum { NTHREADS = 1000, BATCH = 50, OUT = 16 };
static unsigned char outs[NTHREADS][OUT];

static void *draw_once(void *arg)
{
	unsigned char *out = arg;

	T(ns.getrandom(out, OUT, 0) == OUT);
	return 0;
}

static int cmp_out(const void *a, const void *b)
{
	return memcmp(a, b, OUT);
}

static void run_threads(void)
{
	pthread_t t[BATCH];
	int i, j;

	for (i = 0; i < NTHREADS; i += BATCH) {
		for (j = 0; j < BATCH; j++)
			if (pthread_create(&t[j], 0, draw_once, outs[i + j])) {
				T(!"pthread_create");
				_exit(1);
			}
		for (j = 0; j < BATCH; j++)
			pthread_join(t[j], 0);
	}
	qsort(outs, NTHREADS, OUT, cmp_out);
	for (i = 1; i < NTHREADS; i++)
		if (!memcmp(outs[i - 1], outs[i], OUT))
			break;
	T(i == NTHREADS);       /* no two threads got the same bytes */
}

static void leak(void)
{
	size_t before;

	ns = load(LM_ID_NEWLM);
	before = info(&ns).states_in_use;
	run_threads();
	T(info(&ns).states_in_use <= before);
}

/* ---- the crash: a thread key of the program's own, set before the call ---- */

static pthread_key_t program_key;

static void *draw_with_key(void *arg)
{
	unsigned char data[64], copy[64], out[64];
	int i;

	(void)arg;
	for (i = 0; i < 64; i++)
		data[i] = copy[i] = (unsigned char)(0xa5 ^ i);
	T(pthread_setspecific(program_key, data) == 0);
	memset(out, 0, sizeof out);
	T(ns.getrandom(out, sizeof out, 0) == sizeof out);
	T(looks_random(out, sizeof out));
	T(!memcmp(data, copy, sizeof data));
	T(pthread_getspecific(program_key) == data);
	return 0;
}

static void foreign_key(void)
{
	pthread_t t[8];
	int i;

	ns = load(LM_ID_NEWLM);
	T(pthread_key_create(&program_key, 0) == 0);
	draw_with_key(0);       /* the calling thread first */
	for (i = 0; i < 8; i++)
		T(pthread_create(&t[i], 0, draw_with_key, 0) == 0);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], 0);
}

/* ---- what each namespace uses ---- */

static void handles_and_fork(void)
{
	unsigned char *shared = mmap(0, 64, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned char a[64];
	vrandom_state *st;
	pid_t pid;
	int status;

	ns = load(LM_ID_NEWLM);
	T(shared != MAP_FAILED);
	st = ns.state_new();
	T(st != 0);
	memset(a, 0, sizeof a);
	T(ns.state_getrandom(st, a, sizeof a, 0) == sizeof a);
	T(looks_random(a, sizeof a));
	ns.state_free(st);
	T(ns.getrandom(a, sizeof a, 0) == sizeof a);
	/* The program's fork does not run the namespace's fork handlers. */
	pid = fork();
	if (!pid)
		_exit(ns.getrandom(shared, 64, 0) != 64);
	T(ns.getrandom(a, sizeof a, 0) == sizeof a);
	T(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status));
	T(looks_random(shared, 64) && memcmp(a, shared, 64));
}

/* The initial namespace keeps the vDSO and gives states back at thread
 * exit; a secondary one takes the system call, as glibc's own getrandom
 * does there. */
static void backends(void)
{
	struct api base = load(LM_ID_BASE);
	struct vrandom_info b = info(&base), n;
	size_t before = b.states_in_use;

	ns = load(LM_ID_NEWLM);
	n = info(&ns);
	printf("backends: initial namespace %s, secondary %s\n",
	       b.backend_name, n.backend_name);
	T(n.backend == VRANDOM_SYSCALL || n.backend == VRANDOM_URANDOM);
	T(n.states_in_use == 0 && n.arena_pages == 0);
	if (b.backend != VRANDOM_VDSO)
		return;         /* no vDSO getrandom here: nothing more to compare */
	ns = base;
	run_threads();
	T(info(&base).states_in_use <= before);
}

/* An audit module's namespace: LD_AUDIT loads test/audit.so, linked with
 * libvrandom.so, into this program run again; it reports on a pipe. */
static void audit(void)
{
	char buf[128] = "", name[16];
	int fd[2], status, random = 0;
	ssize_t len = -1;
	pid_t pid;

	T(pipe(fd) == 0);
	pid = fork();
	if (!pid) {
		char n[16];

		snprintf(n, sizeof n, "%d", fd[1]);
		setenv("VRANDOM_AUDIT_FD", n, 1);
		setenv("LD_AUDIT", VRANDOM_AUDIT, 1);
		setenv("LD_LIBRARY_PATH", VRANDOM_LIBDIR, 1);
		execl("/proc/self/exe", "namespace", "--audited", (char *)0);
		_exit(127);
	}
	close(fd[1]);
	T(read(fd[0], buf, sizeof buf - 1) > 0);
	T(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status));
	printf("audit module: %s", buf);
	T(sscanf(buf, "%15s %zd %d", name, &len, &random) == 3);
	T(!strcmp(name, "syscall") || !strcmp(name, "urandom"));
	T(len == 32 && random == 1);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--audited"))
		return 0;       /* the audit module has already reported */
	if (T_SANITIZED) {
		/* The sanitizer runtimes do not follow a library into another
		 * namespace. */
		printf("SKIP: dlmopen under a sanitizer\n");
		return 77;
	}
	if (access(VRANDOM_SO, R_OK)) {
		printf("SKIP: no %s (a static-only build)\n", VRANDOM_SO);
		return 77;
	}
	t_init();
	t_case("1000 threads leave no state behind", leak);
	t_case("a program key set before the call", foreign_key);
	t_case("handles and fork in the namespace", handles_and_fork);
	t_case("initial and secondary namespace", backends);
	if (!access(VRANDOM_AUDIT, R_OK))
		t_case("an LD_AUDIT module's namespace", audit);
	else
		t_skip(VRANDOM_AUDIT " not built: the LD_AUDIT namespace");
	return t_finish();
}
