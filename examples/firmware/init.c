/* The appliance's PID 1, all of it: mount /dev and /proc, run the
 * application (the static vrandom-lua with /app.lua), power off when it
 * ends.  No shell, no busybox, no libc but the one linked in.  Built static
 * with the same musl as vrandom-lua (examples/firmware/run.sh). */
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	char *argv[] = { "/bin/vrandom-lua", "/app.lua", 0 };
	char *envp[] = { "PATH=/bin", "HOME=/", 0 };
	struct timespec tick = { 0, 10000000 };
	int fd, i, queued, status = -1;
	pid_t pid;

	mkdir("/dev", 0755);
	mkdir("/proc", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, 0);
	mount("proc", "/proc", "proc", 0, 0);
	if ((fd = open("/dev/console", O_RDWR | O_NOCTTY)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, envp);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	printf("init: the application exited with %d; powering off\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	fflush(stdout);
	/* power-off drops what the console has not sent: wait, 2 s at most */
	for (i = 0; i < 200 && !ioctl(1, TIOCOUTQ, &queued) && queued > 0; i++)
		nanosleep(&tick, 0);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
