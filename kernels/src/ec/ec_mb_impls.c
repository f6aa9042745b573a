/* ec_mb_impls.c: the ec_p256_mb family's table (ec_mb.h) and its portable
 * reference: the batched comb lane by lane, on the P-256 C row's field
 * arithmetic, with the assembly's formulas in the assembly's order so
 * that both give the same bits. Secret: every digit, selected entry and
 * point; each row's entries are all read and one kept under a mask, the
 * identity and the sign are masks. */
#include <string.h>

#include "ct.h"
#include "ec/ec_mb.h"
#include "vg/cpu.h"
#include "vg/wipe.h"
#include "vg_config.h"

#define N 4 /* P-256 limbs */

/* XYZZ accumulator of one lane (x = X/ZZ, y = Y/ZZZ). */
struct xyzz {
	uint64_t x[N], y[N], zz[N], zzz[N];
};

/* r = 16 a mod p: the assembly's R = 2^260 values read as R = 2^256. */
static void times16(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	f->fe_add(r, a, a);
	for (int i = 0; i < 3; i++)
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

static void comb_lane(const struct vg_ec_impl *f, vg_ec_point *out, const uint64_t *table,
		      const int8_t *d, size_t l)
{
	const struct vg_ec_curve *c = f->curve;
	static const uint64_t zero[N];
	struct xyzz a, s;
	uint64_t qx[N], qy[N], ny[N], inf = 1;

	memset(&a, 0, sizeof(a));

	for (size_t i = 0; i < c->comb5_rows; i++) {
		int64_t di = d[VG_EC_MB_LANES * i + l];
		uint64_t neg = (uint64_t)di >> 63;
		uint64_t mag = ((uint64_t)di ^ vg_ct_mask(neg)) + neg; /* |d| */
		const uint64_t *row = table + i * VG_EC_COMB5_ENTRIES * 2 * N;
		for (size_t k = 0; k < N; k++)
			qx[k] = qy[k] = 0;
		for (uint64_t j = 0; j < VG_EC_COMB5_ENTRIES; j++) {
			uint64_t m = vg_ct_barrier(vg_ct_mask(vg_ct_eq(mag, j + 1)));
			for (size_t k = 0; k < N; k++) {
				qx[k] |= row[2 * N * j + k] & m;
				qy[k] |= row[2 * N * j + N + k] & m;
			}
		}
		f->fe_sub(ny, zero, qy);
		vg_ec_cmov(qy, ny, N, neg);
		madd(f, &s, &a, qx, qy);
		uint64_t nz = vg_ct_nonzero(mag);
		uint64_t take_sum = nz & (inf ^ 1), take_q = nz & inf;
		vg_ec_cmov(a.x, s.x, N, take_sum);
		vg_ec_cmov(a.y, s.y, N, take_sum);
		vg_ec_cmov(a.zz, s.zz, N, take_sum);
		vg_ec_cmov(a.zzz, s.zzz, N, take_sum);
		vg_ec_cmov(a.x, qx, N, take_q);
		vg_ec_cmov(a.y, qy, N, take_q);
		vg_ec_cmov(a.zz, c->p.one, N, take_q);
		vg_ec_cmov(a.zzz, c->p.one, N, take_q);
		inf &= nz ^ 1;
	}
	f->fe_mul(s.x, a.x, a.zzz);
	f->fe_mul(s.y, a.y, a.zz);
	f->fe_mul(s.zz, a.zz, a.zzz);
	times16(f, out->x, s.x);
	times16(f, out->y, s.y);
	times16(f, out->z, s.zz);
	vg_wipe(&a, sizeof(a));
	vg_wipe(&s, sizeof(s));
	vg_wipe(qx, sizeof(qx));
	vg_wipe(qy, sizeof(qy));
	vg_wipe(ny, sizeof(ny));
}

void vg_p256mb_comb_c(vg_ec_point r[VG_EC_MB_LANES], const uint64_t *table, const int8_t *d)
{
	for (size_t l = 0; l < VG_EC_MB_LANES; l++)
		comb_lane(&vg_ec_p256_impls[0], &r[l], table, d, l);
}

const struct vg_ec_mb_impl vg_ec_p256_mb_impls[] = {
	{.v = {"c", 0}, .curve = &vg_p256_curve, .comb = vg_p256mb_comb_c},
#if VG_HAVE_ASM
	{.v = {"ifma", VG_TIER_IFMA}, .curve = &vg_p256_curve, .comb = vg_p256mb_comb_ifma},
#endif
};

const size_t vg_ec_p256_mb_nimpls = sizeof(vg_ec_p256_mb_impls) / sizeof(vg_ec_p256_mb_impls[0]);
