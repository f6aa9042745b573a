/* dudect_c25519.c: statistical timing test (dudect, Reparaz-Balasch-
 * Verbauwhede 2017) of the c25519 asm tiers: each target runs on inputs of
 * two classes, a fixed secret and random secrets, interleaved in random
 * order; cycle counts of the two classes are compared with Welch's t-test,
 * on all samples and on samples below several percentiles (cropping tames
 * interrupts and the other processes on this shared machine). A
 * deliberately leaky control (early-exit comparison) must show a leak, so
 * the test can fail in both directions. Prints every t statistic.
 *
 * This is the constant-time evidence for tiers valgrind cannot run
 * (ifma); the base and adx tiers are covered too, as a cross-check of
 * ct-ec-*. Bounded time: VG_DUDECT_SECONDS per target (default 2).
 * Secret (in the model): the scalars and field elements under test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "c25519/c25519_impl.h"
#include "c25519/fe4.h"
#include "checkasm.h"
#include "welch.h"

/* |t| above this is a leak. dudect uses 4.5 on long quiet runs; the
 * control gives |t| in the hundreds within a second, while constant-time
 * code stays within a few units even on this loaded host, so 10 separates
 * them without false alarms from noise. */
#define T_LEAK 10.0
#define NCROP 5

typedef void (*target_fn)(const uint8_t *in);


/* Runs target for `seconds`; returns the largest |t| over the raw and
 * cropped tests and prints them. */
