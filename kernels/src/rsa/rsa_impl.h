/* rsa_impl.h: the RSA family of the kernel dispatch (dispatch.h), one row
 * per variant: the Montgomery multiplies by limb count, the radix-2^52
 * functions by digit count, and the exponentiation method that uses them.
 * Row 0 is the portable C reference, then the assembly tiers base, adx and
 * ifma; the table is rsa_impls.c. Every slot is set in every row (the C
 * function where a row has no assembly for it), so checkasm can compare
 * each row's slot with row 0's. Secret: as in mont.h and rsa52.h, the
 * moduli when they are primes, their constants and every operand. */
#ifndef VG_RSA_IMPL_H
#define VG_RSA_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "rsa/mont.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_key.h"

struct vg_rsa_impl;

/* The CRT exponentiations of a private operation on c (key->pub.limbs
 * limbs, c < n) and Garner's step: h = (c^dp - c^dq) qinv mod p (plain,
 * key->p.limbs limbs) and m2 = c^dq mod q plain (key->q.limbs limbs; the
 * limbs above are left alone), so that the result is m2 + h q. mp and mq
 * are p's and q's contexts from vg_rsa_mont_init with the same row. */
typedef void vg_rsa_crt_fn(const struct vg_rsa_impl *im, const struct vg_rsa_key *key,
			   const vg_mont *mp, const vg_mont *mq, uint64_t *h, uint64_t *m2,
			   const uint64_t *c);

/* r = a^e mod n (pub->limbs limbs), plain and fully reduced, for a < n.
 * The exponent is public; a may be secret (the fault check of a private
 * operation), so time does not depend on it. r must not alias a. */
typedef void vg_rsa_pub_fn(const struct vg_rsa_impl *im, const struct vg_rsa_public_key *pub,
			   uint64_t *r, const uint64_t *a);

/* Slots by size: Montgomery multiplies for the CRT halves of RSA-2048,
 * 3072 and 4096 and the public moduli (vg_rsa_mont_limbs: 16, 24, 32,
 * 48, 64 limbs), paired radix-2^52 functions for the halves
 * (vg_rsa52_digits: 20, 30, 40 digits) and single ones for the moduli
 * (vg_rsa52_pub_digits: 40, 60, 80 digits). */
#define VG_RSA_MONT_SIZES 5
#define VG_RSA52_SIZES 3

struct vg_rsa_impl {
	struct vg_variant v;
	vg_mont_mul_fn *mul[VG_RSA_MONT_SIZES];
	vg_mont_mul_fn *sqr[VG_RSA_MONT_SIZES]; /* called with b == a, a < m */
	struct vg_rsa52_impl r52[VG_RSA52_SIZES];
	vg_amm52x2_fn *amm52x1[VG_RSA52_SIZES];
	/* The method: 64-bit Montgomery (vg_rsa_crt_mont, vg_rsa_pub_mont)
	 * or radix 2^52 (vg_rsa_crt_52, vg_rsa_pub_52; rsa_exp.h). */
	vg_rsa_crt_fn *crt;
	vg_rsa_pub_fn *pub;
};

/* The table (rsa_impls.c): row 0 the C reference, then the asm tiers of
 * this build in order of preference. */
extern const struct vg_rsa_impl vg_rsa_impls[];
extern const size_t vg_rsa_nimpls;

/* The chosen row (defined by dispatch.c's family list). Never NULL. */
const struct vg_rsa_impl *vg_rsa_impl(void);

#endif
