/* ec.h: the internal interface of the P-256/P-384 code: curve constants,
 * points, and the per-curve implementation row ("impl") whose function
 * pointers are the hot operations an assembly tier may replace. P-256 and
 * P-384 are two families of the kernel dispatch (dispatch.h), each a
 * table of these rows with the C row first (p256.c, p384.c).
 *
 * Representation. Field elements and scalars are arrays of `limbs` 64-bit
 * words, little-endian (VG_EC_MAX_LIMBS words are reserved so one type
 * serves both curves). Field elements are in Montgomery form (x R mod p,
 * R = 2^(64 limbs)) and fully reduced (< p) between operations. Scalars
 * are plain integers unless a name says Montgomery form. Points are
 * projective (X : Y : Z) with x = X/Z, y = Y/Z; the identity is (0 : 1 : 0).
 * The formulas are the complete ones of Renes, Costello and Batina (2016)
 * for a = -3, correct for every pair of inputs on these prime-order
 * curves, so no code path depends on whether two points are equal,
 * opposite or the identity.
 *
 * Secret: everything handled by the constant-time functions (the
 * non-VARIABLE-TIME ones) may be secret. */
#ifndef VG_EC_H
#define VG_EC_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "ec/ec_mont.h"

/* Fixed-base comb: digit width, and entries per row (the multiples 1..64
 * of one power of 2^7 of G; a signed digit selects one and negates it).
 * 37 rows for P-256 (148 KiB), 55 for P-384 (330 KiB): the widest layout
 * published for P-256, one mixed addition per 7 bits of the scalar. */
#define VG_EC_COMB_W 7
#define VG_EC_COMB_ENTRIES (1 << (VG_EC_COMB_W - 1))
/* The ifma tier's P-256 comb (kernels/x86_64/ec/p256_ifma.asm): 5-bit
 * digits, rows of the multiples 1..16 of a power of 2^5 of G, 52 rows
 * (53 KiB). Its lanes make an addition cheap and the scan of a 64-entry
 * row (memory-bound) the larger cost, so smaller rows pay there. */
#define VG_EC_COMB5_W 5
#define VG_EC_COMB5_ENTRIES (1 << (VG_EC_COMB5_W - 1))
/* Verification: width of G's wNAF, and its table of odd multiples
 * G, 3G, ..., 511G (16 KiB for P-256, 24 KiB for P-384): one addition of
 * G per 11 bits of u1 on average. */
#define VG_EC_GNAF_W 10
#define VG_EC_GNAF_ENTRIES (1 << (VG_EC_GNAF_W - 2))

/* A modulus with its Montgomery constants. */
struct vg_ec_mod {
	const uint64_t *m;   /* the odd modulus */
	const uint64_t *rr;  /* R^2 mod m */
	const uint64_t *one; /* R mod m: 1 in Montgomery form */
	uint64_t m0inv;      /* -m^-1 mod 2^64 */
	/* 2^(64 B - N) R^3 mod m for the divsteps inversion (ec_inv.c) of B
	 * batches and N steps: the one constant that maps its output to
	 * the Montgomery-form inverse. */
	const uint64_t *inv_k;
};

/* One curve y^2 = x^3 - 3x + b over GF(p), of prime order n. Public. */
struct vg_ec_curve {
	const char *name; /* "P-256", "P-384" */
	size_t limbs;     /* 4 or 6 */
	size_t bytes;     /* 32 or 48: encoded field elements and scalars */
	struct vg_ec_mod p, n;
	const uint64_t *b;       /* b, Montgomery form */
	const uint64_t *gx, *gy; /* the base point G, Montgomery form */
	/* Build-time tables (ec_gen_table.c). comb: comb_rows rows of
	 * VG_EC_COMB_ENTRIES affine points, entry j of row i = (j + 1)
	 * 2^(7 i) G; g_odd: (2 j + 1) G for j < VG_EC_GNAF_ENTRIES. An affine
	 * point is x then y, each `limbs` words, Montgomery form. */
	const uint64_t *comb;
	size_t comb_rows;
	const uint64_t *g_odd;
	/* comb5: comb5_rows rows of VG_EC_COMB5_ENTRIES, entry j of row i =
	 * (j + 1) 2^(5 i) G, the same layout; P-256 only (NULL and 0 for
	 * P-384). */
	const uint64_t *comb5;
	size_t comb5_rows;
};

