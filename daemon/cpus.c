/* cpus.c: see cpus.h. The supervisor reads its own affinity mask once at
 * start; a keyholder pins itself in its child before its sandbox, so no
 * filter needs sched_setaffinity, and a restarted keyholder pins itself
 * to the same CPU again (the CPU belongs to the slot, not the process). */
#include "cpus.h"

#include <sched.h>

#include "errcode.h"

int vgd_cpus_allowed(int *list, int cap)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	int n = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < cap; cpu++)
		if (CPU_ISSET(cpu, &set))
			list[n++] = cpu;
	return n;
}

int vgd_cpu_pin(int cpu)
{
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return VGD_E_INVALID;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : VGD_E_PERM;
}
