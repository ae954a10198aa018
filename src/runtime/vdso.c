/* Find a versioned function in the vDSO, and the kernel's getrandom there.
 *
 * Every offset is checked against the image size before it is read, so the
 * same code serves the live vDSO and arbitrary (fuzzed) images. */
#include "config.h"     /* first: it may define _GNU_SOURCE */

#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>

#include "chacha.h"
#include "vdso.h"

/* The SysV hash table's entries are 32-bit everywhere but s390x. */
#ifndef VRANDOM_HASH_ENTRY
#define VRANDOM_HASH_ENTRY uint32_t
#endif

void *__vr_vdso_fn;
struct vr_params __vr_params;

/* ChaCha20 under a zero key (RFC 8439, appendix A.1, vector 1 for block
 * 0): the first 16 bytes of blocks 0 and 2, where the vDSO starts an
 * answer under 64 bytes made with that key, and bytes 32 to 47 of blocks 1
 * and 3, the start of the key its fast key erasure then keeps. */
static const unsigned char zero_key_short[4][16] = {
	{ 0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86, 0xbd, 0x28 },
	{ 0x2d, 0x09, 0xa0, 0xe6, 0x63, 0x26, 0x6c, 0xe1, 0xae, 0x7e, 0xd1, 0x08, 0x19, 0x68, 0xa0, 0x75 },
	{ 0x29, 0xb7, 0x21, 0x76, 0x9c, 0xe6, 0x4e, 0x43, 0xd5, 0x71, 0x33, 0xb0, 0x74, 0xd8, 0x39, 0xd5 },
	{ 0x2d, 0xd4, 0xcb, 0x83, 0xf8, 0x84, 0x0d, 0x2e, 0xed, 0xb1, 0x58, 0x13, 0x10, 0x62, 0xac, 0x3f },
};

/* Block c of ChaCha20 under a zero key: whether it starts with the 16
 * bytes at b, or without b its first 12 bits.  Out of line, so that the
 * check's common case takes no stack for it. */
static __attribute__((__noinline__)) unsigned zk_block(uint64_t c, const unsigned char *b)
{
	unsigned char x[64];

	vr_chacha20_block(x, 0, c);
	if (b)
		return !memcmp(b, x, 16);
	return x[0] | (x[1] & 15u) << 8;
}

/* The first 12 bits of the zero-key blocks from 2 on that answers asked
 * for (the three an answer may start at are consecutive): block c at
 * c % 64, as (c / 64 + 1) << 12 | bits, 0 for none yet.  One word each,
 * so that a thread never reads another's entry half written. */
static uint32_t zk_cache[64];

/* Does block c start as b does, as far as 12 bits tell? */
static inline int zk_may_start(size_t c, const unsigned char *b)
{
	uint32_t tag = (uint32_t)(c / 64 + 1) << 12,
		 e = __atomic_load_n(&zk_cache[c % 64], __ATOMIC_RELAXED);

	if ((e & ~0xfffu) != tag) {
		e = tag | zk_block(c, 0);
		__atomic_store_n(&zk_cache[c % 64], e, __ATOMIC_RELAXED);
	}
	return (e & 0xfff) == (b[0] | (b[1] & 15u) << 8);
}

/* Where a zero-keyed answer of n bytes starts (lib/vdso/getrandom.c): the
 * vDSO counts blocks from 0 at each call, and its second pass (the
 * kernel's generation changed, or the page was dropped, before the first
 * returned) counts on from where the first stopped: after the blocks it
 * wrote straight into the buffer, n/64 less those that up to 96 bytes
 * left in the batch made up for, and the two of its batch refill.  So
 * block 0, or a block from max(2, n/64) to n/64 + 2: 0 or 2 under 64.
 * 16 bytes that match one of at most four are chance once in 2^126, 9 once
 * in 2^71.  An answer of 8 bytes or fewer is refused only if the state
 * also keeps the key the vDSO made after it (16 bytes at any offset a
 * multiple of 4, as the kernel's u32 key sits in a state vrandom aligns),
 * or reads as dropped: the page gone since the call, and the key with it.
 * No answer is refused for less, which would bias what callers get. */
inline __attribute__((__always_inline__)) ssize_t
__vr_zero_keyed(void *mem, void *buf, size_t len, unsigned int flags, ssize_t r)
{
	const unsigned char *b = buf, *p = mem, *k;
	size_t n = r, c, i, size = __vr_params.size_of_opaque_state;

	if (VR_VDSO_MAX >= 64 && n >= 64) {
		if (*b == VR_ZERO_KEY_BYTE0 && !memcmp(b, zero_key_short[0], 16))
			goto zero;
		for (c = n / 64 < 2 ? 2 : n / 64; c <= n / 64 + 2; c++)
			if (zk_may_start(c, b) && zk_block(c, b))
				goto zero;
		return r;
	}
	/* The first byte names the block: only 0x76 and 0x2d come this far. */
	i = *b != VR_ZERO_KEY_BYTE0;
	if (memcmp(b, zero_key_short[i], n < 16 ? n : 16))
		return r;
	if (n > 8)
		goto zero;
	k = zero_key_short[2 + i];
	for (i = 0; i + 16 <= size; i += 4)
		if (p[i] == k[0] && !memcmp(p + i, k, 16))
			goto zero;
	for (i = 0; i < size && !p[i]; i++)
		;
	if (i < size)
		return r;
zero:
	vr_wipe(mem, size);
	return __vr_sys_getrandom(buf, len, flags);
}

