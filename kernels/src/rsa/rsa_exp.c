/* rsa_exp.c: the exponentiation methods of the RSA rows and the lookup of
 * a row's functions by size (rsa_exp.h). Secret: p, q, dp, dq, their
 * constants and every intermediate of the CRT exponentiations; the input
 * of the public exponentiation when it is a private result being checked.
 * Public: limb and digit counts, bit lengths, e. Every branch here is on
 * those (which slot, which method). */
#include "rsa/rsa_exp.h"

#include "rsa/bn.h"
#include "vg/wipe.h"

const size_t vg_rsa_mont_limbs[VG_RSA_MONT_SIZES] = {16, 24, 32, 48, 64};
const size_t vg_rsa52_digits[VG_RSA52_SIZES] = {20, 30, 40};
const size_t vg_rsa52_pub_digits[VG_RSA52_SIZES] = {40, 60, 80};

/* The slot of a size in a list, or -1. */
static int slot(const size_t *sizes, size_t count, size_t n)
{
	for (size_t i = 0; i < count; i++)
		if (sizes[i] == n)
			return (int)i;
	return -1;
}

void vg_rsa_mont_init(const struct vg_rsa_impl *im, vg_mont *ctx, const uint64_t *m,
		      const uint64_t *rr, uint64_t m0inv, size_t n)
{
	int k = slot(vg_rsa_mont_limbs, VG_RSA_MONT_SIZES, n);

	vg_mont_init(ctx, m, rr, m0inv, n);
	if (k >= 0) {
		ctx->mul = im->mul[k];
		ctx->sqr = im->sqr[k];
	}
}

void vg_rsa_crt_mont(const struct vg_rsa_impl *im, const struct vg_rsa_key *key,
		     const vg_mont *mp, const vg_mont *mq, uint64_t *h, uint64_t *m2,
		     const uint64_t *c)
{
	uint64_t t[VG_BN_MAX_LIMBS], m1[VG_BN_MAX_LIMBS];
	size_t nl = key->pub.limbs;

	(void)im;
	/* m1 = c^dp mod p, kept in the Montgomery domain. The exponent is used
	 * at the public length of p whatever dp's value. */
	vg_mont_reduce(mp, t, c, nl);
	vg_mont_exp_ct(mp, m1, t, key->p.exp, key->p.bits);

	/* m2 = c^dq mod q, as a plain integer. */
	vg_mont_reduce(mq, t, c, nl);
	vg_mont_exp_ct(mq, m2, t, key->q.exp, key->q.bits);
	vg_mont_from(mq, m2, m2);

	/* Garner: h = (m1 - m2) qinv mod p. m2 < q may exceed p (either order
	 * of the factors is allowed), so it is reduced mod p (into the domain:
	 * m2 R); the factor R of (m1 - m2) R cancels in the multiply by the
	 * plain qinv. */
	vg_mont_reduce(mp, t, m2, key->q.limbs);
	vg_mont_sub(mp, t, m1, t);
	vg_mont_mul(mp, h, t, key->qinv);
	vg_wipe(t, sizeof(t));
	vg_wipe(m1, sizeof(m1));
}

void vg_rsa_crt_52(const struct vg_rsa_impl *im, const struct vg_rsa_key *key, const vg_mont *mp,
		   const vg_mont *mq, uint64_t *h, uint64_t *m2, const uint64_t *c)
{
	uint64_t t[VG_BN_MAX_LIMBS], m1q[VG_BN_MAX_LIMBS];
	int k = slot(vg_rsa52_digits, VG_RSA52_SIZES, key->r52.digits);

	if (k < 0) {
		vg_rsa_crt_mont(im, key, mp, mq, h, m2, c);
		return;
	}
	/* Both halves at once in radix 2^52, straight from c (reduced there);
	 * the p half comes out as m1 qinv mod p, so Garner is one subtraction
	 * of m2 qinv = m2 (qinv R) R^-1 (m2 < q < R: the key has p.limbs ==
	 * q.limbs here). */
	vg_rsa52_exp2(&key->r52, &im->r52[k], m1q, m2, c, key->pub.limbs, key->p.exp,
		      key->q.exp, key->p.bits > key->q.bits ? key->p.bits : key->q.bits,
		      key->p.prime, key->q.prime, key->p.limbs);
	vg_mont_mul(mp, t, m2, key->qinv_r);
	vg_mont_sub(mp, h, m1q, t);
	vg_wipe(t, sizeof(t));
	vg_wipe(m1q, sizeof(m1q));
}

void vg_rsa_pub_mont(const struct vg_rsa_impl *im, const struct vg_rsa_public_key *pub,
		     uint64_t *r, const uint64_t *a)
{
	uint64_t t[VG_BN_MAX_LIMBS];
	vg_mont mn;

	vg_rsa_mont_init(im, &mn, pub->n, pub->rr, pub->n0inv, pub->limbs);
	vg_mont_mul(&mn, t, a, pub->rr);
	vg_mont_exp_pub_plain(&mn, r, t, a, pub->e);
	vg_wipe(t, sizeof(t));
}

void vg_rsa_pub_52(const struct vg_rsa_impl *im, const struct vg_rsa_public_key *pub,
		   uint64_t *r, const uint64_t *a)
{
	int k = slot(vg_rsa52_pub_digits, VG_RSA52_SIZES, pub->r52.digits);

	if (k < 0)
		vg_rsa_pub_mont(im, pub, r, a);
	else
		vg_rsa52_exp_pub(&pub->r52, im->amm52x1[k], r, a, pub->n, pub->limbs, pub->e);
}
