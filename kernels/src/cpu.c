/* cpu.c: CPU detection (vg/cpu.h, cpu_internal.h): the instruction set
 * features (cpuid, and xgetbv for the register state the OS saves), the
 * processor's vendor, family and model, and the VG_CPU_FEATURES mask.
 * Detection only: which kernel variant runs is dispatch.c's choice.
 * Detection runs once (pthread_once); nothing changes afterwards. Nothing
 * here is secret. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_internal.h"

/* Owned by this file: written once under pthread_once, read-only after. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint32_t usable;
static struct vg_cpu_id id;

#if defined(__x86_64__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* Vendor string (leaf 0: EBX, EDX, ECX) and the display family and model
 * (leaf 1 EAX): the extended family adds to family 0xf only, the extended
 * model extends families 0x6 and 0xf. */
static void identify(struct vg_cpu_id *r)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(r->vendor, &b, 4);
	memcpy(r->vendor + 4, &d, 4);
	memcpy(r->vendor + 8, &c, 4);
	r->vendor[12] = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	unsigned family = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
	r->stepping = a & 0xf;
	r->family = family == 0xf ? family + ((a >> 20) & 0xff) : family;
	r->model = family == 0x6 || family == 0xf ? model | ((a >> 16) & 0xf) << 4 : model;
}

static uint32_t detect(void)
{
	unsigned a, b, c, d, f = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
	int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1; /* what the SHA-NI code also uses */
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	/* The OS must save YMM (bits 1-2) for AVX2, and opmask/ZMM (bits 5-7)
	 * too for AVX-512. */
	int ymm_ok = avx && (xcr0 & 0x6) == 0x6;
	int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;
	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	if (b & (1u << 3))
		f |= VG_CPU_BMI1;
	if (b & (1u << 8))
		f |= VG_CPU_BMI2;
	if (b & (1u << 19))
		f |= VG_CPU_ADX;
	if (ymm_ok)
		f |= VG_CPU_AVX;
	if (ymm_ok && (b & (1u << 5)))
		f |= VG_CPU_AVX2;
	if (zmm_ok && (b & (1u << 16)))
		f |= VG_CPU_AVX512F;
	if (zmm_ok && (b & (1u << 31)))
		f |= VG_CPU_AVX512VL;
	/* The ifma rows also use AVX512DQ (kmovb, kshiftlb, kxorb) and
	 * AVX512BW (kxorq) mask instructions: every CPU with IFMA has both,
	 * but a hypervisor may hide them, so IFMA counts only with them. */
	if (zmm_ok && (b & (1u << 21)) && (b & (1u << 17)) && (b & (1u << 30)))
		f |= VG_CPU_AVX512IFMA;
	if (ssse3 && sse41 && (b & (1u << 29)))
		f |= VG_CPU_SHA;
	return f;
}
#else
static void identify(struct vg_cpu_id *r) { (void)r; }
static uint32_t detect(void) { return 0; }
#endif

static const struct {
	const char *name;
	uint32_t bit;
} names[] = {
	{"bmi1", VG_CPU_BMI1},         {"bmi2", VG_CPU_BMI2},         {"adx", VG_CPU_ADX},
	{"avx", VG_CPU_AVX},           {"avx2", VG_CPU_AVX2},         {"avx512f", VG_CPU_AVX512F},
	{"avx512vl", VG_CPU_AVX512VL},
	{"avx512ifma", VG_CPU_AVX512IFMA}, {"sha_ni", VG_CPU_SHA},
};

/* Parse VG_CPU_FEATURES into a keep-mask; unknown names are ignored with a
 * warning (they cannot add anything anyway). */
static uint32_t env_mask(void)
{
	const char *v = getenv("VG_CPU_FEATURES");
	if (!v)
		return ~0u;
	if (strcmp(v, "none") == 0 || *v == 0)
		return 0;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", v);
	uint32_t keep = 0;
	for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		size_t i;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(t, names[i].name) == 0)
				break;
		if (i < sizeof(names) / sizeof(names[0]))
			keep |= names[i].bit;
		else
			fprintf(stderr, "vg: VG_CPU_FEATURES: unknown feature '%s' ignored\n", t);
	}
	return keep;
}

static void init(void)
{
	identify(&id);
	usable = detect() & env_mask();
}

uint32_t vg_cpu_features(void)
{
	pthread_once(&once, init);
	return usable;
}

const struct vg_cpu_id *vg_cpu_id(void)
{
	pthread_once(&once, init);
	return &id;
}
