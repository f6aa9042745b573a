/* p256.c: the C row of P-256 (the oracle every tier is checked against):
 * the field and scalar arithmetic specialised for this curve's moduli
 * (4 limbs; the compiler sees the limb count and the Montgomery constants
 * as constants), and the generic C compound operations. Constant time
 * except dsm (verification, public data). */
#include "ec/ec.h"
#include "ec/ec_asm.h"
#include "ec/p256_params.h"
#include "vg/cpu.h"
#include "vg_config.h"

static void fe_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mont_mul(r, a, b, vg_p256_p, VG_P256_P0INV, VG_P256_LIMBS);
}

/* The reference squares by multiplying: one multiply to trust. */
static void fe_sqr(uint64_t *r, const uint64_t *a) { fe_mul(r, a, a); }

static void fe_add(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_add(r, a, b, vg_p256_p, VG_P256_LIMBS);
}

static void fe_sub(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_sub(r, a, b, vg_p256_p, VG_P256_LIMBS);
}

static void sc_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mont_mul(r, a, b, vg_p256_n, VG_P256_N0INV, VG_P256_LIMBS);
}

/* The assembly rows (kernels/x86_64/ec/, glue in ec_asm.c): tier t runs
 * the field and scalar multiplies and point functions of tier mt (ifma
 * reuses adx's, with its own comb) and the inversion pair vg_ec_inv2_i2
 * (ifma's steps in AVX-512 lanes). */
#define ASM_ROW(t, mt, i2, feat)                                                                  \
	{                                                                                      \
		.v = {#t, (feat)}, .curve = &vg_p256_curve, .fe_mul = vg_p256_mul_##mt,          \
		.fe_sqr = vg_p256_sqr_##mt, .fe_add = vg_p256_add, .fe_sub = vg_p256_sub,          \
		.sc_mul = vg_p256_ord_mul_##mt, .fe_inv = vg_ec_fe_inv_asm,                      \
		.sc_inv = vg_ec_sc_inv_asm, .inv2 = vg_ec_inv2_##i2, .base_mul = vg_ec_base_mul_p256_##t,                 \
		.point_mul = vg_ec_point_mul_c, .dsm = vg_ec_dsm_p256_##t,                        \
	}

/* The P-256 family table (dispatch.h): the C row first, then the asm rows
 * of this build. */
const struct vg_ec_impl vg_ec_p256_impls[] = {
	{
		.v = {"c", 0},
		.curve = &vg_p256_curve,
		.fe_mul = fe_mul,
		.fe_sqr = fe_sqr,
		.fe_add = fe_add,
		.fe_sub = fe_sub,
		.sc_mul = sc_mul,
		.fe_inv = vg_ec_fe_inv_c,
		.sc_inv = vg_ec_sc_inv_c,
		.inv2 = vg_ec_inv2_c,
		.base_mul = vg_ec_base_mul_c,
		.point_mul = vg_ec_point_mul_c,
		.dsm = vg_ec_dsm_c,
	},
#if VG_HAVE_ASM
	ASM_ROW(base, base, asm, VG_TIER_BASE),
	ASM_ROW(adx, adx, asm, VG_TIER_ADX),
	ASM_ROW(ifma, adx, ifma, VG_TIER_IFMA),
#endif
};

const size_t vg_ec_p256_nimpls = sizeof(vg_ec_p256_impls) / sizeof(vg_ec_p256_impls[0]);
