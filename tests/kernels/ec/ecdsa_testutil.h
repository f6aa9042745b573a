/* ecdsa_testutil.h: helpers of the P-256/P-384 tests. Two independent
 * references, neither sharing code with the kernels:
 *   - tbn: a deliberately simple big-number type (32-bit digits, schoolbook
 *     product, bit-by-bit modular reduction), for the field and scalar
 *     arithmetic and for point coordinates;
 *   - OpenSSL libcrypto (EC_POINT, EVP), for points, signatures, hashes
 *     and HMAC.
 * Plus a deterministic PRNG and hex helpers. Test-only, variable time,
 * aborts on misuse. */
#ifndef VG_ECDSA_TESTUTIL_H
#define VG_ECDSA_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "vg/ecdsa.h"

/* splitmix64; seeded per test so failures reproduce. */
uint64_t tec_rand(uint64_t *state);
void tec_rand_bytes(uint64_t *state, uint8_t *out, size_t len);

/* ---- tbn: numbers below 2^1536 ---- */
#define TBN_DIGITS 48
typedef struct {
	uint32_t d[TBN_DIGITS];
} tbn;

void tbn_from_u64(tbn *r, uint64_t v);
void tbn_from_limbs(tbn *r, const uint64_t *a, size_t n);
void tbn_to_limbs(uint64_t *a, size_t n, const tbn *x); /* aborts if x >= 2^(64 n) */
void tbn_from_be(tbn *r, const uint8_t *b, size_t len);
void tbn_to_be(uint8_t *b, size_t len, const tbn *x); /* aborts if it does not fit */
void tbn_from_hex(tbn *r, const char *hex);
int tbn_cmp(const tbn *a, const tbn *b);
int tbn_is_zero(const tbn *a);
void tbn_add(tbn *r, const tbn *a, const tbn *b);
void tbn_sub(tbn *r, const tbn *a, const tbn *b); /* a >= b */
void tbn_mul(tbn *r, const tbn *a, const tbn *b); /* a b < 2^1536 */
void tbn_shl(tbn *r, const tbn *a, unsigned bits);
void tbn_mod(tbn *r, const tbn *x, const tbn *m); /* shift and subtract, bit by bit */
void tbn_addmod(tbn *r, const tbn *a, const tbn *b, const tbn *m);
void tbn_submod(tbn *r, const tbn *a, const tbn *b, const tbn *m);
void tbn_mulmod(tbn *r, const tbn *a, const tbn *b, const tbn *m);
void tbn_powmod(tbn *r, const tbn *a, const tbn *e, const tbn *m);
/* a^-1 mod a prime m (Fermat), 0 for a = 0. */
void tbn_invmod(tbn *r, const tbn *a, const tbn *m);

/* The curve's p, n, b (plain) from hex typed here from the standard
 * (SEC 2 v2), independently of the kernel's tables. */
struct tec_curve {
	vg_ecdsa_curve id;
	const char *name;  /* "P-256" */
	const char *oname; /* OpenSSL group name */
	int nid;
	size_t limbs, bytes;
	tbn p, n, b, R; /* R = 2^(64 limbs) */
};
const struct tec_curve *tec_curve(vg_ecdsa_curve id);

/* ---- OpenSSL references ---- */

/* out = 04 || X || Y of [k]P (k big-endian, any length; P an uncompressed
 * point, or NULL for G), or a single 00 byte (*len = 1) for the identity.
 * out holds 1 + 2 bytes. */
void tos_mul(vg_ecdsa_curve c, uint8_t *out, size_t *len, const uint8_t *k, size_t klen,
	     const uint8_t *p);
/* Same encoding for P + Q and 2P (P, Q uncompressed or the 00 identity). */
void tos_add(vg_ecdsa_curve c, uint8_t *out, size_t *len, const uint8_t *p, const uint8_t *q);
/* 1 if OpenSSL verifies the raw r || s signature of digest under pub. */
int tos_verify(vg_ecdsa_curve c, const uint8_t *pub, const uint8_t *digest, size_t dlen,
	       const uint8_t *sig);
/* OpenSSL signs digest with private d (big-endian, bytes long); raw r || s. */
void tos_sign(vg_ecdsa_curve c, const uint8_t *d, const uint8_t *digest, size_t dlen, uint8_t *sig);
/* Digest with the named hash ("SHA-1", "SHA-224", "SHA-256", ...). */
size_t tos_digest(const char *hash, const uint8_t *msg, size_t len, uint8_t *out);
/* HMAC with the named hash. */
size_t tos_hmac(const char *hash, const uint8_t *key, size_t klen, const uint8_t *msg, size_t len,
		uint8_t *out);

/* Hex into exactly n bytes (aborts otherwise). */
void tec_hex(uint8_t *out, size_t n, const char *hex);

/* With $VG_EXPECT_VARIANT set (meson's per-tier runs), exit 1 unless both
 * curves run that row (vg_kernel_variant "p256" and "p384"); print the
 * rows in use either way, naming the program. */
void tec_expect_variant(const char *prog);

#endif
