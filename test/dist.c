/* The C API's distributions (test/stats.h): vrandom_uniform at the die and
 * at the first bound of each width (uniform.h draws 1 byte up to 256, then
 * 2, 4, 8), one cell a value where that is affordable, and near 2^63 where
 * rejection matters most; every bit of vrandom_double, vrandom_u64 and
 * vrandom_u32.  Plain C, no Check: it also runs under qemu-user on 32-bit
 * targets, where uniform.h multiplies wide bounds in 32-bit halves.  Exit
 * 0 when all passed, 1 when one failed. */
#include <stdint.h>

#include "vrandom.h"
#include "tally.h"
#include "stats.h"

static uint64_t double_bits(void *ctx)
{
	(void)ctx;
	return (uint64_t)(vrandom_double() * 0x1p53);
}

static uint64_t u64_bits(void *ctx)
{
	(void)ctx;
	return vrandom_u64();
}

static uint64_t u32_bits(void *ctx)
{
	(void)ctx;
	return vrandom_u32();
}

int main(void)
{
	/* Just above a power of two half the draws are rejected; at 3 * 2^62
	 * plain modulo would give the lowest quarter twice its share. */
	static const uint64_t bounds[] = { 6, 129, 257, 32769, 65537,
		(1ull << 31) + 1, (1ull << 32) + 1, (1ull << 63) - 1,
		(1ull << 63) + 1, 3ull << 62, ~0ull };
	size_t i;

	for (i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
		CHECK(stat_uniform("vrandom_uniform", bounds[i], vrandom_uniform));
	CHECK(stat_bits("vrandom_double() * 2^53", 53, double_bits, 0));
	CHECK(stat_bits("vrandom_u64()", 64, u64_bits, 0));
	CHECK(stat_bits("vrandom_u32()", 32, u32_bits, 0));
	return tally_finish();
}