typedef struct {
	uint64_t x[VG_EC_MAX_LIMBS], y[VG_EC_MAX_LIMBS], z[VG_EC_MAX_LIMBS];
} vg_ec_point;

struct vg_ec_impl;

/* r = a op b, r = op a on one curve's limb count; r may alias a or b.
 * The contract of each use is at its field in struct vg_ec_impl. */
typedef void vg_ec_mul_fn(uint64_t *r, const uint64_t *a, const uint64_t *b);
typedef void vg_ec_sqr_fn(uint64_t *r, const uint64_t *a);
/* r = a^-1 in Montgomery form (a R -> a^-1 R); 0 -> 0. a < m. */
typedef void vg_ec_inv_fn(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a);
/* rz = z^-1 (mod p) and rk = k^-1 (mod n), both in Montgomery form
 * (a R -> a^-1 R), z < p, k < n: the two inversions of a signature. */
typedef void vg_ec_inv2_fn(const struct vg_ec_impl *f, uint64_t *rz, const uint64_t *z, uint64_t *rk,
			   const uint64_t *k);
/* r = [k]G, constant time, for any k < R (k plain, not reduced). */
typedef void vg_ec_base_mul_fn(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k);
/* r = [k]P, constant time in k and P, for any k < R. */
typedef void vg_ec_point_mul_fn(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k,
				const vg_ec_point *p);
/* VARIABLE TIME, public inputs only: r = [u1]G + [u2]Q, u1, u2 < R. */
typedef void vg_ec_dsm_fn(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *u1,
			  const uint64_t *u2, const vg_ec_point *q);

/* The hot operations of one curve in one variant. The compound
 * operations receive the row itself, so a tier that replaces only the
 * field multiply keeps the generic C compound operations running on its
 * multiply. Every function must give the same results as the C row (the
 * oracle; outputs are canonical, so a tier is checked bit for bit). */
struct vg_ec_impl {
	struct vg_variant v; /* name ("c", "base", ...) and the features it needs */
	const struct vg_ec_curve *curve;
	/* r = a b R^-1 mod p (resp. a^2 R^-1), r < p, for ANY a, b < R */
	vg_ec_mul_fn *fe_mul;
	vg_ec_sqr_fn *fe_sqr;
	/* r = a + b, a - b mod p for a, b < p; r < p */
	vg_ec_mul_fn *fe_add;
	vg_ec_mul_fn *fe_sub;
	/* r = a b R^-1 mod n, r < n, for any a, b < R */
	vg_ec_mul_fn *sc_mul;
	vg_ec_inv_fn *fe_inv;
	vg_ec_inv_fn *sc_inv;
	vg_ec_inv2_fn *inv2; /* fe_inv and sc_inv at once (the asm rows interleave them) */
	vg_ec_base_mul_fn *base_mul;
	vg_ec_point_mul_fn *point_mul;
	vg_ec_dsm_fn *dsm;
};

/* The two curves (generated by ec_gen_table.c into ec_tables.c). */
extern const struct vg_ec_curve vg_p256_curve, vg_p384_curve;

/* The family tables (p256.c, p384.c): row 0 the C reference, then the
 * asm tiers of this build, if any. */
extern const struct vg_ec_impl vg_ec_p256_impls[], vg_ec_p384_impls[];
extern const size_t vg_ec_p256_nimpls, vg_ec_p384_nimpls;

/* The chosen rows (defined by dispatch.c's family list). Never NULL. */
const struct vg_ec_impl *vg_ec_p256_impl(void);
const struct vg_ec_impl *vg_ec_p384_impl(void);

