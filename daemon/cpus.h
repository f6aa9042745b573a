/* cpus.h: which CPUs vgd may run on, and pinning a keyholder to one of
 * them (daemon/DESIGN-cpu.md: a request stays on one CPU). Nothing secret. */
#ifndef VGD_CPUS_H
#define VGD_CPUS_H

/* The CPUs in the calling process's affinity mask (taskset, a cgroup's
 * cpuset, systemd's CPUAffinity=), ascending, at most cap of them, into
 * list. Returns how many, or 0 if the mask cannot be read (the caller
 * then falls back to the online count and pins nothing). */
int vgd_cpus_allowed(int *list, int cap);

/* Restrict the calling process to cpu. 0 or a negative VGD_E_*. */
int vgd_cpu_pin(int cpu);

#endif
