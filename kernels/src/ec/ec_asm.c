/* ec_asm.c: the C glue of the P-256/P-384 assembly rows (ec_asm.h): the
 * fixed-base multiplication (recoding, the asm comb, conversion to the
 * rows' projective form), the inversions by divsteps, and the
 * verification's double multiplication over the asm Jacobian point
 * functions. Constant time except the double multiplication (public
 * inputs only). Secret: k, its digits, every point of k G. */
#include "ec/ec_asm.h"
#include "vg/wipe.h"
#include "vg_config.h"

#if VG_HAVE_ASM

void vg_ec_jac_to_proj(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	uint64_t z2[VG_EC_MAX_LIMBS];
	vg_ec_point t = {0};

	f->fe_sqr(z2, p->z);
	f->fe_mul(t.z, z2, p->z); /* Z^3 */
	f->fe_mul(t.x, p->x, p->z);
	vg_ec_copy(t.y, p->y, n);
	/* Z = 0: the identity, in the one form the C row gives it, (0 : 1 : 0)
	 * (X Z and Z^3 are 0 already) */
	vg_ec_cmov(t.y, c->p.one, n, vg_ec_iszero(p->z, n));
	*r = t;
	vg_wipe(z2, sizeof(z2));
	vg_wipe(&t, sizeof(t));
}

void vg_ec_fe_inv_asm(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	vg_ec_modinv(&f->curve->p, f->curve->limbs, r, a);
}

void vg_ec_sc_inv_asm(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	vg_ec_modinv(&f->curve->n, f->curve->limbs, r, a);
}

void vg_ec_inv2_asm(const struct vg_ec_impl *f, uint64_t *rz, const uint64_t *z, uint64_t *rk,
		    const uint64_t *k)
{
	const struct vg_ec_curve *c = f->curve;
	vg_ec_modinv2(&c->p, rz, z, &c->n, rk, k, c->limbs);
}

/* The ifma rows: the two inversions' steps in AVX-512 lanes, each batch's
 * d, e update beside the next batch's steps. */
void vg_ec_inv2_ifma(const struct vg_ec_impl *f, uint64_t *rz, const uint64_t *z, uint64_t *rk,
		     const uint64_t *k)
{
	const struct vg_ec_curve *c = f->curve;
	vg_ec_modinv2_ifma(&c->p, rz, z, &c->n, rk, k, c->limbs);
}

/* [k]G: the signed digits (ec_base.c), the comb (projective out), and the
 * identity in the one form the C row gives it, (0 : 1 : 0). w: the comb's
 * digit width, 7 (the curve's comb) or 5 (comb5, P-256's ifma comb). */
static void base_mul(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k,
		     void (*comb)(vg_ec_point *, const uint64_t *, const int8_t *), unsigned w)
{
	const struct vg_ec_curve *c = f->curve;
	int8_t d[VG_EC_COMB5_ROWS(VG_EC_MAX_LIMBS)];
	vg_ec_point P = {0};

	if (w == VG_EC_COMB5_W) { /* public */
		vg_ec_comb_recode_w(d, k, c->limbs, c->comb5_rows, w);
		comb(&P, c->comb5, d);
	} else {
		vg_ec_comb_recode(d, k, c->limbs, c->comb_rows);
		comb(&P, c->comb, d);
	}
	vg_ec_cmov(P.y, c->p.one, c->limbs, vg_ec_iszero(P.z, c->limbs));
	*r = P;
	vg_wipe(d, sizeof(d));
	vg_wipe(&P, sizeof(P));
}

/* ---- verification (VARIABLE TIME: public inputs only) ---- */

#define QNAF_W 5
#define QNAF_ENTRIES (1 << (QNAF_W - 2))
#define NAF_MAX (64 * VG_EC_MAX_LIMBS + 1)

/* acc += the affine (x, y) (not the identity) when inf says whether acc is
 * the identity; the addition's flags catch acc = +-(x, y). */
static void add_affine(const struct vg_ec_impl *f, const struct vg_ec_jac_ops *o,
		       vg_ec_point *acc, int *inf, const uint64_t *xy)
{
	size_t n = f->curve->limbs;
	if (*inf) {
		vg_ec_point_from_affine(f, acc, xy, xy + n);
		*inf = 0;
		return;
	}
	uint64_t fl = o->jmadd(acc, acc, xy);
	if (fl & 1) {
		if (fl & 2) {
			vg_ec_point e;
			vg_ec_point_from_affine(f, &e, xy, xy + n);
			o->jdbl(acc, &e);
		} else {
			*inf = 1;
		}
	}
}

/* [u1]G + [u2]Q: Straus-Shamir over two wNAFs (G: width VG_EC_GNAF_W on
 * the build-time affine table; Q: width 5 on odd multiples computed
 * here), one doubling chain, on the row's Jacobian functions. q is in
 * the rows' projective form (X : Y : Z), x = X / Z. Q's multiples are
 * made affine by one inversion of the product of their Z (Montgomery's
 * trick: 3 (k - 1) multiplications, then 4 a point), so every addition
 * of the loop is a mixed one (8M + 3S instead of 12M + 4S): about 80
 * additions of Q for P-384, 40 for P-256, against one inversion and ~50
 * multiplications. */
