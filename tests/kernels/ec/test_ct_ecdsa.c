/* test_ct_ecdsa.c: constant-time check of ECDSA P-256/P-384 under valgrind
 * memcheck (see tests/common/ctgrind.h). The private key, the digest and
 * the hedge bytes (hence the nonce) are marked undefined; memcheck then
 * reports any branch or memory index that depends on them, in key
 * loading and validation, the public key computation, signing with its
 * fault check, and the multiplications and inversions on their own.
 * Outputs are marked defined again before they are compared.
 *
 * Values that are public by design (a candidate nonce's range verdict, a
 * zero r or s, a key's validity, the public point, the fault check's
 * verdict) pass through vg_ec_declassify, which this file defines to mark
 * them defined; everything else stays checked.
 *
 * --tier c|base|adx forces that row of both curves first (valgrind's
 * cpuid hides ADX, and it cannot run AVX-512, so the ifma row is checked
 * by timing and by the static scan instead: tests/checkasm/ctasm). The
 * signing path's other kernels follow the same choice (sha256: its C
 * row, as the tiers' features do not include SHA-NI).
 *
 * --control runs the variable-time double multiplication on a secret
 * scalar instead: memcheck must report it (a should_fail test), which
 * shows the marking reaches this code. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctgrind.h"
#include "dispatch.h"
#include "ec/ecdsa_internal.h"
#include "vg/cpu.h"
#include "ecdsa_testutil.h"
#include "vg/ecdsa.h"

/* Overrides the library's weak no-op (kernels/src/ec/ec_declassify.c). */
void vg_ec_declassify(const void *p, size_t len) { VG_CT_PUBLIC(p, len); }

static int failures;

static void check(int ok, const char *curve, const char *what)
{
	if (!ok) {
		fprintf(stderr, "ct-ecdsa: %s: FAILED: %s\n", curve, what);
		failures++;
	}
}

static void ct_curve(vg_ecdsa_curve c, uint64_t *rng)
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(c);
	const char *name = f->curve->name;
	size_t len = vg_ecdsa_scalar_len(c), slen = 2 * len, plen;
	vg_ecdsa_key *key = malloc(vg_ecdsa_key_size());
	uint8_t d[48], digest[64], extra[48], sig[96], pub[97], pub2[97];
	int rc;

	if (!key)
		abort();
	tec_rand_bytes(rng, d, len);
	d[0] &= 0x7f; /* below n */
	tec_rand_bytes(rng, digest, sizeof(digest));
	tec_rand_bytes(rng, extra, len);

	/* validation of a secret scalar: only the verdict comes out */
	VG_CT_SECRET(d, len);
	rc = vg_ecdsa_private_check(c, d, len);
	VG_CT_PUBLIC(&rc, sizeof(rc));
	check(rc == 0, name, "private_check accepts d");

	/* key loading with a secret d (declassifies only the verdict and Q) */
	rc = vg_ecdsa_key_init(key, c, d, len);
	check(rc == 0, name, "key_init");
	const uint8_t *kpub = vg_ecdsa_key_public(key, &plen);
	memcpy(pub, kpub, plen);

	/* the public key computation alone: comb, inversion, encoding */
	{
		vg_ec_point Q;
		uint64_t dl[VG_EC_MAX_LIMBS], x[VG_EC_MAX_LIMBS], y[VG_EC_MAX_LIMBS];
		vg_ec_from_bytes(dl, d, f->curve->limbs);
		f->base_mul(f, &Q, dl);
		(void)vg_ec_point_to_affine(f, x, y, &Q);
		vg_ec_point_encode(f, pub2, x, y);
		VG_CT_PUBLIC(pub2, plen);
		check(memcmp(pub, pub2, plen) == 0, name, "base_mul gives the key's point");
	}

	/* signing: d (both forms), the digest and the hedge are secret */
	VG_CT_SECRET(key->d, sizeof(key->d));
	VG_CT_SECRET(key->dm, sizeof(key->dm));
	VG_CT_SECRET(digest, sizeof(digest));
	VG_CT_SECRET(extra, len);
	rc = vg_ecdsa_sign_with(f, key, digest, len, extra, len, sig, slen);
	VG_CT_PUBLIC(&rc, sizeof(rc));
	VG_CT_PUBLIC(sig, slen);
	VG_CT_PUBLIC(digest, sizeof(digest));
	check(rc == 0, name, "sign_with");
	check(vg_ecdsa_verify(c, pub, plen, digest, len, sig, slen) == 0, name,
	      "signature verifies");

	/* the public entry point (getrandom hedge), a longer digest */
	VG_CT_SECRET(digest, sizeof(digest));
	rc = vg_ecdsa_sign(key, digest, sizeof(digest), sig, slen);
	VG_CT_PUBLIC(&rc, sizeof(rc));
	VG_CT_PUBLIC(sig, slen);
	VG_CT_PUBLIC(digest, sizeof(digest));
	check(rc == 0, name, "sign");
	check(vg_ecdsa_verify(c, pub, plen, digest, sizeof(digest), sig, slen) == 0, name,
	      "hedged signature verifies");

	/* the other constant-time operations on secret inputs */
	{
		uint64_t k[VG_EC_MAX_LIMBS], r[VG_EC_MAX_LIMBS];
		vg_ec_point Q, R;
		tec_rand_bytes(rng, (uint8_t *)k, sizeof(k));
		VG_CT_SECRET(k, sizeof(k));
		vg_ec_point_from_affine(f, &Q, key->qx, key->qy);
		f->point_mul(f, &R, k, &Q);
		f->fe_inv(f, r, R.z);
		f->sc_inv(f, r, k);
		VG_CT_SECRET(&Q, sizeof(Q)); /* a secret point too */
		f->point_mul(f, &R, k, &Q);
		vg_ec_point_add(f, &R, &R, &Q);
		vg_ec_point_dbl(f, &R, &R);
		uint64_t on = vg_ec_on_curve(f, Q.x, Q.y);
		VG_CT_PUBLIC(&on, sizeof(on));
	}

	/* an invalid secret key: the verdict only */
	memset(d, 0, sizeof(d));
	VG_CT_SECRET(d, len);
	rc = vg_ecdsa_private_check(c, d, len);
	VG_CT_PUBLIC(&rc, sizeof(rc));
	check(rc == VG_E_KEY, name, "private_check refuses 0");

	VG_CT_PUBLIC(key, vg_ecdsa_key_size());
	vg_ecdsa_key_wipe(key);
	free(key);
}

