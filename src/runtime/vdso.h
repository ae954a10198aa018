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

#endif
