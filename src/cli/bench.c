/* vrandom bench: the tool's door to the benchmark engine in bench/, and
 * the bulk table, which times the tool's own `stream`. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "vrandom.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* What bulk_run times, with stdout on /dev/null: this tool's stream on
 * `threads` threads, /dev/urandom read here (0), `openssl rand` (-1). */
static _Noreturn void bulk_child(int threads, unsigned long long n)
{
	char count[24], nthreads[12];
	unsigned char buf[1 << 16];
	ssize_t r;
	int fd;

	snprintf(count, sizeof count, "%llu", n);
	snprintf(nthreads, sizeof nthreads, "%d", threads);
	if ((fd = open("/dev/null", O_WRONLY)) < 0 || dup2(fd, 1) < 0)
		_exit(1);
	if (threads > 0)
		execl("/proc/self/exe", "vrandom", "stream", count, "--threads", nthreads,
		      (char *)0);
	if (threads < 0)
		execlp("openssl", "openssl", "rand", "-out", "/dev/null", count, (char *)0);
	if (threads || (fd = open("/dev/urandom", O_RDONLY)) < 0)
		_exit(1);
	for (; n; n -= r)
		if ((r = read(fd, buf, n < sizeof buf ? n : sizeof buf)) <= 0 ||
		    write(1, buf, r) != r)
			_exit(1);
	_exit(0);
}

/* bulk_child's seconds, or -1 if it did not end with status 0. */
static double bulk_run(int threads, unsigned long long n)
{
	double t = now_s();
	int status;
	pid_t pid;

	fflush(0);
	if ((pid = fork()) < 0)
		return -1;
	if (!pid)
		bulk_child(threads, n);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	t = now_s() - t;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? t : -1;
}

static int have_openssl(void)
{
	return !system("openssl version >/dev/null 2>&1");
}

/* `vrandom stream` on 1, 2, 4 ... threads up to the online CPUs (and 16),
 * /dev/urandom, and `openssl rand` where it is installed: best of three,
 * taking turns, with the ratio to openssl's time (else /dev/urandom's). */
static void bulk(FILE *out, int quick)
{
	unsigned long long n = quick ? 32ULL << 20 : 256ULL << 20;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int rows[8], nrows = 0, i, round;
	double best[8], t, base;

	for (i = 1; i <= 16 && (i == 1 || i <= cpus); i *= 2)
		rows[nrows++] = i;
	rows[nrows++] = 0;
	if (have_openssl())
		rows[nrows++] = -1;
	for (i = 0; i < nrows; i++)
		best[i] = -1;
	for (round = 0; round < 3; round++)
		for (i = 0; i < nrows; i++)
			if ((t = bulk_run(rows[i], n)) >= 0 && (best[i] < 0 || t < best[i]))
				best[i] = t;
	base = best[nrows - 1];
	fprintf(out, "\nbulk, %llu MiB to /dev/null, best of 3 (%ld CPUs online)\n",
		n >> 20, cpus);
	fprintf(out, "%-28s %9s %9s %10s\n", "", "seconds", "MiB/s",
		rows[nrows - 1] < 0 ? "/openssl" : "/urandom");
	for (i = 0; i < nrows; i++) {
		char name[40];

		if (rows[i] > 0)
			snprintf(name, sizeof name, "vrandom stream, %d thread%s",
				 rows[i], rows[i] > 1 ? "s" : "");
		fprintf(out, "%-28s", rows[i] > 0 ? name : rows[i] ? "openssl rand" : "/dev/urandom");
		if (best[i] < 0) {
			fprintf(out, " %9s %9s %10s\n", "-", "-", "-");
			continue;
		}
		fprintf(out, " %9.3f %9.0f", best[i], (n >> 20) / best[i]);
		if (base > 0)
			fprintf(out, " %9.2fx\n", best[i] / base);
		else
			fprintf(out, " %10s\n", "-");
	}
	if (rows[nrows - 1] >= 0)
		fprintf(out, "(openssl not installed: its row left out)\n");
	fprintf(out, "target: stream on the online CPUs <= 1.0x openssl rand\n");
}

/* The mappings of this process, or its resident bytes: /proc's counts. */
static long proc_count(int maps)
{
	FILE *f = fopen(maps ? "/proc/self/maps" : "/proc/self/statm", "r");
	long n = 0, size;
	int c;

	if (!f)
		return -1;
	if (maps)
		while ((c = getc(f)) != EOF)
			n += c == '\n';
	else if (fscanf(f, "%ld %ld", &size, &n) == 2)
		n *= sysconf(_SC_PAGESIZE);
	fclose(f);
	return n;
}

static double ns_each(double t0, size_t n)
{
	return (now_s() - t0) * 1e9 / n;
}

/* One row of the scale table, in a child of its own so that each size
 * starts from the same pool: n explicit states made, drawn from twice (the
 * first draw seeds the state), and freed, as a coroutine each would. */
static _Noreturn void scale_row(FILE *out, size_t n)
{
	vrandom_state **h = calloc(n, sizeof *h);
	double t, create, first, later;
	unsigned char b[16];
	long maps, rss;
	size_t i;

	maps = proc_count(1);
	rss = proc_count(0);
	if (!h)
		_exit(1);
	t = now_s();
	for (i = 0; i < n; i++)
		h[i] = vrandom_state_new();
	create = ns_each(t, n);
	t = now_s();
	for (i = 0; i < n; i++)
		vrandom_state_buf(h[i], b, sizeof b);
	first = ns_each(t, n);
	t = now_s();
	for (i = 0; i < n; i++)
		vrandom_state_buf(h[i], b, sizeof b);
	later = ns_each(t, n);
	/* The handles' own array counted out of the resident bytes. */
	rss = (proc_count(0) - rss) / (long)n - (long)sizeof *h;
	maps = proc_count(1) - maps;
	t = now_s();
	for (i = 0; i < n; i++)
		vrandom_state_free(h[i]);
	fprintf(out, "%10zu %9.0f %9.0f %9.0f %9.0f %9ld %9ld\n", n, create, first,
		later, ns_each(t, n), rss, maps);
	_exit(fflush(out) != 0);
}

/* States from a thousand to a million (a hundred thousand with --quick):
 * the ns of each step a state, the resident bytes a state and the
 * mappings the pool added. */
static void scale(FILE *out, int quick)
{
	size_t n;
	pid_t pid;

	fprintf(out, "\nexplicit states, ns each (first draw: the vDSO seeds the state)\n");
	fprintf(out, "%10s %9s %9s %9s %9s %9s %9s\n", "states", "create",
		"1st draw", "draw", "free", "B/state", "mappings");
	for (n = 1000; n <= (quick ? 100000 : 1000000); n *= 10) {
		fflush(out);
		if ((pid = fork()) < 0)
			return;
		if (!pid)
			scale_row(out, n);
		while (waitpid(pid, 0, 0) < 0 && errno == EINTR)
			;
	}
}

/* main draws nothing before this: the engine times the first call in
 * children forked from a process where vrandom is still untouched. */
int cli_bench(int csv, int quick)
{
	struct vr_bench_opts o = { .quick = quick, .csv = csv, .progress = isatty(2) };
	int r = vr_bench(stdout, &o), err = errno;

	if (!r && !csv) {
		bulk(stdout, quick);
		scale(stdout, quick);
	}
	/* A failed write is reported as one, whatever the engine made of it. */
	cli_flush();
	if (r)
		return cli_error("benchmark failed: %s", strerror(err));
	return 0;
}
