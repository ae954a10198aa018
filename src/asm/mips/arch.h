/* mips o32: raw system calls.  No vDSO getrandom on mips. */

#define VRANDOM_CACHE_LINE 64

/* The kernel flags an error in a3 and leaves a positive errno in v0.  v0
 * is loaded right before the syscall instruction, where a restarted call
 * expects the number to be set.  Every temporary register may change. */
static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	register long v0 __asm__("$2");
	register long a0 __asm__("$4") = a;
	register long a1 __asm__("$5") = b;
	register long a2 __asm__("$6") = c;
	register long a3 __asm__("$7");

	__asm__ __volatile__ ("addu $2, $0, %2\n\tsyscall"
			      : "=&r"(v0), "=r"(a3)
			      : "r"(n), "r"(a0), "r"(a1), "r"(a2)
			      : "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13",
				"$14", "$15", "$24", "$25", "hi", "lo", "memory");
	return a3 ? -v0 : v0;
}
