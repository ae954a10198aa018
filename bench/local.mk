# The benchmark engine (shared with `vrandom bench`) and `make bench`.
noinst_LTLIBRARIES += libvrandom-bench.la
libvrandom_bench_la_SOURCES = bench/bench.c bench/bench.h bench/raw.c bench/raw.h
noinst_PROGRAMS += bench/bench
bench_bench_SOURCES = bench/main.c
bench_bench_LDADD = libvrandom-bench.la libvrandom-core.la

bench: bench/bench
	$(builddir)/bench/bench $(BENCH_FLAGS)
.PHONY: bench
