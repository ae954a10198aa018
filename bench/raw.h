/* The reference the benchmarks compare with: the kernel's vDSO function
 * called directly, with one state of our own and nothing around it. */
#ifndef VRANDOM_BENCH_RAW_H
#define VRANDOM_BENCH_RAW_H

#include "vdso.h"

struct vr_raw {
	void *fn, *state;
	size_t state_size;
};

/* 0, or -1 where the vDSO has no usable getrandom. */
int vr_raw_setup(struct vr_raw *r);

static inline ssize_t vr_raw_call(const struct vr_raw *r, void *buf, size_t len)
{
	return VRANDOM_VDSO_CALL(r->fn, buf, len, 0, r->state, r->state_size);
}

#endif
