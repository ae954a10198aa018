/* loongarch64: raw system calls and the vDSO getrandom entry point. */

#define VRANDOM_VDSO_SYM "__vdso_getrandom"
#define VRANDOM_VDSO_VER "LINUX_5.10"
#define VRANDOM_CACHE_LINE 64

/* The kernel may clobber every temporary register across a system call. */
static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	register long a7 __asm__("$a7") = n;
	register long a0 __asm__("$a0") = a;
	register long a1 __asm__("$a1") = b;
	register long a2 __asm__("$a2") = c;

	__asm__ __volatile__ ("syscall 0" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2)
			      : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6",
				"$t7", "$t8", "memory");
	return a0;
}
