/* vrandom(1): the kernel's random bytes on the command line.
 *
 * Every byte comes from the vrandom API.  Output is written in chunks, so no
 * count needs memory in proportion to its size.  Exit status: 0 done (a reader
 * that closes the pipe early counts as done), 1 a write or system error,
 * 2 a usage error, always with one line on stderr. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "vrandom.h"
#include "cli.h"
#include "encode.h"

/* A multiple of 3, so base64 pads only at the very end, and of 16 (uuids). */
#define CHUNK 49152

struct cmd {
	const char *name;
	int (*run)(int, char **);
	const char *args;
	const char *summary;
	const char *help;
};

static const struct cmd *cmd;

/* ---- arguments ---- */

/* Decimal with an optional K, M or G (powers of 1024); no sign, no spaces. */
static int parse_count(const char *s, uint64_t *n)
{
	const char *p = s;
	uint64_t v = 0, scale = 1;

	if (*p == '-')
		return cli_usage_error("N must not be negative: '%s'", s);
	if (*p < '0' || *p > '9')
		return cli_usage_error("N is not a number: '%s'", s);
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (*p - '0')) / 10)
			return cli_usage_error("N is too large: '%s'", s);
		v = v * 10 + (*p - '0');
	}
	switch (*p) {
	case 'G': scale <<= 10; /* fall through */
	case 'M': scale <<= 10; /* fall through */
	case 'K': scale <<= 10; p++;
	}
	if (*p)
		return cli_usage_error("N is not a number: '%s'", s);
	if (v > UINT64_MAX / scale)
		return cli_usage_error("N is too large: '%s'", s);
	*n = v * scale;
	return 0;
}

static int help(void)
{
	printf("Usage: vrandom %s%s%s\n%s", cmd->name, *cmd->args ? " " : "",
	       cmd->args, cmd->help);
	return cli_flush();
}

/* getopt_long over a command's arguments.  Returns the option's value,
 * -1 at the end, or -2 after a usage error (already reported). */
static int next_opt(int argc, char **argv, const struct option *opts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, "+h", opts, 0);
	if (c == '?') {
		if (optopt)
			cli_usage_error("unknown option '-%c'", optopt);
		else
			cli_usage_error("unknown option '%s'", argv[optind - 1]);
		return -2;
	}
	return c;
}

/* --threads N for the bulk commands; 0 until given. */
#define MAX_THREADS 256
static unsigned threads;

static int parse_threads(const char *s)
{
	const char *p = s;
	unsigned v = 0;

	for (; *p >= '0' && *p <= '9' && v <= MAX_THREADS; p++)
		v = v * 10 + (*p - '0');
	if (p == s || *p || v < 1 || v > MAX_THREADS)
		return cli_usage_error("--threads takes a number from 1 to %d: '%s'",
				       MAX_THREADS, s);
	threads = v;
	return 0;
}

/* Options and at most one count, the shape of most commands.  Returns 0,
 * -1 once --help was answered, or an exit status after a usage error. */
static int args(int argc, char **argv, const struct option *opts, int *flag,
		uint64_t *n, int *have_n)
{
	int c, r;

	*have_n = 0;
	for (;;) {
		/* getopt would take "-5" for an option; say what it is. */
		if (optind < argc && argv[optind][0] == '-' &&
		    argv[optind][1] >= '0' && argv[optind][1] <= '9')
			return cli_usage_error("N must not be negative: '%s'", argv[optind]);
		while ((c = next_opt(argc, argv, opts)) >= 0) {
			if (c == 'h') {
				help();
				return -1;
			}
			if (c == 'T') {
				if ((r = parse_threads(optarg)))
					return r;
				continue;
			}
			*flag = c;
		}
		if (c == -2)
			return EXIT_USAGE;
		if (optind == argc)
			return 0;
		if (*have_n)
			return cli_usage_error("unexpected argument '%s'", argv[optind]);
		if ((r = parse_count(argv[optind++], n)))
			return r;
		*have_n = 1;
	}
}

enum fmt { RAW = 'r', HEX = 'x', BASE64 = 'b', TOKEN = 't' };

static unsigned char rnd[CHUNK];
static char txt[CHUNK * 2];

/* What was written is the caller's secret: no copy is left behind, on
 * whatever exit the tool makes itself (a write error, a closed pipe). */
static void wipe(void)
{
	cli_parallel_end();
	vr_wipe(rnd, sizeof rnd);
	vr_wipe(txt, sizeof txt);
}

static size_t encode(int f, char *t, const unsigned char *r, size_t k)
{
	switch (f) {
	case HEX:    return vr_hex(t, r, k);
	case BASE64: return vr_base64(t, r, k, VR_B64STD, 1);
	default:     return vr_base64(t, r, k, VR_B64URL, 0);
	}
}

/* From this size on, bulk output is drawn on several threads unless
 * --threads says otherwise: below it, starting them costs more. */
#define PARALLEL_MIN (1 << 20)
#define DEFAULT_THREADS 16

