/* s390x: raw system calls and the vDSO getrandom entry point. */

#define VRANDOM_VDSO_SYM "__kernel_getrandom"
#define VRANDOM_VDSO_VER "LINUX_2.6.29"
#define VRANDOM_CACHE_LINE 256
/* The one ABI whose SysV hash table has 64-bit entries. */
#define VRANDOM_HASH_ENTRY uint64_t

static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	register long r1 __asm__("r1") = n;
	register long r2 __asm__("r2") = a;
	register long r3 __asm__("r3") = b;
	register long r4 __asm__("r4") = c;

	__asm__ __volatile__ ("svc 0" : "+r"(r2) : "r"(r1), "r"(r3), "r"(r4)
			      : "memory");
	return r2;
}
