#include <sys/mman.h>
#include <unistd.h>

#include "raw.h"

int vr_raw_setup(struct vr_raw *r)
{
	struct vr_params p;

	r->fn = __vr_vdso_getrandom(&p);
	if (!r->fn)
		return -1;
	r->state = mmap(0, sysconf(_SC_PAGESIZE), p.mmap_prot, p.mmap_flags, -1, 0);
	if (r->state == MAP_FAILED)
		return r->fn = 0, -1;
	r->state_size = p.size_of_opaque_state;
	return 0;
}
