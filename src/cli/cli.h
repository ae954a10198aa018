/* Shared by the vrandom tool's source files. */
#ifndef VRANDOM_CLI_H
#define VRANDOM_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

/* Older C library headers lack the newest kernel values. */
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif

/* output.c: messages and output.  Exit status 1: a write or system error;
 * 2: a usage error. */
enum { EXIT_WRITE = 1, EXIT_USAGE = 2 };
/* The command running ("bytes", ...), named in messages; NULL before. */
extern const char *cli_command;
/* One line on stderr; returns exit status 1. */
int cli_error(const char *fmt, ...)
	__attribute__((__format__(__printf__, 1, 2)));
/* One line on stderr with a pointer to --help; returns exit status 2. */
int cli_usage_error(const char *fmt, ...)
	__attribute__((__format__(__printf__, 1, 2)));
/* All of buf to standard output, as cli_flush ends on a failed write. */
void cli_out(const void *buf, size_t len);
/* Flushes stdout and returns 0; a failed write ends the process with
 * status 1 and a message, or with 0 when the reader closed the pipe. */
int cli_flush(void);

/* mmap protection and flags as "PROT_READ|PROT_WRITE", unnamed bits in hex. */
void cli_prot_names(FILE *f, unsigned int prot);
void cli_map_names(FILE *f, unsigned int flags);

/* parallel.c: n bytes (or without end) drawn on `threads` threads, each
 * block encoded by encode(fmt, ...) unless encode is NULL (raw), written
 * in order through cli_out.  -1 when the threads or their buffers could
 * not be had: nothing was written then.  cli_parallel_end stops and joins
 * the threads and wipes their buffers, on whatever exit. */
typedef size_t cli_encode_fn(int fmt, char *txt, const unsigned char *rnd, size_t len);
int cli_parallel(uint64_t n, int endless, unsigned threads, cli_encode_fn *encode, int fmt);
void cli_parallel_end(void);

/* `vrandom bench`: the engine in bench/, between the tool's conventions. */
int cli_bench(int csv, int quick);

#endif
