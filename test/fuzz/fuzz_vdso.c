/* libFuzzer harness for the vDSO lookup: arbitrary bytes as the image, of
 * either ELF class, looked up with every architecture's symbol and version.  The image is
 * copied to a heap block of exactly its size, so ASan reports the first
 * byte read outside it; what the lookup returns must point inside it.
 * Build with -DVRANDOM_HASH_ENTRY=uint64_t for s390x's SysV hash table. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vdso.h"

static const char *const wanted[][2] = {
	{ "__vdso_getrandom", "LINUX_2.6" },      /* x86_64 */
	{ "__kernel_getrandom", "LINUX_2.6.39" }, /* aarch64 */
	{ "__kernel_getrandom", "LINUX_2.6.15" }, /* powerpc64, powerpc (ELF32) */
	{ "__kernel_getrandom", "LINUX_2.6.29" }, /* s390x */
	{ "__vdso_getrandom", "LINUX_5.10" },     /* loongarch64 */
	{ "__vdso_getrandom", "LINUX_4.15" },     /* riscv64 */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *img = malloc(size ? size : 1);
	size_t i;

	if (!img)
		return 0;
	memcpy(img, data, size);
	for (i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
		unsigned char *p = __vr_vdso_sym(img, size, wanted[i][0], wanted[i][1]);

		if (p && (p < img || p >= img + size))
			abort();
	}
	free(img);
	return 0;
}
