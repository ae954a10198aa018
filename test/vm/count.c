/* Count a program's getrandom system calls where there is no strace (a
 * booted test machine).  The program runs under a seccomp filter that
 * hands getrandom, and nothing else, to this tracer (SECCOMP_RET_TRACE),
 * so the other system calls cost no stop: an emulated machine would take
 * minutes to stop at each of 100,000.  At each stop PTRACE_GET_SYSCALL_INFO
 * (Linux 5.3) names the system call, the same way on every architecture.
 * Every thread is followed (PTRACE_O_TRACECLONE); forks are not.
 *
 *   count MIN MAX program [args...]
 *
 * Prints "count: N getrandom system calls (program exit S)" and exits 0
 * when the program exited 0 and MIN <= N <= MAX, 1 when not (the program
 * is stopped at the call past MAX), and 1 too when the kernel cannot
 * trace this way: a count that cannot be made proves nothing, and must
 * not pass as a skip. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf.h"

/* glibc and musl name the structure differently; these are the kernel's
 * first fields: op, padding, arch, instruction and stack pointers, then
 * for a seccomp stop the system call's number. */
struct info {
	unsigned char op, pad[3];
	unsigned arch;
	unsigned long long ip, sp, nr;
	unsigned long long rest[8];
};
#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e
#endif
#define INFO_SECCOMP 3

int main(int argc, char **argv)
{
	long min, max, n = 0, other = 0;
	int status, code = -1;
	pid_t child, pid;

	if (argc < 4) {
		fprintf(stderr, "usage: count MIN MAX program [args...]\n");
		return 2;
	}
	min = atol(argv[1]);
	max = atol(argv[2]);
	fflush(stdout);
	child = fork();
	if (child < 0)
		return perror("fork"), 1;
	if (!child) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(126);
		raise(SIGSTOP);
		if (bpf_one(SYS_getrandom, RET_TRACE))
			_exit(125);
		execv(argv[3], argv + 3);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		return fprintf(stderr, "count: the child did not stop\n"), 1;
	if (ptrace(PTRACE_SETOPTIONS, child, 0,
		   PTRACE_O_TRACESECCOMP | PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL))
		return perror("count: PTRACE_SETOPTIONS"), 1;
	ptrace(PTRACE_CONT, child, 0, 0);

	while ((pid = waitpid(-1, &status, __WALL)) > 0) {
		int sig = 0;

		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == child)
				code = WIFEXITED(status) ? WEXITSTATUS(status)
							 : 128 + WTERMSIG(status);
			continue;
		}
		if (status >> 8 == (SIGTRAP | PTRACE_EVENT_SECCOMP << 8)) {
			struct info i;

			memset(&i, 0, sizeof i);
			if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof i, &i) <= 0) {
				fprintf(stderr, "count: PTRACE_GET_SYSCALL_INFO: %s\n",
					strerror(errno));
				kill(child, SIGKILL);
				return 1;
			}
			/* Only getrandom is handed over: anything else is a
			 * miscount, and fails the run. */
			if (i.op == INFO_SECCOMP && i.nr == SYS_getrandom)
				n++;
			else
				other++;
			/* Past MAX the answer is known: an emulated machine
			 * need not stop 100,000 times to say so. */
			if (n > max) {
				kill(child, SIGKILL);
				printf("count: more than %ld getrandom system calls"
				       " (%s stopped)\n", max, argv[3]);
				return 1;
			}
		} else if (status >> 8 != (SIGTRAP | PTRACE_EVENT_CLONE << 8) &&
			   WSTOPSIG(status) != SIGSTOP && WSTOPSIG(status) != SIGTRAP) {
			sig = WSTOPSIG(status);  /* the program's own signal */
		}
		ptrace(PTRACE_CONT, pid, 0, sig);
	}
	if (code == 125)
		return fprintf(stderr, "count: no seccomp filter here\n"), 1;
	printf("count: %ld getrandom system calls (%s exit %d)\n", n, argv[3], code);
	return code == 0 && !other && n >= min && n <= max ? 0 : 1;
}
