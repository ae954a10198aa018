/* vdso.c: the kernel's getrandom in the vDSO, found by name and version in
 * its ELF image, and what its params query said. */
#ifndef VRANDOM_VDSO_H
#define VRANDOM_VDSO_H

#include <stdint.h>

#include "base.h"

/* Only powerpc needs a stub: its vDSO reports errors in CR0.SO. */
typedef ssize_t (*vr_vgetrandom_fn)(void *, size_t, unsigned int, void *, size_t);
#ifndef VRANDOM_VDSO_CALL
#define VRANDOM_VDSO_CALL(fn, buf, len, flags, st, stlen) \
	((vr_vgetrandom_fn)(fn))(buf, len, flags, st, stlen)
#define VRANDOM_VDSO_PLAIN_CALL 1   /* a C call serves: LuaJIT's FFI may make it */
#endif

/* What the vDSO's params query (NULL, 0, 0, &params, ~0UL) writes. */
struct vr_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

/* The size of the live vDSO's image at base; 0 if it is not of this
 * process's ELF class. */
VR_HIDDEN size_t __vr_elf_extent(const void *base);
/* name@version in the ELF image [img, img + size), or NULL. */
VR_HIDDEN void *__vr_vdso_sym(const void *img, size_t size,
			      const char *name, const char *version);
/* This process's vDSO getrandom when its params query returns 0, with
 * what the query wrote in *p; else NULL. */
VR_HIDDEN void *__vr_vdso_getrandom(struct vr_params *p);

/* The function in use and its params, set once by rng.c's setup before
 * any state exists (NULL and zeros without the vDSO). */
VR_HIDDEN extern void *__vr_vdso_fn;
VR_HIDDEN extern struct vr_params __vr_params;

/* A state keyed with zeros.  The vDSO reseeds a state by the getrandom
 * system call, which writes the key into the state's page after the vDSO
 * wrote the new generation there.  Dropped in between, the page may read
 * back with that generation and without the key (measured under qemu and
 * in a VM with PTI: doc/design.md, Limits and security notes).  The vDSO
 * then serves ChaCha20 under a zero key, a stream anyone can compute:
 * an answer under 64 bytes starts with block 0 or block 2 of it (vdso.c
 * says why), whose first bytes are these; a longer one is checked whole. */
#define VR_ZERO_KEY_BYTE0 0x76
#define VR_ZERO_KEY_BYTE2 0x2d
/* Built for size (firmware), the vDSO is asked for 63 bytes at most a
 * call (__vr_vdso_read loops): its answers start at block 0 or 2 only,
 * two constants, and the block function that checks longer ones stays out
 * of the image. */
#ifdef __OPTIMIZE_SIZE__
#define VR_VDSO_MAX 63
#else
#define VR_VDSO_MAX ((size_t)-1)
#endif
/* r bytes the vDSO wrote at buf, len >= 64 (r <= len; never built for
 * size) or the first of them one of the bytes above: r again when they did
 * not come from a zero key, else the state wiped (it reseeds at its next
 * call) and the system call's answer for the request. */
VR_HIDDEN ssize_t __vr_zero_keyed(void *mem, void *buf, size_t len, unsigned int flags,
				  ssize_t r);

/* The vDSO on the state at mem, whatever a zero key gave taken back.  Its
 * answer is positive as a rule: the compare stays on the straight path.
 * Inline where speed counts; built for size, one copy (vdso.c) that the
 * callers reach by a plain call, which asks VR_VDSO_MAX bytes at a time. */
VR_INLINE ssize_t vr_vdso_read_inline(void *mem, void *buf, size_t len, unsigned int flags)
{
	const unsigned char *b = buf;
	ssize_t r = VRANDOM_VDSO_CALL(__vr_vdso_fn, buf, len, flags, mem,
				      __vr_params.size_of_opaque_state);

	/* A switch: GCC merges || of the compares into setcc and or. */
	if (likely(r > 0))
		switch (*b) {
		case VR_ZERO_KEY_BYTE0:
		case VR_ZERO_KEY_BYTE2:
			goto check;
		default:
			if (VR_VDSO_MAX >= 64 && unlikely(len >= 64))
				goto check;
		}
	return r;
check:
	return __vr_zero_keyed(mem, buf, len, flags, r);
}
#ifdef __OPTIMIZE_SIZE__
VR_HIDDEN ssize_t __vr_vdso_read(void *mem, void *buf, size_t len, unsigned int flags);
#else
#define __vr_vdso_read vr_vdso_read_inline
#endif

#endif
