/* procutil.c: see procutil.h. Nothing here is secret (key files pass
 * through the copy buffer, which is on the stack of a test or bench
 * process that reads the same test keys anyway). */
#include "procutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int vg_proc_children(pid_t parent, pid_t *pids, int cap)
{
	DIR *dir = opendir("/proc");
	int n = 0;
	if (!dir)
		return 0;
	struct dirent *e;
	while ((e = readdir(dir)) && n < cap) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		char p[64], buf[512];
		snprintf(p, sizeof(p), "/proc/%ld/stat", pid);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = 0;
		/* pid (comm) state ppid: comm may hold spaces and parentheses. */
		char *rp = strrchr(buf, ')');
		char state;
		long ppid;
		if (rp && sscanf(rp + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent &&
		    state != 'Z')
			pids[n++] = (pid_t)pid;
	}
	closedir(dir);
	return n;
}

int vg_copy_file(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[8192];
	ssize_t n;
	int r = 0;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			r = -1;
	close(in);
	if (close(out) < 0 || n < 0)
		r = -1;
	return r;
}

/* nftw callback: remove each entry after its contents (FTW_DEPTH). */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		(void)rmdir(path);
	else
		(void)unlink(path);
	return 0;
}

void vg_remove_dir(const char *dir)
{
	/* FTW_PHYS: a symlink is removed, never followed out of the tree. */
	(void)nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

pid_t vg_spawn_vgd(const char *vgd, const char *conf, const char *log)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() == 1)
		_exit(127); /* the parent is already gone */
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
	int nul = open("/dev/null", O_RDWR);
	if (fd >= 0)
		dup2(fd, 2);
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
	}
	execl(vgd, vgd, "-c", conf, (char *)NULL);
	_exit(127);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void vg_stop_vgd(pid_t pid, int timeout_ms)
{
	if (pid <= 0)
		return;
	pid_t kids[64];
	int nkids = vg_proc_children(pid, kids, 64);
	long long end = now_ms() + timeout_ms;
	int st;
	kill(pid, SIGTERM);
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (now_ms() >= end) {
			/* Out of time: the daemon and its children go now. */
			for (int i = 0; i < nkids; i++)
				kill(kids[i], SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		usleep(5000);
	}
}
