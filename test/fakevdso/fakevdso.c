/* A stand-in for the kernel's vDSO getrandom, linked like a real vDSO (one
 * PT_LOAD, versioned dynamic symbols) so the lookup can be tested against
 * images whose contents the test knows.  It fills buffers with a pattern
 * that reveals the flags it was called with; it is no random generator. */
#define EFAULT 14
#define EINVAL 22

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
	/* A state keyed with zeros, as the kernel's vDSO serves it when the
	 * key it reseeds with is lost (src/runtime/vdso.h): ChaCha20's block 0
	 * under a zero key, from where the state's first byte says, until the
	 * state is wiped; the pattern after the block.  The state keeps the
	 * next key meanwhile, as the kernel's does (block 1, bytes 32 on). */
	{
		static const unsigned char zero_key_block[64] = {
			0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86, 0xbd, 0x28,
			0xbd, 0xd2, 0x19, 0xb8, 0xa0, 0x8d, 0xed, 0x1a, 0xa8, 0x36, 0xef, 0xcc, 0x8b, 0x77, 0x0d, 0xc7,
			0xda, 0x41, 0x59, 0x7c, 0x51, 0x57, 0x48, 0x8d, 0x77, 0x24, 0xe0, 0x3f, 0xb8, 0xd8, 0x4a, 0x37,
			0x6a, 0x43, 0xb8, 0xf4, 0x15, 0x18, 0xa1, 0x1c, 0xc3, 0x87, 0xb6, 0x69, 0xb2, 0xee, 0x65, 0x86,
		};
		static const unsigned char next_key[8] = { 0x29, 0xb7, 0x21, 0x76, 0x9c, 0xe6, 0x4e, 0x43 };
		unsigned char *pos = st;
		unsigned long at = *pos;

		for (i = 0; i < len; i++, at++)
			p[i] = at < 64 ? zero_key_block[at] : 0x5a ^ flags;
		*pos = at < 64 ? at : 64;
		for (i = 0; i < sizeof next_key; i++)
			pos[101 + i] = next_key[i];
		return len;
	}
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
