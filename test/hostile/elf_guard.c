/* The ELF reader never touches a byte outside the image it is given: each
 * synthetic image, cut off at every length and then corrupted, is placed
 * with its end against a PROT_NONE page, and again with its start right
 * after one.  A read beyond either edge is a SIGSEGV, the test's failure;
 * the lookup must answer NULL or a pointer inside the copy.  (The other
 * tests' damaged-image loops use malloc'd copies, where an overrun of a
 * few bytes goes unseen.) */
#include "hostile.h"
#include "vdso.h"
#include "../fakevdso/fakevdso.h"

static const char *dir;
static size_t pg;

/* [guard][pages][guard]: the room between, n bytes placed at its end
 * (tail) or at its start. */
static unsigned char *room(size_t n, int tail, unsigned char **base, size_t *len)
{
	size_t pages = (n + pg - 1) / pg + (n == 0);
	unsigned char *p;

	*len = (pages + 2) * pg;
	p = mmap(0, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect(p, pg, PROT_NONE) ||
	    mprotect(p + (pages + 1) * pg, pg, PROT_NONE))
		_exit(99);
	*base = p;
	return tail ? p + (pages + 1) * pg - n : p + pg;
}

/* The lookup on img's first len bytes, at each edge. */
static int survives(const unsigned char *img, size_t len, const char *sym, const char *ver)
{
	unsigned char *base, *copy, *fn;
	size_t maplen;
	int tail, ok = 1;

	for (tail = 0; tail < 2; tail++) {
		copy = room(len, tail, &base, &maplen);
		memcpy(copy, img, len);
		fn = __vr_vdso_sym(copy, len, sym, ver);
		ok &= !fn || (fn >= copy && fn < copy + len);
		munmap(base, maplen);
	}
	return ok;
}

static void image(const char *variant, const char *sym, const char *ver, int found)
{
	size_t size, len, i, k, n = scaled(3000, 300);
	const unsigned char *img = fake_map_or_exit(dir, variant, &size);
	unsigned char *c = malloc(size);
	int all = 1;

	if (!c)
		_exit(99);
	/* The whole image: the symbol found, or not, as the variant says. */
	T(!__vr_vdso_sym(img, size, sym, ver) == !found);
	for (len = 0; len <= size; len++)
		all &= survives(img, len, sym, ver);
	T(all);
	for (i = 0, all = 1; i < n; i++) {
		memcpy(c, img, size);
		for (k = 0; k < 1 + i % 4; k++)
			c[vrandom_uniform(size)] = vrandom_u32();
		all &= survives(c, size, sym, ver);
	}
	T(all);
	free(c);
	printf("%s: %zu lengths, %zu corrupted copies\n", variant, size + 1, n);
}

#ifdef VRANDOM_VDSO_SYM
#define SYM VRANDOM_VDSO_SYM
#define VER VRANDOM_VDSO_VER
#else
#define SYM ""
#define VER ""
#endif
static void gnu(void) { image("gnu", SYM, VER, 1); }
static void sysv(void) { image("sysv", SYM, VER, 1); }
static void badver(void) { image("badver", SYM, VER, 0); }
#ifdef WITH_ELF32
static void gnu32(void) { image("32-gnu", "__kernel_getrandom", "LINUX_2.6.15", 1); }
static void sysv32(void) { image("32-sysv", "__kernel_getrandom", "LINUX_2.6.15", 1); }
static void badver32(void) { image("32-badver", "__kernel_getrandom", "LINUX_2.6.15", 0); }
#endif

int main(int argc, char **argv)
{
	t_init();
	dir = argc > 1 ? argv[1] : FAKEVDSO_DIR;
	pg = sysconf(_SC_PAGESIZE);
	t_case("GNU hash image: no byte outside", gnu);
	t_case("SysV hash image: no byte outside", sysv);
	t_case("wrong version: no byte outside", badver);
#ifdef WITH_ELF32
	t_case("ELF32 GNU hash image: no byte outside", gnu32);
	t_case("ELF32 SysV hash image: no byte outside", sysv32);
	t_case("ELF32 wrong version: no byte outside", badver32);
#endif
	return t_finish();
}
