/* powerpc (32-bit): raw system calls and the vDSO getrandom entry point
 * (Linux 6.12, in an ELF32 vDSO).
 *
 * As on powerpc64, the system call and the vDSO function report an error
 * as a positive errno in r3 with CR0.SO set; both go through asm that
 * turns it into -errno. */
#include <stddef.h>

#define VRANDOM_VDSO_SYM "__kernel_getrandom"
#define VRANDOM_VDSO_VER "LINUX_2.6.15"
#define VRANDOM_CACHE_LINE 64

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

/* A call the compiler cannot see.  The SysV ABI has no red zone, but the
 * callee stores the link register into its caller's frame (4 bytes above
 * r1): the asm pushes a frame of its own for that, and declares every
 * volatile register clobbered.  r2 (the thread pointer) is the callee's to
 * keep. */
static __inline long __vr_vdso_call(void *fn, void *buf, size_t len,
				    unsigned int flags, void *st, size_t stlen)
{
	register long r3 __asm__("r3") = (long)buf;
	register long r4 __asm__("r4") = (long)len;
	register long r5 __asm__("r5") = flags;
	register long r6 __asm__("r6") = (long)st;
	register long r7 __asm__("r7") = (long)stlen;
	register void *r12 __asm__("r12") = fn;

	__asm__ __volatile__ ("stwu 1, -32(1)\n\t"
			      "mtctr 12\n\t"
			      "bctrl\n\t"
			      "addi 1, 1, 32\n\t"
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
