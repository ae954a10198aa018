/* powerpc (32-bit): raw system calls and the vDSO getrandom entry point
 * (Linux 6.12, in an ELF32 vDSO), through the asm of abi.h, which checks
 * CR0.SO as on powerpc64. */

#define VRANDOM_VDSO_SYM "__kernel_getrandom"
#define VRANDOM_VDSO_VER "LINUX_2.6.15"
#define VRANDOM_CACHE_LINE 64

#include "../powerpc/abi.h"
