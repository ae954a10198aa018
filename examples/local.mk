# Example programs, built with the library; `make demo` runs them.
noinst_PROGRAMS += examples/hello
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = libvrandom.la

demo_deps = examples/hello src/cli/vrandom
demo: all $(demo_deps)
	@top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
	  $(SHELL) $(srcdir)/scripts/demo.sh
.PHONY: demo

# The ARM appliance (examples/firmware/run.sh) and its test part.
EXTRA_DIST += examples/firmware/run.sh examples/firmware/init.c \
	examples/firmware/app.lua test/vm/count.c test/vm/lua-loop.lua \
	test/vm/lua-backend.lua
