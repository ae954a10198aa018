/* Loading the synthetic vDSO images, for the tests that hand one to
 * vrandom through a getauxval() of their own. */
#ifndef VRANDOM_FAKEVDSO_H
#define VRANDOM_FAKEVDSO_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../scale.h"
#include "vdso.h"
#include "vrandom.h"

/* The auxiliary vector as the kernel gave it, for the keys a test does not
 * fake.  0 with ENOENT for a missing key, and before /proc can be read
 * (ASan asks before main). */
static inline unsigned long fake_real_auxval(unsigned long type)
{
	unsigned long v[2];
	FILE *f = fopen("/proc/self/auxv", "r");

	while (f && fread(v, sizeof v, 1, f) == 1 && v[0] != AT_NULL)
		if (v[0] == type) {
			fclose(f);
			return v[1];
		}
	if (f)
		fclose(f);
	errno = ENOENT;
	return 0;
}

/* dir/fakevdso-variant.so, mapped whole as the kernel maps a vDSO; NULL
 * with errno when it cannot be. */
static inline const void *fake_map(const char *dir, const char *variant, size_t *size)
{
	char path[512];
	struct stat sb;
	void *p;
	int fd;

	snprintf(path, sizeof path, "%s/fakevdso-%s.so", dir, variant);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	p = fstat(fd, &sb) ? MAP_FAILED :
	    mmap(0, sb.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	if (size)
		*size = sb.st_size;
	return p;
}

/* The same, for the Check-free tests: a test that cannot load its image
 * cannot run (99). */
static inline const void *fake_map_or_exit(const char *dir, const char *variant, size_t *size)
{
	const void *p = fake_map(dir, variant, size);

	if (!p) {
		fprintf(stderr, "cannot map %s/fakevdso-%s.so: %s\n", dir, variant,
			strerror(errno));
		_exit(99);
	}
	return p;
}

#ifdef FAKE_GETAUXVAL
/* The vDSO base vrandom will find: this program's getauxval() answers
 * AT_SYSINFO_EHDR with fake_base, and every other key as the kernel did. */
static const void *fake_base;

unsigned long getauxval(unsigned long type)
{
	if (type == AT_SYSINFO_EHDR)
		return (unsigned long)fake_base;
	return fake_real_auxval(type);
}
#endif

/* The fake writes 0x5a ^ flags into every byte; the kernel never would. */
static inline int fake_served(vrandom_state *st, unsigned int flags)
{
	unsigned char b[100];
	size_t i;

	memset(b, 0, sizeof b);
	if ((st ? vrandom_state_getrandom(st, b, sizeof b, flags) :
		  vrandom_getrandom(b, sizeof b, flags)) != sizeof b)
		return 0;
	for (i = 0; i < sizeof b; i++)
		if (b[i] != (0x5a ^ flags))
			return 0;
	return 1;
}

/* Truncated and corrupted copies of an image: the lookup of sym@ver must
 * answer NULL or a pointer inside the copy.  1 when it always did. */
static inline int fake_survives_damage(const unsigned char *img, size_t size,
				       const char *sym, const char *ver)
{
	unsigned char *copy = malloc(size ? size : 1), *fn;
	size_t len, i, k, n = scaled(20000, 2000);
	int ok = copy != 0;

	for (len = 0; ok && len <= size; len++) {
		memcpy(copy, img, len);
		fn = __vr_vdso_sym(copy, len, sym, ver);
		ok = !fn || (fn >= copy && fn < copy + len);
	}
	for (i = 0; ok && i < n; i++) {
		memcpy(copy, img, size);
		for (k = 0; k < 1 + i % 4; k++)
			copy[vrandom_uniform(size)] = vrandom_u32();
		fn = __vr_vdso_sym(copy, size, sym, ver);
		ok = !fn || (fn >= copy && fn < copy + size);
	}
	free(copy);
	return ok;
}

#endif
