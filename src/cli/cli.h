/* Shared by the vrandom tool's source files. */
#ifndef VRANDOM_CLI_H
#define VRANDOM_CLI_H

struct option;

/* Each prints one line on stderr and returns the exit status (2 or 1). */
int cli_usage_error(const char *fmt, ...)
	__attribute__((__format__(__printf__, 1, 2)));
int cli_error(const char *fmt, ...)
	__attribute__((__format__(__printf__, 1, 2)));
/* Flushes stdout; a write error ends the process (status 1, or 0 on EPIPE). */
int cli_flush(void);
int cli_getopt(int argc, char **argv, const struct option *opts);

int cli_bench(int csv, int quick);

#endif
