/* cpu_internal.h: dispatch plumbing shared inside kernels/ and with the
 * tests. Not installed. */
#ifndef VG_CPU_INTERNAL_H
#define VG_CPU_INTERNAL_H

#include <stdint.h>

#include "vg/cpu.h"

/* Features as detected, before the VG_CPU_FEATURES mask. */
uint32_t vg_cpu_detected(void);

/* TEST ONLY: replace the feature set (may add features the CPU reports
 * as absent, e.g. ADX under valgrind, whose cpuid hides it). Must be
 * called before any kernel runs; each family re-selects its variants on
 * its next call when the generation changes. */
void vg_cpu_force_for_tests(uint32_t features);
/* Bumped by vg_cpu_force_for_tests; families compare it to re-dispatch. */
unsigned vg_cpu_generation(void);

/* Per-family variant names, defined by each family ("c" until it has
 * assembly). */
const char *vg_ed25519_variant(void);
const char *vg_x25519_variant(void);
const char *vg_rsa_variant(void);

#endif
