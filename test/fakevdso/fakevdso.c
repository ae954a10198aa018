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
	for (i = 0; i < len; i++)
		p[i] = 0x5a ^ flags;
	return len;
}
