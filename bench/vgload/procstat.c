/* procstat.c: CPU time of the daemon's processes from /proc: the front
 * (the child with an epoll descriptor: libevent) and the keyholders (the
 * other children), so the report shows who is busy; and the CPU the front
 * last ran on, so a 1x1 row shows whether its requests stayed on one CPU.
 * Nothing secret. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procutil.h"
#include "vgload.h"

/* utime + stime of pid in seconds, or -1. */
static double cpu_seconds(pid_t pid)
{
	char p[64], buf[1024];
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(p, "r");
	if (!f)
		return -1;
	size_t len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	char *rp = strrchr(buf, ')');
	if (!rp)
		return -1;
	/* After ") ": state(3) ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime(14) stime(15). */
	unsigned long ut, st;
	if (sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int has_epoll(pid_t pid)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(p);
	int found = 0;
	if (!d)
		return 0;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		char lp[400], target[128];
		snprintf(lp, sizeof(lp), "%s/%s", p, e->d_name);
		ssize_t n = readlink(lp, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = 0;
			found = strstr(target, "eventpoll") != NULL;
		}
	}
	closedir(d);
	return found;
}

void vgl_dcpu_sample(pid_t supervisor, vgl_dcpu *out)
{
	pid_t kids[64];
	memset(out, 0, sizeof(*out));
	if (supervisor <= 0)
		return;
	int n = vg_proc_children(supervisor, kids, 64);
	for (int i = 0; i < n; i++) {
		double s = cpu_seconds(kids[i]);
		if (s < 0)
			continue;
		if (has_epoll(kids[i])) {
			out->front_s += s;
		} else {
			out->keyholders_s += s;
			out->nkeyholders++;
		}
	}
	out->ok = n > 0;
}

pid_t vgl_front_pid(pid_t supervisor)
{
	pid_t kids[64];
	if (supervisor <= 0)
		return 0;
	int n = vg_proc_children(supervisor, kids, 64);
	for (int i = 0; i < n; i++)
		if (has_epoll(kids[i]))
			return kids[i];
	return 0;
}

int vgl_proc_stat_open(pid_t pid)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	return pid > 0 ? open(p, O_RDONLY | O_CLOEXEC) : -1;
}

int vgl_proc_cpu(int fd)
{
	char buf[1024];
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return -1;
	buf[len] = 0;
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* After ") " come fields 3, 4, ...: the processor is field 39. */
	p += 2;
	for (int field = 3; field < 39; field++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	return atoi(p);
}
