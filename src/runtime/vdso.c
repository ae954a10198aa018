/* Find a versioned function in the vDSO.
 *
 * Every offset is checked against the image size before it is read, so the
 * same code serves the live vDSO and arbitrary (fuzzed) images. */
#include <elf.h>
#include <link.h>
#include <string.h>

#include "internal.h"

#define ELFCLASS_NATIVE (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
/* st_info packs the same way in both classes. */
#define ST_TYPE(i) ((i) & 0xf)
#define ST_BIND(i) ((i) >> 4)

struct image {
	const unsigned char *p;
	size_t size;
	size_t bias;            /* image offset = vaddr + bias (mod 2^N) */
	size_t strtab, strsz;
	size_t symtab, hash, gnu_hash, versym, verdef;
	size_t nsyms;           /* bound from DT_HASH; 0 when unknown */
};

/* n objects of size sz at off, inside the image and aligned for them. */
static const void *at(const struct image *im, size_t off, size_t n, size_t sz, size_t align)
{
	if (off % align || off > im->size || n > (im->size - off) / sz)
		return 0;
	return im->p + off;
}

#define AT(im, off, n, T) ((const T *)at(im, off, n, sizeof(T), _Alignof(T)))

static unsigned long elf_hash(const char *s)
{
	unsigned long h = 0, g;

	for (; *s; s++) {
		h = (h << 4) + (unsigned char)*s;
		g = h & 0xf0000000;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

/* Does the string table hold exactly s at off? */
static int str_is(const struct image *im, size_t off, const char *s)
{
	size_t n = strlen(s) + 1;
	const char *p;

	if (off >= im->strsz || n > im->strsz - off)
		return 0;
	p = AT(im, im->strtab + off, n, char);
	return p && !memcmp(p, s, n);
}

static int load_dynamic(struct image *im)
{
	const ElfW(Ehdr) *eh = AT(im, 0, 1, ElfW(Ehdr));
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = 0;
	size_t i, ndyn = 0;
	int have_load = 0;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS_NATIVE ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)))
		return 0;
	ph = AT(im, eh->e_phoff, eh->e_phnum, ElfW(Phdr));
	if (!ph)
		return 0;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			im->bias = ph[i].p_offset - ph[i].p_vaddr;
			have_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			ndyn = ph[i].p_filesz / sizeof(ElfW(Dyn));
			dyn = AT(im, ph[i].p_offset, ndyn, ElfW(Dyn));
		}
	}
	if (!have_load || !dyn)
		return 0;

	for (i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		size_t off = dyn[i].d_un.d_ptr + im->bias;

		switch (dyn[i].d_tag) {
		case DT_STRTAB: im->strtab = off; break;
		case DT_STRSZ: im->strsz = dyn[i].d_un.d_val; break;
		case DT_SYMTAB: im->symtab = off; break;
		case DT_HASH: im->hash = off; break;
		case DT_GNU_HASH: im->gnu_hash = off; break;
		case DT_VERSYM: im->versym = off; break;
		case DT_VERDEF: im->verdef = off; break;
		}
	}
	/* Some vDSOs ship only DT_GNU_HASH (arm64 since 2024): either will do. */
	return im->strtab && im->strsz && im->symtab && (im->hash || im->gnu_hash);
}

/* Is symbol i's version node named version?  Without version tables, any. */
static int version_is(const struct image *im, size_t i, const char *version)
{
	const ElfW(Half) *vs;
	size_t off = im->verdef, left;
	unsigned ndx;

	if (!im->versym || !im->verdef)
		return 1;
	vs = AT(im, im->versym + i * sizeof *vs, 1, ElfW(Half));
	if (!vs)
		return 0;
	ndx = *vs & 0x7fff;
	/* vd_next may loop; no image holds more entries than it has bytes. */
	for (left = im->size / sizeof(ElfW(Verdef)); left; left--) {
		const ElfW(Verdef) *vd = AT(im, off, 1, ElfW(Verdef));
		const ElfW(Verdaux) *aux;

		if (!vd)
			return 0;
		if (!(vd->vd_flags & VER_FLG_BASE) && vd->vd_ndx == ndx) {
			aux = AT(im, off + vd->vd_aux, 1, ElfW(Verdaux));
			return aux && vd->vd_hash == elf_hash(version) &&
			       str_is(im, aux->vda_name, version);
		}
		if (!vd->vd_next)
			return 0;
		off += vd->vd_next;
	}
	return 0;
}

