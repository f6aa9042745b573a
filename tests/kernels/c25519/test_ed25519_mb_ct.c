/* test_ed25519_mb_ct.c: constant-time check of the batched Ed25519 signer
 * (vg_ed25519_sign_expanded_mb, vg/ed25519_mb.h) under valgrind memcheck,
 * at every signature count 1..8: every lane's expanded key (a and the
 * prefix) and message are marked undefined, so a branch or memory index on
 * them anywhere in the batch path (the nonces' hashing and reduction, their
 * digits, the eight-lane comb's masked scans, the inversion, the
 * encodings, each lane's S) fails the run. Each signature is declassified
 * only after the call, where it becomes public, then compared with
 * vg_ed25519_sign_expanded's and verified.
 *
 * valgrind cannot run AVX-512, so the c25519_mb family runs its C row
 * here (the same glue with the portable comb, multiply and squarings; the
 * C row batches every count); the ifma assembly is checked by
 * ct-asm-static and ct-timing-ed25519-mb. --tier c|base|adx forces the
 * single Curve25519 row of the comparison. --control branches on a secret
 * on purpose and passes only if valgrind counted it. Outside valgrind:
 * skipped. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctgrind.h"
#include "dispatch.h"
#include "ec_testutil.h"
#include "vg/cpu.h"
#include "vg/ed25519.h"
#include "vg/ed25519_mb.h"

#define LANES VG_ED25519_MB_MAX

static int failures;

static void run(size_t n, uint64_t seed)
{
	uint8_t s[32], h[LANES][64], pk[LANES][32], m[LANES][100], sig[LANES][64], want[64];
	uint8_t *sp[LANES];
	const void *mp[LANES];
	const uint8_t *hp[LANES], *pp[LANES];
	size_t len[LANES];
	int rc[LANES];

	for (size_t l = 0; l < n; l++) {
		ect_rand_bytes(&seed, s, 32);
		vg_ed25519_expand(h[l], s);
		vg_ed25519_public_key(pk[l], s);
		len[l] = 30 + 9 * l;
		ect_rand_bytes(&seed, m[l], len[l]);
		sp[l] = sig[l];
		mp[l] = m[l];
		hp[l] = h[l];
		pp[l] = pk[l];
		VG_CT_SECRET(h[l], 64);
		VG_CT_SECRET(m[l], len[l]); /* the message may be secret too */
	}
	int r = vg_ed25519_sign_expanded_mb(sp, mp, len, hp, pp, n, rc);
	for (size_t l = 0; l < n; l++) {
		VG_CT_PUBLIC(sig[l], 64);
		VG_CT_PUBLIC(&rc[l], sizeof(rc[l]));
		VG_CT_PUBLIC(h[l], 64);
		VG_CT_PUBLIC(m[l], len[l]);
	}
	if (r != 0) {
		fprintf(stderr, "ed25519-mb-ct: FAILED: %zu signatures: returned %d\n", n, r);
		failures++;
		return;
	}
	for (size_t l = 0; l < n; l++) {
		vg_ed25519_sign_expanded(want, m[l], len[l], h[l], pk[l]);
		if (rc[l] != 0 || memcmp(sig[l], want, 64) != 0 ||
		    vg_ed25519_verify(sig[l], m[l], len[l], pk[l]) != 0) {
			fprintf(stderr, "ed25519-mb-ct: FAILED: %zu signatures, lane %zu\n", n, l);
			failures++;
		}
	}
}

static int run_control(void)
{
	uint8_t h[64] = {0x55};
	volatile int sink = 0;
	unsigned before, after;

	VG_CT_SECRET(h, sizeof(h));
	before = VALGRIND_COUNT_ERRORS;
	if (h[0] & 4)
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
		if (strcmp(vg_kernel_variant("ed25519"), t) != 0 ||
		    strcmp(vg_kernel_variant("ed25519-mb"), "c") != 0) {
			fprintf(stderr, "tier %s requested, ed25519=%s ed25519-mb=%s in use\n", t,
				vg_kernel_variant("ed25519"), vg_kernel_variant("ed25519-mb"));
			return 1;
		}
	}
	for (size_t n = 1; n <= LANES; n++)
		run(n, 2000 + n);
	printf("ed25519-mb-ct: counts 1..%d checked on ed25519-mb=%s, ed25519=%s: %s\n", LANES,
	       vg_kernel_variant("ed25519-mb"), vg_kernel_variant("ed25519"),
	       failures ? "FAILED" : "ok");
	return failures != 0;
}
