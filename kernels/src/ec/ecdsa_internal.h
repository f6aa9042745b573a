/* ecdsa_internal.h: the layout of ECDSA keys, the RFC 6979 nonce
 * generator, and the entry points behind vg/ecdsa.h that take an explicit
 * implementation row. Shared by the ec/ sources and white-box tests (the
 * RFC 6979 vectors, fault injection through a deliberately broken row,
 * valgrind secret marking). Not installed.
 *
 * Secret: d, dm, the nonce state. Public: the curve, qx, qy, pub. */
#ifndef VG_ECDSA_INTERNAL_H
#define VG_ECDSA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ec/ec.h"
#include "vg/ecdsa.h"
#include "vg/hmac.h"

struct vg_ecdsa_key {
	vg_ecdsa_curve curve;
	uint64_t d[VG_EC_MAX_LIMBS];  /* secret: 0 < d < n, plain */
	uint64_t dm[VG_EC_MAX_LIMBS]; /* secret: d R mod n (Montgomery form) */
	uint64_t qx[VG_EC_MAX_LIMBS]; /* public: Q = d G, affine, Montgomery form */
	uint64_t qy[VG_EC_MAX_LIMBS];
	uint8_t pub[VG_ECDSA_MAX_PUBLIC_LEN]; /* public: 04 || X || Y */
};

/* The row a curve uses (ec_dispatch.c), or NULL for an unknown curve. */
const struct vg_ec_impl *vg_ecdsa_impl(vg_ecdsa_curve curve);

/* Sign with row f and RFC 6979 section 3.6 additional data extra (NULL
 * and 0 for the plain deterministic RFC 6979 signature, which reproduces
 * the RFC's appendix A.2 vectors). vg_ecdsa_sign is this with the chosen
 * row and fresh random extra data; the tests also pass a faulty row here
 * to show what the check catches. key->curve must be f's curve. The
 * fault check is the cheap one (ecdsa.c, check_cheap). */
VG_MUST_CHECK int vg_ecdsa_sign_with(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
				     const uint8_t *digest, size_t dlen, const uint8_t *extra,
				     size_t extra_len, uint8_t *sig, size_t sig_len);

/* vg_ecdsa_sign_with, with the full check instead of the cheap one when
 * full is 1: the signature is released only if it verifies under the
 * key's public point (a constant-time verification, about ten times the
 * cost of a signature on the asm rows). Key loading signs once this way, which checks d
 * against Q; the tests use it to show the faults the cheap check leaves
 * to it. */
VG_MUST_CHECK int vg_ecdsa_sign_ex(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
				   const uint8_t *digest, size_t dlen, const uint8_t *extra,
				   size_t extra_len, uint8_t *sig, size_t sig_len, int full);

/* vg_ecdsa_key_init with row f (the tests pass a faulty one). */
VG_MUST_CHECK int vg_ecdsa_key_init_with(const struct vg_ec_impl *f, vg_ecdsa_key *key,
					 vg_ecdsa_curve curve, const uint8_t *d, size_t d_len);

/* Verification with row f: 1 if (r, s) (plain, any values) is a valid
 * signature of e (plain, reduced mod n) under the affine Montgomery point
 * (qx, qy), else 0. VARIABLE TIME. */
int vg_ecdsa_verify_with(const struct vg_ec_impl *f, const uint64_t *qx, const uint64_t *qy,
			 const uint64_t *e, const uint64_t *r, const uint64_t *s);

/* ---- ecdsa_nonce.c: RFC 6979 section 3.2 HMAC-DRBG ---- */

#define VG_ECDSA_NONCE_MAX_HLEN 64

/* Secret: all of it. */
struct vg_ecdsa_nonce {
	const struct vg_ec_impl *f; /* the curve (its n and length) */
	size_t hlen;                /* 32, 48 or 64: HMAC-SHA-256, -384 or -512 */
	int started;                /* a candidate was produced */
	uint8_t v[VG_ECDSA_NONCE_MAX_HLEN];
	union { /* HMAC keyed with the current K, copied for each use */
		vg_hmac_sha256_ctx s256;
		vg_hmac_sha384_ctx s384;
		vg_hmac_sha512_ctx s512;
	} k;
};

/* The HMAC hash of the generator (its output length) for a digest of
 * dlen bytes: as RFC 6979 does, the hash that made the digest, i.e.
 * SHA-256, SHA-384 or SHA-512 for 32, 48 or 64 bytes; for any other
 * length the curve's own (SHA-256 for P-256, SHA-384 for P-384). */
