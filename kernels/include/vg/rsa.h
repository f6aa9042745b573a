/* vg/rsa.h: RSA private (CRT) and public operations, PKCS#1 v1.5 and PSS
 * signatures (RFC 8017). Secret: d, p, q, dp, dq, qinv and every
 * intermediate of the private operation. Lengths and n, e are public.
 * Kernels never allocate: keys are fixed-size structures the caller places
 * (the daemon puts them in locked memory). */
#ifndef VG_RSA_H
#define VG_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "vg/error.h"
#include "vg/sha2.h"

#define VG_RSA_MIN_BITS 2048
#define VG_RSA_MAX_BITS 4096
#define VG_RSA_MAX_BYTES (VG_RSA_MAX_BITS / 8)

/* Big-endian integers as found in PKCS#1 / PKCS#8 / JWK (leading zero
 * bytes allowed). Used only to build a key; nothing is kept by pointer. */
typedef struct {
	const uint8_t *n, *e, *d, *p, *q, *dp, *dq, *qinv;
	size_t n_len, e_len, d_len, p_len, q_len, dp_len, dq_len, qinv_len;
} vg_rsa_key_parts;

/* Defined in rsa_key.h (internal layout); callers treat it as opaque but
 * may allocate it: sizeof(vg_rsa_key) is fixed. */
typedef struct vg_rsa_key vg_rsa_key;
typedef struct vg_rsa_public_key vg_rsa_public_key;

size_t vg_rsa_key_size(void);        /* sizeof(vg_rsa_key) */
size_t vg_rsa_public_key_size(void); /* sizeof(vg_rsa_public_key) */

/* Validate and load a private key: modulus 2048..4096 bits, p*q == n,
 * dp/dq/qinv consistent with p, q and d, e odd and > 1. Computes the
 * per-key Montgomery constants once. VG_E_KEY (or VG_E_UNSUPPORTED for the
 * size) on failure; key is wiped then. */
VG_MUST_CHECK int vg_rsa_key_init(vg_rsa_key *key, const vg_rsa_key_parts *parts);
/* vg_rsa_key_init, and on failure *why names the check that failed (a
 * static string: "n is not p*q", "dp is not d mod (p-1)", ...); "" on
 * success. Only the verdict's branch depends on secrets: the checks all
 * run, and a valid key's load is unchanged. */
VG_MUST_CHECK int vg_rsa_key_init_why(vg_rsa_key *key, const vg_rsa_key_parts *parts,
				      const char **why);
/* Wipe every secret in key. */
void vg_rsa_key_wipe(vg_rsa_key *key);
/* Modulus length in bytes (k) and bits. */
size_t vg_rsa_key_bytes(const vg_rsa_key *key);
size_t vg_rsa_key_bits(const vg_rsa_key *key);
/* The public half of a private key. */
const vg_rsa_public_key *vg_rsa_key_public(const vg_rsa_key *key);
/* Write n and e big-endian (n exactly k bytes; e minimal). */
VG_MUST_CHECK int vg_rsa_public_export(const vg_rsa_public_key *pub, uint8_t *n, size_t n_cap,
				       size_t *n_len, uint8_t *e, size_t e_cap, size_t *e_len);

/* Load a public key (modulus 1024..4096 bits for verification tests). */
VG_MUST_CHECK int vg_rsa_public_key_init(vg_rsa_public_key *pub, const uint8_t *n, size_t n_len,
					 const uint8_t *e, size_t e_len);
size_t vg_rsa_public_key_bytes(const vg_rsa_public_key *pub);

/* out = in^d mod n, constant time, CRT, checked with e before release.
 * in and out are exactly k bytes; in >= n is VG_E_RANGE. A detected fault
 * is VG_E_FAULT and out is zeroed. */
VG_MUST_CHECK int vg_rsa_private(const vg_rsa_key *key, uint8_t *out, const uint8_t *in,
				 size_t len);
/* out = in^e mod n; in, out exactly k bytes; in >= n is VG_E_RANGE. */
VG_MUST_CHECK int vg_rsa_public(const vg_rsa_public_key *pub, uint8_t *out, const uint8_t *in,
				size_t len);

/* The block a signature exponentiates (EM, RFC 8017 9.2 and 9.1.1),
 * em_len = k bytes, so that a caller can run several signatures' private
 * operations at once (vg/rsa_mb.h): vg_rsa_sign_* = encode, then
 * vg_rsa_private. PSS draws its salt from getrandom. */
VG_MUST_CHECK int vg_rsa_encode_pkcs1(const vg_rsa_public_key *pub, vg_hash_alg alg,
				      const uint8_t *digest, size_t dlen, uint8_t *em,
				      size_t em_len);
VG_MUST_CHECK int vg_rsa_encode_pss(const vg_rsa_public_key *pub, vg_hash_alg alg,
				    const uint8_t *digest, size_t dlen, uint8_t *em, size_t em_len);
/* PKCS#1 v1.5 signature over a digest (DigestInfo for alg added here).
 * dlen must equal vg_hash_len(alg); sig_len must equal k. */
VG_MUST_CHECK int vg_rsa_sign_pkcs1(const vg_rsa_key *key, vg_hash_alg alg, const uint8_t *digest,
				    size_t dlen, uint8_t *sig, size_t sig_len);
/* PSS (MGF1 with alg, salt length = digest length, salt from getrandom). */
VG_MUST_CHECK int vg_rsa_sign_pss(const vg_rsa_key *key, vg_hash_alg alg, const uint8_t *digest,
				  size_t dlen, uint8_t *sig, size_t sig_len);
/* Verification: 0 if valid, VG_E_VERIFY otherwise. */
VG_MUST_CHECK int vg_rsa_verify_pkcs1(const vg_rsa_public_key *pub, vg_hash_alg alg,
				      const uint8_t *digest, size_t dlen, const uint8_t *sig,
				      size_t sig_len);
VG_MUST_CHECK int vg_rsa_verify_pss(const vg_rsa_public_key *pub, vg_hash_alg alg,
				    const uint8_t *digest, size_t dlen, const uint8_t *sig,
				    size_t sig_len, size_t salt_len);

#endif
