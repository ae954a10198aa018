/* The libc shim's semantics, in a program linked with it ahead of libc:
 * musl's getrandom/getentropy (flags, EINVAL, EIO, cancellation) and
 * OpenBSD's arc4random family.  Exit 0 when all passed, 1 when one failed,
 * 99 when the test could not run.  `musl-shim arc4`: the arc4random
 * family alone, under qemu-user (no seccomp there for the early boot). */
#include <stdint.h>

#include "vrandom.h"
#include "libc-grnd.h"
#include "stats.h"

uint32_t arc4random(void);
void arc4random_buf(void *, size_t);
uint32_t arc4random_uniform(uint32_t);


/* The calls land in vrandom: this thread now holds a state of its pool. */
static void routed(void)
{
	struct vrandom_info i;
	unsigned char b[4];

	CHECK(getrandom(b, sizeof b, 0) == sizeof b);
	CHECK(vrandom_get_info(&i) == 0);
	printf("backend: %s, states in use %zu\n", i.backend_name, i.states_in_use);
	if (i.backend == VRANDOM_VDSO)
		CHECK(i.states_in_use == 1);
}

static uint64_t arc4_uniform(uint64_t bound)
{
	return arc4random_uniform((uint32_t)bound);
}

static void arc4(void)
{
	/* The die, and the widest bound it takes, where rejection is at its
	 * busiest (check_rng tests the widths of vrandom_uniform under it) */
	static const uint32_t bounds[] = { 6, 0x80000001u };
	unsigned char b[64 + 2] = { 0 };
	uint32_t big = 0x80000001u;
	int i, inrange = 1;

	arc4random_buf(b, 64);
	CHECK(memcmp(b + 56, "\0\0\0\0\0\0\0\0", 8) && !b[64] && !b[65]);
	arc4random_buf(b, 0);
	CHECK(arc4random() != arc4random() || arc4random() != arc4random());
	CHECK(arc4random_uniform(0) == 0);
	CHECK(arc4random_uniform(1) == 0);
	for (i = 0; i < 6000; i++)
		inrange &= arc4random_uniform(6) < 6 && arc4random_uniform(big) < big;
	CHECK(inrange);
	if (stat_away("arc4random_uniform(6), arc4random_uniform(2^31+1)"))
		return;
	for (i = 0; i < (int)(sizeof bounds / sizeof bounds[0]); i++)
		CHECK(stat_uniform("arc4random_uniform", bounds[i], arc4_uniform));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "arc4")) {
		arc4();
		return tally_finish();
	}
	no_cancel = arc4random_buf;
	early_boot();
	routed();
	flags();
	arc4();
	cancellation();
	return tally_finish();
}
