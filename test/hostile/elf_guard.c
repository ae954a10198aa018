/* The ELF reader never touches a byte outside the image it is given: each
 * synthetic image, cut off at every length and then corrupted, is placed
 * with its end against a PROT_NONE page (exactly, where the length is a
 * multiple of 8: the start stays aligned), and again with its start right
 * after one.  A read beyond either edge is a SIGSEGV, the test's failure;
 * the lookup must answer NULL or a pointer inside the copy.  (The other
 * tests' damaged-image loops use malloc'd copies, where an overrun of a
 * few bytes goes unseen.)  And whole images with a table the reader must
 * refuse: misaligned, or a string table too short for the name. */
#include <elf.h>
#include <link.h>

#include "hostile.h"
#include "vdso.h"
#include "../fakevdso/fakevdso.h"

static const char *dir;
static size_t pg;

/* [guard][pages][guard], mapped once per image: an image of up to max
 * bytes placed at the end of the room between (tail) or at its start.  At
 * the end as near as an 8-byte aligned start allows: the reader checks
 * alignment relative to the image, whose base the kernel aligns to a page
 * (UBSan would see the misaligned loads). */
static unsigned char *room;
static size_t pages;

static void room_map(size_t max)
{
	pages = (max + pg - 1) / pg + (max == 0);
	room = mmap(0, (pages + 2) * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (room == MAP_FAILED || mprotect(room, pg, PROT_NONE) ||
	    mprotect(room + (pages + 1) * pg, pg, PROT_NONE))
		_exit(99);
}

/* The lookup on img's first len bytes, at each edge. */
static int survives(const unsigned char *img, size_t len, const char *sym, const char *ver)
{
	unsigned char *copy, *fn;
	int tail, ok = 1;

	for (tail = 0; tail < 2; tail++) {
		copy = tail ? room + ((pages + 1) * pg - len) / 8 * 8 : room + pg;
		memcpy(copy, img, len);
		fn = __vr_vdso_sym(copy, len, sym, ver);
		ok &= !fn || (fn >= copy && fn < copy + len);
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
	room_map(size);
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

/* The dynamic entry of type tag in a copy of a native image, and the
 * image offset of an address in it; NULL when there is none. */
static ElfW(Dyn) *dyn_entry(unsigned char *img, ElfW(Sxword) tag, size_t *bias)
{
	ElfW(Ehdr) *eh = (ElfW(Ehdr) *)img;
	ElfW(Phdr) *ph = (ElfW(Phdr) *)(img + eh->e_phoff);
	ElfW(Dyn) *d = 0;
	int i, load = 0;

	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && !load++)
			*bias = ph[i].p_offset - ph[i].p_vaddr;
		else if (ph[i].p_type == PT_DYNAMIC)
			d = (ElfW(Dyn) *)(img + ph[i].p_offset);
	for (; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == tag)
			return d;
	return 0;
}

/* Where s, with its NUL, lies in a native image's string table: its end
 * (the NUL's offset), 0 for nowhere. */
static size_t str_end(unsigned char *c, size_t size, const char *s)
{
	size_t bias = 0, i, n = strlen(s);
	ElfW(Dyn) *st = dyn_entry(c, DT_STRTAB, &bias), *sz = dyn_entry(c, DT_STRSZ, &bias);

	for (i = st && sz ? st->d_un.d_ptr + bias : size;
	     i + n < size && i + n < st->d_un.d_ptr + bias + sz->d_un.d_val; i++)
		if (!memcmp(c + i, s, n + 1))
			return i + n;
	return 0;
}

/* Tables the reader must refuse, in images that are whole: the hash table
 * moved to an offset not aligned for it (a strict-alignment CPU would
 * fault), and a string table whose size cuts the name short.  Each beside
 * the same change made right, which must be found. */
static void refused(const char *variant, ElfW(Sxword) tag, const char *sym, const char *ver)
{
	size_t size, bias = 0, at, off, last;
	const unsigned char *img = fake_map_or_exit(dir, variant, &size);
	unsigned char *c = malloc(2 * size + 16);
	ElfW(Dyn) *d, *sz;
	int right;

	if (!c)
		_exit(99);
	for (right = 1; right >= 0; right--) {
		/* The table copied to the end of the image, aligned or one off. */
		memcpy(c, img, size);
		d = dyn_entry(c, tag, &bias);
		T(d != 0);
		if (!d)
			break;
		off = d->d_un.d_ptr + bias;
		at = (size + 7) / 8 * 8 + !right;
		memcpy(c + at, img + off, size - off);
		d->d_un.d_ptr = at - bias;
		T(!__vr_vdso_sym(c, at + size - off, sym, ver) == !right);

		/* DT_STRSZ ending at the last character of the name or version
		 * that comes last, or after its NUL. */
		memcpy(c, img, size);
		d = dyn_entry(c, DT_STRTAB, &bias);
		sz = dyn_entry(c, DT_STRSZ, &bias);
		last = str_end(c, size, sym);
		if (str_end(c, size, ver) > last)
			last = str_end(c, size, ver);
		T(d && sz && last);
		if (!d || !sz || !last)
			break;
		sz->d_un.d_val = last - (d->d_un.d_ptr + bias) + right;
		T(!__vr_vdso_sym(c, size, sym, ver) == !right);
	}
	free(c);
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
static void refuse_gnu(void) { refused("gnu", DT_GNU_HASH, SYM, VER); }
/* Every symbol's version index marked hidden (bit 15, as for a
 * non-default version): the index is the low 15 bits, still found. */
static void hidden(void)
{
	size_t size, bias = 0, i, n;
	const unsigned char *img = fake_map_or_exit(dir, "sysv", &size);
	unsigned char *c = malloc(size);
	ElfW(Dyn) *vs, *h;
	uint16_t v;
	uint32_t nchain;

	if (!c)
		_exit(99);
	memcpy(c, img, size);
	vs = dyn_entry(c, DT_VERSYM, &bias);
	h = dyn_entry(c, DT_HASH, &bias);
	T(vs && h);
	if (vs && h) {
		memcpy(&nchain, c + h->d_un.d_ptr + bias + 4, 4);
		for (i = n = 0; i < nchain; i++) {
			memcpy(&v, c + vs->d_un.d_ptr + bias + 2 * i, 2);
			v |= v > 1 ? 0x8000 : 0;
			n += v > 1;
			memcpy(c + vs->d_un.d_ptr + bias + 2 * i, &v, 2);
		}
		T(n > 0);
		T(__vr_vdso_sym(c, size, SYM, VER) != 0);
	}
	free(c);
}

/* The version node renamed to a name of the same ELF hash (the first
 * character one up, the second 16 down): found by the new name only. */
static void same_hash(void)
{
	size_t size, i, vlen = strlen(VER);
	const unsigned char *img = fake_map_or_exit(dir, "sysv", &size);
	unsigned char *c = malloc(size);
	char other[64];

	if (!c || vlen + 1 > sizeof other)
		_exit(99);
	memcpy(c, img, size);
	i = str_end(c, size, VER) - vlen;
	T(i < size && c[i + 1] >= 16);
	if (i < size) {
		c[i]++;
		c[i + 1] -= 16;
		memcpy(other, c + i, vlen + 1);
		T(!__vr_vdso_sym(c, size, SYM, VER));
		T(__vr_vdso_sym(c, size, SYM, other) != 0);
	}
	free(c);
}

/* The symbol made an object, a local, or undefined: not the function. */
static void kinds(void)
{
	size_t size, bias = 0, i, k, len = strlen(SYM);
	const unsigned char *img = fake_map_or_exit(dir, "sysv", &size);
	unsigned char *c = malloc(size);
	ElfW(Dyn) *st, *sy, *h;
	ElfW(Sym) *sym = 0;
	uint32_t nchain;

	if (!c)
		_exit(99);
	for (k = 0; k < 4; k++) {
		memcpy(c, img, size);
		st = dyn_entry(c, DT_STRTAB, &bias);
		sy = dyn_entry(c, DT_SYMTAB, &bias);
		h = dyn_entry(c, DT_HASH, &bias);
		T(st && sy && h);
		if (!st || !sy || !h)
			break;
		memcpy(&nchain, c + h->d_un.d_ptr + bias + 4, 4);
		for (i = 0, sym = 0; i < nchain && !sym; i++) {
			ElfW(Sym) *e = (ElfW(Sym) *)(c + sy->d_un.d_ptr + bias) + i;

			if (!memcmp(c + st->d_un.d_ptr + bias + e->st_name, SYM, len + 1))
				sym = e;
		}
		T(sym != 0);
		if (!sym)
			break;
		switch (k) {
		case 1: sym->st_info = ELF64_ST_INFO(ELF64_ST_BIND(sym->st_info), STT_OBJECT); break;
		case 2: sym->st_info = ELF64_ST_INFO(STB_LOCAL, ELF64_ST_TYPE(sym->st_info)); break;
		case 3: sym->st_shndx = SHN_UNDEF; break;
		}
		T(!__vr_vdso_sym(c, size, SYM, VER) == (k > 0));
	}
	free(c);
}

static void refuse_sysv(void)
{
	refused("sysv", DT_HASH, SYM, VER);
	hidden();
	same_hash();
	kinds();
}
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
#ifdef VRANDOM_VDSO_SYM
	t_case("GNU hash moved off its alignment, names cut short: refused", refuse_gnu);
	t_case("SysV hash: misaligned, names cut short, an object, a local, undefined: refused; hidden bit read; a version of the same hash told apart", refuse_sysv);
#endif
#ifdef WITH_ELF32
	t_case("ELF32 GNU hash image: no byte outside", gnu32);
	t_case("ELF32 SysV hash image: no byte outside", sysv32);
	t_case("ELF32 wrong version: no byte outside", badver32);
#endif
	return t_finish();
}
