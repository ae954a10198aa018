/* Raw seccomp filters for the static musl tests: musl ships no
 * <linux/filter.h> or <linux/seccomp.h>, and libseccomp is built for
 * glibc.  A filter is a list of classic BPF instructions over struct
 * seccomp_data: the system call number at offset 0, args[] from 16. */
#ifndef VRANDOM_BPF_H
#define VRANDOM_BPF_H

#include <stdint.h>
#include <sys/prctl.h>

struct bpf_insn { uint16_t code; uint8_t jt, jf; uint32_t k; };
struct bpf_prog { unsigned short len; struct bpf_insn *insns; };

#define LD_ABS 0x20
#define JEQ 0x15
#define JSET 0x45
#define RET 0x06
#define RET_ALLOW 0x7fff0000u
#define RET_ERRNO 0x00050000u
#define RET_TRACE 0x7ff00000u
/* The low half of args[n]. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG_LOW(n) (16 + (n) * 8 + 4)
#else
#define ARG_LOW(n) (16 + (n) * 8)
#endif

/* 0, or -1 where seccomp is not available (then the caller skips). */
static inline int bpf_install(struct bpf_insn *f, unsigned short n)
{
	struct bpf_prog prog = { n, f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, 2, &prog, 0, 0))
		return -1;
	return 0;
}

/* One system call gets action; everything else is allowed. */
static inline int bpf_one(long nr, uint32_t action)
{
	struct bpf_insn f[] = {
		{ LD_ABS, 0, 0, 0 },
		{ JEQ, 0, 1, nr },
		{ RET, 0, 0, action },
		{ RET, 0, 0, RET_ALLOW },
	};

	return bpf_install(f, sizeof f / sizeof f[0]);
}

/* One system call answers err; everything else is allowed. */
static inline int bpf_deny(long nr, int err)
{
	return bpf_one(nr, RET_ERRNO | err);
}

#endif
