/* nogetrandom command [args...]: runs the command with the getrandom
 * system call failing with EIO, a kernel that cannot serve.  EIO, not
 * ENOSYS: vrandom must report it, not fall back to /dev/urandom. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (argc < 2) {
		fprintf(stderr, "usage: nogetrandom command [args...]\n");
		return 2;
	}
	if (!ctx || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EIO), SCMP_SYS(getrandom), 0) ||
	    seccomp_load(ctx)) {
		fprintf(stderr, "nogetrandom: cannot install the filter\n");
		return 99;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
