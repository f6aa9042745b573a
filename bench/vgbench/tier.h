/* tier.h: running vgbench restricted to one CPU tier. Both libraries read
 * their feature masks once, when they initialise (OpenSSL already while
 * the program loads), so the mask is set in the environment of a fresh
 * copy of this program, started with execv("/proc/self/exe"). */
#ifndef VG_BENCH_TIER_H
#define VG_BENCH_TIER_H

#include <stddef.h>

typedef struct {
	const char *name;
	const char *vg_kernels;  /* VG_KERNELS, or NULL: unset (the best variant) */
	const char *vg_features; /* VG_CPU_FEATURES, or NULL: unset (everything) */
	const char *ossl_cap;    /* OPENSSL_ia32cap, or NULL: unset (everything) */
} vg_bench_tier;

/* The tier called name ("base", "adx", "ifma", "c"), or NULL. */
const vg_bench_tier *vg_bench_tier_find(const char *name);

/* In a copy started by vg_bench_tier_spawn: the tier it runs, its index
 * and the number of copies (to split the time budget and print the TSV
 * header once). Returns NULL in the original process. */
const vg_bench_tier *vg_bench_tier_current(unsigned *index, unsigned *count);

/* Run argv again once per named tier ("all": base, adx, ifma), one after
 * the other, each with its masks in the environment. Returns the exit
 * status for the whole run: 0 if every copy succeeded. */
int vg_bench_tier_spawn(const char *name, char *const argv[]);

#endif
