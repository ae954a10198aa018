/* Shared by the vrandom tool's source files. */
#ifndef VRANDOM_CLI_H
#define VRANDOM_CLI_H

#include <stdio.h>
#include <sys/mman.h>

/* Older C library headers lack the newest kernel values. */
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif

/* One line on stderr; returns exit status 1. */
int cli_error(const char *fmt, ...)
	__attribute__((__format__(__printf__, 1, 2)));
/* Flushes stdout and returns 0; a failed write ends the process with
 * status 1 and a message, or with 0 when the reader closed the pipe. */
int cli_flush(void);

/* mmap protection and flags as "PROT_READ|PROT_WRITE", unnamed bits in hex. */
void cli_prot_names(FILE *f, unsigned int prot);
void cli_map_names(FILE *f, unsigned int flags);

/* `vrandom bench`: the engine in bench/, between the tool's conventions. */
int cli_bench(int csv, int quick);

#endif
