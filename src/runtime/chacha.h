/* ChaCha20's block function, to recognise what the vDSO serves under a key
 * of zeros (vdso.c) and to serve it in the tests' fake vDSO.  It makes no
 * random bytes: every byte vrandom hands out comes from the kernel.  Plain
 * C without calls, so the fake, built without a libc, can use it too. */
#ifndef VRANDOM_CHACHA_H
#define VRANDOM_CHACHA_H

#include <stdint.h>

/* Block `block` of ChaCha20 under key (NULL: zeros), nonce zero, counted
 * as the vDSO counts: 64 bits in words 12 and 13.  Bytes little-endian,
 * as the vDSO writes them on every architecture. */
static inline void vr_chacha20_block(unsigned char out[64], const uint32_t *key,
				     uint64_t block)
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	uint32_t s[16], x[16];
	unsigned i, r, k, a, b, c, d, t;

	/* Word by word: an initializer may become a memset call, which the
	 * fake, linked without a libc, does not have. */
	for (i = 0; i < 16; i++)
		s[i] = i < 4 ? sigma[i] : 0;
	for (i = 0; key && i < 8; i++)
		s[4 + i] = key[i];
	s[12] = (uint32_t)block;
	s[13] = (uint32_t)(block >> 32);
	for (i = 0; i < 16; i++)
		x[i] = s[i];
	/* Quarter rounds on the columns, then the diagonals; each is four
	 * add, xor, rotate steps that trade (a, b, d) for (c, d, b). */
	for (r = 0; r < 80; r++) {
		i = r % 8;
		a = i % 4, b = 4 + (i + i / 4) % 4, c = 8 + (i + 2 * (i / 4)) % 4;
		d = 12 + (i + 3 * (i / 4)) % 4;
		for (k = 0; k < 4; k++) {
			x[a] += x[b];
			x[d] ^= x[a];
			x[d] = x[d] << "\20\14\10\7"[k] | x[d] >> (32 - "\20\14\10\7"[k]);
			t = a, a = c, c = t, t = b, b = d, d = t;
		}
	}
	for (i = 0; i < 64; i++)
		out[i] = (unsigned char)((x[i / 4] + s[i / 4]) >> (i % 4 * 8));
}

#endif
