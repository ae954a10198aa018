/* aarch64: raw system calls and the vDSO getrandom entry point. */

#define VRANDOM_VDSO_SYM "__kernel_getrandom"
#define VRANDOM_VDSO_VER "LINUX_2.6.39"
#define VRANDOM_CACHE_LINE 64

static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;

	__asm__ __volatile__ ("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2)
			      : "memory", "cc");
	return x0;
}
