/* i386: raw system calls.  No vDSO getrandom on 32-bit x86 (the kernel
 * selects VDSO_GETRANDOM for X86_64 only, and has no VM_DROPPABLE there). */

#define VRANDOM_CACHE_LINE 64

/* int $0x80 is slower than the vDSO's __kernel_vsyscall, but it needs no
 * lookup, and this path is taken only by requests the kernel serves anyway. */
static __inline long __vr_syscall3(long n, long a, long b, long c)
{
	long ret;

	__asm__ __volatile__ ("int $0x80" : "=a"(ret)
			      : "a"(n), "b"(a), "c"(b), "d"(c) : "memory");
	return ret;
}
