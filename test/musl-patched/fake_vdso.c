/* A patched musl's vDSO lookup against a synthetic image (the one
 * test/fakevdso/ builds for vrandom's own tests): the program points the
 * auxiliary vector's AT_SYSINFO_EHDR at the image before musl looks, and
 * the image's getrandom fills buffers with 0x5a ^ flags.  So the bytes say
 * whether the lookup found the symbol, and that the call carried
 * GRND_NONBLOCK (0x5b); the system call fills them with random bytes.
 *
 *	fake_vdso IMAGE vdso|syscall */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "tally.h"

extern char **environ;

/* musl keeps a pointer to the auxiliary vector that follows environ. */
static size_t *aux_entry(size_t type)
{
	char **e = environ;
	size_t *a;

	while (*e)
		e++;
	for (a = (size_t *)(e + 1); a[0]; a += 2)
		if (a[0] == type)
			return a;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char b[64];
	size_t *ehdr = aux_entry(AT_SYSINFO_EHDR), i, pattern = 0;
	struct stat st;
	void *img;
	int fd;

	if (argc != 3)
		return 99;
	if (!ehdr) {
		printf("no AT_SYSINFO_EHDR entry to replace\n");
		return 77;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return 99;
	img = mmap(0, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (img == MAP_FAILED)
		return 99;
	ehdr[1] = (size_t)img;
	memset(b, 0, sizeof b);
	CHECK(getrandom(b, sizeof b, 0) == sizeof b);
	for (i = 0; i < sizeof b; i++)
		pattern += b[i] == 0x5b;
	printf("%s: %zu of %zu bytes are the image's pattern\n", argv[1], pattern, sizeof b);
	if (!strcmp(argv[2], "vdso"))
		CHECK(pattern == sizeof b);
	else
		CHECK(pattern < 8 && memcmp(b + 56, "\0\0\0\0\0\0\0\0", 8));
	/* What the system call rejects never reaches the image. */
	errno = 0;
	CHECK(getrandom(b, 16, GRND_INSECURE | GRND_RANDOM) == -1 && errno == EINVAL);
	return tally_finish();
}
