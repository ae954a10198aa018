/* The benchmark behind `make bench` and `vrandom bench`: vrandom, a raw
 * vDSO call, the system call and /dev/urandom, interleaved in one process. */
#ifndef VRANDOM_BENCH_H
#define VRANDOM_BENCH_H

#include <stdio.h>

struct vr_bench_opts {
	int quick;      /* fewer rounds, shorter samples */
	int csv;        /* size,vrandom_ns,vdso_ns,syscall_ns,urandom_ns rows */
	int progress;   /* a progress line on stderr */
};

/* Call before anything else in the process uses vrandom: the first-call
 * figure is taken in forked children that must start uninitialised.
 * Returns 0, or -1 with errno when a measurement could not be made. */
int vr_bench(FILE *out, const struct vr_bench_opts *o);

#endif
