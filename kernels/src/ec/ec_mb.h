/* ec_mb.h: the ec_p256_mb kernel family (dispatch.h): the P-256
 * fixed-base multiplication of up to eight independent scalars at once,
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

/* r[l] = [k_l]G for the eight lanes l, k_l = sum_i d[8 i + l] 32^i over
 * the curve's comb5_rows signed 5-bit digits of each lane
 * (vg_ec_comb_recode_w, w = 5), table = the curve's comb5. r[l] is
 * projective, x = X/Z, its coordinates' four low words reduced mod p
 * (Montgomery form, x 2^256 mod p: the curve's rows' form); the words
 * above are not written. The coordinates are the madd-2008-s XYZZ sum
 * (X : Y : ZZ : ZZZ), of the entries in the order of the rows, as
 * (16 X ZZZ : 16 Y ZZ : 16 ZZ ZZZ), so every row gives the same bits. A
 * lane whose digits are all zero gives (0 : 0 : 0). Correct for every
 * k_l with 1 <= k_l < n (the comb meets no exceptional case of the mixed
 * addition then: kernels/x86_64/ec/p256mb_ifma.asm); other scalars may
 * give a wrong point. */
typedef void vg_ec_mb_comb_fn(vg_ec_point r[VG_EC_MB_LANES], const uint64_t *table,
			      const int8_t *d);

struct vg_ec_mb_impl {
	struct vg_variant v;
	const struct vg_ec_curve *curve;
	vg_ec_mb_comb_fn *comb;
};

/* The table (ec_mb_impls.c): row 0 the C reference, then the ifma row. */
extern const struct vg_ec_mb_impl vg_ec_p256_mb_impls[];
extern const size_t vg_ec_p256_mb_nimpls;
/* The chosen row (dispatch.c). Never NULL. */
const struct vg_ec_mb_impl *vg_ec_p256_mb_impl(void);

/* The portable reference (lane by lane on the P-256 C row's field
 * arithmetic) and the assembly (kernels/x86_64/ec/p256mb_ifma.asm). */
vg_ec_mb_comb_fn vg_p256mb_comb_c, vg_p256mb_comb_ifma;

#endif
