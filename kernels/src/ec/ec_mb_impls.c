/* ec_mb_impls.c: the ec_p256_mb and ec_p384_mb families' tables (ec_mb.h)
 * and their portable reference: the batched comb lane by lane, on the
 * curve's C row's field arithmetic, with the assembly's formulas in the assembly's order so
 * that both give the same bits. Secret: every digit, selected entry and
 * point; each row's entries are all read and one kept under a mask, the
 * identity and the sign are masks. */
#include <string.h>

#include "ct.h"
#include "ec/ec_mb.h"
#include "vg/cpu.h"
#include "vg/wipe.h"
#include "vg_config.h"

#define N VG_EC_MAX_LIMBS /* room for either curve */

/* XYZZ accumulator of one lane (x = X/ZZ, y = Y/ZZZ). */
struct xyzz {
	uint64_t x[N], y[N], zz[N], zzz[N];
};

/* r = 2^e a mod p (P-256: e = 4, the assembly's R = 2^260 values read as
 * R = 2^256; P-384: e = 0). */
static void scale(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, int e)
{
	vg_ec_copy(r, a, f->curve->limbs);
	for (int i = 0; i < e; i++)
		f->fe_add(r, r, r);
}

/* n = a + (qx, qy) by madd-2008-s, a not the identity and not +-q (the
 * lane's result is dropped by the caller's masks otherwise). */
static void madd(const struct vg_ec_impl *f, struct xyzz *o, const struct xyzz *a,
		 const uint64_t *qx, const uint64_t *qy)
{
	uint64_t u2[N], s2[N], p[N], r[N], pp[N], ppp[N], q[N], yp[N], t[N];

	f->fe_mul(u2, qx, a->zz);
	f->fe_mul(s2, qy, a->zzz);
	f->fe_sub(p, u2, a->x);
	f->fe_sub(r, s2, a->y);
	f->fe_mul(pp, p, p);
	f->fe_mul(t, r, r);
	f->fe_mul(ppp, p, pp);
	f->fe_mul(q, a->x, pp);
	f->fe_mul(o->zz, a->zz, pp);
	f->fe_mul(o->zzz, a->zzz, ppp);
	f->fe_mul(yp, a->y, ppp);
	f->fe_sub(o->x, t, ppp);
	f->fe_sub(o->x, o->x, q);
	f->fe_sub(o->x, o->x, q);
	f->fe_sub(t, q, o->x);
	f->fe_mul(t, r, t);
	f->fe_sub(o->y, t, yp);
	vg_wipe(u2, sizeof(u2));
	vg_wipe(s2, sizeof(s2));
	vg_wipe(p, sizeof(p));
	vg_wipe(r, sizeof(r));
	vg_wipe(pp, sizeof(pp));
	vg_wipe(ppp, sizeof(ppp));
	vg_wipe(q, sizeof(q));
	vg_wipe(yp, sizeof(yp));
	vg_wipe(t, sizeof(t));
}

/* rows rows of entries affine entries each (x, y of the curve's limbs). */
static void comb_lane(const struct vg_ec_impl *f, vg_ec_point *out, const uint64_t *table,
		      const int8_t *d, size_t l, size_t rows, size_t entries, int e)
{
	const struct vg_ec_curve *c = f->curve;
	const size_t n = c->limbs;
	static const uint64_t zero[N];
	struct xyzz a, s;
	uint64_t qx[N], qy[N], ny[N], inf = 1;

	memset(&a, 0, sizeof(a));

	for (size_t i = 0; i < rows; i++) {
		int64_t di = d[VG_EC_MB_LANES * i + l];
		uint64_t neg = (uint64_t)di >> 63;
		uint64_t mag = ((uint64_t)di ^ vg_ct_mask(neg)) + neg; /* |d| */
		const uint64_t *row = table + i * entries * 2 * n;
		for (size_t k = 0; k < N; k++)
			qx[k] = qy[k] = 0;
		for (uint64_t j = 0; j < entries; j++) {
			uint64_t m = vg_ct_barrier(vg_ct_mask(vg_ct_eq(mag, j + 1)));
			for (size_t k = 0; k < n; k++) {
				qx[k] |= row[2 * n * j + k] & m;
				qy[k] |= row[2 * n * j + n + k] & m;
			}
		}
		f->fe_sub(ny, zero, qy);
		vg_ec_cmov(qy, ny, n, neg);
		madd(f, &s, &a, qx, qy);
		uint64_t nz = vg_ct_nonzero(mag);
		uint64_t take_sum = nz & (inf ^ 1), take_q = nz & inf;
		vg_ec_cmov(a.x, s.x, n, take_sum);
		vg_ec_cmov(a.y, s.y, n, take_sum);
		vg_ec_cmov(a.zz, s.zz, n, take_sum);
		vg_ec_cmov(a.zzz, s.zzz, n, take_sum);
		vg_ec_cmov(a.x, qx, n, take_q);
		vg_ec_cmov(a.y, qy, n, take_q);
		vg_ec_cmov(a.zz, c->p.one, n, take_q);
		vg_ec_cmov(a.zzz, c->p.one, n, take_q);
		inf &= nz ^ 1;
	}
	f->fe_mul(s.x, a.x, a.zzz);
	f->fe_mul(s.y, a.y, a.zz);
	f->fe_mul(s.zz, a.zz, a.zzz);
	scale(f, out->x, s.x, e);
	scale(f, out->y, s.y, e);
	scale(f, out->z, s.zz, e);
	vg_wipe(&a, sizeof(a));
	vg_wipe(&s, sizeof(s));
	vg_wipe(qx, sizeof(qx));
	vg_wipe(qy, sizeof(qy));
	vg_wipe(ny, sizeof(ny));
}