static double dudect(const char *name, target_fn fn, void (*fixed)(uint8_t *), size_t inlen,
		     double seconds)
{
	enum { BATCH = 512 };
	static uint8_t in[BATCH][128];
	static uint64_t cyc[BATCH], sorted[BATCH];
	int cls[BATCH];
	vgt_welch w[1 + NCROP];
	double cut[NCROP] = {0};
	const double pct[NCROP] = {0.1, 0.3, 0.5, 0.7, 0.9};
	memset(w, 0, sizeof(w));
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long total = 0;
	for (int round = 0;; round++) {
		for (int i = 0; i < BATCH; i++) {
			cls[i] = (int)(vg_checkasm_rand64() & 1);
			if (cls[i] == 0)
				fixed(in[i]);
			else
				vg_checkasm_rand_bytes(in[i], inlen);
		}
		for (int i = 0; i < BATCH; i++) {
			unsigned aux;
			uint64_t a = __rdtscp(&aux);
			fn(in[i]);
			uint64_t b = __rdtscp(&aux);
			cyc[i] = b - a;
		}
		if (round == 0) { /* first batch: warm-up, sets the crop points */
			memcpy(sorted, cyc, sizeof(sorted));
			vgt_sort_u64(sorted, BATCH);
			for (int k = 0; k < NCROP; k++)
				cut[k] = (double)sorted[(int)(pct[k] * BATCH)];
			continue;
		}
		for (int i = 0; i < BATCH; i++) {
			vgt_welch_add(&w[0], cls[i], (double)cyc[i]);
			for (int k = 0; k < NCROP; k++)
				if ((double)cyc[i] <= cut[k])
					vgt_welch_add(&w[1 + k], cls[i], (double)cyc[i]);
		}
		total += BATCH;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if ((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 > seconds)
			break;
	}
	double worst = 0;
	printf("  %-28s n=%-8ld t:", name, total);
	for (int k = 0; k <= NCROP; k++) {
		double t = vgt_welch_t(&w[k]);
		printf(" %7.2f", t);
		if (fabs(t) > worst)
			worst = fabs(t);
	}
	printf("  max|t|=%.2f\n", worst);
	fflush(stdout);
	return worst;
}

/* --- targets: input bytes are the secret --- */
static const struct vg_c25519_impl *impl;
static void (*mul)(vg_fe4 *, const vg_fe4 *, const vg_fe4 *);
static void (*ladder)(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);

static void t_mul(const uint8_t *in)
{
	vg_fe4 a, b, h;
	memcpy(&a, in, 32);
	memcpy(&b, in + 32, 32);
	mul(&h, &a, &b);
	__asm__ volatile("" ::"r"(&h) : "memory");
}

static void t_ladder(const uint8_t *in)
{
	static const vg_fe4 x1 = {{9, 0, 0, 0}}; /* public peer value */
	uint8_t e[32];
	vg_fe4 xz[2];
	memcpy(e, in, 32);
	e[0] &= 248;
	e[31] = (uint8_t)((e[31] & 127) | 64);
	ladder(xz, e, &x1);
	__asm__ volatile("" ::"r"(xz) : "memory");
}

static void t_base(const uint8_t *in)
{
	uint8_t a[32], out[32];
	memcpy(a, in, 32);
	a[31] &= 127;
	impl->base_encode(out, a);
	__asm__ volatile("" ::"r"(out) : "memory");
}

static void t_x25519(const uint8_t *in)
{
	static const uint8_t peer[32] = {9};
	uint8_t out[32];
	(void)impl->x25519(out, in, peer);
	__asm__ volatile("" ::"r"(out) : "memory");
}

static void fixed_zero(uint8_t *in) { memset(in, 0, 64); }

/* The control: leaks by an early exit on the first differing byte. */
static const uint8_t control_ref[64];
static void t_leaky(const uint8_t *in)
{
	volatile int r = 0;
	for (int i = 0; i < 64; i++) {
		if (in[i] != control_ref[i])
			break;
		r++;
	}
	for (int i = 0; i < r * 8; i++) /* make the leak a few hundred cycles */
		__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	const char *s = getenv("VG_DUDECT_SECONDS");
	double sec = s ? atof(s) : 2.0;
	int failed = 0;
	vg_checkasm_init("dudect", argc, argv);
	printf("dudect: |t| > %.1f is a leak; t on raw, then cropped below the 10/30/50/70/90th "
	       "percentile\n", T_LEAK);

	double tc = dudect("control (leaky, must leak)", t_leaky, fixed_zero, 64, sec / 2);
	if (tc <= T_LEAK) {
		printf("dudect: FAILED: the leaky control was not detected\n");
		failed = 1;
	}
	/* The asm rows of the family table, and the asm building blocks each
	 * adds: ifma only its own code (the ladder and the comb, and the
	 * functions around them); its fe4_mul is adx's, timed there. */
	static const struct {
		const char *name;
		void (*mul)(vg_fe4 *, const vg_fe4 *, const vg_fe4 *);
		void (*ladder)(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);
	} blocks[] = {
		{"ifma", NULL, vg_x25519_ladder_ifma},
		{"adx", vg_fe4_mul_adx, vg_x25519_ladder_adx},
		{"base", vg_fe4_mul_base, vg_x25519_ladder_base},
	};
	int ran = 0;
	for (size_t r = vg_c25519_nimpls; r-- > 1;) {
		const struct vg_c25519_impl *row = &vg_c25519_impls[r];
		size_t i = 0;
		while (i < sizeof(blocks) / sizeof(blocks[0]) && strcmp(blocks[i].name, row->v.name))
			i++;
		if (i == sizeof(blocks) / sizeof(blocks[0])) {
			printf("dudect: FAILED: row %s has no targets here\n", row->v.name);
			failed = 1;
			continue;
		}
		if ((vg_cpu_features() & row->v.features) != row->v.features) {
			printf("dudect: tier %s: skipped (CPU lacks features)\n", row->v.name);
			continue;
		}
		impl = row;
		mul = blocks[i].mul;
		ladder = blocks[i].ladder;
		printf("dudect: tier %s (fixed secret = 0 against random)\n", row->v.name);
		char n[64];
		struct {
			const char *what;
			target_fn fn;
		} tg[] = {{"fe4_mul", t_mul}, {"x25519_ladder", t_ladder},
			  {"[a]B comb+encode", t_base}, {"x25519", t_x25519}};
		for (size_t j = 0; j < sizeof(tg) / sizeof(tg[0]); j++) {
			if (!mul && tg[j].fn == t_mul)
				continue;
			snprintf(n, sizeof(n), "%s %s", tg[j].what, row->v.name);
			if (dudect(n, tg[j].fn, fixed_zero, 64, sec) > T_LEAK) {
				printf("dudect: FAILED: %s leaks\n", n);
				failed = 1;
			}
			ran++;
		}
	}
	if (!ran) {
		printf("dudect: FAILED: no target ran\n");
		failed = 1;
	}
	return failed;
}
