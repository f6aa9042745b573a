/* ec_asm.h: the P-256/P-384 assembly (kernels/x86_64/ec/) and the C glue
 * that builds the asm rows of the two families from it (ec_asm.c). Not
 * installed. Contracts at the functions in ec_tier.asm and ec_field.asm;
 * in short: field and scalar multiplies take any a, b < R and return a
 * reduced result; add/sub take reduced inputs; the point functions work
 * on Jacobian points (x = X/Z^2, y = Y/Z^3) in struct vg_ec_point, and
 * the comb takes ec_base.c's signed digits and returns a projective point
 * (x = X/Z, the rows' form). Secret: everything but the
 * public flags the verification's additions return. */
#ifndef VG_EC_ASM_H
#define VG_EC_ASM_H

#include <stdint.h>

#include "ec/ec.h"

#define VG_EC_ASM_TIER(c, t)                                                                \
	void vg_##c##_mul_##t(uint64_t *r, const uint64_t *a, const uint64_t *b);           \
	void vg_##c##_sqr_##t(uint64_t *r, const uint64_t *a);                              \
	void vg_##c##_ord_mul_##t(uint64_t *r, const uint64_t *a, const uint64_t *b);       \
	void vg_##c##_jdbl_##t(vg_ec_point *r, const vg_ec_point *p);                       \
	uint64_t vg_##c##_jmadd_##t(vg_ec_point *r, const vg_ec_point *p, const uint64_t *q); \
	uint64_t vg_##c##_jadd_##t(vg_ec_point *r, const vg_ec_point *p, const vg_ec_point *q); \
	void vg_##c##_comb_##t(vg_ec_point *r, const uint64_t *table, const int8_t *d);

VG_EC_ASM_TIER(p256, base)
VG_EC_ASM_TIER(p256, adx)
VG_EC_ASM_TIER(p384, base)
VG_EC_ASM_TIER(p384, adx)
void vg_p256_comb_ifma(vg_ec_point *r, const uint64_t *table, const int8_t *d);
void vg_p384_comb_ifma(vg_ec_point *r, const uint64_t *table, const int8_t *d);

/* The divsteps inversion's parts (ec_inv.asm, every asm tier: no mulx);
 * the contract of their C references in ec.h. */
void vg_ec_divsteps1(int64_t m[4], int64_t t[1], const uint64_t fg[2], unsigned n);
void vg_ec_divsteps2(int64_t m[8], int64_t t[2], const uint64_t fg[4], unsigned n);
/* The ifma rows' fused batches (AVX-512F/VL): vg_ec_inv2_batch_c's
 * contract for 4 and 6 limbs. */
void vg_ec_inv2_batch4_avx512(struct vg_ec_inv2_state *st, unsigned n, unsigned lins,
			      const uint64_t *m0, const uint64_t *m1);
void vg_ec_inv2_batch6_avx512(struct vg_ec_inv2_state *st, unsigned n, unsigned lins,
			      const uint64_t *m0, const uint64_t *m1);
void vg_ec_inv_apply4(int64_t fg[10], uint64_t de[8], const int64_t m[4], const uint64_t *mod,
		      uint64_t m0inv);
void vg_ec_inv_apply6(int64_t fg[14], uint64_t de[12], const int64_t m[4], const uint64_t *mod,
		      uint64_t m0inv);

void vg_p256_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_p256_sub(uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_p384_add(uint64_t *r, const uint64_t *a, const uint64_t *b);
void vg_p384_sub(uint64_t *r, const uint64_t *a, const uint64_t *b);

/* The Jacobian point functions and the comb of one tier. */
typedef void vg_ec_jdbl_fn(vg_ec_point *r, const vg_ec_point *p);
typedef uint64_t vg_ec_jmadd_fn(vg_ec_point *r, const vg_ec_point *p, const uint64_t *q);
typedef uint64_t vg_ec_jadd_fn(vg_ec_point *r, const vg_ec_point *p, const vg_ec_point *q);
typedef void vg_ec_comb_fn(vg_ec_point *r, const uint64_t *table, const int8_t *d);

struct vg_ec_jac_ops {
	vg_ec_jdbl_fn *jdbl;
	vg_ec_jmadd_fn *jmadd;
	vg_ec_jadd_fn *jadd;
};

/* The rows' compound operations (ec_asm.c), one per curve and tier: the
 * comb with its recoding and conversion (base_mul), the verification's
 * double multiplication on the Jacobian functions (dsm); and the
 * inversions by divsteps, which every asm row shares. */
#define VG_EC_ASM_ROW_OPS(c, t)                   \
	vg_ec_base_mul_fn vg_ec_base_mul_##c##_##t; \
	vg_ec_dsm_fn vg_ec_dsm_##c##_##t;
VG_EC_ASM_ROW_OPS(p256, base)
VG_EC_ASM_ROW_OPS(p256, adx)
VG_EC_ASM_ROW_OPS(p256, ifma)
VG_EC_ASM_ROW_OPS(p384, base)
VG_EC_ASM_ROW_OPS(p384, adx)
VG_EC_ASM_ROW_OPS(p384, ifma)
vg_ec_inv_fn vg_ec_fe_inv_asm, vg_ec_sc_inv_asm;
vg_ec_inv2_fn vg_ec_inv2_asm, vg_ec_inv2_ifma;

/* r = the projective (X Z : Y : Z^3) of the Jacobian p, or the canonical
 * identity (0 : 1 : 0) when Z = 0. Constant time. */
void vg_ec_jac_to_proj(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p);

#endif
