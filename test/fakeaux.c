/* Preloaded (LD_PRELOAD) into a program that loads vrandom itself, a Lua
 * interpreter: getauxval answers AT_SYSINFO_EHDR with the synthetic vDSO
 * image FAKEVDSO_DIR/fakevdso-$VRANDOM_FAKE_VDSO.so, every other key as
 * the kernel did.  test/lua/jit.lua runs LuaJIT's dice on the zero-key
 * image through it. */
#include "fakevdso/fakevdso.h"

unsigned long getauxval(unsigned long type)
{
	static const void *base;
	const char *variant = getenv("VRANDOM_FAKE_VDSO");

	if (type != AT_SYSINFO_EHDR || !variant)
		return fake_real_auxval(type);
	if (!base)
		base = fake_map_or_exit(FAKEVDSO_DIR, variant, 0);
	return (unsigned long)base;
}
