/* powerpc64: raw system calls and the vDSO getrandom entry point, through
 * the asm of ../powerpc/abi.h, which checks CR0.SO. */

#define VRANDOM_VDSO_SYM "__kernel_getrandom"
#define VRANDOM_VDSO_VER "LINUX_2.6.15"
#define VRANDOM_CACHE_LINE 128

#include "../powerpc/abi.h"
