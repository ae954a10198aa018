/* The libc shim's arc4random family, byte by byte: each of arc4random's
 * four bytes takes nearly every value over 4000 calls (some 255.8 of 256
 * expected; fewer than 200 has odds below 10^-40), and so does each byte
 * of arc4random_buf's output at every offset of a 16-byte request; and
 * arc4random_uniform above 2^31 reaches its upper half.  What musl-shim's
 * semantics and distributions leave open: a byte left unwritten. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

uint32_t arc4random(void);
void arc4random_buf(void *, size_t);
uint32_t arc4random_uniform(uint32_t);

int main(void)
{
	static unsigned char seen[4][256], seenbuf[16][256];
	unsigned char b[16];
	size_t i, k, fewest = 256, fewestbuf = 256, d, high = 0;
	int passed = 0, failed = 0;

	for (i = 0; i < 4000; i++) {
		uint32_t v = arc4random();

		for (k = 0; k < 4; k++)
			seen[k][v >> 8 * k & 255] = 1;
		arc4random_buf(b, sizeof b);
		for (k = 0; k < 16; k++)
			seenbuf[k][b[k]] = 1;
		high += arc4random_uniform(3u << 30) >= 1u << 31;
	}
	for (k = 0; k < 16; k++) {
		for (i = d = 0; i < 256; i++)
			d += seenbuf[k][i];
		fewestbuf = d < fewestbuf ? d : fewestbuf;
		if (k < 4) {
			for (i = d = 0; i < 256; i++)
				d += seen[k][i];
			fewest = d < fewest ? d : fewest;
		}
	}
	printf("fewest values of a byte: arc4random %zu, arc4random_buf %zu; "
	       "arc4random_uniform(3 * 2^30) >= 2^31: %zu of 4000\n", fewest, fewestbuf, high);
	/* One third expected (1333, sd 30): 1000 is 11 sd away. */
	fewest >= 200 ? passed++ : failed++;
	fewestbuf >= 200 ? passed++ : failed++;
	high >= 1000 && high <= 1700 ? passed++ : failed++;
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