/* Deliberately NOT constant time: the wNAF double multiplication of
 * verification on a secret scalar. Memcheck must report it. */
static int control(uint64_t *rng)
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(VG_ECDSA_P256);
	uint64_t u1[VG_EC_MAX_LIMBS] = {0}, u2[VG_EC_MAX_LIMBS] = {0};
	vg_ec_point G, R;

	tec_rand_bytes(rng, (uint8_t *)u1, 32);
	u2[0] = 3;
	vg_ec_point_from_affine(f, &G, f->curve->gx, f->curve->gy);
	VG_CT_SECRET(u1, sizeof(u1));
	f->dsm(f, &R, u1, u2, &G);
	VG_CT_PUBLIC(&R, sizeof(R));
	printf("ct-ecdsa control ran; memcheck must have reported errors\n");
	return 0; /* the exit status comes from valgrind's --error-exitcode */
}

int main(int argc, char **argv)
{
	uint64_t rng = 0xecd5a;

	if (!VG_CT_ACTIVE()) {
		fprintf(stderr, "ct-ecdsa: not running under valgrind; nothing proven, skipping\n");
		return VG_CT_SKIP;
	}
	if (argc > 1 && strcmp(argv[1], "--control") == 0)
		return control(&rng);
	if (argc > 2 && strcmp(argv[1], "--tier") == 0) {
		const char *t = argv[2];
		if (strcmp(t, "c") == 0) {
			vg_dispatch_for_tests(0, 1);
		} else if (strcmp(t, "base") == 0) {
			vg_dispatch_for_tests(VG_TIER_BASE, 0);
		} else if (strcmp(t, "adx") == 0) {
			vg_dispatch_for_tests(VG_TIER_ADX, 0);
		} else {
			fprintf(stderr, "unknown tier %s\n", t);
			return 1;
		}
		/* the tier under test must be the one that runs */
		if (strcmp(vg_kernel_variant("p256"), t) != 0 ||
		    strcmp(vg_kernel_variant("p384"), t) != 0) {
			fprintf(stderr, "tier %s requested, %s in use\n", t, vg_kernel_variant("p256"));
			return 1;
		}
	}
	for (int i = 0; i < 2; i++) {
		ct_curve(VG_ECDSA_P256, &rng);
		ct_curve(VG_ECDSA_P384, &rng);
	}
	if (failures)
		return 1;
	printf("ct-ecdsa: done (rows %s, %s)\n", vg_ecdsa_impl(VG_ECDSA_P256)->v.name,
	       vg_ecdsa_impl(VG_ECDSA_P384)->v.name);
	return 0;
}
