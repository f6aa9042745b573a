/* vg/ecdsa.h: ECDSA over NIST P-256 and P-384 (FIPS 186-4 / SEC 1 v2),
 * signing a digest the caller computed. Secret: the private scalar d, the
 * nonces and every intermediate of signing; all of it is handled in
 * constant time and wiped. Public keys, signatures and digests are
 * public; verification is variable time.
 *
 * Nonces follow RFC 6979 (HMAC-DRBG with HMAC-SHA-256 for P-256 and
 * HMAC-SHA-384 for P-384, whatever hash made the digest), hedged: 32 or
 * 48 fresh bytes from getrandom(2) enter as the section 3.6 additional
 * data, so a broken RNG degrades to deterministic signing and a good one
 * defeats fault attacks that need a repeated nonce. Every signature is
 * verified with the key's public point before it is released (fault
 * countermeasure); a failed check returns VG_E_FAULT and a zeroed output.
 *
 * Encodings: scalars and coordinates are big-endian, exactly
 * vg_ecdsa_scalar_len() bytes; public keys are SEC 1 uncompressed points
 * 04 || X || Y; raw signatures are r || s (IEEE P1363), each
 * vg_ecdsa_scalar_len() bytes; DER signatures are the X9.62
 * ECDSA-Sig-Value SEQUENCE { r INTEGER, s INTEGER }.
 *
 * Kernels never allocate: keys are fixed-size structures the caller
 * places (the daemon puts them in locked memory). */
#ifndef VG_ECDSA_H
#define VG_ECDSA_H

#include <stddef.h>
#include <stdint.h>

#include "vg/error.h"

typedef enum {
	VG_ECDSA_P256 = 1,
	VG_ECDSA_P384 = 2,
} vg_ecdsa_curve;

#define VG_ECDSA_MAX_SCALAR_LEN 48
#define VG_ECDSA_MAX_SIG_LEN (2 * VG_ECDSA_MAX_SCALAR_LEN)
#define VG_ECDSA_MAX_PUBLIC_LEN (1 + 2 * VG_ECDSA_MAX_SCALAR_LEN)
/* SEQUENCE header (2) + two INTEGERs of at most 2 + 1 + 48 bytes. */
#define VG_ECDSA_MAX_DER_LEN (2 + 2 * (2 + 1 + VG_ECDSA_MAX_SCALAR_LEN))

/* Lengths for a curve (0 for a value that is not a vg_ecdsa_curve):
 * scalar and coordinate bytes (32, 48), raw signature (64, 96), public
 * key (65, 97). */
size_t vg_ecdsa_scalar_len(vg_ecdsa_curve curve);
size_t vg_ecdsa_sig_len(vg_ecdsa_curve curve);
size_t vg_ecdsa_public_len(vg_ecdsa_curve curve);

/* Defined in ec/ecdsa_key.h (internal layout); callers treat it as
 * opaque but may allocate it: sizeof(vg_ecdsa_key) is fixed. */
typedef struct vg_ecdsa_key vg_ecdsa_key;
size_t vg_ecdsa_key_size(void);

/* Load a private key: d is exactly vg_ecdsa_scalar_len(curve) bytes with
 * 0 < d < n (checked in constant time). Computes the public point once.
 * VG_E_KEY if d is out of range (key is wiped then), VG_E_INVALID for an
 * unknown curve or a wrong length, VG_E_FAULT if the computed public point
 * fails its check. */
VG_MUST_CHECK int vg_ecdsa_key_init(vg_ecdsa_key *key, vg_ecdsa_curve curve, const uint8_t *d,
				    size_t d_len);
/* Wipe every secret in key. */
void vg_ecdsa_key_wipe(vg_ecdsa_key *key);
vg_ecdsa_curve vg_ecdsa_key_curve(const vg_ecdsa_key *key);
/* The key's public point 04 || X || Y; *len gets vg_ecdsa_public_len(). */
const uint8_t *vg_ecdsa_key_public(const vg_ecdsa_key *key, size_t *len);

/* 0 if 0 < d < n (d exactly vg_ecdsa_scalar_len bytes), else VG_E_KEY
 * (VG_E_INVALID for an unknown curve or a wrong length). Constant time in
 * d: only the verdict is revealed. */
VG_MUST_CHECK int vg_ecdsa_private_check(vg_ecdsa_curve curve, const uint8_t *d, size_t d_len);
/* pub = 04 || X || Y of d G; pub_len must be vg_ecdsa_public_len(curve).
 * Errors as vg_ecdsa_key_init; pub is zeroed on error. */
VG_MUST_CHECK int vg_ecdsa_public_from_private(vg_ecdsa_curve curve, uint8_t *pub, size_t pub_len,
					       const uint8_t *d, size_t d_len);
/* 0 if pub is an uncompressed point on the curve with coordinates below
 * p (so not the identity, which has no such encoding), else VG_E_KEY. */
VG_MUST_CHECK int vg_ecdsa_public_check(vg_ecdsa_curve curve, const uint8_t *pub, size_t len);

/* Sign a digest of any length (bits2int of RFC 6979 section 2.3.2: its
 * leftmost 256 or 384 bits are used). sig gets r || s; sig_len must be
 * vg_ecdsa_sig_len(). Errors: VG_E_INVALID (arguments), VG_E_RANDOM
 * (getrandom failed; sig zeroed), VG_E_FAULT (the check failed; sig
 * zeroed). */
VG_MUST_CHECK int vg_ecdsa_sign(const vg_ecdsa_key *key, const uint8_t *digest, size_t dlen,
				uint8_t *sig, size_t sig_len);

/* Verify a raw r || s signature (sig_len = vg_ecdsa_sig_len) on a digest
 * under pub: 0 if valid, VG_E_VERIFY otherwise (including a malformed or
 * off-curve public key, r or s outside [1, n - 1] or a wrong length).
 * Variable time. */
VG_MUST_CHECK int vg_ecdsa_verify(vg_ecdsa_curve curve, const uint8_t *pub, size_t pub_len,
				  const uint8_t *digest, size_t dlen, const uint8_t *sig,
				  size_t sig_len);

/* Raw r || s -> DER ECDSA-Sig-Value (minimal INTEGERs, a positive sign
 * byte when needed). *der_len gets the length written. VG_E_INVALID if
 * cap is too small (VG_ECDSA_MAX_DER_LEN always suffices). */
VG_MUST_CHECK int vg_ecdsa_sig_to_der(vg_ecdsa_curve curve, const uint8_t *raw, size_t raw_len,
				      uint8_t *der, size_t cap, size_t *der_len);
/* Strict DER -> raw r || s: one SEQUENCE of exactly two INTEGERs with
 * definite minimal lengths, no trailing bytes, no negative values, no
 * superfluous leading zero byte, each value below 2^(8 scalar_len).
 * VG_E_DECODE otherwise. (r, s in [1, n - 1] is left to verification.) */
VG_MUST_CHECK int vg_ecdsa_sig_from_der(vg_ecdsa_curve curve, const uint8_t *der, size_t der_len,
					uint8_t *raw, size_t raw_len);

#endif