/* Built for size: the call and the check in one function (vdso.h), the
 * check inlined here as everywhere in this file (C99 inline, with the
 * external definition all the others call), VR_VDSO_MAX bytes a call.  A
 * failure fails the request, as the system call's would: -ENOSYS sends
 * it whole to /dev/urandom. */
#ifdef __OPTIMIZE_SIZE__
ssize_t __vr_vdso_read(void *mem, void *buf, size_t len, unsigned int flags)
{
	char *p = buf;
	ssize_t r;

	do {
		r = vr_vdso_read_inline(mem, p, len < VR_VDSO_MAX ? len : VR_VDSO_MAX, flags);
		if (r < 0)
			return r;
		p += r;
		len -= r;
	} while (r == VR_VDSO_MAX && len);
	return p - (char *)buf;
}
#endif

#define ELFCLASS_NATIVE (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
/* st_info packs the same way in both classes. */
#define ST_TYPE(i) ((i) & 0xf)
#define ST_BIND(i) ((i) >> 4)

/* Where the fields the lookup reads sit in each class.  ELF32 and ELF64
 * differ in word size and in the order of a symbol's fields, not in what
 * the fields mean, so one walk reads both: the live vDSO is ELF32 on
 * 32-bit powerpc, and tests on a 64-bit host read ELF32 images too. */
struct layout {
	unsigned char w;        /* address and offset size, and alignment */
	unsigned char ehsize, phoff, phentsize, phnum;
	unsigned char phsize, p_offset, p_vaddr, p_filesz;
	unsigned char dynsize;
	unsigned char symsize, st_value, st_info, st_shndx;
};

