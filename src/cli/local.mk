# The vrandom tool, its man pages, tests and plot.

# Linked with the runtime itself, not the shared library: the benchmark
# reaches the raw vDSO through the internals.
bin_PROGRAMS += src/cli/vrandom
src_cli_vrandom_SOURCES = src/cli/vrandom.c src/cli/names.c src/cli/bench.c \
	src/cli/output.c src/cli/parallel.c \
	src/cli/cli.h
src_cli_vrandom_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/bench
src_cli_vrandom_LDADD = libvrandom-bench.la libvrandom-core.la
# Under musl, static as the firmware it is for (src/musl/local.mk).
src_cli_vrandom_LDFLAGS = $(musl_static)

dist_man_MANS += man/vrandom.1 man/vrandom.3 man/vrandom-lua.3

# `man vrandom_uniform` and the like: one-line pages that source vrandom(3).
vrandom_man3_links = vrandom_getrandom vrandom_getentropy vrandom_buf \
	vrandom_u32 vrandom_u64 vrandom_uniform vrandom_double \
	vrandom_state_new vrandom_state_free vrandom_state_getrandom \
	vrandom_state_buf vrandom_reserve vrandom_get_info vrandom_version
install-data-hook: install-vrandom-man-links
uninstall-hook: uninstall-vrandom-man-links
install-vrandom-man-links:
	@for f in $(vrandom_man3_links); do \
	  echo '.so man3/vrandom.3' >"$(DESTDIR)$(man3dir)/$$f.3" || exit 1; \
	done
uninstall-vrandom-man-links:
	@for f in $(vrandom_man3_links); do rm -f "$(DESTDIR)$(man3dir)/$$f.3"; done
.PHONY: install-vrandom-man-links uninstall-vrandom-man-links

TESTS += test/cli-usage.sh test/cli-output.sh test/cli-stream.sh \
	test/cli-rngtest.sh test/man-render.sh
# The samples of `vrandom info` in the documents keep up with its labels.
TESTS += src/cli/info-labels.sh
EXTRA_DIST += src/cli/info-labels.sh
EXTRA_DIST += test/cli-lib.sh test/cli-usage.sh test/cli-output.sh \
	test/cli-stream.sh test/cli-rngtest.sh test/man-render.sh \
	doc/bench.png

# make bench-plot: ns per call against request size, drawn by gnuplot into
# doc/bench.png in the source tree, where doc/performance.md shows it.
bench_png = $(srcdir)/doc/bench.png
bench-plot: src/cli/vrandom
	@if command -v gnuplot >/dev/null 2>&1; then \
	  src/cli/vrandom bench --csv >bench.csv && \
	  title="ns per call, $$(uname -sr) $$(uname -m), one run" && \
	  gnuplot -e "csv='bench.csv'; png='$(bench_png)'; title='$$title'" \
	    $(srcdir)/src/cli/bench.gp && \
	  echo "bench-plot: wrote $(bench_png)"; \
	else \
	  echo "bench-plot: gnuplot not installed (Debian gnuplot-nox): skipped"; \
	fi
.PHONY: bench-plot
CLEANFILES += bench.csv
EXTRA_DIST += src/cli/bench.gp

# The mmap names of `vrandom info`, against values the kernel may not send.
check_PROGRAMS += src/cli/names-test
src_cli_names_test_SOURCES = src/cli/names-test.c src/cli/names.c src/cli/cli.h
TESTS += src/cli/names-test
