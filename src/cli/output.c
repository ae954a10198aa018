/* The vrandom tool's messages and output, shared by vrandom.c and bench.c:
 * both call here and this file calls neither, so the calls go one way. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_command;

static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "vrandom%s%s: ", cli_command ? " " : "",
		cli_command ? cli_command : "");
	vfprintf(stderr, fmt, ap);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'vrandom%s%s --help')\n",
		cli_command ? " " : "", cli_command ? cli_command : "");
	return EXIT_USAGE;
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_WRITE;
}

/* A reader that stops reading (head -c, rngtest -c) has all it wanted. */
static _Noreturn void write_failed(int err)
{
	if (err == EPIPE)
		exit(0);
	exit(cli_error("write error: %s", strerror(err)));
}

void cli_out(const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(1, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			write_failed(errno);
		p += n;
		len -= n;
	}
}

/* For commands that print through stdio. */
int cli_flush(void)
{
	if (fflush(stdout) || ferror(stdout))
		write_failed(errno);
	return 0;
}
