/* The guest of scripts/vmfork-test.sh, run by init in a machine that the
 * host snapshots while this program waits, then resumes as clones.  Each
 * draw is 32 bytes of vrandom_getrandom(), printed "fork: N HEX"; the
 * vDSO's state is what a snapshot copies, and must be in use ("fork:
 * backend NAME").
 *
 * The kernel reseeds on its own too, every uptime/2 seconds early in a
 * boot (crng_reseed_interval()), and such a reseed would tell a clone from
 * the original as a VM generation ID does.  So this program reads the
 * generation the kernel gives the vDSO (struct vdso_rng_data's first word,
 * 640 bytes into x86_64's [vvar] page, asm/vvar.h of Linux 6.11 to 6.14),
 * and waits to the moment one such reseed has just happened: the next is a
 * second or more away.  Then draw 1, "fork: generation G waiting", and a
 * line read from the console, which the host puts in the serial port with
 * the machine stopped, just before the snapshot: the original and every
 * clone find it there as they resume.  Half a second later, time for
 * the ACPI notification of a new VM generation ID to be handled, "fork:
 * generation G" and draws 2 to 7 at once. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vrandom.h"

static int draw(int n)
{
	unsigned char b[32];
	int i;

	if (vrandom_getrandom(b, sizeof b, 0) != sizeof b) {
		perror("vrandom_getrandom");
		return -1;
	}
	printf("fork: %d ", n);
	for (i = 0; i < (int)sizeof b; i++)
		printf("%02x", b[i]);
	putchar('\n');
	return 0;
}

static volatile unsigned long long *generation(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	unsigned long a;

	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "[vvar]") && sscanf(line, "%lx-", &a) == 1) {
			fclose(f);
			return (volatile unsigned long long *)(a + 640);
		}
	if (f)
		fclose(f);
	return 0;
}

int main(void)
{
	struct timespec ms = { 0, 1000000 }, half = { 0, 500000000 };
	volatile unsigned long long *g = generation();
	struct vrandom_info info;
	unsigned long long g0;
	char line[64];
	int n;

	setvbuf(stdout, 0, _IOLBF, 0);
	if (!g || vrandom_get_info(&info)) {
		printf("fork: no [vvar] page, or no vrandom_get_info\n");
		return 1;
	}
	printf("fork: backend %s\n", info.backend_name);
	for (g0 = *g, n = 0; *g == g0 && n < 10000; n++)
		nanosleep(&ms, 0);
	if (*g == g0) {
		printf("fork: generation %llu did not move in 10 s\n", g0);
		return 1;
	}
	if (draw(1))
		return 1;
	printf("fork: generation %llu waiting\n", *g);
	if (read(0, line, sizeof line) < 0)
		perror("read");
	nanosleep(&half, 0);
	printf("fork: generation %llu\n", *g);
	for (n = 2; n <= 7; n++)
		if (draw(n))
			return 1;
	return 0;
}
