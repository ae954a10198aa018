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

/* The first-call figure comes from new processes that run this program
 * again (/proc/self/exe) and stop in a constructor before main().
 * Returns 0, or -1 with errno when vrandom itself could not be measured. */
int vr_bench(FILE *out, const struct vr_bench_opts *o);

#endif
