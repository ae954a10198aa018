/* x86_64: raw system calls and the vDSO getrandom entry point. */

#define VRANDOM_VDSO_SYM "__vdso_getrandom"
#define VRANDOM_VDSO_VER "LINUX_2.6"
#define VRANDOM_CACHE_LINE 64

static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	unsigned long ret;
	__asm__ __volatile__ ("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b),
			      "d"(c) : "rcx", "r11", "memory");
	return ret;
}