void vg_p256mb_comb_c(vg_ec_point r[VG_EC_MB_LANES], const uint64_t *table, const int8_t *d)
{
	for (size_t l = 0; l < VG_EC_MB_LANES; l++)
		comb_lane(&vg_ec_p256_impls[0], &r[l], table, d, l, vg_p256_curve.comb5_rows,
			  VG_EC_COMB5_ENTRIES, 4);
}

void vg_p384mb_comb_c(vg_ec_point r[VG_EC_MB_LANES], const uint64_t *table, const int8_t *d)
{
	for (size_t l = 0; l < VG_EC_MB_LANES; l++)
		comb_lane(&vg_ec_p384_impls[0], &r[l], table, d, l, vg_p384_curve.comb_rows,
			  VG_EC_COMB_ENTRIES, 0);
}

#if VG_HAVE_ASM
/* The P-384 assembly's radix-2^52 limb vectors (each value below 2p) to
 * each lane's six words reduced mod p: one masked subtraction of p. */
void vg_p384mb_comb_ifma_pts(vg_ec_point r[VG_EC_MB_LANES], const uint64_t *table,
			     const int8_t *d)
{
	_Alignas(64) uint64_t out[3 * 8 * VG_EC_MB_LANES];
	const uint64_t *p = vg_p384_curve.p.m;
	uint64_t w[7], t[6];

	vg_p384mb_comb_ifma(out, table, d);
	for (size_t l = 0; l < VG_EC_MB_LANES; l++)
		for (size_t c = 0; c < 3; c++) {
			const uint64_t *e = out + 64 * c + l;
			uint64_t *dst = c == 0 ? r[l].x : c == 1 ? r[l].y : r[l].z;
			vg_u128 acc = 0;
			size_t bit = 0, k = 0;
			for (size_t i = 0; i < 8; i++) { /* the limbs into 64-bit words */
				acc |= (vg_u128)e[8 * i] << bit;
				bit += 52;
				if (bit >= 64) {
					w[k++] = (uint64_t)acc;
					acc >>= 64;
					bit -= 64;
				}
			}
			w[k] = (uint64_t)acc; /* k == 6: bits 384.. (0 or 1) */
			uint64_t borrow = 0;
			for (size_t i = 0; i < 6; i++) {
				vg_u128 z = (vg_u128)w[i] - p[i] - borrow;
				t[i] = (uint64_t)z;
				borrow = (uint64_t)(z >> 64) & 1;
			}
			/* keep w - p unless it borrowed past the seventh word */
			uint64_t keep = vg_ct_barrier(vg_ct_mask((borrow ^ 1) | w[6]));
			for (size_t i = 0; i < 6; i++)
				dst[i] = (t[i] & keep) | (w[i] & ~keep);
		}
	vg_wipe(out, sizeof(out));
	vg_wipe(w, sizeof(w));
	vg_wipe(t, sizeof(t));
}
#endif

const struct vg_ec_mb_impl vg_ec_p256_mb_impls[] = {
	{.v = {"c", 0}, .curve = &vg_p256_curve, .comb = vg_p256mb_comb_c},
#if VG_HAVE_ASM
	{.v = {"ifma", VG_TIER_IFMA}, .curve = &vg_p256_curve, .comb = vg_p256mb_comb_ifma},
#endif
};

const size_t vg_ec_p256_mb_nimpls = sizeof(vg_ec_p256_mb_impls) / sizeof(vg_ec_p256_mb_impls[0]);

const struct vg_ec_mb_impl vg_ec_p384_mb_impls[] = {
	{.v = {"c", 0}, .curve = &vg_p384_curve, .comb = vg_p384mb_comb_c},
#if VG_HAVE_ASM
	{.v = {"ifma", VG_TIER_IFMA}, .curve = &vg_p384_curve, .comb = vg_p384mb_comb_ifma_pts},
#endif
};

const size_t vg_ec_p384_mb_nimpls = sizeof(vg_ec_p384_mb_impls) / sizeof(vg_ec_p384_mb_impls[0]);
