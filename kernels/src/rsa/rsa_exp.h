/* rsa_exp.h: what an RSA row's slots are used for (rsa_exp.c): the sizes
 * of the slots, a row's Montgomery context for a modulus, and the two
 * exponentiation methods a row can name. Secret: as in rsa_impl.h. */
#ifndef VG_RSA_EXP_H
#define VG_RSA_EXP_H

#include <stddef.h>

#include "rsa/rsa_impl.h"

/* The size of each slot of struct vg_rsa_impl (rsa_impl.h). */
extern const size_t vg_rsa_mont_limbs[VG_RSA_MONT_SIZES];
extern const size_t vg_rsa52_digits[VG_RSA52_SIZES];
extern const size_t vg_rsa52_pub_digits[VG_RSA52_SIZES];

/* vg_mont_init with row im's multiply and squaring for n limbs, or the
 * portable ones where the row has no slot for n (n is public). */
void vg_rsa_mont_init(const struct vg_rsa_impl *im, vg_mont *ctx, const uint64_t *m,
		      const uint64_t *rr, uint64_t m0inv, size_t n);

/* 64-bit Montgomery: each half by vg_mont_exp_ct, the public exponent by
 * vg_mont_exp_pub_plain, on the row's multiplies. */
vg_rsa_crt_fn vg_rsa_crt_mont;
vg_rsa_pub_fn vg_rsa_pub_mont;

/* Radix 2^52: both halves at once (vg_rsa52_exp2), the public exponent
 * with the single multiply (vg_rsa52_exp_pub), on the row's r52 and
 * amm52x1 slots; the 64-bit methods for keys those slots do not cover
 * (a public property of the key: its limb counts). */
vg_rsa_crt_fn vg_rsa_crt_52;
vg_rsa_pub_fn vg_rsa_pub_52;

#endif
