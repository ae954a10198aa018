/* A state laid out as the kernel's vDSO lays it out (lib/vdso/getrandom.c),
 * for the zero-key fakes and the tests that read or preset such a state. */
#ifndef VRANDOM_KSTATE_H
#define VRANDOM_KSTATE_H

struct fake_kstate {
	union {
		struct {
			unsigned char batch[96];  /* output made ahead */
			unsigned char key[32];
		};
		unsigned char batch_key[128]; /* the two blocks a refill writes */
	};
	unsigned long long generation;
	unsigned char pos, in_use;
};

/* The fake kernel's generation, which a reseed stores; never 0. */
#define FAKE_GENERATION 1

#endif