static void dsm(const struct vg_ec_impl *f, const struct vg_ec_jac_ops *o, vg_ec_point *r,
		const uint64_t *u1, const uint64_t *u2, const vg_ec_point *q)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	int16_t d1[NAF_MAX], d2[NAF_MAX];
	vg_ec_point qt[QNAF_ENTRIES], q2, acc;
	uint64_t qa[QNAF_ENTRIES][2 * VG_EC_MAX_LIMBS]; /* affine (2 j + 1) Q: x, y */
	uint64_t xy[2 * VG_EC_MAX_LIMBS];
	static const uint64_t zero[VG_EC_MAX_LIMBS];
	int inf = 1;

	size_t l1 = vg_ec_wnaf(d1, u1, n, VG_EC_GNAF_W);
	size_t l2 = vg_ec_iszero(q->z, n) ? 0 : vg_ec_wnaf(d2, u2, n, QNAF_W);

	if (l2) {
		/* Jacobian Q = (X Z, Y Z^2, Z); qt[j] = (2 j + 1) Q. (2 j - 1) Q
		 * = +-2 Q is impossible for these j in a group of prime order
		 * n > 2^255, so the additions are generic, and no multiple is
		 * the identity (every Z is non-zero). */
		uint64_t z2[VG_EC_MAX_LIMBS], pre[QNAF_ENTRIES][VG_EC_MAX_LIMBS];
		uint64_t inv[VG_EC_MAX_LIMBS], zi[VG_EC_MAX_LIMBS], t[VG_EC_MAX_LIMBS];
		f->fe_sqr(z2, q->z);
		f->fe_mul(qt[0].x, q->x, q->z);
		f->fe_mul(qt[0].y, q->y, z2);
		vg_ec_copy(qt[0].z, q->z, n);
		o->jdbl(&q2, &qt[0]);
		for (size_t j = 1; j < QNAF_ENTRIES; j++)
			(void)o->jadd(&qt[j], &qt[j - 1], &q2);
		/* pre[j] = Z_0 ... Z_j; inv = 1 / pre[last]; then walking down,
		 * 1/Z_j = inv pre[j - 1] and inv = inv Z_j */
		vg_ec_copy(pre[0], qt[0].z, n);
		for (size_t j = 1; j < QNAF_ENTRIES; j++)
			f->fe_mul(pre[j], pre[j - 1], qt[j].z);
		f->fe_inv(f, inv, pre[QNAF_ENTRIES - 1]);
		for (size_t j = QNAF_ENTRIES; j-- > 0;) {
			if (j > 0) {
				f->fe_mul(zi, inv, pre[j - 1]);
				f->fe_mul(inv, inv, qt[j].z);
			} else {
				vg_ec_copy(zi, inv, n);
			}
			f->fe_sqr(t, zi);
			f->fe_mul(qa[j], qt[j].x, t); /* x = X / Z^2 */
			f->fe_mul(t, t, zi);
			f->fe_mul(qa[j] + n, qt[j].y, t); /* y = Y / Z^3 */
		}
	}

	for (size_t i = (l1 > l2 ? l1 : l2); i-- > 0;) {
		if (!inf)
			o->jdbl(&acc, &acc);
		if (i < l1 && d1[i] != 0) {
			int m = d1[i] < 0 ? -d1[i] : d1[i];
			const uint64_t *g = c->g_odd + (size_t)(m / 2) * 2 * n;
			vg_ec_copy(xy, g, n);
			if (d1[i] > 0)
				vg_ec_copy(xy + n, g + n, n);
			else
				f->fe_sub(xy + n, zero, g + n);
			add_affine(f, o, &acc, &inf, xy);
		}
		if (i < l2 && d2[i] != 0) {
			int m = d2[i] < 0 ? -d2[i] : d2[i];
			vg_ec_copy(xy, qa[m / 2], n);
			if (d2[i] > 0)
				vg_ec_copy(xy + n, qa[m / 2] + n, n);
			else
				f->fe_sub(xy + n, zero, qa[m / 2] + n);
			add_affine(f, o, &acc, &inf, xy);
		}
	}
	if (inf)
		vg_ec_point_identity(f, r);
	else
		vg_ec_jac_to_proj(f, r, &acc);
}

/* One curve's tier: its compound operations over its asm functions. */
#define TIER_OPS(c, t, mt, w)                                                                  \
	static const struct vg_ec_jac_ops jac_##c##_##t = {                                    \
		vg_##c##_jdbl_##mt, vg_##c##_jmadd_##mt, vg_##c##_jadd_##mt};                  \
	void vg_ec_base_mul_##c##_##t(const struct vg_ec_impl *f, vg_ec_point *r,              \
				      const uint64_t *k)                                       \
	{                                                                                      \
		base_mul(f, r, k, vg_##c##_comb_##t, w);                                       \
	}                                                                                      \
	void vg_ec_dsm_##c##_##t(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *u1, \
				 const uint64_t *u2, const vg_ec_point *q)                     \
	{                                                                                      \
		dsm(f, &jac_##c##_##t, r, u1, u2, q);                                          \
	}

TIER_OPS(p256, base, base, VG_EC_COMB_W)
TIER_OPS(p256, adx, adx, VG_EC_COMB_W)
TIER_OPS(p256, ifma, adx, VG_EC_COMB5_W)
TIER_OPS(p384, base, base, VG_EC_COMB_W)
TIER_OPS(p384, adx, adx, VG_EC_COMB_W)
TIER_OPS(p384, ifma, adx, VG_EC_COMB_W)

#endif