#define LAYOUT(C) { C / 8, sizeof(Elf##C##_Ehdr), offsetof(Elf##C##_Ehdr, e_phoff), \
	offsetof(Elf##C##_Ehdr, e_phentsize), offsetof(Elf##C##_Ehdr, e_phnum), \
	sizeof(Elf##C##_Phdr), offsetof(Elf##C##_Phdr, p_offset), \
	offsetof(Elf##C##_Phdr, p_vaddr), offsetof(Elf##C##_Phdr, p_filesz), \
	sizeof(Elf##C##_Dyn), sizeof(Elf##C##_Sym), offsetof(Elf##C##_Sym, st_value), \
	offsetof(Elf##C##_Sym, st_info), offsetof(Elf##C##_Sym, st_shndx) }

static const struct layout elf32 = LAYOUT(32), elf64 = LAYOUT(64);

struct image {
	const unsigned char *p;
	size_t size;
	const struct layout *L;
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

/* An unsigned field of n bytes (2, 4 or 8) in the image's byte order, which
 * is the machine's own.  Values wider than size_t (ELF64 read by a 32-bit
 * program, tests only) wrap; what they lead to is bounds-checked all the
 * same. */
static size_t get(const unsigned char *p, size_t n)
{
	uint16_t h;
	uint32_t w;
	uint64_t x;

	switch (n) {
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&w, p, 4); return w;
	default: memcpy(&x, p, 8); return x;
	}
}

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
	size_t i = im->strtab + off;

	/* Byte by byte, each inside the table and the image: strlen would
	 * be linked into every static program for this alone. */
	for (; off < im->strsz && i < im->size; off++, i++, s++)
		if (im->p[i] != (unsigned char)*s)
			return 0;
		else if (!*s)
			return 1;
	return 0;
}

static int load_dynamic(struct image *im)
{
	const unsigned char *id = at(im, 0, 1, EI_NIDENT, 1), *eh, *ph, *q, *dyn = 0;
	const struct layout *L;
	size_t i, w, phnum, ndyn = 0;
	int have_load = 0;

	if (!id || memcmp(id, ELFMAG, SELFMAG))
		return 0;
	L = id[EI_CLASS] == ELFCLASS32 ? &elf32 : id[EI_CLASS] == ELFCLASS64 ? &elf64 : 0;
	if (!L || !(eh = at(im, 0, 1, L->ehsize, L->w)) ||
	    get(eh + L->phentsize, 2) != L->phsize)
		return 0;
	im->L = L;
	w = L->w;
	phnum = get(eh + L->phnum, 2);
	ph = at(im, get(eh + L->phoff, w), phnum, L->phsize, w);
	if (!ph)
		return 0;
	for (i = 0, q = ph; i < phnum; i++, q += L->phsize) {
		if (get(q, 4) == PT_LOAD && !have_load) {
			im->bias = get(q + L->p_offset, w) - get(q + L->p_vaddr, w);
			have_load = 1;
		} else if (get(q, 4) == PT_DYNAMIC) {
			ndyn = get(q + L->p_filesz, w) / L->dynsize;
			dyn = at(im, get(q + L->p_offset, w), ndyn, L->dynsize, w);
		}
	}
	if (!have_load || !dyn)
		return 0;

	for (i = 0, q = dyn; i < ndyn && get(q, w) != DT_NULL; i++, q += L->dynsize) {
		size_t val = get(q + w, w), off = val + im->bias;

		switch (get(q, w)) {
		case DT_STRTAB: im->strtab = off; break;
		case DT_STRSZ: im->strsz = val; break;
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

/* Is symbol i's version node named version?  Without version tables, any.
 * The version records are laid out alike in both classes. */
static int version_is(const struct image *im, size_t i, const char *version)
{
	const Elf64_Half *vs;
	size_t off = im->verdef, left;
	unsigned ndx;

	if (!im->versym || !im->verdef)
		return 1;
	vs = AT(im, im->versym + i * sizeof *vs, 1, Elf64_Half);
	if (!vs)
		return 0;
	ndx = *vs & 0x7fff;
	/* vd_next may loop; no image holds more entries than it has bytes. */
	for (left = im->size / sizeof(Elf64_Verdef); left; left--) {
		const Elf64_Verdef *vd = AT(im, off, 1, Elf64_Verdef);
		const Elf64_Verdaux *aux;

		if (!vd)
			return 0;
		if (!(vd->vd_flags & VER_FLG_BASE) && vd->vd_ndx == ndx) {
			aux = AT(im, off + vd->vd_aux, 1, Elf64_Verdaux);
			return aux && str_is(im, aux->vda_name, version);
		}
		if (!vd->vd_next)
			return 0;
		off += vd->vd_next;
	}
	return 0;
}

static void *match(const struct image *im, size_t i, const char *name, const char *version)
{
	const struct layout *L = im->L;
	const unsigned char *sym;
	unsigned info;
	size_t off;

	if (im->nsyms && i >= im->nsyms)
		return 0;
	sym = at(im, im->symtab + i * L->symsize, 1, L->symsize, L->w);
	if (!sym)
		return 0;
	info = sym[L->st_info];
	if (ST_TYPE(info) != STT_FUNC ||
	    (ST_BIND(info) != STB_GLOBAL && ST_BIND(info) != STB_WEAK) ||
	    get(sym + L->st_shndx, 2) == SHN_UNDEF ||
	    !str_is(im, get(sym, 4), name) || !version_is(im, i, version))
		return 0;
	off = get(sym + L->st_value, L->w) + im->bias;
	return off < im->size ? (void *)(im->p + off) : 0;
}

/* The table's entries are 32-bit but for s390x's ELF64 (VRANDOM_HASH_ENTRY). */
static void *lookup_sysv(struct image *im, const char *name, const char *version)
{
	size_t e = im->L->w == 8 ? sizeof(VRANDOM_HASH_ENTRY) : 4;
	const unsigned char *h = at(im, im->hash, 2, e, e), *bucket, *chain;
	size_t nbucket, nchain, i, left;
	void *fn;

	if (!h || !(nbucket = get(h, e)))
		return 0;
	nchain = get(h + e, e);
	bucket = at(im, im->hash + 2 * e, nbucket, e, e);
	chain = at(im, im->hash + (2 + nbucket) * e, nchain, e, e);
	if (!bucket || !chain)
		return 0;
	im->nsyms = nchain;
	/* A chain visits each symbol at most once unless the table loops. */
	i = get(bucket + elf_hash(name) % nbucket * e, e);
	for (left = nchain; i != STN_UNDEF && i < nchain && left;
	     left--, i = get(chain + i * e, e))
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
	off = im->gnu_hash + 4 * sizeof(uint32_t) + (size_t)gh[2] * im->L->w;
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

/* The live vDSO's size, read from its own program headers.  0 for an image
 * of another class than the process's: its code could not be called. */
size_t __vr_elf_extent(const void *base)
{
	const ElfW(Ehdr) *eh = base;
	const ElfW(Phdr) *ph;
	size_t end, i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS_NATIVE ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)))
		return 0;
	ph = (const void *)((const char *)base + eh->e_phoff);
	end = eh->e_phoff + (size_t)eh->e_phnum * sizeof *ph;
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	return end;
}

/* This process's vDSO getrandom, when the kernel maps one and its params
 * query returns 0 (the kernel's word: otherwise it is not to be used); *p
 * holds what the query wrote.  NULL on an architecture without one. */
void *__vr_vdso_getrandom(struct vr_params *p)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	void *fn = 0;

	memset(p, 0, sizeof *p);
#ifdef VRANDOM_VDSO_SYM
	if (base)
		fn = __vr_vdso_sym(base, __vr_elf_extent(base),
				   VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER);
	if (fn && VRANDOM_VDSO_CALL(fn, 0, 0, 0, p, ~0UL) != 0)
		fn = 0;
#endif
	(void)base;
	return fn;
}