/* Marks len bytes at p as public from here on (ec_declassify.c): a
 * no-op, replaced in the valgrind test so branches on such values are
 * not reported. Use only for values the caller or the world learns anyway. */
void vg_ec_declassify(const void *p, size_t len);

/* Zeroes VG_EC_SCRUB_BYTES of stack just below the caller's frame, where
 * its callees' frames were. The entry points that handle secrets call it
 * on exit: it clears what the field and point primitives leave behind
 * (the multiply's partial products, callee-saved registers pushed by asm,
 * formula temporaries) without a wipe inside every primitive. Measured
 * (painting the stack, every row of both curves): a signature uses at
 * most 3.6 KiB below the caller of vg_ecdsa_sign_with, its own frames
 * included, except the P-256 ifma comb's 7 KiB frame, which that function
 * zeroes itself; 8 KiB leaves more than twice that. A tier's functions
 * must stay within it or wipe their own stack; test_ecdsa_unit.c's
 * test_stack_residue checks that no limb of d, d R, k, k R or k^-1 R is
 * left below a signature (it fails with 1 KiB). */
#define VG_EC_SCRUB_BYTES 8192
void vg_ec_scrub_stack(void);

/* ---- ec_fe.c: limb helpers over a run-time limb count (constant time) ---- */

/* r = a; the n-limb copy. */
void vg_ec_copy(uint64_t *r, const uint64_t *a, size_t n);
/* r = a if ctl (0 or 1), else unchanged. */
void vg_ec_cmov(uint64_t *r, const uint64_t *a, size_t n, uint64_t ctl);
/* 1 if a == 0 / a == b / a < b, else 0 (reads every limb). */
uint64_t vg_ec_iszero(const uint64_t *a, size_t n);
uint64_t vg_ec_eq(const uint64_t *a, const uint64_t *b, size_t n);
uint64_t vg_ec_lt(const uint64_t *a, const uint64_t *b, size_t n);
/* Big-endian 8 n bytes <-> n limbs. */
void vg_ec_from_bytes(uint64_t *r, const uint8_t *in, size_t n);
void vg_ec_to_bytes(uint8_t *out, const uint64_t *a, size_t n);
/* r = a - m if a >= m, else a (one masked subtraction; a < 2m). */
void vg_ec_reduce_once(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/* Field and scalar arithmetic through the row's multiplies. Inputs of
 * add/sub/neg are reduced; to_mont accepts any value < R. */
void vg_ec_fe_add(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_ec_fe_sub(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_ec_fe_to_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a);
void vg_ec_fe_from_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a);
void vg_ec_sc_add(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_ec_sc_to_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a);
void vg_ec_sc_from_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a);

/* The C inversions (Fermat: a^(m-2) by a fixed 4-bit window over the
 * public exponent, so the sequence of operations never depends on a);
 * inv2 is the two one after the other. */
vg_ec_inv_fn vg_ec_fe_inv_c, vg_ec_sc_inv_c;
vg_ec_inv2_fn vg_ec_inv2_c;

/* ---- ec_point.c: point formulas (constant time) ---- */

void vg_ec_point_identity(const struct vg_ec_impl *f, vg_ec_point *r);
/* r = p + q (RCB Algorithm 4); r may alias p or q. */
void vg_ec_point_add(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p,
		     const vg_ec_point *q);
/* r = p + (x2, y2) for an affine point, which cannot be the identity (RCB
 * Algorithm 5); p may be. r may alias p. */
void vg_ec_point_madd(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p,
		      const uint64_t *x2, const uint64_t *y2);
/* r = 2 p (RCB Algorithm 6); r may alias p. */
void vg_ec_point_dbl(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p);
/* r = p if ctl, else unchanged. */
void vg_ec_point_cmov(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p,
		      uint64_t ctl);
/* Affine coordinates (Montgomery form) of p; returns 1 if p is the
 * identity (then x = y = 0), else 0. One field inversion. */
