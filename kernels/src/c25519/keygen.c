/* keygen.c: Ed25519 and X25519 key generation (vg/keygen.h). Secret: the
 * seed or scalar, the ephemeral scalar of the X25519 test and the shared
 * values. Public: the public keys, the test signature, and the verdict of
 * each pairwise test. Nothing here branches on a secret: a 32-byte
 * string is a valid key whatever its value (RFC 8032 5.1.5, RFC 7748
 * section 5 clamps on use), so there is no rejection, and the public
 * keys come from the existing constant-time fixed-base code.
 *
 * Pairwise tests: Ed25519 signs a fixed message and verifies it under
 * the new public key. X25519 has no signature; it agrees on a shared
 * value with a fresh ephemeral scalar both ways, X25519(priv, E) ==
 * X25519(eph, pub) with E = X25519(eph, 9), which ties pub to priv
 * through the ladder (a different code path from the fixed-base one
 * that made pub). */
#include <string.h>

#include "ct.h"
#include "random.h"
#include "vg/keygen.h"
#include "vg/wipe.h"

static const uint8_t probe[] = "vgd ed25519 pairwise test";

int vg_ed25519_generate(uint8_t seed[VG_ED25519_SEED_LEN], uint8_t pk[VG_ED25519_PUBLIC_LEN])
{
	uint8_t sig[VG_ED25519_SIG_LEN];
	int rc;

	rc = vg_random_bytes(seed, VG_ED25519_SEED_LEN);
	if (rc == 0) {
		vg_ed25519_public_key(pk, seed);
		vg_ed25519_sign(sig, probe, sizeof(probe), seed, pk);
		rc = vg_ed25519_verify(sig, probe, sizeof(probe), pk) == 0 ? 0 : VG_E_FAULT;
	}
	vg_wipe(sig, sizeof(sig));
	if (rc != 0) {
		vg_wipe(seed, VG_ED25519_SEED_LEN);
		memset(pk, 0, VG_ED25519_PUBLIC_LEN);
	}
	return rc;
}

int vg_x25519_generate(uint8_t priv[VG_X25519_LEN], uint8_t pub[VG_X25519_LEN])
{
	struct {
		uint8_t eph[VG_X25519_LEN], epub[VG_X25519_LEN];
		uint8_t s1[VG_X25519_LEN], s2[VG_X25519_LEN];
	} t;
	int rc;

	rc = vg_random_bytes(priv, VG_X25519_LEN);
	if (rc == 0)
		rc = vg_random_bytes(t.eph, VG_X25519_LEN);
	if (rc == 0) {
		vg_x25519_base(pub, priv);
		vg_x25519_base(t.epub, t.eph);
		/* Both results are computed and compared without a branch on
		 * them; the verdict (public) is the only thing branched on.
		 * VG_E_ZERO cannot happen for points from the base point. */
		int r1 = vg_x25519(t.s1, priv, t.epub);
		int r2 = vg_x25519(t.s2, t.eph, pub);
		uint64_t ok = vg_ct_memeq(t.s1, t.s2, VG_X25519_LEN) &
			      vg_ct_iszero((uint64_t)(unsigned)(r1 | r2));
		rc = ok ? 0 : VG_E_FAULT;
	}
	vg_wipe(&t, sizeof(t));
	if (rc != 0) {
		vg_wipe(priv, VG_X25519_LEN);
		memset(pub, 0, VG_X25519_LEN);
	}
	return rc;
}
