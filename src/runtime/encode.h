/* Text from random bytes, for the tool and the Lua module: lowercase hex,
 * base64 (RFC 4648: padded, or the URL alphabet without padding) and
 * version 4 UUIDs.  Each also works in place, with the bytes at the end
 * of the room for the text: every group of input is read before its
 * output is written, and the output never reaches input not yet read. */
#ifndef VRANDOM_ENCODE_H
#define VRANDOM_ENCODE_H

#include <stdint.h>

#include "base.h"

#define VR_B64STD "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
#define VR_B64URL "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/* 2n digits at d for the n bytes at s; in place when s == d + n.  Always
 * inline: GCC 12 -O2 once turned the Lua module's own copy, called from
 * two places, into stores based at address 0 and dropped the calls as
 * pure (hex strings came out as raw bytes). */
VR_INLINE size_t vr_hex(char *d, const unsigned char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = s[i];
		d[2 * i] = digits[c >> 4];
		d[2 * i + 1] = digits[c & 15];
	}
	return 2 * n;
}

/* The length of base64 for n bytes, with or without padding. */
static inline size_t vr_base64_len(size_t n, int pad)
{
	if (pad)
		return (n + 2) / 3 * 4;
	return n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
}

/* vr_base64_len(n, pad) characters of alphabet abc at d for the n bytes
 * at s; in place when s == d + vr_base64_len(n, pad) - n. */
static inline size_t vr_base64(char *d, const unsigned char *s, size_t n,
			       const char *abc, int pad)
{
	char *p = d;
	uint32_t v;

	for (; n >= 3; n -= 3, s += 3) {
		v = (uint32_t)s[0] << 16 | s[1] << 8 | s[2];
		*p++ = abc[v >> 18];
		*p++ = abc[v >> 12 & 63];
		*p++ = abc[v >> 6 & 63];
		*p++ = abc[v & 63];
	}
	if (n) {
		v = (uint32_t)s[0] << 16 | (n > 1 ? s[1] << 8 : 0);
		*p++ = abc[v >> 18];
		*p++ = abc[v >> 12 & 63];
		if (n > 1)
			*p++ = abc[v >> 6 & 63];
		if (pad) {
			if (n == 1)
				*p++ = '=';
			*p++ = '=';
		}
	}
	return p - d;
}

/* RFC 9562 version 4 from the 16 random bytes at b: 122 random bits,
 * version 0100, variant 10; 36 characters at d. */
static inline void vr_uuid(char *d, unsigned char *b)
{
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	d += vr_hex(d, b, 4);
	*d++ = '-';
	d += vr_hex(d, b + 4, 2);
	*d++ = '-';
	d += vr_hex(d, b + 6, 2);
	*d++ = '-';
	d += vr_hex(d, b + 8, 2);
	*d++ = '-';
	vr_hex(d, b + 10, 6);
}

#endif