uint64_t vg_ec_point_to_affine(const struct vg_ec_impl *f, uint64_t *x, uint64_t *y,
			       const vg_ec_point *p);
/* 1 if the affine (x, y) (Montgomery form, reduced) satisfies the curve
 * equation, else 0. */
uint64_t vg_ec_on_curve(const struct vg_ec_impl *f, const uint64_t *x, const uint64_t *y);
/* The projective point (x : y : 1) of an affine point. */
void vg_ec_point_from_affine(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *x,
			     const uint64_t *y);

/* VARIABLE TIME (public data): decode 04 || X || Y into affine Montgomery
 * coordinates, checking X, Y < p and the curve equation. 0 or VG_E_KEY. */
int vg_ec_point_decode(const struct vg_ec_impl *f, uint64_t *x, uint64_t *y, const uint8_t *in,
		       size_t len);
/* 04 || X || Y (1 + 2 bytes) from affine Montgomery coordinates. */
void vg_ec_point_encode(const struct vg_ec_impl *f, uint8_t *out, const uint64_t *x,
			const uint64_t *y);

/* ---- ec_base.c, ec_mul.c, ec_vartime.c: the C compound operations ---- */

vg_ec_base_mul_fn vg_ec_base_mul_c;
vg_ec_point_mul_fn vg_ec_point_mul_c;
vg_ec_dsm_fn vg_ec_dsm_c;

/* VARIABLE TIME (public scalars): the width-w NAF of a (limbs words),
 * a = sum_i d[i] 2^i with every non-zero d[i] odd, |d[i]| < 2^(w-1), and
 * at most one non-zero digit in any w consecutive positions. Returns the
 * number of digits written (at most 64 limbs + 1). */
size_t vg_ec_wnaf(int16_t *d, const uint64_t *a, size_t limbs, unsigned w);

/* Comb geometry: rows needed for a scalar of 64 limbs bits (one more
 * digit than floor(bits / 7) covers the top bits and the last carry of
 * the recoding); the same for 5-bit digits. */
#define VG_EC_COMB_ROWS(limbs) ((64 * (limbs)) / VG_EC_COMB_W + 1)
#define VG_EC_COMB5_ROWS(limbs) ((64 * (limbs)) / VG_EC_COMB5_W + 1)

/* Signed comb digits of k (limbs words, any value < R) into d[rows]:
 * digit i is window i of k plus the carry from window i - 1, recentred
 * into [-63, 64] (ec_base.c). Constant time. */
void vg_ec_comb_recode(int8_t *d, const uint64_t *k, size_t limbs, size_t rows);
/* The same for w-bit windows (2 <= w <= 7): digits in
 * [-(2^(w-1) - 1), 2^(w-1)]; rows must cover 64 limbs bits and a last
 * carry (VG_EC_COMB5_ROWS for w = 5). */
void vg_ec_comb_recode_w(int8_t *d, const uint64_t *k, size_t limbs, size_t rows, unsigned w);

/* ---- ec_inv.c: constant-time inversion by divsteps, any odd modulus ---- */

/* Divsteps of the inversion for a modulus of 64 limbs bits: 590
 * "half-delta" steps for 256 bits (10 batches: 9 of 62, one of 32);
 * 1116 ordinary ones (18 batches of 62) for 384 bits, above Bernstein and
 * Yang's bound (49 d + 57) / 17 = 1111 for d = 384. */
#define VG_EC_INV_BATCHES(limbs) ((limbs) == 4 ? 10 : 18)
#define VG_EC_INV_STEPS(limbs) ((limbs) == 4 ? 590 : 1116)

/* r = a^-1 in Montgomery form (a R -> a^-1 R mod m), 0 -> 0, for a < m,
 * modulo the odd m of mod (4 or 6 limbs, m > 2^(64 limbs - 1)). The
 * tiers' fe_inv and sc_inv; r may alias a. */
