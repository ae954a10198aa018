/* nogetrandom [--enosys] command [args...]: runs the command with the
 * getrandom system call failing with EIO, a kernel that cannot serve.
 * EIO, not ENOSYS: vrandom must report it, not fall back to /dev/urandom.
 * With --enosys, ENOSYS: the system call is gone, and /dev/urandom serves. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int err = EIO;

	if (argc > 1 && !strcmp(argv[1], "--enosys")) {
		err = ENOSYS;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: nogetrandom [--enosys] command [args...]\n");
		return 2;
	}
	if (!ctx || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), SCMP_SYS(getrandom), 0) ||
	    seccomp_load(ctx)) {
		fprintf(stderr, "nogetrandom: cannot install the filter\n");
		return 99;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
