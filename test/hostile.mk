# Hostile environments: seccomp filters, no address space, no descriptors,
# the pool under threads and forks (for TSan), its pages dropped by the
# kernel (and under mlockall), and the vDSO call path
# against synthetic images (Check-free, so the cross builds run it under
# qemu-user).  Each prints "N passed, N failed".

hostile_cflags = $(AM_CFLAGS) -I$(srcdir)/test/hostile
EXTRA_DIST += test/hostile/hostile.h

check_PROGRAMS += test/hostile/closed_fds test/hostile/rlimit test/hostile/fake_vdso \
	test/hostile/threads test/hostile/drop test/hostile/million \
	test/hostile/signals
TESTS += test/hostile/closed_fds test/hostile/rlimit test/hostile/fake_vdso \
	test/hostile/threads test/hostile/drop test/hostile/million \
	test/hostile/signals
test_hostile_closed_fds_CFLAGS = $(hostile_cflags)
test_hostile_closed_fds_LDADD = libvrandom.la
test_hostile_rlimit_CFLAGS = $(hostile_cflags)
test_hostile_rlimit_LDADD = libvrandom.la
test_hostile_threads_CFLAGS = $(hostile_cflags)
test_hostile_threads_LDADD = libvrandom.la
test_hostile_drop_CFLAGS = $(hostile_cflags)
test_hostile_drop_LDADD = libvrandom.la
test_hostile_million_CFLAGS = $(hostile_cflags)
test_hostile_million_LDADD = libvrandom.la
test_hostile_signals_CFLAGS = $(hostile_cflags)
test_hostile_signals_LDADD = libvrandom.la
# Linked with the runtime's objects, so that its own getauxval() is the one
# vrandom calls; the images are the ones test/local.mk builds.
test_hostile_fake_vdso_CFLAGS = $(hostile_cflags) \
	-DFAKEVDSO_DIR='"$(abs_builddir)/test"'
test_hostile_fake_vdso_LDADD = libvrandom-core.la
EXTRA_test_hostile_fake_vdso_DEPENDENCIES = $(FAKEVDSO_IMAGES)
# Properties through the same images: states wiped between holders, the
# threshold as measured (its own clock_gettime, as fake_vdso's getauxval).
check_PROGRAMS += test/hostile/props
TESTS += test/hostile/props
test_hostile_props_CFLAGS = $(test_hostile_fake_vdso_CFLAGS)
test_hostile_props_LDADD = libvrandom-core.la
EXTRA_test_hostile_props_DEPENDENCIES = $(FAKEVDSO_IMAGES)
# The ELF reader against the images cut and corrupted beside guard pages.
check_PROGRAMS += test/hostile/elf_guard
TESTS += test/hostile/elf_guard
test_hostile_elf_guard_LDADD = libvrandom-core.la
if HAVE_FAKEVDSO32
test_hostile_elf_guard_CFLAGS = $(test_hostile_fake_vdso_CFLAGS) -DWITH_ELF32
EXTRA_test_hostile_elf_guard_DEPENDENCIES = $(FAKEVDSO_IMAGES) $(FAKEVDSO32_IMAGES)
else
test_hostile_elf_guard_CFLAGS = $(test_hostile_fake_vdso_CFLAGS)
EXTRA_test_hostile_elf_guard_DEPENDENCIES = $(FAKEVDSO_IMAGES)
endif

if HAVE_SECCOMP
check_PROGRAMS += test/hostile/seccomp
TESTS += test/hostile/seccomp
test_hostile_seccomp_CFLAGS = $(hostile_cflags)
test_hostile_seccomp_LDADD = libvrandom.la $(SECCOMP_LIBS)
else
# Without libseccomp the filters' tests are a SKIP, not silence.
TESTS += test/no-seccomp.sh
endif
EXTRA_DIST += test/no-seccomp.sh
