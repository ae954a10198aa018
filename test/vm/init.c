/* PID 1 of the initramfs that scripts/vm-boot.sh boots: no shell, no
 * busybox.  Mounts proc, devtmpfs, sysfs and a tmpfs /tmp, takes
 * /dev/console as its standard streams, runs the programs /tests lists one
 * by one, then powers the machine off.  A line of /tests reads
 *     [VAR=value ...] path [args...]
 * (blank lines and # comments ignored; no quoting).  Every line of this
 * program's own starts with "vm-init: ", so that the host can tell it from
 * the programs' output and the kernel's: one result line per program and a
 * closing "N passed, N failed (N skipped)".  Exit 0 passes, 77 skips,
 * anything else (a signal, a program that cannot be run) fails.  Each
 * result says how long the program took, in the guest's seconds. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXARGS 64

static int passed, failed, skipped;

static void mount_one(const char *type, const char *dir, const char *opts)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		printf("vm-init: mkdir %s: %s\n", dir, strerror(errno));
	if (mount(type, dir, type, 0, opts))
		printf("vm-init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* The kernel opens /dev/console for PID 1 only if the initramfs has that
 * node; devtmpfs gives it either way. */
static void console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, 0, _IOLBF, 0);
}

/* Power-off drops what the console's driver has not sent yet, the summary
 * among it.  Wait until its queue is empty, but for two seconds at most:
 * tcdrain() once never returned on an SCLP console (IBM Z). */
static void drain(void)
{
	struct timespec tick = { 0, 10000000 };
	int i, queued;

	for (i = 0; i < 200; i++) {
		if (ioctl(1, TIOCOUTQ, &queued) || queued <= 0)
			return;
		nanosleep(&tick, 0);
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int assignment(const char *w)
{
	const char *p = w;

	if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return 0;
	while (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	       (*p >= '0' && *p <= '9'))
		p++;
	return *p == '=';
}

/* Runs one line of /tests; its result, counted and printed. */
static void run(char *line)
{
	static char *base[] = { "PATH=/", "HOME=/", "TMPDIR=/tmp" };
	char *env[MAXARGS + 4], *argv[MAXARGS + 1], *w, *what;
	int nenv = 0, nargs = 0, status, i;
	double t0;
	pid_t pid;

	what = strdup(line);
	for (w = strtok(line, " \t"); w && nenv + nargs < MAXARGS; w = strtok(0, " \t"))
		if (!nargs && assignment(w))
			env[nenv++] = w;
		else
			argv[nargs++] = w;
	argv[nargs] = 0;
	if (!nargs) {
		printf("vm-init: FAIL: %s (no program named)\n", what);
		failed++;
		free(what);
		return;
	}
	for (i = 0; i < 3; i++)
		env[nenv++] = base[i];
	env[nenv] = 0;

	printf("vm-init: run: %s\n", what);
	t0 = now();
	pid = fork();
	if (pid < 0) {
		printf("vm-init: FAIL: %s (fork: %s)\n", what, strerror(errno));
		failed++;
		free(what);
		return;
	}
	if (!pid) {
		if (chdir("/"))
			_exit(126);
		execve(argv[0], argv, env);
		printf("vm-init: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	/* Orphans of the program end up here. */
	while (waitpid(-1, 0, WNOHANG) > 0)
		;
	t0 = now() - t0;
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("vm-init: PASS: %s (%.1f s)\n", what, t0);
		passed++;
	} else if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		printf("vm-init: SKIP: %s (%.1f s)\n", what, t0);
		skipped++;
	} else if (status != -1 && WIFSIGNALED(status)) {
		printf("vm-init: FAIL: %s (signal %d, %.1f s)\n", what, WTERMSIG(status), t0);
		failed++;
	} else {
		printf("vm-init: FAIL: %s (exit %d, %.1f s)\n", what,
		       status == -1 ? -1 : WEXITSTATUS(status), t0);
		failed++;
	}
	free(what);
}

int main(void)
{
	char line[1024];
	FILE *f;
	size_t n;

	/* /dev first: what the other mounts say must reach the console. */
	mount_one("devtmpfs", "/dev", 0);
	console();
	mount_one("proc", "/proc", 0);
	mount_one("sysfs", "/sys", 0);
	mount_one("tmpfs", "/tmp", "mode=1777");

	f = fopen("/tests", "r");
	if (!f) {
		printf("vm-init: FAIL: /tests: %s\n", strerror(errno));
		failed++;
	} else {
		while (fgets(line, sizeof line, f)) {
			n = strcspn(line, "\r\n");
			line[n] = 0;
			n = strspn(line, " \t");
			if (line[n] && line[n] != '#')
				run(line + n);
		}
		fclose(f);
	}
	printf("vm-init: %d passed, %d failed (%d skipped)\n", passed, failed, skipped);
	fflush(stdout);
	drain();
	sync();
	reboot(RB_POWER_OFF);
	/* Still here: PID 1 exiting panics the kernel, which the host reads
	 * as a failure. */
	printf("vm-init: reboot: %s\n", strerror(errno));
	return 1;
}
