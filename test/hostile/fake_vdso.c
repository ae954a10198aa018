/* The vDSO call path against the synthetic images, without Check, so that
 * it runs under qemu-user too, where there is no real vDSO: the lookup on
 * this target's symbol and version, the call itself through the
 * architecture's VRANDOM_VDSO_CALL (powerpc's CR0.SO stub included), and
 * the fallback when the image will not do.  vrandom reads the vDSO base
 * through getauxval(), which this program defines. */
#include <errno.h>

#include "hostile.h"
#include "vdso.h"
#define FAKE_GETAUXVAL
#include "../fakevdso/fakevdso.h"

#if defined __has_include
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif


static const char *dir;

static void use_image(const char *variant)
{
	fake_base = fake_map_or_exit(dir, variant, 0);
}

static void served(const char *variant)
{
	struct vrandom_info i;
	vrandom_state *st;

	use_image(variant);
	T(vrandom_get_info(&i) == 0);
	T(i.backend == VRANDOM_VDSO);
	T(i.vdso_symbol && !strcmp(i.vdso_symbol, VRANDOM_VDSO_SYM));
	T(i.state_size == 200);
	T(i.state_stride % VRANDOM_CACHE_LINE == 0);
	T(fake_served(0, 0));
	T(fake_served(0, GRND_NONBLOCK));
	st = vrandom_state_new();
	T(st != 0);
	T(fake_served(st, 0));
	vrandom_state_free(st);
}

/* The image is found but refused: the kernel's system call serves. */
static void refused(const char *variant)
{
	struct vrandom_info i;
	unsigned char b[64];

	use_image(variant);
	T(vrandom_get_info(&i) == 0);
	T(i.backend == VRANDOM_SYSCALL || i.backend == VRANDOM_URANDOM);
	memset(b, 0, sizeof b);
	T(vrandom_getrandom(b, sizeof b, 0) == sizeof b);
	T(looks_random(b, sizeof b));
	/* The kernel's error comes back as -1/errno whatever the arch's
	 * convention (powerpc: CR0.SO and a positive errno in r3).  valgrind
	 * would report the bad pointer passed on purpose. */
	errno = 0;
	if (!RUNNING_ON_VALGRIND)
		T(vrandom_getrandom((void *)16, sizeof b, 0) == -1 && errno == EFAULT);
}

static void gnu(void) { served("gnu"); }
static void sysv(void) { served("sysv"); }
static void badver(void) { refused("badver"); }
static void enosys(void) { refused("enosys"); }

#if defined __powerpc__
/* The kernel's error convention, by hand: a positive errno and CR0.SO. */
__asm__ (".pushsection .text\n.globl vr_so_error\n.type vr_so_error,@function\n"
	 "vr_so_error:\n\tli 3, 11\n\tcrset so\n\tblr\n"
	 ".size vr_so_error, .-vr_so_error\n"
	 ".globl vr_so_ok\n.type vr_so_ok,@function\n"
	 "vr_so_ok:\n\tmr 3, 4\n\tcrclr so\n\tblr\n"
	 ".size vr_so_ok, .-vr_so_ok\n.popsection\n");
void vr_so_error(void), vr_so_ok(void);

static void stub(void)
{
	char b[1];

	T(VRANDOM_VDSO_CALL((void *)vr_so_error, b, 40, 0, 0, 0) == -EAGAIN);
	T(VRANDOM_VDSO_CALL((void *)vr_so_ok, b, 40, 0, 0, 0) == 40);
}
#endif

int main(int argc, char **argv)
{
	t_init();
	dir = argc > 1 ? argv[1] : FAKEVDSO_DIR;
	t_case("GNU hash image serves", gnu);
	t_case("SysV hash image serves", sysv);
	t_case("wrong version: system call", badver);
	t_case("params query refused: system call", enosys);
#if defined __powerpc__
	t_case("CR0.SO error becomes -errno", stub);
#endif
	return t_finish();
}
