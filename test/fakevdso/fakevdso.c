/* A stand-in for the kernel's vDSO getrandom, linked like a real vDSO (one
 * PT_LOAD, versioned dynamic symbols) so the lookup can be tested against
 * images whose contents the test knows.  It fills buffers with a pattern
 * that reveals the flags it was called with; it is no random generator. */
#define EFAULT 14
#define EINVAL 22

#ifdef FAKE_ZERO_KEY
#include "chacha.h"
#include "kstate.h"

/* n blocks of ChaCha20 under the state's key, from *ctr on. */
static void fake_blocks(unsigned char *out, const struct fake_kstate *s,
			unsigned long long *ctr, unsigned long n)
{
	const unsigned char *k = s->key;
	uint32_t w[8];
	unsigned i;

	for (i = 0; i < 8; i++, k += 4)
		w[i] = k[0] | k[1] << 8 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 24;
	for (; n; n--, out += 64)
		vr_chacha20_block(out, w, (*ctr)++);
}

/* A reseed as the vDSO makes it, in a page that was dropped: it reads back
 * empty but for the generation the vDSO stores before the system call
 * writes the key, and the key too unless it was lost.  The key that
 * arrives is a pattern here, not random bytes. */
static void fake_reseed(struct fake_kstate *s, int lost)
{
	volatile unsigned char *p = (unsigned char *)s;
	unsigned i;

	for (i = 0; i < FAKE_STATE_SIZE; i++)
		p[i] = 0;
	s->generation = FAKE_GENERATION;
	for (i = 0; !lost && i < sizeof s->key; i++)
		s->key[i] = 0xa5 ^ i;
	s->pos = sizeof s->batch;
}

/* The kernel's vDSO getrandom, step for step as lib/vdso/getrandom.c takes
 * them, where the key a reseed writes is lost (src/runtime/vdso.h).
 * FAKE_ZERO_KEY 1: on the call's first pass, which then serves ChaCha20
 * under a zero key from block 0.  2: on its second, after the page was
 * dropped before the first returned (the first's reseed kept its key); the
 * block counter goes on from where the first pass left it. */
static long fake_zero_keyed(unsigned char *buf, unsigned long len, struct fake_kstate *s)
{
	unsigned long long ctr = 0;
	unsigned long left, n, i;
	unsigned char *out;
	int pass = 0;

	if (s->generation != FAKE_GENERATION)
		fake_reseed(s, FAKE_ZERO_KEY == 1);
	for (;;) {
		out = buf, left = len;
		for (;;) {
			n = sizeof s->batch - s->pos;
			n = n < left ? n : left;
			for (i = 0; i < n; i++) {
				out[i] = s->batch[s->pos + i];
				s->batch[s->pos + i] = 0;
			}
			s->pos += n, out += n, left -= n;
			if (!left)
				break;
			n = left / 64;
			fake_blocks(out, s, &ctr, n);
			out += 64 * n, left -= 64 * n;
			fake_blocks(s->batch_key, s, &ctr, 2);
			s->pos = 0;
		}
		if (FAKE_ZERO_KEY == 1 || pass++)
			return len;
		fake_reseed(s, 1);
	}
}
#endif

struct params {
	unsigned int size, prot, flags, reserved[13];
};

long FAKE_SYM(void *buf, unsigned long len, unsigned int flags, void *st, unsigned long stlen)
{
	unsigned char *p = buf;
	unsigned long i;

	if (!buf && !len && !flags && stlen == ~0UL) {
		struct params *q = st;

		if (FAKE_PARAMS_RET)
			return FAKE_PARAMS_RET;
		q->size = FAKE_STATE_SIZE;
		q->prot = 0x3;          /* PROT_READ|PROT_WRITE */
		q->flags = 0x22;        /* MAP_PRIVATE|MAP_ANONYMOUS */
		for (i = 0; i < 13; i++)
			q->reserved[i] = 0;
		return 0;
	}
	/* What the kernel checks, plus the cache-line alignment vrandom promises. */
	if (stlen != FAKE_STATE_SIZE)
		return -EINVAL;
	if (((unsigned long)st & 4095) + FAKE_STATE_SIZE > 4096 || ((unsigned long)st & 63))
		return -EFAULT;
#ifdef FAKE_ZERO_KEY
	return fake_zero_keyed(buf, len, st);
#endif
#ifdef FAKE_ECHO
	/* The state it was handed, for the tests of the pool: its bytes come
	 * first (a fresh or wiped state reads 0), then it is marked 0xa5, as
	 * a kernel's key and generation would mark it. */
	{
		unsigned char *s = st;

		for (i = 0; i < len; i++)
			p[i] = i < stlen ? s[i] : 0x5a ^ flags;
		for (i = 0; i < stlen; i++)
			s[i] = 0xa5;
		return len;
	}
#endif
	for (i = 0; i < len; i++)
		p[i] = 0x5a ^ flags;
	return len;
}
