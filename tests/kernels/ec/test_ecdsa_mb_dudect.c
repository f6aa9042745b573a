/* test_ecdsa_mb_dudect.c: statistical timing test (dudect style) of the
 * ec_p256_mb family's ifma row (the batched comb, every lane its own
 * scalar), or with --p384 the ec_p384_mb one, which valgrind cannot run. Two classes of inputs, interleaved
 * in random order: a fixed secret (every lane's scalar 1: one digit 1 in
 * row 0, every other digit zero, so each row keeps the accumulator and
 * selects no entry) and fresh random scalars in [1, n - 1] in all eight
 * lanes. The digits are made before the clock starts (the recoding is C
 * and is checked by valgrind). Welch's t-test on the cycle counts, on all
 * samples and below a few pooled percentiles (cropping interrupts and the
 * neighbours' noise of a shared machine); |t| above THRESHOLD fails.
 *
 * --control adds about 3 % of busy work to the random class and passes
 * only if the test detects it: the statistics are live. Exits 77
 * (skipped) when the CPU lacks the ifma tier or the build its assembly.
 * Not secret: test scalars. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "ec/ec_mb.h"
#include "ecdsa_testutil.h"
#include "vg/cpu.h"
#include "welch.h"

#define SAMPLES 2000   /* both classes; ~16 us each (P-384 ~50): 0.1 s (0.3 s) */
#define THRESHOLD 10.0 /* dudect's "definitely not constant time" bound */
#define LANES VG_EC_MB_LANES
#define MAXN VG_EC_MAX_LIMBS
#define MAXROWS VG_EC_MB_MAX_ROWS


/* a < b on N limbs */
static int lt(const uint64_t *a, const uint64_t *b, size_t N)
{
	for (size_t i = N; i-- > 0;)
		if (a[i] != b[i])
			return a[i] < b[i];
	return 0;
}

int main(int argc, char **argv)
{
	int control = 0, p384 = 0;
	static uint64_t cycles[SAMPLES];
	static int cls[SAMPLES];
	static int8_t d[2][MAXROWS * LANES], in[SAMPLES][MAXROWS * LANES];
	static vg_ec_point r[LANES];
	uint64_t seed = 0x5eedec;
	volatile uint64_t busy = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--control") == 0)
			control = 1;
		else if (strcmp(argv[i], "--p384") == 0)
			p384 = 1;
		else
			return 2;
	}
	const struct vg_ec_mb_impl *tab = p384 ? vg_ec_p384_mb_impls : vg_ec_p256_mb_impls;
	size_t nt = p384 ? vg_ec_p384_mb_nimpls : vg_ec_p256_mb_nimpls;
	const struct vg_ec_mb_impl *ifma = NULL;
	for (size_t i = 0; i < nt; i++)
		if (strcmp(tab[i].v.name, "ifma") == 0)
			ifma = &tab[i];
	if (!ifma || (vg_cpu_features() & ifma->v.features) != ifma->v.features) {
		fprintf(stderr, "no ifma row, or the CPU lacks its features: nothing to check\n");
		return 77;
	}
	const struct vg_ec_curve *c = ifma->curve;
	const uint64_t *table = p384 ? c->comb : c->comb5, *n = c->n.m;
	size_t N = c->limbs, ROWS = p384 ? c->comb_rows : c->comb5_rows;
	/* class 0: k = 1 in every lane */
	for (size_t l = 0; l < LANES; l++)
		d[0][l] = 1;

	/* Every sample's digits are made before any is timed, so that the
	 * work between two timed calls is the same for both classes (one
	 * copy into the comb's input): making random digits only before the
	 * random class's calls warmed that class differently and gave |t|
	 * up to 18 on a quiet machine. */
	for (int i = 0; i < SAMPLES; i++) {
		int cl = (int)(tec_rand(&seed) & 1);
		cls[i] = cl;
		if (cl == 0) {
			memcpy(in[i], d[0], sizeof(in[i]));
			continue;
		}
		for (size_t l = 0; l < LANES; l++) {
			uint64_t k[MAXN] = {0};
			int8_t dl[MAXROWS];
			do
				tec_rand_bytes(&seed, (uint8_t *)k, N * 8);
			while (!lt(k, n, N) || (k[0] | k[1] | k[2] | k[3]) == 0);
			if (p384)
				vg_ec_comb_recode(dl, k, N, ROWS);
			else
				vg_ec_comb_recode_w(dl, k, N, ROWS, VG_EC_COMB5_W);
			for (size_t j = 0; j < ROWS; j++)
				in[i][LANES * j + l] = dl[j];
		}
	}
	for (int i = 0; i < SAMPLES; i++) {
		int cl = cls[i];
		memcpy(d[1], in[i], sizeof(d[1]));
		uint64_t t0 = __rdtsc();
		ifma->comb(r, table, d[1]);
		if (control && cl == 1)
			for (int j = 0; j < (p384 ? 6000 : 2000); j++)
				busy += (uint64_t)j;
		cycles[i] = __rdtsc() - t0;
	}

	double worst = vgt_welch_cropped(cycles, cls, SAMPLES);
	if (worst < 0)
		return 1;
	printf("max |t| = %.2f (threshold %.1f)%s%s\n", worst, THRESHOLD, p384 ? " P-384" : "",
	       control ? " [control]" : "");
	if (control)
		return worst > THRESHOLD ? 0 : 1;
	return worst > THRESHOLD ? 1 : 0;
}
