/* nogetrandom [--enosys] command [args...]: runs the command with the
 * getrandom system call failing with EIO, a kernel that cannot serve.
 * EIO, not ENOSYS: vrandom must report it, not fall back to /dev/urandom.
 * With --enosys, ENOSYS: the system call is gone, and /dev/urandom serves.
 * A raw filter (bpf.h), not libseccomp: it builds wherever the tests do,
 * static musl included. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf.h"

int main(int argc, char **argv)
{
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
	if (bpf_deny(SYS_getrandom, err)) {
		fprintf(stderr, "nogetrandom: cannot install the filter\n");
		return 99;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
