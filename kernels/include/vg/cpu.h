/* vg/cpu.h: run-time CPU dispatch. Features are detected once (cpuid, and
 * xgetbv for the OS-saved AVX/AVX-512 state), then masked by the
 * environment variable VG_CPU_FEATURES, which can only remove features:
 * a comma list of names to keep ("bmi2,adx,avx2", "sha_ni": the names of
 * /proc/cpuinfo), or "none". Every
 * kernel family's variant is chosen once, in one place, as the best one
 * those features allow; VG_KERNELS=c chooses the portable C reference of
 * every family instead. The choice can be reported. */
#ifndef VG_CPU_H
#define VG_CPU_H

#include <stdint.h>

enum vg_cpu_feature {
	VG_CPU_BMI1 = 1u << 0,
	VG_CPU_BMI2 = 1u << 1,
	VG_CPU_ADX = 1u << 2,
	VG_CPU_AVX2 = 1u << 3,
	VG_CPU_AVX512F = 1u << 4,
	VG_CPU_AVX512VL = 1u << 5,
	VG_CPU_AVX512IFMA = 1u << 6, /* with the AVX512DQ and BW mask instructions */
	VG_CPU_SHA = 1u << 7, /* SHA-NI (with the SSSE3 and SSE4.1 it needs) */
	VG_CPU_AVX = 1u << 8, /* AVX with the OS saving YMM */
};

/* Tiers, each a set of features. "c" is the portable reference. */
#define VG_TIER_BASE 0u /* x86-64 baseline: mul/adc, SSE2 */
#define VG_TIER_ADX (VG_CPU_BMI1 | VG_CPU_BMI2 | VG_CPU_ADX)
#define VG_TIER_IFMA (VG_TIER_ADX | VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA)

/* Features usable by this process (detected & VG_CPU_FEATURES mask). */
uint32_t vg_cpu_features(void);

/* Name of the variant chosen for an operation ("ed25519", "x25519",
 * "rsa", "p256", "p384", "sha256"): "c", "base", "adx" or "ifma" ("c" or
 * "shani" for sha256); "?" for an unknown operation. */
const char *vg_kernel_variant(const char *op);

/* One line listing every operation's variant, e.g.
 * "ed25519=adx x25519=adx rsa=ifma p256=ifma p384=ifma sha256=shani"
 * (static storage). */
const char *vg_kernel_variants(void);

#endif