void vg_ec_modinv(const struct vg_ec_mod *mod, size_t limbs, uint64_t *r, const uint64_t *a);
/* Two of them at once, r1 = a1^-1 modulo m1 and r2 = a2^-1 modulo m2 (the
 * same limb count), their steps interleaved: about the time of one. The
 * _ifma version (asm builds) runs the batches of vg_ec_inv2_batch*_avx512. */
void vg_ec_modinv2(const struct vg_ec_mod *m1, uint64_t *r1, const uint64_t *a1,
		   const struct vg_ec_mod *m2, uint64_t *r2, const uint64_t *a2, size_t limbs);
void vg_ec_modinv2_ifma(const struct vg_ec_mod *m1, uint64_t *r1, const uint64_t *a1,
			const struct vg_ec_mod *m2, uint64_t *r2, const uint64_t *a2,
			size_t limbs);

/* The two parts of a batch of divsteps (ec_inv.c), in C here (the
 * reference) and in assembly at every asm tier (ec_asm.h), same contract:
 *
 * divsteps1/2: n (1 <= n <= 62, public) divsteps of one or two
 * inversions on the low 64 bits of f (odd) and g, fg = f, g (then the
 * second inversion's f, g); t[j] = 2 delta is updated, and m gets each
 * inversion's matrix (u, v, q, r): f_n 2^n = u f + v g, g_n 2^n = q f + r g
 * (exact in the low 64 - n bits; |u| + |v| <= 2^n).
 *
 * inv_apply4/6: for a matrix of a 62-step batch (or the shorter last one),
 * fg = f then g as 5 (7) signed 62-bit limbs each, the top limb signed:
 * (f, g) <- M (f, g) / 2^62 (the floor; exact for a full batch), and
 * de = d then e, 4 (6) limbs each, canonical modulo mod:
 * (d, e) <- M (d, e) 2^-64 mod mod, canonical; m0inv = -mod^-1 mod 2^64. */
void vg_ec_divsteps1_c(int64_t m[4], int64_t t[1], const uint64_t fg[2], unsigned n);
void vg_ec_divsteps2_c(int64_t m[8], int64_t t[2], const uint64_t fg[4], unsigned n);
void vg_ec_inv_apply4_c(int64_t fg[10], uint64_t de[8], const int64_t m[4], const uint64_t *mod,
			uint64_t m0inv);
void vg_ec_inv_apply6_c(int64_t fg[14], uint64_t de[12], const int64_t m[4], const uint64_t *mod,
			uint64_t m0inv);

/* The state of two inversions for the ifma rows' fused batches: each
 * one's f, g (sl = limbs + 1 signed 62-bit limbs each), d, e (limbs
 * words each), the matrices of the last batch (their d, e update still
 * pending), t and -m^-1 mod 2^64. Its offsets are the asm's
 * (kernels/x86_64/ec/ec_inv.asm, ST_*). */
struct vg_ec_inv2_state {
	int64_t fg[2][14];
	uint64_t de[2][12];
	int64_t m[2][4];
	int64_t t[2];
	uint64_t m0inv[2];
};
_Static_assert(offsetof(struct vg_ec_inv2_state, de) == 224, "ST_DE");
_Static_assert(offsetof(struct vg_ec_inv2_state, m) == 416, "ST_M");
_Static_assert(offsetof(struct vg_ec_inv2_state, t) == 480, "ST_T");
_Static_assert(offsetof(struct vg_ec_inv2_state, m0inv) == 496, "ST_M0INV");

/* One batch of both inversions (limbs 4 or 6; m0, m1 their moduli): if
 * lins, the pending matrices st->m applied to each d, e (as
 * vg_ec_inv_apply4/6 does); then, if n > 0 (n <= 62, public), n divsteps
 * of both from the low words of their f, g, the new matrices kept in
 * st->m (pending) and applied to f, g, t updated. The reference of the
 * asm vg_ec_inv2_batch4/6_avx512. */
void vg_ec_inv2_batch_c(struct vg_ec_inv2_state *st, unsigned n, unsigned lins,
			const uint64_t *m0, const uint64_t *m1, size_t limbs);

#endif
