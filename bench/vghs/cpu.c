/* cpu.c: CPU accounting from /proc: nanoseconds on a CPU of every thread
 * of a set of processes (schedstat, exact, unlike the 10 ms ticks of
 * /proc/PID/stat), process trees, and the machine's idle time. Nothing
 * secret. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procutil.h"
#include "vghs.h"

static uint64_t task_ns(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned long long ns = 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

uint64_t vgh_cpu_ns(const pid_t *pids, int n)
{
	uint64_t sum = 0;
	for (int i = 0; i < n; i++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pids[i]);
		DIR *d = opendir(dir);
		if (!d)
			continue;
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] < '0' || e->d_name[0] > '9')
				continue;
			char p[128];
			snprintf(p, sizeof(p), "%s/%.32s/schedstat", dir, e->d_name);
			sum += task_ns(p);
		}
		closedir(d);
	}
	return sum;
}

int vgh_tree(pid_t root, pid_t *pids, int cap)
{
	if (root <= 0 || cap < 1)
		return 0;
	pids[0] = root;
	return 1 + vg_proc_children(root, pids + 1, cap - 1);
}

int vgh_machine(uint64_t *idle, uint64_t *total)
{
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	unsigned long long v[10] = {0};
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (n < 4)
		return -1;
	/* guest and guest_nice (8, 9) are already in user and nice. */
	uint64_t t = 0;
	for (int i = 0; i < 8 && i < n; i++)
		t += v[i];
	*idle = v[3] + (n > 4 ? v[4] : 0); /* idle + iowait */
	*total = t;
	return 0;
}

void vgh_vgd_cpu(pid_t supervisor, uint64_t ns[VGH_VGD_NROLES])
{
	pid_t pids[VGH_MAX_PIDS];
	int n = vgh_tree(supervisor, pids, VGH_MAX_PIDS);
	for (int r = 0; r < VGH_VGD_NROLES; r++)
		ns[r] = 0;
	for (int i = 0; i < n; i++) {
		char p[64], comm[32] = "";
		snprintf(p, sizeof(p), "/proc/%d/comm", (int)pids[i]);
		FILE *f = fopen(p, "r");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = 0;
			fclose(f);
		}
		/* The children name themselves (vgd(8): vgd-front, vgd-keyholder). */
		int role = strncmp(comm, "vgd-front", 9) == 0        ? VGH_VGD_FRONT
			   : strncmp(comm, "vgd-keyholder", 13) == 0 ? VGH_VGD_KEYHOLDERS
								     : VGH_VGD_SUPERVISOR;
		ns[role] += vgh_cpu_ns(&pids[i], 1);
	}
}
