/* arch.h for builds without configure (the rockspec): the one choice that
 * configure makes by $host_cpu, made here by the compiler's own macros.
 * Targets without a layer of their own get the generic one, as there. */
#if !defined __has_include
# include "../../asm/generic/arch.h"
#elif defined __LP64__ && !defined __ILP32__
# if defined __x86_64__ && __has_include("../../asm/x86_64/arch.h")
#  include "../../asm/x86_64/arch.h"
# elif defined __aarch64__ && __has_include("../../asm/aarch64/arch.h")
#  include "../../asm/aarch64/arch.h"
# elif defined __riscv && __has_include("../../asm/riscv64/arch.h")
#  include "../../asm/riscv64/arch.h"
# elif defined __loongarch64 && __has_include("../../asm/loongarch64/arch.h")
#  include "../../asm/loongarch64/arch.h"
# elif defined __s390x__ && __has_include("../../asm/s390x/arch.h")
#  include "../../asm/s390x/arch.h"
# elif defined __powerpc64__ && __has_include("../../asm/powerpc64/arch.h")
#  include "../../asm/powerpc64/arch.h"
# else
#  include "../../asm/generic/arch.h"
# endif
#elif defined __i386__ && __has_include("../../asm/i386/arch.h")
# include "../../asm/i386/arch.h"
#elif defined __arm__ && __has_include("../../asm/arm/arch.h")
# include "../../asm/arm/arch.h"
#elif defined __mips__ && defined _ABIO32 && _MIPS_SIM == _ABIO32 && \
	__has_include("../../asm/mips/arch.h")
# include "../../asm/mips/arch.h"
#elif defined __powerpc__ && __has_include("../../asm/powerpc/arch.h")
# include "../../asm/powerpc/arch.h"
#else
# include "../../asm/generic/arch.h"
#endif
