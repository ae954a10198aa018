#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "raw.h"

int vr_raw_setup(struct vr_raw *r)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct vr_params p = { 0 };

	r->fn = 0;
#ifdef VRANDOM_VDSO_SYM
	if (base)
		r->fn = __vr_vdso_sym(base, __vr_elf_extent(base),
				      VRANDOM_VDSO_SYM, VRANDOM_VDSO_VER);
#endif
	(void)base;
	if (!r->fn || VRANDOM_VDSO_CALL(r->fn, 0, 0, 0, &p, ~0UL) != 0)
		return r->fn = 0, -1;
	r->state = mmap(0, sysconf(_SC_PAGESIZE), p.mmap_prot, p.mmap_flags, -1, 0);
	if (r->state == MAP_FAILED)
		return r->fn = 0, -1;
	r->state_size = p.size_of_opaque_state;
	return 0;
}
