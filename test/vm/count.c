/* Count a program's getrandom system calls where there is no strace (a
 * booted test machine): ptrace with PTRACE_GET_SYSCALL_INFO (Linux 5.3),
 * which names the system call the same way on every architecture.  Every
 * thread is followed (PTRACE_O_TRACECLONE); forks are not.
 *
 *   count MIN MAX program [args...]
 *
 * Prints "count: N getrandom system calls (program exit S)" and exits 0
 * when the program exited 0 and MIN <= N <= MAX, 1 when not, 77 when the
 * kernel cannot tell system calls apart this way. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* glibc and musl name the structure differently; the first bytes are
 * the kernel's: op, 3 bytes of padding, arch, instruction and stack
 * pointer, then entry's nr. */
struct info {
	unsigned char op, pad[3];
	unsigned arch;
	unsigned long long ip, sp, nr;
	unsigned long long rest[7];
};
#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e
#endif
#define INFO_ENTRY 1

int main(int argc, char **argv)
{
	long min, max, n = 0;
	int status, code = -1, traced = 0;
	pid_t child, pid;

	if (argc < 4) {
		fprintf(stderr, "usage: count MIN MAX program [args...]\n");
		return 2;
	}
	min = atol(argv[1]);
	max = atol(argv[2]);
	child = fork();
	if (child < 0)
		return perror("fork"), 1;
	if (!child) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(126);
		raise(SIGSTOP);
		execv(argv[3], argv + 3);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		return fprintf(stderr, "count: the child did not stop\n"), 1;
	if (ptrace(PTRACE_SETOPTIONS, child, 0,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL))
		return perror("count: PTRACE_SETOPTIONS"), 1;
	ptrace(PTRACE_SYSCALL, child, 0, 0);

	while ((pid = waitpid(-1, &status, __WALL)) > 0) {
		int sig = 0;

		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == child)
				code = WIFEXITED(status) ? WEXITSTATUS(status)
							 : 128 + WTERMSIG(status);
			continue;
		}
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			struct info i;

			memset(&i, 0, sizeof i);
			if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof i, &i) <= 0) {
				/* EIO/EINVAL: this kernel has no such request. */
				fprintf(stderr, "count: PTRACE_GET_SYSCALL_INFO: %s\n",
					strerror(errno));
				kill(child, SIGKILL);
				return 77;
			}
			if (i.op == INFO_ENTRY) {
				traced++;
				if (i.nr == SYS_getrandom)
					n++;
			}
		} else if (status >> 8 != (SIGTRAP | PTRACE_EVENT_CLONE << 8) &&
			   WSTOPSIG(status) != SIGSTOP && WSTOPSIG(status) != SIGTRAP) {
			sig = WSTOPSIG(status);  /* the program's own signal */
		}
		ptrace(PTRACE_SYSCALL, pid, 0, sig);
	}
	printf("count: %ld getrandom system calls of %d traced (%s exit %d)\n",
	       n, traced, argv[3], code);
	/* No system call seen at all means the counter saw nothing. */
	return code == 0 && traced > 0 && n >= min && n <= max ? 0 : 1;
}