/* The online CPUs, at most DEFAULT_THREADS, or what --threads said. */
static unsigned thread_count(uint64_t n, int endless)
{
	long cpus;

	if (threads)
		return threads;
	if (!endless && n < PARALLEL_MIN)
		return 1;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus < 1 ? 1 : cpus > DEFAULT_THREADS ? DEFAULT_THREADS : cpus;
}

/* n bytes, or without end, encoded chunk by chunk: on one thread, or on
 * several (parallel.c), whose blocks come out in the same order. */
static int emit(uint64_t n, int endless, enum fmt f, unsigned nthreads)
{
	size_t k;

	if (nthreads < 2 ||
	    cli_parallel(n, endless, nthreads, f == RAW ? 0 : encode, f))
		while (endless || n) {
			k = !endless && n < CHUNK ? n : CHUNK;
			vrandom_buf(rnd, k);
			if (f == RAW)
				cli_out(rnd, k);
			else
				cli_out(txt, encode(f, txt, rnd, k));
			if (!endless)
				n -= k;
		}
	if (f != RAW)
		cli_out("\n", 1);
	return 0;
}

static int raw_ok(void)
{
	if (isatty(1))
		return cli_usage_error("refusing to write raw bytes to a terminal");
	return 0;
}

/* ---- commands ---- */

static int cmd_bytes(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hex", 0, 0, HEX }, { "base64", 0, 0, BASE64 },
		{ "raw", 0, 0, RAW }, { "threads", 1, 0, 'T' },
		{ "help", 0, 0, 'h' }, { 0 }
	};
	int f = HEX, have_n, r;
	uint64_t n;

	if ((r = args(argc, argv, opts, &f, &n, &have_n)))
		return r < 0 ? 0 : r;
	if (!have_n)
		return cli_usage_error("missing N, the number of bytes");
	if (f == RAW && (r = raw_ok()))
		return r;
	return emit(n, 0, f, thread_count(n, 0));
}

static int cmd_token(int argc, char **argv)
{
	static const struct option opts[] = { { "help", 0, 0, 'h' }, { 0 } };
	int f, have_n, r;
	uint64_t n = 32;

	if ((r = args(argc, argv, opts, &f, &n, &have_n)))
		return r < 0 ? 0 : r;
	return emit(n, 0, TOKEN, 1);
}

static int cmd_stream(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", 1, 0, 'T' }, { "help", 0, 0, 'h' }, { 0 }
	};
	int f, have_n, r;
	uint64_t n = 0;

	if ((r = args(argc, argv, opts, &f, &n, &have_n)))
		return r < 0 ? 0 : r;
	if ((r = raw_ok()))
		return r;
	return emit(have_n ? n : 0, !have_n, RAW, thread_count(n, !have_n));
}

static int cmd_uuid(int argc, char **argv)
{
	static const struct option opts[] = { { "help", 0, 0, 'h' }, { 0 } };
	int f, have_n, r;
	uint64_t n = 1;
	size_t k, i;

	if ((r = args(argc, argv, opts, &f, &n, &have_n)))
		return r < 0 ? 0 : r;
	while (n) {
		k = n < CHUNK / 37 ? n : CHUNK / 37;
		vrandom_buf(rnd, 16 * k);
		for (i = 0; i < k; i++) {
			vr_uuid(txt + 37 * i, rnd + 16 * i);
			txt[37 * i + 36] = '\n';
		}
		cli_out(txt, 37 * k);
		n -= k;
	}
	return 0;
}

/* ---- info ---- */

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = { { "help", 0, 0, 'h' }, { 0 } };
	struct vrandom_info in;
	struct utsname u;
	const char *forced = getenv("VRANDOM_BACKEND");
	const char *ms = getenv("VRANDOM_SYSCALL_MIN");
	int c;

	while ((c = next_opt(argc, argv, opts)) >= 0)
		if (c == 'h')
			return help();
	if (c == -2)
		return EXIT_USAGE;
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* One draw first, so the pool counters show this thread's state. */
	(void)vrandom_u32();
	if (vrandom_get_info(&in))
		return cli_error("vrandom_get_info: %s", strerror(errno));

	ms = ms && *ms ? " (VRANDOM_SYSCALL_MIN)" : " (measured here)";
	printf("version:       %s\n", vrandom_version());
	printf("backend:       %s", in.backend_name);
	if (forced && *forced)
		printf(" (VRANDOM_BACKEND=%s)", forced);
	printf("\n");
	if (in.vdso_symbol)
		printf("vdso symbol:   %s@%s\n", in.vdso_symbol, in.vdso_version);
	else
		printf("vdso symbol:   not in use\n");
	if (in.backend == VRANDOM_VDSO) {
		printf("state size:    %zu bytes\n", in.state_size);
		printf("state stride:  %zu bytes\n", in.state_stride);
		printf("mmap prot:     ");
		cli_prot_names(stdout, in.mmap_prot);
		printf("\nmmap flags:    ");
		cli_map_names(stdout, in.mmap_flags);
		printf("\n");
		printf("arena:         %zu page%s, %zu states, %zu in use, "
		       "%zu handles on the system call\n",
		       in.arena_pages, in.arena_pages == 1 ? "" : "s",
		       in.states_total, in.states_in_use, in.handles_placeholder);
		if (in.syscall_min == (size_t)-1)
			printf("syscall min:   pending (the kernel's pool is not seeded yet)\n");
		else if (in.syscall_min)
			printf("syscall min:   %zu bytes%s\n", in.syscall_min, ms);
		else
			printf("syscall min:   never%s\n", ms);
	}
	if (uname(&u) == 0)
		printf("kernel:        %s %s %s\n", u.sysname, u.release, u.machine);
	return cli_flush();
}

