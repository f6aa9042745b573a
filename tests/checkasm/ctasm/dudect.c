/* dudect.c: see dudect.h. Nothing here is secret but the targets' inputs,
 * which only the targets look at. */
#include "dudect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "checkasm.h"
#include "welch.h"

#define NCROP 5
#define BATCH 512

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

double vgt_dudect(const char *name, vgt_dudect_fn fn, size_t inlen, double seconds)
{
	static uint8_t in[BATCH][VGT_DUDECT_MAX_IN];
	static uint64_t cyc[BATCH], sorted[BATCH];
	static int cls[BATCH];
	vgt_welch w[1 + NCROP];
	double cut[NCROP] = {0};
	const double pct[NCROP] = {0.1, 0.3, 0.5, 0.7, 0.9};
	struct timespec t0;
	long total = 0;

	if (inlen > VGT_DUDECT_MAX_IN)
		abort();
	memset(w, 0, sizeof(w));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int round = 0;; round++) {
		for (int i = 0; i < BATCH; i++) {
			cls[i] = (int)(vg_checkasm_rand64() & 1);
			if (cls[i] == 0)
				memset(in[i], 0, inlen);
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
		if (round == 0) { /* the first batch warms up and sets the crop points */
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
		if (seconds_since(&t0) > seconds)
			break;
	}
	double worst = 0;
	printf("  %-30s n=%-8ld t:", name, total);
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

int vgt_dudect_leaks(const char *name, vgt_dudect_fn fn, size_t inlen, double seconds)
{
	if (vgt_dudect(name, fn, inlen, seconds) <= VGT_DUDECT_LEAK)
		return 0;
	printf("dudect: %s above %.1f once: measuring it again\n", name, VGT_DUDECT_LEAK);
	return vgt_dudect(name, fn, inlen, seconds) > VGT_DUDECT_LEAK;
}

/* Leaks by an early exit on the first nonzero byte, stretched to a few
 * hundred cycles so that the statistics see it. */
static void leaky(const uint8_t *in)
{
	volatile int r = 0;
	for (int i = 0; i < 64; i++) {
		if (in[i] != 0)
			break;
		r++;
	}
	for (int i = 0; i < r * 8; i++)
		__asm__ volatile("" ::: "memory");
}

int vgt_dudect_control(double seconds)
{
	if (vgt_dudect("control (leaky, must leak)", leaky, 64, seconds) > VGT_DUDECT_LEAK)
		return 0;
	printf("dudect: FAILED: the leaky control was not detected\n");
	return 1;
}

double vgt_dudect_start(void)
{
	const char *s = getenv("VG_DUDECT_SECONDS");
	printf("dudect: |t| > %.1f is a leak; t on raw, then cropped below the 10/30/50/70/90th "
	       "percentile\n", VGT_DUDECT_LEAK);
	return s ? atof(s) : 2.0;
}
