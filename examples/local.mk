# Example programs, built with the library; `make demo` runs them.
noinst_PROGRAMS += examples/hello
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = libvrandom.la
EXTRA_DIST += scripts/deps.sh scripts/test-all.sh scripts/demo.sh

demo_deps = examples/hello src/cli/vrandom
demo: all $(demo_deps)
	@top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
	  $(SHELL) $(srcdir)/scripts/demo.sh
.PHONY: demo