static void *match(const struct image *im, size_t i, const char *name, const char *version)
{
	const ElfW(Sym) *sym;
	size_t off;

	if (im->nsyms && i >= im->nsyms)
		return 0;
	sym = AT(im, im->symtab + i * sizeof *sym, 1, ElfW(Sym));
	if (!sym || ST_TYPE(sym->st_info) != STT_FUNC ||
	    (ST_BIND(sym->st_info) != STB_GLOBAL &&
	     ST_BIND(sym->st_info) != STB_WEAK) ||
	    sym->st_shndx == SHN_UNDEF ||
	    !str_is(im, sym->st_name, name) || !version_is(im, i, version))
		return 0;
	off = sym->st_value + im->bias;
	return off < im->size ? (void *)(im->p + off) : 0;
}

static void *lookup_sysv(struct image *im, const char *name, const char *version)
{
	typedef VRANDOM_HASH_ENTRY E;
	const E *h = AT(im, im->hash, 2, E), *bucket, *chain;
	size_t nbucket, nchain, i, left;
	void *fn;

	if (!h || !(nbucket = h[0]))
		return 0;
	nchain = h[1];
	bucket = AT(im, im->hash + 2 * sizeof(E), nbucket, E);
	chain = AT(im, im->hash + (2 + nbucket) * sizeof(E), nchain, E);
	if (!bucket || !chain)
		return 0;
	im->nsyms = nchain;
	/* A chain visits each symbol at most once unless the table loops. */
	i = bucket[elf_hash(name) % nbucket];
	for (left = nchain; i != STN_UNDEF && i < nchain && left; left--, i = chain[i])
		if ((fn = match(im, i, name, version)))
			return fn;
	return 0;
}

static void *lookup_gnu(const struct image *im, const char *name, const char *version)
{
	const uint32_t *gh = AT(im, im->gnu_hash, 4, uint32_t), *bucket, *c;
	size_t nbucket, symoffset, off, i;
	uint32_t h = gnu_hash(name);
	void *fn;

	if (!gh || !(nbucket = gh[0]))
		return 0;
	symoffset = gh[1];
	/* The bloom filter is an optimisation only; skip over its words. */
	off = im->gnu_hash + 4 * sizeof(uint32_t) + (size_t)gh[2] * sizeof(ElfW(Addr));
	bucket = AT(im, off, nbucket, uint32_t);
	if (!bucket || (i = bucket[h % nbucket]) < symoffset || !i)
		return 0;
	off += nbucket * sizeof(uint32_t);
	for (;; i++) {
		c = AT(im, off + (i - symoffset) * sizeof *c, 1, uint32_t);
		if (!c)
			return 0;
		if ((*c | 1) == (h | 1) && (fn = match(im, i, name, version)))
			return fn;
		if (*c & 1)
			return 0;
	}
}

void *__vr_vdso_sym(const void *img, size_t size, const char *name, const char *version)
{
	struct image im = { .p = img, .size = size };

	if (!img || !load_dynamic(&im))
		return 0;
	if (im.gnu_hash)
		return lookup_gnu(&im, name, version);
	return lookup_sysv(&im, name, version);
}

/* The live vDSO's size, read from its own program headers. */
size_t __vr_elf_extent(const void *base)
{
	const ElfW(Ehdr) *eh = base;
	const ElfW(Phdr) *ph;
	size_t end, i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)))
		return 0;
	ph = (const void *)((const char *)base + eh->e_phoff);
	end = eh->e_phoff + (size_t)eh->e_phnum * sizeof *ph;
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	return end;
}
