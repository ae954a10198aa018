/* A plain program: nothing in it knows about vrandom.  Linked statically
 * with -lvrandom-libc -lvrandom ahead of libc, its getentropy() and
 * getrandom() calls go through the vDSO instead of a system call each.
 *
 *	musl-gcc -static -Os -o keygen keygen.c -lvrandom-libc -lvrandom
 *	./keygen 4      # four 256-bit keys in hex, then a dice roll */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

static int key(void)
{
	unsigned char k[32];
	size_t i;

	if (getentropy(k, sizeof k))
		return -1;
	for (i = 0; i < sizeof k; i++)
		printf("%02x", k[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	unsigned char die;

	while (n-- > 0)
		if (key()) {
			perror("getentropy");
			return 1;
		}
	/* 252 is the largest multiple of 6 in a byte: reject above it. */
	do
		if (getrandom(&die, 1, 0) != 1) {
			perror("getrandom");
			return 1;
		}
	while (die >= 252);
	printf("die: %d\n", die % 6 + 1);
	return 0;
}
