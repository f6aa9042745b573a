/* ed25519.c: Ed25519 signatures (RFC 8032 section 5.1, PureEdDSA), over
 * the chosen Curve25519 variant (c25519_impl.h) for [a]B and the
 * verification's double multiplication. Secret: the seed, the clamped
 * scalar a and the prefix derived from it, the nonce r and the point [r]B
 * before it is encoded; all handled in constant time and wiped before
 * returning. Verification handles only public data and is variable time. */
#include <string.h>

#include "c25519_impl.h"
#include "ct.h"
#include "ge.h"
#include "sc.h"
#include "vg/ed25519.h"
#include "vg/sha2.h"
#include "vg/wipe.h"

/* RFC 8032 5.1.5: h = SHA-512(seed); a = h[0..32) with bits 0-2 and 255
 * cleared and bit 254 set; the prefix is h[32..64). */
void vg_ed25519_expand(uint8_t h[VG_ED25519_EXPANDED_LEN],
		       const uint8_t seed[VG_ED25519_SEED_LEN])
{
	vg_sha512(h, seed, VG_ED25519_SEED_LEN);
	h[0] &= 248;
	h[31] &= 127;
	h[31] |= 64;
}

void vg_ed25519_public_key(uint8_t pk[VG_ED25519_PUBLIC_LEN],
			   const uint8_t seed[VG_ED25519_SEED_LEN])
{
	uint8_t h[64];

	vg_ed25519_expand(h, seed);
	vg_c25519_impl()->base_encode(pk, h); /* A = [a]B; a < 2^255 as the comb needs */
	vg_wipe(h, sizeof(h));
}

void vg_ed25519_sign_expanded(uint8_t sig[VG_ED25519_SIG_LEN], const void *msg, size_t len,
			      const uint8_t h[VG_ED25519_EXPANDED_LEN],
			      const uint8_t pk[VG_ED25519_PUBLIC_LEN])
{
	uint8_t nonce[64];  /* SHA-512(prefix || M) */
	uint8_t r[32];      /* nonce mod L */
	uint8_t hram[64];   /* SHA-512(R || A || M) */
	uint8_t k[32];      /* hram mod L */
	uint8_t R[32], S[32];
	vg_sha512_ctx ctx;

	/* r = SHA-512(prefix || M) mod L; R = [r]B. */
	vg_sha512_init(&ctx);
	vg_sha512_update(&ctx, h + 32, 32);
	vg_sha512_update(&ctx, msg, len);
	vg_sha512_final(&ctx, nonce);
	vg_sc_reduce(r, nonce);
	vg_c25519_impl()->base_encode(R, r);

	/* k = SHA-512(R || A || M) mod L; S = r + k*a mod L. */
	vg_sha512_init(&ctx);
	vg_sha512_update(&ctx, R, 32);
	vg_sha512_update(&ctx, pk, VG_ED25519_PUBLIC_LEN);
	vg_sha512_update(&ctx, msg, len);
	vg_sha512_final(&ctx, hram);
	vg_sc_reduce(k, hram);
	vg_sc_muladd(S, k, h, r);

	/* Written last, so sig may overlap msg. */
	memcpy(sig, R, 32);
	memcpy(sig + 32, S, 32);

	vg_wipe(nonce, sizeof(nonce));
	vg_wipe(r, sizeof(r));
	vg_wipe(hram, sizeof(hram));
	vg_wipe(k, sizeof(k));
	vg_wipe(S, sizeof(S));
	vg_wipe(&ctx, sizeof(ctx)); /* final already wiped it; cheap insurance */
}

void vg_ed25519_sign(uint8_t sig[VG_ED25519_SIG_LEN], const void *msg, size_t len,
		     const uint8_t seed[VG_ED25519_SEED_LEN],
		     const uint8_t pk[VG_ED25519_PUBLIC_LEN])
{
	uint8_t h[VG_ED25519_EXPANDED_LEN]; /* a || prefix */

	vg_ed25519_expand(h, seed);
	vg_ed25519_sign_expanded(sig, msg, len, h, pk);
	vg_wipe(h, sizeof(h));
}

/* Verification rule (strict, cofactorless). A signature sig = R || S
 * (32 + 32 bytes) on message M under public key A (32 bytes) is valid iff:
 *   1. S, as a 256-bit little-endian integer, is < L (no reduction: an S
 *      with any of the bits 253..255 set, or S >= L, is rejected);
 *   2. A decodes strictly (RFC 8032 5.1.3): its 255-bit y is < p, the
 *      x^2 = (y^2 - 1)/(d y^2 + 1) has a square root, and x = 0 comes with
 *      a clear sign bit. Non-canonical encodings (y >= p, or x = 0 with the
 *      sign bit set) are rejected. Small-order A is not rejected;
 *   3. with k = SHA-512(R || A || M) mod L (R and A as the bytes
 *      received), the canonical encoding of [S]B - [k]A equals R byte for
 *      byte (the cofactorless equation [S]B = R + [k]A, checked on
 *      encodings).
 * R is not decoded separately: the encoding we compute is always canonical
 * (y < p, sign bit clear when x = 0) and always decodes, so byte equality
 * rejects every R that is non-canonical or not on the curve.
 * Everything here is public, so this function is variable time. */
int vg_ed25519_verify(const uint8_t sig[VG_ED25519_SIG_LEN], const void *msg, size_t len,
		      const uint8_t pk[VG_ED25519_PUBLIC_LEN])
{
	uint8_t hram[64], k[32], check[32];
	vg_ge_p3 A;
	vg_sha512_ctx ctx;

	if (!vg_sc_is_canonical(sig + 32))
		return VG_E_VERIFY;
	if (vg_ge_frombytes(&A, pk) != 0)
		return VG_E_VERIFY;

	vg_sha512_init(&ctx);
	vg_sha512_update(&ctx, sig, 32);
	vg_sha512_update(&ctx, pk, VG_ED25519_PUBLIC_LEN);
	vg_sha512_update(&ctx, msg, len);
	vg_sha512_final(&ctx, hram);
	vg_sc_reduce(k, hram);

	/* [k](-A) + [S]B; both scalars are below 2^253. */
	vg_ge_p3_neg(&A, &A);
	vg_c25519_impl()->dsm_encode(check, k, &A, sig + 32);
	return vg_ct_memeq(check, sig, 32) ? 0 : VG_E_VERIFY;
}