/* ---- bench ---- */

static int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", 0, 0, 'c' }, { "quick", 0, 0, 'q' },
		{ "help", 0, 0, 'h' }, { 0 }
	};
	int c, csv = 0, quick = 0;

	while ((c = next_opt(argc, argv, opts)) >= 0)
		switch (c) {
		case 'h': return help();
		case 'c': csv = 1; break;
		case 'q': quick = 1; break;
		}
	if (c == -2)
		return EXIT_USAGE;
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	return cli_bench(csv, quick);
}

/* ---- main ---- */

static const struct cmd cmds[] = {
	{ "info", cmd_info, "", "backend, vDSO, state pool, kernel",
	  "The backend in use, the vDSO symbol, the kernel's state size and\n"
	  "mmap protection and flags, the state pool's counters, the request\n"
	  "size from which the system call serves, the kernel.\n" },
	{ "bytes", cmd_bytes, "N [--hex|--base64|--raw]", "N random bytes",
	  "N random bytes: lowercase hex (the default) or base64 on one line,\n"
	  "or raw.  Raw bytes are refused when stdout is a terminal.  From\n"
	  "1 MiB on, the bytes are drawn on T threads, the online CPUs (at most\n"
	  "16) unless --threads says; --threads 1 draws them all on one.\n" },
	{ "uuid", cmd_uuid, "[N]", "N version 4 UUIDs",
	  "N version 4 UUIDs (RFC 9562), lowercase, one a line; N is 1 by default.\n" },
	{ "token", cmd_token, "[N]", "a base64url token of N bytes",
	  "A token of N random bytes (32 by default) in base64url without\n"
	  "padding (RFC 4648, section 5), on one line.\n" },
	{ "stream", cmd_stream, "[N] [--threads T]", "raw bytes, N or without end",
	  "N raw random bytes to stdout, or an endless stream without N, e.g.\n"
	  "for rngtest or dieharder.  Ends quietly with status 0 when the\n"
	  "reader closes the pipe.  Refused when stdout is a terminal.  Drawn\n"
	  "on T threads, each with a state of its own, written in order: the\n"
	  "online CPUs (at most 16) unless --threads says.\n" },
	{ "bench", cmd_bench, "[--csv] [--quick]", "timings side by side",
	  "Times vrandom, the raw vDSO, the getrandom system call and\n"
	  "/dev/urandom side by side in one run, with ratios; then explicit\n"
	  "states from 1,000 to 1,000,000: ns to make, draw and free each,\n"
	  "memory and mappings.  --csv prints comma-separated rows, --quick\n"
	  "a shorter run.\n" },
};

static int usage(void)
{
	char synopsis[64];
	size_t i;

	printf("Usage: vrandom COMMAND [ARGUMENTS]\n"
	       "Random bytes from the kernel, through its vDSO when it can.\n\n"
	       "Commands:\n");
	for (i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		snprintf(synopsis, sizeof synopsis, "%s %s", cmds[i].name, cmds[i].args);
		printf("  %-31s %s\n", synopsis, cmds[i].summary);
	}
	printf("\nCounts take a K, M or G suffix (powers of 1024).\n"
	       "'vrandom COMMAND --help' describes a command.\n"
	       "Exit status: 0 done, 1 write or system error, 2 usage error.\n");
	return cli_flush();
}

int main(int argc, char **argv)
{
	const char *a = argc > 1 ? argv[1] : 0;
	size_t i;

	/* A closed pipe must come back as EPIPE, which ends us with 0. */
	signal(SIGPIPE, SIG_IGN);
	atexit(wipe);
	if (!a)
		return cli_usage_error("missing command");
	if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		return usage();
	if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
		printf("vrandom %s\n", vrandom_version());
		return cli_flush();
	}
	if (a[0] == '-')
		return cli_usage_error("unknown option '%s'", a);
	for (i = 0; i < sizeof cmds / sizeof *cmds; i++)
		if (!strcmp(a, cmds[i].name)) {
			cmd = &cmds[i];
			cli_command = cmd->name;
			return cmd->run(argc - 1, argv + 1);
		}
	return cli_usage_error("unknown command '%s'", a);
}
