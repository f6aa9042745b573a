/* test_rsa_mb_dudect.c: statistical timing test (dudect style) of the
 * rsa_mb family's ifma row (the batched exponentiation on its eight-lane
 * multiplies, squarings and table reads), which valgrind cannot run. Two
 * classes of inputs, interleaved in random order: a fixed secret (every
 * lane's exponent zero and base 1: every window selects entry 0 in every
 * lane) and fresh random secrets (random exponents and bases in every
 * lane). Welch's t-test on the cycle counts, on all samples and below a
 * few pooled percentiles (cropping interrupts and the neighbours' noise of
 * a shared machine); |t| above THRESHOLD fails.
 *
 * --control makes class 0 do visibly less work (a shorter exponent) and
 * passes only if the test detects it: the statistics are live. --4096
 * uses the RSA-4096 key (40-digit halves, the looped multiply) instead of
 * the RSA-2048 one. Exits 77 (skipped) when the CPU lacks the ifma tier or
 * the build its assembly. Not secret: test keys. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "rsa/rsa52.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_mb_impl.h"
#include "rsa_testutil.h"
#include "vg/cpu.h"
#include "welch.h"

#define SAMPLES 600    /* both classes; ~0.2 s at 2048 bits, ~1 s at 4096 */
#define THRESHOLD 10.0 /* dudect's "definitely not constant time" bound */
#define LANES VG_RSA_MB_LANES


int main(int argc, char **argv)
{
	int control = 0;
	const char *keyfile = "rsa_pkcs1_2048_test.txt";
	static uint64_t cycles[SAMPLES];
	static int cls[SAMPLES];
	static uint64_t e[2][LANES][VG_BN_MAX_LIMBS], x[2][LANES][2 * VG_BN_MAX_LIMBS];
	static uint64_t r[LANES][VG_BN_MAX_LIMBS];
	static uint64_t se[SAMPLES][LANES][VG_BN_MAX_LIMBS], sx[SAMPLES][LANES][2 * VG_BN_MAX_LIMBS];
	struct vg_rsa_mb_lane lanes[2][LANES];
	uint64_t seed = 0x5eed;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--control") == 0) {
			control = 1;
		} else if (strcmp(argv[i], "--4096") == 0) {
			keyfile = "rsa_pkcs1_4096_test.txt";
		} else {
			fprintf(stderr, "usage: %s [--control] [--4096]\n", argv[0]);
			return 2;
		}
	}

	const struct vg_rsa_mb_impl *ifma = NULL;
	for (size_t i = 0; i < vg_rsa_mb_nimpls; i++)
		if (strcmp(vg_rsa_mb_impls[i].v.name, "ifma") == 0)
			ifma = &vg_rsa_mb_impls[i];
	if (!ifma || (vg_cpu_features() & ifma->v.features) != ifma->v.features) {
		fprintf(stderr, "no ifma row, or the CPU lacks its features: nothing to check\n");
		return 77;
	}
	vg_rsa_key *key = trsa_key_from_file(keyfile);
	if (!key)
		return 1;
	size_t L = key->r52.digits, S = VG_RSA52_STRIDE(L), limbs = key->p.limbs;
	size_t bits = key->p.bits;
	if (L == 0) {
		fprintf(stderr, "the key has no batched path\n");
		return 1;
	}
	/* Lanes alternate the key's p and q halves (their constants). Class
	 * 0: exponent zero, base 1. */
	for (int c = 0; c < 2; c++)
		for (size_t l = 0; l < LANES; l++) {
			size_t h = l & 1;
			lanes[c][l] = (struct vg_rsa_mb_lane){
				.m52 = key->r52.m + h * S,
				.rr52 = key->r52.rr + h * S,
				.hi52 = key->r52.hi + h * S,
				.out52 = key->r52.out + h * S,
				.k0 = key->r52.k0[h],
				.m64 = h ? key->q.prime : key->p.prime,
				.e = e[c][l],
				.x = x[c][l],
				.r = r[l],
			};
			if (c == 0)
				x[0][l][0] = 1;
		}

	/* Every sample's secrets are made before any is timed, and each
	 * timed call is preceded by the same copy into one set of lanes for
	 * both classes, so that the classes differ only in the secrets
	 * (making the random class's inputs just before its calls warmed it
	 * differently: test_ecdsa_mb_dudect.c saw |t| up to 18 that way). */
	for (int i = 0; i < SAMPLES; i++) {
		int c = (int)(trsa_rand(&seed) & 1);
		cls[i] = c;
		if (c == 0) {
			memcpy(se[i], e[0], sizeof(se[i]));
			memcpy(sx[i], x[0], sizeof(sx[i]));
			continue;
		}
		memset(se[i], 0, sizeof(se[i]));
		memset(sx[i], 0, sizeof(sx[i]));
		for (size_t l = 0; l < LANES; l++) {
			/* fresh random secrets, the exponent below 2^bits */
			trsa_rand_bytes(&seed, (uint8_t *)se[i][l], limbs * 8);
			trsa_rand_bytes(&seed, (uint8_t *)sx[i][l], (2 * limbs - 1) * 8);
			if (bits % 64)
				se[i][l][limbs - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
		}
	}
	for (int i = 0; i < SAMPLES; i++) {
		int c = cls[i];
		memcpy(e[1], se[i], sizeof(e[1]));
		memcpy(x[1], sx[i], sizeof(x[1]));
		size_t eb = control && c == 0 ? bits - 256 : bits;
		uint64_t t0 = __rdtsc();
		vg_rsa_mb_exp(ifma, L, limbs, lanes[1], LANES, eb);
		cycles[i] = __rdtsc() - t0;
	}
	trsa_key_free(key);

	double worst = vgt_welch_cropped(cycles, cls, SAMPLES);
	if (worst < 0)
		return 1;
	printf("max |t| = %.2f (threshold %.1f)%s\n", worst, THRESHOLD,
	       control ? " [control]" : "");
	if (control)
		return worst > THRESHOLD ? 0 : 1;
	return worst > THRESHOLD ? 1 : 0;
}
