# Check suites, the synthetic vDSO images they load, and shell tests.

# The fake vDSO exports this target's symbol at its version (or a wrong one),
# both read from the architecture header so they cannot drift apart.
FAKEVDSO_IMAGES = test/fakevdso-gnu.so test/fakevdso-sysv.so \
	test/fakevdso-badver.so test/fakevdso-enosys.so
FAKEVDSO_STATE_SIZE = 200
FAKEVDSO_CC = $(CC) -shared -nostdlib -fPIC -O2 -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-builtin -Wl,--build-id=none \
	-DFAKE_STATE_SIZE=$(FAKEVDSO_STATE_SIZE) \
	-Wl,-T,$(srcdir)/test/fakevdso/fakevdso.lds
arch_h = $(srcdir)/src/asm/$(VR_ARCH)/arch.h
vdso_sym = `sed -n 's/^\#define VRANDOM_VDSO_SYM "\(.*\)"/\1/p' $(arch_h)`
vdso_ver = `sed -n 's/^\#define VRANDOM_VDSO_VER "\(.*\)"/\1/p' $(arch_h)`
fakevdso_deps = $(srcdir)/test/fakevdso/fakevdso.c $(srcdir)/test/fakevdso/fakevdso.lds $(arch_h)

test/fakevdso-%.ver: $(arch_h)
	$(AM_V_GEN)mkdir -p test && \
	ver=$(vdso_ver); test $* != badver || ver=LINUX_0.1; \
	printf '%s {\n global: %s;\n local: *;\n};\n' "$$ver" $(vdso_sym) > $@

fakevdso_gnu = -DFAKE_PARAMS_RET=0 -Wl,--hash-style=gnu
fakevdso_sysv = -DFAKE_PARAMS_RET=0 -Wl,--hash-style=sysv
fakevdso_badver = -DFAKE_PARAMS_RET=0 -Wl,--hash-style=both
fakevdso_enosys = -DFAKE_PARAMS_RET=-38 -Wl,--hash-style=both
test/fakevdso-%.so: $(fakevdso_deps) test/fakevdso-%.ver
	$(AM_V_CCLD)$(FAKEVDSO_CC) -DFAKE_SYM=$(vdso_sym) $(fakevdso_$*) \
	  -Wl,--version-script=test/fakevdso-$*.ver -o $@ $(srcdir)/test/fakevdso/fakevdso.c

CLEANFILES += $(FAKEVDSO_IMAGES) test/fakevdso-*.ver
EXTRA_DIST += test/fakevdso/fakevdso.c test/fakevdso/fakevdso.lds test/no-check.sh \
	test/fakevdso/fakevdso.h test/check_main.h test/tally.h

if HAVE_CHECK
check_PROGRAMS += test/check_rng test/check_vdso
TESTS += test/check_rng test/check_vdso
test_check_rng_SOURCES = test/check_rng.c
test_check_rng_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_check_rng_LDADD = libvrandom.la $(CHECK_LIBS) -lm
test_check_vdso_SOURCES = test/check_vdso.c
test_check_vdso_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) \
	-DFAKEVDSO_DIR='"$(abs_builddir)/test"' \
	-DFAKEVDSO_STATE_SIZE=$(FAKEVDSO_STATE_SIZE)
# Linked with the runtime's objects, so the test's own getauxval() is the
# one vrandom calls, and the hidden parser can be tested directly.
test_check_vdso_LDADD = libvrandom-core.la $(CHECK_LIBS)
EXTRA_test_check_vdso_DEPENDENCIES = $(FAKEVDSO_IMAGES)
else
TESTS += test/no-check.sh
endif

# libvrandom.so loaded into a link namespace of its own (glibc's dlmopen,
# and an LD_AUDIT module linked with it).  The test program is not linked
# with the library: it loads the one just built.
if LIBC_GLIBC
check_PROGRAMS += test/namespace
TESTS += test/namespace
check_LTLIBRARIES = test/audit.la
test_audit_la_SOURCES = test/audit.c
test_audit_la_LIBADD = libvrandom.la
# -rpath: a check library is otherwise built static only.
test_audit_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)
test_namespace_CFLAGS = $(AM_CFLAGS) -I$(srcdir)/test/hostile \
	-DVRANDOM_SO='"$(abs_builddir)/.libs/libvrandom.so"' \
	-DVRANDOM_LIBDIR='"$(abs_builddir)/.libs"' \
	-DVRANDOM_AUDIT='"$(abs_builddir)/test/.libs/audit.so"'
EXTRA_test_namespace_DEPENDENCIES = libvrandom.la test/audit.la
endif
