/* ec_mb.h: the ec_p256_mb and ec_p384_mb kernel families (dispatch.h),
 * one row type: the fixed-base multiplication of up to eight independent
 * scalars at once,
 * one per 64-bit lane of the ifma tier's vectors, which the batched
 * signing (ecdsa_mb.c, vg/ecdsa_mb.h) runs its nonces through.
 *
 * Secret: every scalar digit and every point. Public: the table, the
 * number of lanes in use. */
#ifndef VG_EC_MB_H
#define VG_EC_MB_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "ec/ec.h"

#define VG_EC_MB_LANES 8
/* Digit rows of the largest batched comb: P-384's 7-bit comb (55; P-256
 * batches its 52 5-bit rows). */
#define VG_EC_MB_MAX_ROWS VG_EC_COMB_ROWS(VG_EC_MAX_LIMBS)

/* r[l] = [k_l]G for the eight lanes l. P-256: k_l = sum_i d[8 i + l] 32^i
 * over the curve's comb5_rows signed 5-bit digits of each lane
 * (vg_ec_comb_recode_w, w = 5), table = the curve's comb5; P-384: k_l =
 * sum_i d[8 i + l] 128^i over its comb_rows 7-bit digits
 * (vg_ec_comb_recode), table = its comb. r[l] is projective, x = X/Z,
 * its coordinates' limbs-many low words reduced mod p (Montgomery form,
 * x 2^(64 limbs) mod p: the curve's rows' form); the words above are not
 * written. The coordinates are the madd-2008-s XYZZ sum (X : Y : ZZ :
 * ZZZ), of the entries in the order of the rows, as (s X ZZZ : s Y ZZ :
 * s ZZ ZZZ) with s = 16 for P-256 (the assembly's R = 2^260 read as
 * 2^256) and 1 for P-384, so every row gives the same bits. A lane whose
 * digits are all zero gives (0 : 0 : 0). Correct for every k_l with
 * 1 <= k_l < n (the comb meets no exceptional case of the mixed addition
 * then: kernels/x86_64/ec/p256mb_ifma.asm, p384mb_ifma.asm); other
 * scalars may give a wrong point. */
typedef void vg_ec_mb_comb_fn(vg_ec_point r[VG_EC_MB_LANES], const uint64_t *table,
			      const int8_t *d);

struct vg_ec_mb_impl {
	struct vg_variant v;
	const struct vg_ec_curve *curve;
	vg_ec_mb_comb_fn *comb;
};

/* The tables (ec_mb_impls.c): row 0 the C reference, then the ifma row. */
extern const struct vg_ec_mb_impl vg_ec_p256_mb_impls[], vg_ec_p384_mb_impls[];
extern const size_t vg_ec_p256_mb_nimpls, vg_ec_p384_mb_nimpls;
/* The chosen rows (dispatch.c). Never NULL. */
const struct vg_ec_mb_impl *vg_ec_p256_mb_impl(void);
const struct vg_ec_mb_impl *vg_ec_p384_mb_impl(void);

/* The portable references (lane by lane on the curve's C row's field
 * arithmetic) and the assembly (kernels/x86_64/ec/p256mb_ifma.asm; the
 * P-384 one behind a C packing step, ec_mb_impls.c). */
vg_ec_mb_comb_fn vg_p256mb_comb_c, vg_p256mb_comb_ifma;
vg_ec_mb_comb_fn vg_p384mb_comb_c, vg_p384mb_comb_ifma_pts;
/* out: three elements (X, Y, Z) of eight 52-bit limb vectors, element c
 * limb i lane l at out[64 c + 8 i + l], each below 2p and the coordinate
 * times 2^384 mod p (kernels/x86_64/ec/p384mb_ifma.asm). */
void vg_p384mb_comb_ifma(uint64_t *out, const uint64_t *table, const int8_t *d);

#endif
