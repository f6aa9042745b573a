/* test_c25519_mb_dudect.c: statistical timing test (dudect style) of the
 * c25519_mb family's ifma row through the batch glue, which valgrind
 * cannot run: X25519 (vg_x25519_mb_batch: packing, the eight-lane ladder,
 * the inversion on the eight-lane multiply and squarings, each lane's
 * encoding) or, with --ed25519, the signer's [r]B and its encoding
 * (vg_ed25519_mb_base_encode: the digits, the eight-lane comb's masked
 * scans and formulas, the inversion). Two classes of secrets, interleaved
 * in random order (X25519: the same public points): a fixed secret (every
 * lane's scalar zero: for X25519 2^254 after clamping, one bit set; for
 * the comb all digits 0, the identity entry in every scan) and fresh
 * random scalars in every lane. Welch's t-test on the cycle counts, on all samples and
 * below a few pooled percentiles (cropping interrupts and the
 * neighbours' noise of a shared machine); |t| above THRESHOLD fails.
 *
 * --control makes class 1 do visibly more work (two batches) and passes
 * only if the test detects it: the statistics are live. Exits 77
 * (skipped) when the CPU lacks the ifma tier or the build its assembly.
 * Not secret: test data. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "c25519/c25519_mb_impl.h"
#include "ec_testutil.h"
#include "vg/cpu.h"
#include "welch.h"

#define SAMPLES 2000   /* both classes; ~0.1 s */
#define THRESHOLD 10.0 /* dudect's "definitely not constant time" bound */
#define LANES VG_C25519_MB_LANES


int main(int argc, char **argv)
{
	int control = 0, ed = 0;
	static uint64_t cycles[SAMPLES];
	static int cls[SAMPLES];
	static uint8_t k[LANES][32], u[LANES][32], out[LANES][32], in[SAMPLES][LANES][32];
	uint8_t *outp[LANES];
	const uint8_t *kp[LANES], *up[LANES];
	uint64_t seed = 0x5eed;
	volatile unsigned sink = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--control") == 0) {
			control = 1;
		} else if (strcmp(argv[i], "--ed25519") == 0) {
			ed = 1;
		} else {
			fprintf(stderr, "usage: %s [--control] [--ed25519]\n", argv[0]);
			return 2;
		}
	}
	const struct vg_c25519_mb_impl *ifma = NULL;
	for (size_t i = 0; i < vg_c25519_mb_nimpls; i++)
		if (strcmp(vg_c25519_mb_impls[i].v.name, "ifma") == 0)
			ifma = &vg_c25519_mb_impls[i];
	if (!ifma || (vg_cpu_features() & ifma->v.features) != ifma->v.features) {
		fprintf(stderr, "no ifma row, or the CPU lacks its features: nothing to check\n");
		return 77;
	}
	for (size_t l = 0; l < LANES; l++) {
		ect_rand_bytes(&seed, u[l], 32);
		outp[l] = out[l];
		up[l] = u[l];
		kp[l] = k[l]; /* the timed call's scalars: a copy of the sample's */
	}

	/* Every sample's scalars are made before any is timed, and each
	 * timed call is preceded by the same copy for both classes, so that
	 * the classes differ only in the secret (test_ecdsa_mb_dudect.c saw
	 * |t| up to 18 from making the random class's inputs in the loop). */
	for (int i = 0; i < SAMPLES; i++) {
		int c = (int)(ect_rand(&seed) & 1);
		cls[i] = c;
		memset(in[i], 0, sizeof(in[i]));
		if (c == 1)
			for (size_t l = 0; l < LANES; l++) {
				ect_rand_bytes(&seed, in[i][l], 32);
				in[i][l][31] &= 127; /* the comb's a < 2^255 */
			}
	}
	for (int i = 0; i < SAMPLES; i++) {
		int c = cls[i];
		memcpy(k, in[i], sizeof(k));
		uint64_t t0 = __rdtsc();
		for (int twice = 0; twice <= (control && c == 1); twice++) {
			if (ed)
				vg_ed25519_mb_base_encode(ifma, outp, kp, LANES);
			else
				sink += vg_x25519_mb_batch(ifma, outp, kp, up, LANES);
		}
		cycles[i] = __rdtsc() - t0;
	}

	double worst = vgt_welch_cropped(cycles, cls, SAMPLES);
	if (worst < 0)
		return 1;
	printf("%s: max |t| = %.2f (threshold %.1f)%s\n", ed ? "ed25519 [r]B" : "x25519", worst,
	       THRESHOLD, control ? " [control]" : "");
	if (control)
		return worst > THRESHOLD ? 0 : 1;
	return worst > THRESHOLD ? 1 : 0;
}
