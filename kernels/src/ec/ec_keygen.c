/* ec_keygen.c: ECDSA P-256/P-384 key generation, vg_ecdsa_generate
 * (vg/keygen.h), by FIPS 186-5 A.4.2 (rejection sampling): draw as many
 * random bits as n has, keep the draw if 0 < d < n, otherwise draw again.
 *
 * Secret: every draw, d, the key's scratch. Public: the curve, the public
 * point once computed, and two verdicts passed through
 * vg_keygen_declassify before they are branched on: "this draw was out
 * of range" (the range check itself is vg_ecdsa_private_check's,
 * constant time; a rejected draw is discarded, so the loop count reveals
 * only that some random number nobody will use was 0 or >= n: about
 * 2^-32 for P-256, 2^-190 for P-384), and "the finished key passed its
 * checks".
 * The public point is the existing constant-time fixed-base comb of key
 * loading (vg_ecdsa_key_init, which also checks d against Q with a
 * constant-time verification); then the pairwise test: a signature of a
 * fixed digest, made with the key, verifies under the public point. */
#include <string.h>

#include "ec/ecdsa_internal.h"
#include "keygen/keygen_internal.h"
#include "vg/wipe.h"

/* Draws before giving up: a draw is out of range with probability about
 * 2^-32 (P-256; less for P-384), so a second rejection in a row already
 * means a broken random source. */
#define DRAWS 8

/* The pairwise test's message: any fixed digest (its value is public). */
static const uint8_t probe[VG_ECDSA_MAX_SCALAR_LEN] = {'v', 'g', 'd', '-', 'k', 'e', 'y', 'g'};

int vg_ecdsa_generate_with(vg_keygen_rand_fn *rnd, void *ctx, vg_ecdsa_curve curve, uint8_t *priv,
			   size_t priv_len, uint8_t *pub, size_t pub_len)
{
	struct {
		vg_ecdsa_key key;
		uint8_t d[VG_ECDSA_MAX_SCALAR_LEN];
		uint8_t sig[VG_ECDSA_MAX_SIG_LEN];
	} s;
	size_t len = vg_ecdsa_scalar_len(curve), plen;
	int rc = VG_E_FAULT;

	if (!rnd || !priv || !pub || len == 0 || priv_len != len ||
	    pub_len != vg_ecdsa_public_len(curve))
		return VG_E_INVALID;
	memset(priv, 0, priv_len);
	memset(pub, 0, pub_len);
	vg_wipe(&s, sizeof(s));

	for (int i = 0; i < DRAWS; i++) {
		/* both curves' n have a whole number of bytes of bits */
		rc = rnd(ctx, s.d, len);
		if (rc != 0)
			break;
		rc = vg_ecdsa_private_check(curve, s.d, len);
		vg_keygen_declassify(&rc, sizeof(rc));
		if (rc != 0) {
			rc = VG_E_FAULT;
			continue; /* discarded: see the file comment */
		}
		/* Q = d G by the constant-time comb; key_init declassifies
		 * only Q and its own verdict. */
		rc = vg_ecdsa_key_init(&s.key, curve, s.d, len);
		if (rc != 0) {
			rc = VG_E_FAULT;
			break;
		}
		rc = vg_ecdsa_sign(&s.key, probe, len, s.sig, 2 * len);
		vg_keygen_declassify(&rc, sizeof(rc));
		if (rc == 0) {
			vg_keygen_declassify(s.sig, sizeof(s.sig)); /* a signature */
			const uint8_t *q = vg_ecdsa_key_public(&s.key, &plen);
			rc = vg_ecdsa_verify(curve, q, plen, probe, len, s.sig, 2 * len);
		}
		if (rc != 0) {
			rc = VG_E_FAULT;
			break;
		}
		memcpy(priv, s.d, len);
		memcpy(pub, vg_ecdsa_key_public(&s.key, &plen), pub_len);
		break;
	}
	vg_ecdsa_key_wipe(&s.key);
	vg_wipe(&s, sizeof(s));
	return rc;
}

int vg_ecdsa_generate(vg_ecdsa_curve curve, uint8_t *priv, size_t priv_len, uint8_t *pub,
		      size_t pub_len)
{
	return vg_ecdsa_generate_with(vg_keygen_getrandom, NULL, curve, priv, priv_len, pub,
				      pub_len);
}
