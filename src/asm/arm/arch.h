/* arm (32-bit EABI): raw system calls.  The kernel has no vDSO getrandom
 * for 32-bit arm (VDSO_GETRANDOM is selected by arm64 only), so there is
 * no symbol to look for and every call is the system call. */

#define VRANDOM_CACHE_LINE 64

/* The number goes in r7, which Thumb code may keep its frame pointer in:
 * it is saved in a scratch register around the call, whatever the mode. */
static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	long saved;

	__asm__ __volatile__ ("mov %1, r7\n\tmov r7, %2\n\tsvc 0\n\tmov r7, %1"
			      : "+r"(r0), "=&r"(saved)
			      : "r"(n), "r"(r1), "r"(r2) : "memory");
	return r0;
}
