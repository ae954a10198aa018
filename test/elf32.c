/* The vDSO lookup on ELF32 images, whatever this program's own class: the
 * synthetic images of test/fakevdso built by a 32-bit cross compiler with
 * 32-bit powerpc's symbol and version (GNU hash only, SysV hash only, a
 * wrong version node, cut off inside the dynamic table), then truncated
 * and corrupted copies.  Check-free, so it runs wherever the images can be
 * built; exits 77 (skip) where they were not.  vrandom reads the vDSO base
 * through getauxval(), which this program defines. */
#include <elf.h>
#include <errno.h>

#include "hostile.h"
#include "vdso.h"
#define FAKE_GETAUXVAL
#include "../fakevdso/fakevdso.h"

#define SYM "__kernel_getrandom"
#define VER "LINUX_2.6.15"

static const char *dir;

static const unsigned char *image(const char *variant, size_t *size)
{
	return fake_map_or_exit(dir, variant, size);
}

static void found(const char *variant)
{
	size_t size;
	const unsigned char *img = image(variant, &size), *fn;

	T(img[EI_CLASS] == ELFCLASS32);
	fn = __vr_vdso_sym(img, size, SYM, VER);
	T(fn && fn > img && fn < img + size);
	T(!__vr_vdso_sym(img, size, SYM, "LINUX_2.6.39"));
	T(!__vr_vdso_sym(img, size, "__vdso_getrandom", VER));
	T(!__vr_vdso_sym(img, size, SYM "x", VER));
	T(fake_survives_damage(img, size, SYM, VER));
}

static void not_found(const char *variant);

/* The mips linker writes its own DT_MIPS_XHASH for --hash-style=gnu, which
 * the lookup does not read (no vDSO uses it: mips has no vDSO getrandom):
 * there the image must be refused. */
#if defined __mips__
static void gnu(void) { not_found("32-gnu"); }
#else
static void gnu(void) { found("32-gnu"); }
#endif
static void sysv(void) { found("32-sysv"); }

static void not_found(const char *variant)
{
	size_t size;
	const unsigned char *img = image(variant, &size);

	T(!__vr_vdso_sym(img, size, SYM, VER));
	T(fake_survives_damage(img, size, SYM, VER));
}

static void badver(void) { not_found("32-badver"); }
static void damaged(void) { not_found("32-damaged"); }

/* As the live vDSO, an image of another class cannot be called: on a 64-bit
 * machine the ELF32 image is refused and the system call serves; on a
 * 32-bit one it is this machine's class, and (on powerpc) the fake's. */
static void live(void)
{
	struct vrandom_info i;
	unsigned char b[64];

	fake_base = image("32-gnu", 0);
	T(vrandom_get_info(&i) == 0);
	if (sizeof(void *) == 8) {
		T(__vr_elf_extent(fake_base) == 0);
		T(i.backend == VRANDOM_SYSCALL || i.backend == VRANDOM_URANDOM);
		memset(b, 0, sizeof b);
		T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
		T(looks_random(b, sizeof b));
	} else {
		T(__vr_elf_extent(fake_base) > 0);
	}
}

int main(int argc, char **argv)
{
	const uint16_t one = 1;
	const unsigned char *img;
	size_t size;

	dir = argc > 1 ? argv[1] : FAKEVDSO_DIR;
	img = fake_map(dir, "32-gnu", &size);
	if (!img) {
		printf("SKIP: no ELF32 images (%s/fakevdso-32-gnu.so: %s); "
		       "configure found no 32-bit cross compiler\n", dir, strerror(errno));
		return 77;
	}
	/* The lookup reads the machine's own byte order, as the kernel's is. */
	if (size < EI_NIDENT || img[EI_DATA] != (*(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB)) {
		printf("SKIP: the ELF32 images are of the other byte order\n");
		return 77;
	}
	t_init();
	t_case("ELF32 GNU hash image", gnu);
	t_case("ELF32 SysV hash image", sysv);
	t_case("ELF32 wrong version", badver);
	t_case("ELF32 cut in its dynamic table", damaged);
	t_case("ELF32 image as the live vDSO", live);
	return t_finish();
}
