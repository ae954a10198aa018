/* The powerpc calls, for both word sizes (included by powerpc/arch.h and
 * powerpc64/arch.h).  The system call and the vDSO function report an
 * error the same way: a positive errno in r3 with CR0.SO set.  Called as a
 * plain C function, the vDSO's EAGAIN would read as "11 bytes written", so
 * both go through asm that turns it into -errno. */
#include <stddef.h>

static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	register long r0 __asm__("r0") = n;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;

	__asm__ __volatile__ ("sc\n\tbns+ 1f\n\tneg %1, %1\n1:"
			      : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
			      : : "r6", "r7", "r8", "r9", "r10", "r11", "r12",
				"ctr", "xer", "cr0", "memory");
	return r3;
}

/* The frame around the call.  ELFv2 (powerpc64): beyond the 288-byte red
 * zone and the callee's save area (the compiler may keep locals below r1,
 * and the callee stores the link register into its caller's frame), with
 * the TOC pointer kept.  32-bit SysV: no red zone, but the callee stores
 * the link register 4 bytes above r1; r2, the thread pointer, is the
 * callee's to keep. */
#ifdef __powerpc64__
#define VR_PPC_PUSH "stdu 1, -400(1)\n\tstd 2, 24(1)\n\t"
#define VR_PPC_POP "ld 2, 24(1)\n\taddi 1, 1, 400\n\t"
#else
#define VR_PPC_PUSH "stwu 1, -32(1)\n\t"
#define VR_PPC_POP "addi 1, 1, 32\n\t"
#endif
#ifdef _SOFT_FLOAT
#define VR_PPC_FP
#else
#define VR_PPC_FP , "fr0", "fr1", "fr2", "fr3", "fr4", "fr5", "fr6", "fr7", \
	"fr8", "fr9", "fr10", "fr11", "fr12", "fr13"
#endif
#ifdef __ALTIVEC__
#define VR_PPC_VEC , "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", \
	"v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19"
#else
#define VR_PPC_VEC
#endif

/* A call the compiler cannot see, so the asm does what a caller must: the
 * frame above, the entry address in r12 (as ELFv2 wants), and every
 * volatile register declared clobbered. */
static __inline long __vr_vdso_call(void *fn, void *buf, size_t len,
				    unsigned int flags, void *st, size_t stlen)
{
	register long r3 __asm__("r3") = (long)buf;
	register long r4 __asm__("r4") = (long)len;
	register long r5 __asm__("r5") = flags;
	register long r6 __asm__("r6") = (long)st;
	register long r7 __asm__("r7") = (long)stlen;
	register void *r12 __asm__("r12") = fn;

	__asm__ __volatile__ (VR_PPC_PUSH
			      "mtctr 12\n\t"
			      "bctrl\n\t"
			      VR_PPC_POP
			      "bns+ 1f\n\t"
			      "neg 3, 3\n"
			      "1:"
			      : "+r"(r3), "+r"(r4), "+r"(r5), "+r"(r6), "+r"(r7),
				"+r"(r12)
			      : : "r0", "r8", "r9", "r10", "r11", "ctr", "lr",
				"xer", "cr0", "cr1", "cr5", "cr6", "cr7", "memory"
				VR_PPC_FP VR_PPC_VEC);
	return r3;
}

#define VRANDOM_VDSO_CALL(fn, buf, len, flags, st, stlen) \
	__vr_vdso_call(fn, buf, len, flags, st, stlen)
