# Check suites, the synthetic vDSO images they load, and shell tests.

# The fake vDSO exports this target's symbol at its version (or a wrong one),
# both read from the architecture header so they cannot drift apart.
FAKEVDSO_IMAGES = test/fakevdso-gnu.so test/fakevdso-sysv.so \
	test/fakevdso-badver.so test/fakevdso-enosys.so test/fakevdso-zerokey.so \
	test/fakevdso-zeroretry.so test/fakevdso-echo.so
FAKEVDSO_STATE_SIZE = 200
FAKEVDSO_FLAGS = -shared -nostdlib -fPIC -O2 -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-builtin -Wl,--build-id=none \
	-DFAKE_STATE_SIZE=$(FAKEVDSO_STATE_SIZE) -I$(srcdir)/src/runtime \
	-Wl,-T,$(srcdir)/test/fakevdso/fakevdso.lds
FAKEVDSO_CC = $(CC) $(FAKEVDSO_FLAGS)
arch_h = $(srcdir)/src/asm/$(VR_ARCH)/arch.h
hdr_macro = `sed -n 's/^\#define VRANDOM_VDSO_$(2) "\(.*\)"/\1/p' $(1)`
vdso_sym = $(call hdr_macro,$(arch_h),SYM)
vdso_ver = $(call hdr_macro,$(arch_h),VER)
fakevdso_deps = $(srcdir)/test/fakevdso/fakevdso.c $(srcdir)/test/fakevdso/fakevdso.lds $(arch_h) \
	$(srcdir)/test/fakevdso/kstate.h $(srcdir)/src/runtime/chacha.h
# The version script of variant $(1) for the symbol and version in header $(2).
fakevdso_ver = $(AM_V_GEN)mkdir -p test && \
	ver=$(call hdr_macro,$(2),VER); test $(1) != badver || ver=LINUX_0.1; \
	printf '%s {\n global: %s;\n local: *;\n};\n' "$$ver" $(call hdr_macro,$(2),SYM) > $@

test/fakevdso-%.ver: $(arch_h)
	$(call fakevdso_ver,$*,$(arch_h))

fakevdso_gnu = -DFAKE_PARAMS_RET=0 -Wl,--hash-style=gnu
fakevdso_sysv = -DFAKE_PARAMS_RET=0 -Wl,--hash-style=sysv
fakevdso_badver = -DFAKE_PARAMS_RET=0 -Wl,--hash-style=both
fakevdso_enosys = -DFAKE_PARAMS_RET=-38 -Wl,--hash-style=both
fakevdso_zerokey = -DFAKE_PARAMS_RET=0 -DFAKE_ZERO_KEY=1 -Wl,--hash-style=both
fakevdso_zeroretry = -DFAKE_PARAMS_RET=0 -DFAKE_ZERO_KEY=2 -Wl,--hash-style=both
fakevdso_echo = -DFAKE_PARAMS_RET=0 -DFAKE_ECHO -Wl,--hash-style=both
test/fakevdso-%.so: $(fakevdso_deps) test/fakevdso-%.ver
	$(AM_V_CCLD)$(FAKEVDSO_CC) -DFAKE_SYM=$(vdso_sym) $(fakevdso_$*) \
	  -Wl,--version-script=test/fakevdso-$*.ver -o $@ $(srcdir)/test/fakevdso/fakevdso.c

CLEANFILES += $(FAKEVDSO_IMAGES) test/fakevdso-*.ver

# ELF32 images for the lookup, whatever this build's class: built by a
# 32-bit cross compiler (configure's FAKEVDSO32_CC) with the symbol and
# version of 32-bit powerpc, the one ELF32 vDSO with a getrandom.  damaged
# is the GNU image cut off inside its dynamic table.
FAKEVDSO32_IMAGES = test/fakevdso-32-gnu.so test/fakevdso-32-sysv.so \
	test/fakevdso-32-badver.so test/fakevdso-32-damaged.so
ppc32_h = $(srcdir)/src/asm/powerpc/arch.h
READELF = readelf
test/fakevdso-32-%.ver: $(ppc32_h)
	$(call fakevdso_ver,$*,$(ppc32_h))
test/fakevdso-32-%.so: $(fakevdso_deps) test/fakevdso-32-%.ver
	$(AM_V_CCLD)$(FAKEVDSO32_CC) $(FAKEVDSO_FLAGS) \
	  -DFAKE_SYM=$(call hdr_macro,$(ppc32_h),SYM) $(fakevdso_$*) \
	  -Wl,--version-script=test/fakevdso-32-$*.ver -o $@ $(srcdir)/test/fakevdso/fakevdso.c
test/fakevdso-32-damaged.so: test/fakevdso-32-gnu.so
	$(AM_V_GEN)dyn=`$(READELF) -lW test/fakevdso-32-gnu.so | \
	  awk '$$1 == "DYNAMIC" { print $$2 }'` && test -n "$$dyn" && \
	head -c $$(($$dyn + 12)) test/fakevdso-32-gnu.so > $@
CLEANFILES += $(FAKEVDSO32_IMAGES) test/fakevdso-32-*.ver

# The bounded draw at widths 4 and 8 against its definition (and 1, 2).
check_PROGRAMS += test/widths
TESTS += test/widths
test_widths_CFLAGS = $(AM_CFLAGS) -I$(srcdir)/test/hostile -I$(srcdir)/src/runtime
# uniform.h alone: no vrandom linked, so a change to it rebuilds only this.

check_PROGRAMS += test/elf32
TESTS += test/elf32
test_elf32_CFLAGS = $(AM_CFLAGS) -I$(srcdir)/test/hostile \
	-DFAKEVDSO_DIR='"$(abs_builddir)/test"'
test_elf32_LDADD = libvrandom-core.la
if HAVE_FAKEVDSO32
EXTRA_test_elf32_DEPENDENCIES = $(FAKEVDSO32_IMAGES)
endif
EXTRA_DIST += test/fakevdso/fakevdso.c test/fakevdso/fakevdso.lds test/no-check.sh \
	test/fakevdso/fakevdso.h test/fakevdso/kstate.h test/check_main.h test/tally.h \
	test/scale.h test/bpf.h test/libc-grnd.h test/stats.h \
	test/mutants.tab

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
check_LTLIBRARIES = test/audit.la test/fakeaux.la
test_audit_la_SOURCES = test/audit.c
test_audit_la_LIBADD = libvrandom.la
# -rpath: a check library is otherwise built static only.
test_audit_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)
# The synthetic vDSO for an interpreter: LD_PRELOAD (test/lua/jit.lua).
test_fakeaux_la_SOURCES = test/fakeaux.c
test_fakeaux_la_CFLAGS = $(AM_CFLAGS) -DFAKEVDSO_DIR='"$(abs_builddir)/test"'
test_fakeaux_la_LDFLAGS = $(test_audit_la_LDFLAGS)
test_namespace_CFLAGS = $(AM_CFLAGS) -I$(srcdir)/test/hostile \
	-DVRANDOM_SO='"$(abs_builddir)/.libs/libvrandom.so"' \
	-DVRANDOM_LIBDIR='"$(abs_builddir)/.libs"' \
	-DVRANDOM_AUDIT='"$(abs_builddir)/test/.libs/audit.so"'
EXTRA_test_namespace_DEPENDENCIES = libvrandom.la test/audit.la
endif

# The documentation: every relative link and #anchor of README.md and
# doc/*.md resolves, and the README's quick start is still two commands.
TESTS += test/doc-links.sh
EXTRA_DIST += test/doc-links.sh
