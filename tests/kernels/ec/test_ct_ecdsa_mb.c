/* test_ct_ecdsa_mb.c: constant-time check of the batched P-256 and P-384
 * signing (ecdsa_mb.c) under valgrind memcheck (tests/common/ctgrind.h),
 * at every lane count 1..8 with a different key in each lane: every key's d (both
 * forms), every digest and every hedge (hence every nonce, its digits,
 * the comb's points, the shared inversions' products) are marked
 * undefined; memcheck reports any branch or memory index on them. The
 * values public by design (r or s zero, the fault check's verdict) pass
 * through vg_ec_declassify, defined here to mark them defined.
 *
 * --tier c|adx forces that row of the single families (valgrind's cpuid
 * hides ADX; it cannot run AVX-512): the ec_p256_mb and ec_p384_mb
 * families then run their C rows, the lane-by-lane reference with the assembly's
 * formulas; the ifma comb is checked by the static scan
 * (tests/checkasm/ctasm) and by timing (test_ecdsa_mb_dudect.c).
 * --p384 runs P-384 instead of P-256.
 *
 * --control passes a comb that branches on one lane's first digit: memcheck
 * must report it (a should_fail test), which shows the marking reaches
 * the digits the batch hands to its comb. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctgrind.h"
#include "dispatch.h"
#include "ec/ecdsa_mb_internal.h"
#include "ecdsa_testutil.h"
#include "vg/cpu.h"

#define LANES VG_EC_MB_LANES

/* Overrides the library's weak no-op (kernels/src/ec/ec_declassify.c). */
void vg_ec_declassify(const void *p, size_t len) { VG_CT_PUBLIC(p, len); }

static volatile int leak_sink;

static vg_ec_mb_comb_fn *leaky_ref;

/* The control's comb: the C reference after a branch on a secret digit. */
static void leaky_comb(vg_ec_point r[LANES], const uint64_t *table, const int8_t *d)
{
	if (d[0] > 0)
		leak_sink++;
	leaky_ref(r, table, d);
}

int main(int argc, char **argv)
{
	uint64_t rng = 0xecd5a3b;
	int control = 0, failures = 0;
	vg_ecdsa_curve cv = VG_ECDSA_P256;
	const char *tier = NULL;
	static vg_ecdsa_key keys[LANES];
	uint8_t dig[LANES][48], extra[LANES][48], sig[LANES][96];
	const vg_ecdsa_key *kp[LANES];
	const uint8_t *dp[LANES], *xp[LANES];
	size_t dl[LANES], xl[LANES], sl[LANES];
	uint8_t *sp[LANES];
	int rc[LANES];

	if (!VG_CT_ACTIVE()) {
		fprintf(stderr, "ct-ecdsa-mb: not running under valgrind; nothing proven, skipping\n");
		return VG_CT_SKIP;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--control") == 0)
			control = 1;
		else if (strcmp(argv[i], "--p384") == 0)
			cv = VG_ECDSA_P384;
		else if (strcmp(argv[i], "--tier") == 0 && i + 1 < argc)
			tier = argv[++i];
		else
			return 2;
	}
	const char *fam = cv == VG_ECDSA_P256 ? "p256" : "p384";
	const char *mbfam = cv == VG_ECDSA_P256 ? "p256-mb" : "p384-mb";
	if (tier) {
		if (strcmp(tier, "c") == 0)
			vg_dispatch_for_tests(0, 1);
		else if (strcmp(tier, "adx") == 0)
			vg_dispatch_for_tests(VG_TIER_ADX, 0);
		else
			return 1;
		if (strcmp(vg_kernel_variant(fam), tier) != 0 ||
		    strcmp(vg_kernel_variant(mbfam), "c") != 0) {
			fprintf(stderr, "tier %s requested, %s %s %s %s in use\n", tier, fam,
				vg_kernel_variant(fam), mbfam, vg_kernel_variant(mbfam));
			return 1;
		}
	}
	const struct vg_ec_impl *f = vg_ecdsa_impl(cv);
	const struct vg_ec_mb_impl leaky = {{"leaky", 0}, f->curve, leaky_comb};
	const struct vg_ec_mb_impl *mb =
		control ? &leaky : cv == VG_ECDSA_P256 ? vg_ec_p256_mb_impl() : vg_ec_p384_mb_impl();
	size_t len = f->curve->bytes;

	leaky_ref = cv == VG_ECDSA_P256 ? vg_p256mb_comb_c : vg_p384mb_comb_c;
	for (size_t i = 0; i < LANES; i++) {
		uint8_t d[48];
		tec_rand_bytes(&rng, d, len);
		d[0] &= 0x7f; /* below n */
		if (vg_ecdsa_key_init(&keys[i], cv, d, len) != 0)
			return 1;
		kp[i] = &keys[i];
		dp[i] = dig[i];
		xp[i] = extra[i];
		dl[i] = xl[i] = len;
		sp[i] = sig[i];
		sl[i] = 2 * len;
	}
	for (size_t n = 1; n <= LANES; n++) {
		for (size_t i = 0; i < n; i++) {
			tec_rand_bytes(&rng, dig[i], len);
			tec_rand_bytes(&rng, extra[i], len);
			VG_CT_SECRET(keys[i].d, sizeof(keys[i].d));
			VG_CT_SECRET(keys[i].dm, sizeof(keys[i].dm));
			VG_CT_SECRET(dig[i], len);
			VG_CT_SECRET(extra[i], len);
		}
		int r = vg_ecdsa_sign_mb_with(f, mb, kp, dp, dl, xp, xl, sp, sl, n, rc);
		VG_CT_PUBLIC(rc, sizeof(rc));
		VG_CT_PUBLIC(sig, sizeof(sig));
		for (size_t i = 0; i < n; i++) {
			size_t plen;
			const uint8_t *pub = vg_ecdsa_key_public(&keys[i], &plen);
			VG_CT_PUBLIC(dig[i], len);
			VG_CT_PUBLIC(&keys[i], sizeof(keys[i]));
			if (r != 0 || rc[i] != 0 ||
			    vg_ecdsa_verify(cv, pub, plen, dig[i], len, sig[i], 2 * len) != 0) {
				fprintf(stderr, "ct-ecdsa-mb: n=%zu lane %zu: FAILED\n", n, i);
				failures++;
			}
		}
		if (control)
			break;
	}
	for (size_t i = 0; i < LANES; i++)
		vg_ecdsa_key_wipe(&keys[i]);
	if (control) {
		printf("ct-ecdsa-mb control ran; memcheck must have reported errors\n");
		return 0; /* the exit status comes from valgrind's --error-exitcode */
	}
	printf("ct-ecdsa-mb: done (%s, rows %s, %s)\n", f->curve->name, f->v.name, mb->v.name);
	return failures ? 1 : 0;
}
