/* mont.h: Montgomery arithmetic modulo an odd m of n 64-bit limbs,
 * R = 2^(64 n). The modulus may be secret (an RSA prime): everything here
 * is constant time in the values of m, its constants and the operands, and
 * depends only on n, except vg_mont_exp_pub, which branches on its
 * (public) exponent. */
#ifndef VG_RSA_MONT_H
#define VG_RSA_MONT_H

#include <stddef.h>
#include <stdint.h>

#include "rsa/bn.h"

/* r = a * b * R^-1 mod m over n limbs (1 <= n <= VG_BN_MAX_LIMBS), with
 * m odd, m0inv = -m^-1 mod 2^64, b < m and a < R (a need not be reduced).
 * The result is fully reduced (< m). r may alias a or b.
 * This is the one hot function of RSA: the rows of the RSA family
 * (rsa_impl.h) hold one of this type per limb count, installed in a
 * vg_mont by vg_rsa_mont_init (rsa_exp.h). */
typedef void vg_mont_mul_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
			    const uint64_t *m, uint64_t m0inv, size_t n);

/* Portable reference: CIOS with 128-bit products and a final subtraction
 * by mask. */
vg_mont_mul_fn vg_mont_mul_c;

/* A modulus and its per-key constants; points into the key, holds no copy.
 * Secret when m is (wipe a stack copy: m0inv is m's low bits in disguise). */
typedef struct {
	const uint64_t *m;  /* n limbs, odd */
	const uint64_t *rr; /* R^2 mod m */
	/* R^3 mod m, or NULL (vg_mont_init's): lets vg_mont_reduce take an
	 * input of two chunks with two multiplies instead of three */
	const uint64_t *rrr;
	uint64_t m0inv;     /* -m^-1 mod 2^64 */
	size_t n;
	vg_mont_mul_fn *mul;
	vg_mont_mul_fn *sqr; /* called with b == a; needs a < m */
} vg_mont;

/* -m0^-1 mod 2^64 for odd m0, by Newton's iteration (no branch). */
uint64_t vg_mont_m0inv(uint64_t m0);

/* R^2 mod m (n limbs), constant time in m: 128 n modular doublings. */
void vg_mont_rr(uint64_t *rr, const uint64_t *m, size_t n);

/* Fill ctx for m (n limbs) with rr = R^2 mod m and m0inv, multiplying
 * with the portable vg_mont_mul_c; vg_rsa_mont_init (rsa_exp.h) installs a
 * row's multiply and squaring instead. */
void vg_mont_init(vg_mont *ctx, const uint64_t *m, const uint64_t *rr, uint64_t m0inv, size_t n);

static inline void vg_mont_mul(const vg_mont *ctx, uint64_t *r, const uint64_t *a,
			       const uint64_t *b)
{
	ctx->mul(r, a, b, ctx->m, ctx->m0inv, ctx->n);
}

/* r = a^2 R^-1 mod m for a < m (fully reduced). r may alias a. */
static inline void vg_mont_sqr(const vg_mont *ctx, uint64_t *r, const uint64_t *a)
{
	ctx->sqr(r, a, a, ctx->m, ctx->m0inv, ctx->n);
}

/* rM = a * R mod m: a[0..an) of any length brought into the Montgomery
 * domain, reduced. Horner over n-limb chunks of a, two multiplications per
 * chunk after the top one; with ctx->rrr set, a of two chunks (an RSA
 * input modulo a CRT factor) takes two multiplications, one per chunk.
 * rM must not alias a. */
void vg_mont_reduce(const vg_mont *ctx, uint64_t *rM, const uint64_t *a, size_t an);

/* r = a * R^-1 mod m (leave the Montgomery domain); a < R. */
void vg_mont_from(const vg_mont *ctx, uint64_t *r, const uint64_t *a);

/* r = (a + b) mod m and r = (a - b) mod m for a, b < m. r may alias. */
void vg_mont_add(const vg_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_mont_sub(const vg_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b);

/* Window of the constant-time exponentiation: 2^5 table entries. Against
 * 4-bit windows: a fifth fewer multiplies by an entry for 16 more in the
 * table and twice the scan, which the vector scan (mont.c) makes a gain:
 * about 2 % of an RSA private operation at adx (Zen 4). */
#define VG_MONT_WINDOW 5

/* rM = aM^e (Montgomery form in and out), e of ebits bits (public length;
 * e[] has at least ceil(ebits/64) limbs and no bit set above ebits).
 * Fixed 5-bit windows taken at public positions, the table read by a
 * masked scan of all 32 entries: time depends on n and ebits only. */
void vg_mont_exp_ct(const vg_mont *ctx, uint64_t *rM, const uint64_t *aM, const uint64_t *e,
		    size_t ebits);

/* rM = aM^e for a PUBLIC exponent e >= 1 (left-to-right square and multiply
 * branching on e's bits). The operands' values still do not affect time. */
void vg_mont_exp_pub(const vg_mont *ctx, uint64_t *rM, const uint64_t *aM, uint64_t e);

/* r = a^e mod m, plain and fully reduced, for a PUBLIC odd e >= 3, given
 * a < m and aM = a R mod m. As vg_mont_exp_pub, except that the last
 * multiplication (e is odd) takes the plain a, which also removes the
 * factor R: one multiplication fewer than exp_pub followed by from. r may
 * alias neither a nor aM. */
void vg_mont_exp_pub_plain(const vg_mont *ctx, uint64_t *r, const uint64_t *aM, const uint64_t *a,
			   uint64_t e);

#endif
