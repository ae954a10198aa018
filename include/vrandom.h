/* vrandom: the kernel's vDSO getrandom() for programs whose libc lacks it.
 *
 * Every byte comes from the kernel: through the vDSO (Linux 6.11+) with a
 * per-thread opaque state in MAP_DROPPABLE memory, else the getrandom system
 * call, else /dev/urandom on kernels older than 3.17. See vrandom(3). */
#ifndef VRANDOM_H
#define VRANDOM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A shared object that carries the runtime inside it (the Lua module built
 * by luarocks: its config.h) defines VRANDOM_HIDE_API, so as not to export
 * the runtime's functions. */
#if defined VRANDOM_HIDE_API && defined __GNUC__
#pragma GCC visibility push(hidden)
#endif

const char *vrandom_version(void);

/* getrandom(2) drop-in: same flags (GRND_NONBLOCK, GRND_RANDOM, GRND_INSECURE),
 * returns the byte count, or -1 with errno. */
ssize_t vrandom_getrandom(void *buf, size_t len, unsigned int flags);
/* getentropy(3): len <= 256 else -1/EIO; 0 on success. */
int vrandom_getentropy(void *buf, size_t len);

/* Cannot fail (arc4random semantics): fills every byte, retries EINTR and
 * short reads; aborts only when no kernel RNG is reachable at all. */
void vrandom_buf(void *buf, size_t len);
uint32_t vrandom_u32(void);
uint64_t vrandom_u64(void);
/* [0, upper_bound), unbiased (rejection), from 1, 2, 4 or 8 bytes as the
 * bound needs; 0 if bound < 2. */
uint64_t vrandom_uniform(uint64_t upper_bound);
double vrandom_double(void);                    /* [0, 1), a multiple of 2^-53; 7 bytes */

/* Explicit opaque states: one per coroutine, green thread, Lua generator.
 * A state may move between threads but must not be used by two at once.
 * vrandom_state_new never fails: where no vDSO state can be had (no vDSO,
 * or the pool cannot be mapped), every handle is one shared placeholder
 * that takes the system call, so handles may then compare equal. */
typedef struct vrandom_state vrandom_state;
vrandom_state *vrandom_state_new(void);         /* never NULL */
void vrandom_state_free(vrandom_state *st);     /* NULL is a no-op */
ssize_t vrandom_state_getrandom(vrandom_state *st, void *buf, size_t len, unsigned int flags);
void vrandom_state_buf(vrandom_state *st, void *buf, size_t len);
int vrandom_reserve(size_t nstates);            /* pre-map room for nstates; 0 or -1/errno */

enum vrandom_backend { VRANDOM_VDSO = 1, VRANDOM_SYSCALL = 2, VRANDOM_URANDOM = 3 };
struct vrandom_info {
	enum vrandom_backend backend;
	const char *backend_name;   /* "vdso", "syscall", "urandom"; urandom
	                               once getrandom answered ENOSYS at run
	                               time (a seccomp filter) */
	const char *vdso_symbol;    /* e.g. "__vdso_getrandom"; NULL without vDSO */
	const char *vdso_version;   /* e.g. "LINUX_2.6"; NULL without vDSO */
	size_t state_size;          /* size_of_opaque_state from the kernel; 0 without vDSO */
	size_t state_stride;        /* bytes from one state to the next in the arena */
	unsigned int mmap_prot, mmap_flags;
	size_t arena_pages;         /* pages mapped so far */
	size_t states_total;        /* states carved so far */
	size_t states_in_use;       /* held by threads or explicit handles */
	size_t syscall_min;         /* requests of at least this many bytes take the
	                               system call, faster there on this machine
	                               (measured once per process); 0: never;
	                               (size_t)-1: not measured yet (before the
	                               kernel's pool is seeded, or while another
	                               thread measures), the vDSO serves all */
	/* Extensible: fields added later take words from reserved, so the
	 * struct's size stays put and programs built against an older header
	 * keep working.  vrandom_get_info zeroes what it does not set; a zero
	 * in a field added later means "not reported". */
	size_t handles_placeholder; /* handles from vrandom_state_new that hold
	                               no state of their own, because the pool
	                               could not grow: they take the system call */
	size_t reserved[15];
};
int vrandom_get_info(struct vrandom_info *info);

#if defined VRANDOM_HIDE_API && defined __GNUC__
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
