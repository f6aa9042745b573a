/* vg/keygen.h: key generation inside vgd (issue 38): RSA (FIPS 186-5
 * A.1.3, random probable primes), ECDSA P-256/P-384 (FIPS 186-5 A.4.2,
 * rejection sampling), Ed25519 (RFC 8032 5.1.5) and X25519 (RFC 7748).
 * Randomness comes from getrandom(2). Every generated key passes a
 * pairwise consistency test (FIPS 140-3 IG 10.3.A: a signature made with
 * it verifies; for X25519 a shared value agrees both ways) before it is
 * returned; VG_E_FAULT means it did not and the outputs are wiped.
 *
 * Secret: every private output and every intermediate, handled in
 * constant time. What the time reveals: how many random candidates were
 * discarded (composite, or out of range), which says nothing about the
 * kept one. Outputs are big-endian and of fixed length (leading zeros
 * kept), so their lengths reveal nothing either.
 *
 * Kernels never allocate: the outputs are caller-placed. */
#ifndef VG_KEYGEN_H
#define VG_KEYGEN_H

#include <stddef.h>
#include <stdint.h>

#include "vg/ecdsa.h"
#include "vg/ed25519.h"
#include "vg/error.h"
#include "vg/rsa.h"
#include "vg/x25519.h"

/* The public exponent everyone uses; vg_rsa_generate takes any odd e with
 * 2^16 < e < 2^32 (FIPS 186-5 5.4 (b) wants e > 2^16). */
#define VG_RSA_GEN_E 65537

/* A generated RSA key: the eight PKCS#1 values, big-endian, each at its
 * fixed length for the size (n and d: bits/8 bytes; p, q, dp, dq, qinv:
 * bits/16 bytes; e: its minimal length). p > q is not promised (qinv is
 * q^-1 mod p for the order given). Secret: d, p, q, dp, dq, qinv. Wipe
 * with vg_rsa_keypair_wipe. */
typedef struct {
	size_t bits;
	size_t n_len, e_len, d_len, p_len, q_len, dp_len, dq_len, qinv_len;
	uint8_t n[VG_RSA_MAX_BYTES];
	uint8_t e[4];
	uint8_t d[VG_RSA_MAX_BYTES];
	uint8_t p[VG_RSA_MAX_BYTES / 2], q[VG_RSA_MAX_BYTES / 2];
	uint8_t dp[VG_RSA_MAX_BYTES / 2], dq[VG_RSA_MAX_BYTES / 2];
	uint8_t qinv[VG_RSA_MAX_BYTES / 2];
} vg_rsa_keypair;

/* A new RSA key of bits = 2048, 3072 or 4096 bits (n has exactly that
 * many) with public exponent e. Errors: VG_E_UNSUPPORTED (bits),
 * VG_E_INVALID (e even or outside (2^16, 2^32), out NULL), VG_E_RANDOM
 * (getrandom failed), VG_E_FAULT (the checks of the finished key
 * failed). out is wiped on every error. Takes about 0.1 to 1 s. */
VG_MUST_CHECK int vg_rsa_generate(size_t bits, uint32_t e, vg_rsa_keypair *out);
/* parts pointing into kp, for vg_rsa_key_init (kp must outlive the call). */
void vg_rsa_keypair_parts(const vg_rsa_keypair *kp, vg_rsa_key_parts *parts);
void vg_rsa_keypair_wipe(vg_rsa_keypair *kp);

/* A new ECDSA key: priv = d, 0 < d < n (priv_len = vg_ecdsa_scalar_len),
 * pub = 04 || X || Y of d G (pub_len = vg_ecdsa_public_len). Errors:
 * VG_E_INVALID (curve, lengths), VG_E_RANDOM, VG_E_FAULT; both outputs
 * zeroed on error. */
VG_MUST_CHECK int vg_ecdsa_generate(vg_ecdsa_curve curve, uint8_t *priv, size_t priv_len,
				    uint8_t *pub, size_t pub_len);

/* A new Ed25519 key: a random 32-byte seed and its public key. Errors:
 * VG_E_RANDOM, VG_E_FAULT; outputs zeroed on error. */
VG_MUST_CHECK int vg_ed25519_generate(uint8_t seed[VG_ED25519_SEED_LEN],
				      uint8_t pk[VG_ED25519_PUBLIC_LEN]);

/* A new X25519 key: 32 random bytes (used clamped, as RFC 7748 does on
 * every use) and X25519(priv, 9). Errors: VG_E_RANDOM, VG_E_FAULT;
 * outputs zeroed on error. */
VG_MUST_CHECK int vg_x25519_generate(uint8_t priv[VG_X25519_LEN], uint8_t pub[VG_X25519_LEN]);

#endif
