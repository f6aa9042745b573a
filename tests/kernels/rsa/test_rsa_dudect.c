/* test_rsa_dudect.c: statistical timing test (dudect style) of the ifma
 * tier's paired CRT exponentiation, which valgrind cannot run. Two classes
 * of inputs, interleaved in random order: a fixed secret (all-zero
 * exponents, base 1: every window selects entry 0) and fresh random
 * secrets (random exponents and bases). Welch's t-test on the cycle
 * counts, on all samples and on the samples below a few pooled percentiles
 * (cropping the interrupts and the neighbours' noise of a shared machine);
 * |t| above THRESHOLD fails. Runs a fixed number of samples (bounded time).
 *
 * --control makes class 0 do visibly less work (a shorter exponent), and
 * passes only if the test detects that: the statistics are live. --4096
 * uses the RSA-4096 key (40-digit halves: the largest multiply, its own
 * register shape) instead of the RSA-2048 one.
 * Exits 77 (skipped) when the CPU lacks the ifma tier or the build its
 * assembly. Not secret: test keys. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "rsa/rsa52.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "vg/cpu.h"
#include "rsa/rsa_key.h"
#include "rsa_testutil.h"
#include "welch.h"

#define SAMPLES 1200 /* both classes; ~0.3 s at 2048 bits, ~1.2 s at 4096 */
#define THRESHOLD 10.0 /* dudect's "definitely not constant time" bound */



int main(int argc, char **argv)
{
	int control = 0;
	const char *keyfile = "rsa_pkcs1_2048_test.txt";
	static uint64_t cycles[SAMPLES];
	static int cls[SAMPLES];
	uint64_t ep[2][VG_BN_MAX_LIMBS], eq[2][VG_BN_MAX_LIMBS];
	uint64_t c2[2][2 * VG_BN_MAX_LIMBS];
	uint64_t rp[VG_BN_MAX_LIMBS], rq[VG_BN_MAX_LIMBS];
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

	/* The ifma row of the RSA table (none in a build without asm). */
	const struct vg_rsa_impl *ifma = NULL;
	for (size_t i = 0; i < vg_rsa_nimpls; i++)
		if (strcmp(vg_rsa_impls[i].v.name, "ifma") == 0)
			ifma = &vg_rsa_impls[i];
	if (!ifma || (vg_cpu_features() & ifma->v.features) != ifma->v.features) {
		fprintf(stderr, "no ifma row, or the CPU lacks its features: nothing to check\n");
		return 77;
	}
	vg_rsa_key *key = trsa_key_from_file(keyfile);
	if (!key)
		return 1;
	/* The row's paired functions for this key's digit count. */
	const struct vg_rsa52_impl *f = NULL;
	for (size_t k = 0; k < VG_RSA52_SIZES; k++)
		if (vg_rsa52_digits[k] == key->r52.digits)
			f = &ifma->r52[k];
	size_t limbs = key->p.limbs, bits = key->p.bits;
	if (!f) {
		fprintf(stderr, "no ifma multiply for this key\n");
		return 1;
	}
	/* class 0: fixed secret */
	memset(ep, 0, sizeof(ep));
	memset(eq, 0, sizeof(eq));
	memset(c2, 0, sizeof(c2));
	c2[0][0] = 1;

	for (int i = 0; i < SAMPLES; i++) {
		int c = (int)(trsa_rand(&seed) & 1);
		cls[i] = c;
		if (c == 1) {
			/* fresh random secret, below the primes (top limb zero) */
			trsa_rand_bytes(&seed, (uint8_t *)ep[1], limbs * 8);
			trsa_rand_bytes(&seed, (uint8_t *)eq[1], limbs * 8);
			trsa_rand_bytes(&seed, (uint8_t *)c2[1], (2 * limbs - 1) * 8);
			if (bits % 64) {
				ep[1][limbs - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
				eq[1][limbs - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
			}
		}
		size_t eb = control && c == 0 ? bits - 256 : bits;
		uint64_t t0 = __rdtsc();
		vg_rsa52_exp2(&key->r52, f, rp, rq, c2[c], 2 * limbs, ep[c], eq[c], eb,
			      key->p.prime, key->q.prime, limbs);
		cycles[i] = __rdtsc() - t0;
	}
	trsa_key_free(key);

	double worst = vgt_welch_cropped(cycles, cls, SAMPLES);
	if (worst < 0)
		return 1;
	printf("max |t| = %.2f (threshold %.1f)%s\n", worst, THRESHOLD, control ? " [control]" : "");
	if (control)
		return worst > THRESHOLD ? 0 : 1;
	return worst > THRESHOLD ? 1 : 0;
}
