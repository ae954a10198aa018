/* A plain program, nothing vrandom about it: getrandom() for 4 bytes,
 * N times (default 100000).  Linked with and without the libc shim, it is
 * what test/musl-strace.sh counts system calls of; built with
 * -Dgetrandom=vrandom_getrandom, what scripts/vm-test.sh counts in the
 * booted machines. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 100000;
	unsigned v, acc = 0;

	for (i = 0; i < n; i++) {
		if (getrandom(&v, sizeof v, 0) != sizeof v) {
			perror("getrandom");
			return 1;
		}
		acc |= v;
	}
	/* 100000 draws that never set a bit mean no draws at all. */
	printf("%ld calls, or of all: %08x\n", n, acc);
	return n > 0 && acc != 0xffffffff;
}
