/* test_x25519_mb_ct.c: constant-time check of the batched X25519
 * (vg_x25519_mb, vg/x25519_mb.h) under valgrind memcheck, at every
 * operation count 1..8: every lane's scalar is marked undefined, so a
 * branch or memory index on it anywhere in the batch path (the clamping
 * and packing, the eight-lane ladder, the inversion chain, each lane's
 * encoding and all-zero flag) fails the run. One lane's peer is of low
 * order (u = 0, or 1, moving with the count), so the all-zero path runs
 * beside ordinary lanes. Results are declassified only where they become
 * public: each status (vg/x25519.h: a low-order peer is the peer's doing)
 * and, after it, each output (to compare it with vg_x25519's).
 *
 * valgrind cannot run AVX-512, so the c25519_mb family runs its C row here
 * (the same glue with the portable ladder, multiply and squarings: below
 * the crossover the asm row would run the single kernel, the C row
 * batches every count); the ifma assembly is checked by ct-asm-static and
 * ct-timing-x25519-mb. --tier c|base|adx forces the single Curve25519
 * row the comparison uses. --control branches on a secret on purpose and
 * passes only if valgrind counted it. Outside valgrind: skipped. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctgrind.h"
#include "dispatch.h"
#include "ec_testutil.h"
#include "vg/cpu.h"
#include "vg/x25519.h"
#include "vg/x25519_mb.h"

#define LANES VG_X25519_MB_MAX

static int failures;

static void run(size_t n, uint64_t seed)
{
	uint8_t k[LANES][32], u[LANES][32], got[LANES][32], want[32];
	uint8_t *outp[LANES];
	const uint8_t *kp[LANES], *up[LANES];
	int rc[LANES];

	for (size_t l = 0; l < n; l++) {
		ect_rand_bytes(&seed, k[l], 32);
		ect_rand_bytes(&seed, u[l], 32);
		outp[l] = got[l];
		kp[l] = k[l];
		up[l] = u[l];
	}
	memset(u[n - 1], 0, 32);
	u[n - 1][0] = (uint8_t)(n & 1); /* low order: u = 0 or 1 */
	for (size_t l = 0; l < n; l++)
		VG_CT_SECRET(k[l], 32);
	int r = vg_x25519_mb(outp, kp, up, n, rc);
	for (size_t l = 0; l < n; l++) {
		VG_CT_PUBLIC(&rc[l], sizeof(rc[l]));
		VG_CT_PUBLIC(got[l], 32);
		VG_CT_PUBLIC(k[l], 32);
	}
	if (r != 0) {
		fprintf(stderr, "x25519-mb-ct: FAILED: %zu operations: returned %d\n", n, r);
		failures++;
		return;
	}
	for (size_t l = 0; l < n; l++) {
		int w = vg_x25519(want, k[l], u[l]);
		if (rc[l] != w || memcmp(got[l], want, 32) != 0 || (l == n - 1 && w != VG_E_ZERO)) {
			fprintf(stderr, "x25519-mb-ct: FAILED: %zu operations, lane %zu\n", n, l);
			failures++;
		}
	}
}

static int run_control(void)
{
	uint8_t k[32] = {0x55};
	volatile int sink = 0;
	unsigned before, after;

	VG_CT_SECRET(k, sizeof(k));
	before = VALGRIND_COUNT_ERRORS;
	if (k[0] & 4)
		sink = 1;
	after = VALGRIND_COUNT_ERRORS;
	printf("control: %u error(s) before the secret branch, %u after (%d)\n", before, after,
	       sink);
	return after > before ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (!VG_CT_ACTIVE()) {
		fprintf(stderr, "not running under valgrind: nothing to check\n");
		return VG_CT_SKIP;
	}
	if (argc > 1 && strcmp(argv[1], "--control") == 0)
		return run_control();
	if (argc > 2 && strcmp(argv[1], "--tier") == 0) {
		const char *t = argv[2];
		if (strcmp(t, "c") == 0)
			vg_dispatch_for_tests(0, 1);
		else if (strcmp(t, "base") == 0)
			vg_dispatch_for_tests(VG_TIER_BASE, 0);
		else if (strcmp(t, "adx") == 0)
			vg_dispatch_for_tests(VG_TIER_ADX, 0);
		else
			return 1;
		if (strcmp(vg_kernel_variant("x25519"), t) != 0 ||
		    strcmp(vg_kernel_variant("x25519-mb"), "c") != 0) {
			fprintf(stderr, "tier %s requested, x25519=%s x25519-mb=%s in use\n", t,
				vg_kernel_variant("x25519"), vg_kernel_variant("x25519-mb"));
			return 1;
		}
	}
	for (size_t n = 1; n <= LANES; n++)
		run(n, 1000 + n);
	printf("x25519-mb-ct: counts 1..%d checked on x25519-mb=%s, x25519=%s: %s\n", LANES,
	       vg_kernel_variant("x25519-mb"), vg_kernel_variant("x25519"),
	       failures ? "FAILED" : "ok");
	return failures != 0;
}
