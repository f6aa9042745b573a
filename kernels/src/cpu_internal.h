/* cpu_internal.h: what cpu.c detects, for the dispatch (dispatch.c) and
 * the tests. Not installed. Nothing here is secret. */
#ifndef VG_CPU_INTERNAL_H
#define VG_CPU_INTERNAL_H

#include <stdint.h>

#include "vg/cpu.h"

/* The processor's identity from cpuid leaves 0 and 1: vendor string
 * ("AuthenticAMD", "GenuineIntel", ...; empty where cpuid is absent) and
 * the display family and model (base plus extended fields, as the
 * vendors' manuals and Linux's /proc/cpuinfo compute them). Recorded so a
 * family can later pick variants per microarchitecture; unused by the
 * choice today. */
struct vg_cpu_id {
	char vendor[13];
	unsigned family, model, stepping;
};

/* Detected once (pthread_once), like vg_cpu_features(). Never NULL. */
const struct vg_cpu_id *vg_cpu_id(void);

#endif