size_t vg_ecdsa_nonce_hlen(const struct vg_ec_curve *c, size_t dlen);

/* Steps b to g of RFC 6979 section 3.2 with the section 3.6 additional
 * data: x = int2octets(d), h = bits2octets(digest), both curve->bytes
 * long; hlen from vg_ecdsa_nonce_hlen; extra may be NULL when extra_len
 * is 0. */
void vg_ecdsa_nonce_init(struct vg_ecdsa_nonce *g, const struct vg_ec_impl *f, const uint8_t *x,
			 const uint8_t *h, size_t hlen, const uint8_t *extra, size_t extra_len);
/* Step h: the next nonce k in [1, n - 1] (plain limbs). The first call
 * gives the RFC's k; every later call first applies the h.3 continuation
 * (K = HMAC_K(V || 0x00), V = HMAC_K(V)), which is what the RFC
 * prescribes both for a candidate out of range (handled inside) and for
 * a k that gave r = 0 or s = 0 (the caller calls again). */
void vg_ecdsa_nonce_next(struct vg_ecdsa_nonce *g, uint64_t *k);

/* ---- the stages of one signature (ecdsa.c), shared with the batched
 * signing of ecdsa_mb.c so that every lane runs the single path's code
 * and checks. vg_ecdsa_sign_ex is: args_ok, begin, attempts from 0,
 * release. ---- */

/* Signing retries on r = 0 or s = 0 (probability about 2^-256 each); more
 * than a handful in a row means the arithmetic is broken, so give up. */
#define VG_ECDSA_MAX_ATTEMPTS 16

/* Stack state of one signature, wiped as a whole by release. Secret. */
struct vg_ecdsa_sign_state {
	struct vg_ecdsa_nonce nonce;
	uint64_t e[VG_EC_MAX_LIMBS];  /* bits2int(digest) mod n */
	uint64_t k[VG_EC_MAX_LIMBS];  /* the nonce */
	uint64_t km[VG_EC_MAX_LIMBS]; /* k R mod n, then k^-1 R */
	uint64_t zi[VG_EC_MAX_LIMBS]; /* 1/Z (Montgomery form) */
	uint64_t x[VG_EC_MAX_LIMBS];  /* x(k G), Montgomery, then plain */
	uint64_t r[VG_EC_MAX_LIMBS];
	uint64_t s[VG_EC_MAX_LIMBS];
	uint64_t t[VG_EC_MAX_LIMBS];
	vg_ec_point R;                       /* k G, projective */
	uint8_t xo[VG_ECDSA_MAX_SCALAR_LEN]; /* int2octets(d) */
	uint8_t ho[VG_ECDSA_MAX_SCALAR_LEN]; /* bits2octets(digest) */
	uint8_t out[VG_ECDSA_MAX_SIG_LEN];
};

/* 1 if vg_ecdsa_sign_ex would accept these arguments, else 0 (public). */
int vg_ecdsa_sign_args_ok(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			  const uint8_t *digest, size_t dlen, const uint8_t *extra,
			  size_t extra_len, const uint8_t *sig, size_t sig_len);
/* e from the digest and the RFC 6979 generator's state (arguments
 * checked by args_ok). */
void vg_ecdsa_sign_begin(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			 struct vg_ecdsa_sign_state *s, const uint8_t *digest, size_t dlen,
			 const uint8_t *extra, size_t extra_len);
/* r and s from s->R, s->zi = 1/Z (Montgomery form) and s->km = k^-1 R:
 * returns 1 if both are non-zero, 0 if the next nonce must be tried
 * (public, declassified). */
uint64_t vg_ecdsa_sign_rs(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			  struct vg_ecdsa_sign_state *s);
/* Attempts from..VG_ECDSA_MAX_ATTEMPTS - 1 of the single path: each a
 * fresh nonce, base_mul, inv2, sign_rs; 1 when one gave r, s != 0, else
 * 0. */
uint64_t vg_ecdsa_sign_attempts(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
				struct vg_ecdsa_sign_state *s, int from);
/* The fault check (check_full if full, else check_cheap, ANDed with ok)
 * and the release by mask into sig (2 bytes-per-scalar bytes): 0 or
 * VG_E_FAULT (sig zeroed). Wipes s and scrubs the stack. */
int vg_ecdsa_sign_release(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			  struct vg_ecdsa_sign_state *s, uint64_t ok, int full, uint8_t *sig);

#endif
