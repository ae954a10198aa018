# Static musl binaries: the opt-in libc shim, the Check-free smoke test that
# every variant runs, the strace proof, `make footprint`, the example.

# The shim is only ever a static archive, installed beside libvrandom.a and
# linked ahead of libc: -lvrandom-libc -lvrandom.  libvrandom itself never
# defines a libc name (test/musl-symbols.sh).
if ENABLE_STATIC
lib_LTLIBRARIES += libvrandom-libc.la
libvrandom_libc_la_SOURCES = src/musl/getrandom_vdso.c
libvrandom_libc_la_LDFLAGS = -static
endif

# Test programs under musl link fully static: libtool swallows -static.
if !LIBC_GLIBC
musl_static = -all-static
endif

check_PROGRAMS += test/smoke
TESTS += test/smoke test/musl-symbols.sh
test_smoke_SOURCES = test/smoke.c
test_smoke_LDFLAGS = $(musl_static)
test_smoke_LDADD = libvrandom-core.la -lm
# The C API's distributions, whole (test/stats.h): Check-free, to run
# under qemu-user on the 32-bit targets too.
check_PROGRAMS += test/dist
TESTS += test/dist
test_dist_LDFLAGS = $(musl_static)
test_dist_LDADD = libvrandom-core.la -lm

# The shim's semantics, wherever it is built; under glibc it interposes
# libc.so's getrandom() in the executable, which is enough to test it.
if ENABLE_STATIC
check_PROGRAMS += test/musl-shim
TESTS += test/musl-shim
test_musl_shim_SOURCES = test/musl-shim.c
test_musl_shim_LDFLAGS = $(musl_static)
test_musl_shim_LDADD = libvrandom-libc.la libvrandom.la -lm
check_PROGRAMS += test/shim-bytes
TESTS += test/shim-bytes
test_shim_bytes_LDFLAGS = $(musl_static)
test_shim_bytes_LDADD = libvrandom-libc.la libvrandom.la
endif

# The proof: one plain program, with the shim and without, and the example.
if !LIBC_GLIBC
if ENABLE_STATIC
check_PROGRAMS += test/musl-loop-shim test/musl-loop-plain examples/musl-static/keygen
TESTS += test/musl-strace.sh
examples_musl_static_keygen_SOURCES = examples/musl-static/keygen.c
examples_musl_static_keygen_LDFLAGS = -all-static
examples_musl_static_keygen_LDADD = libvrandom-libc.la libvrandom.la
test_musl_loop_shim_SOURCES = test/musl-loop.c
test_musl_loop_shim_LDFLAGS = -all-static
test_musl_loop_shim_LDADD = libvrandom-libc.la libvrandom.la
test_musl_loop_plain_SOURCES = test/musl-loop.c
test_musl_loop_plain_LDFLAGS = -all-static
endif
endif

footprint:
	@CC='$(CC)' STRIP='$(STRIP)' SIZE='$(STRIP:strip=size)' srcdir='$(srcdir)' \
	  builddir='$(builddir)' VR_ARCH='$(VR_ARCH)' \
	  $(SHELL) $(srcdir)/src/musl/footprint.sh
.PHONY: footprint

EXTRA_DIST += src/musl/footprint.sh test/musl-strace.sh test/musl-symbols.sh \
	examples/musl-static/Makefile \
	examples/musl-static/vrandom.mk
