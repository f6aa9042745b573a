/* ge.c: Ed25519 point formulas (HWCD 2008 extended coordinates, a = -1),
 * conversions, encoding and strict decoding. Secret: the points given to
 * the formulas and to the encoders, which are straight-line code over the
 * constant-time field operations; vg_ge_frombytes handles public encodings
 * and returns early on rejection. */
#include "ge.h"

#include <string.h>

#include "vg/wipe.h"

void vg_ge_p2_identity(vg_ge_p2 *h)
{
	vg_fe_0(&h->X);
	vg_fe_1(&h->Y);
	vg_fe_1(&h->Z);
}

void vg_ge_p3_identity(vg_ge_p3 *h)
{
	vg_fe_0(&h->X);
	vg_fe_1(&h->Y);
	vg_fe_1(&h->Z);
	vg_fe_0(&h->T);
}

void vg_ge_niels_identity(vg_ge_niels *h)
{
	vg_fe_1(&h->ypx); /* y + x = 1 */
	vg_fe_1(&h->ymx); /* y - x = 1 */
	vg_fe_0(&h->xy2d);
}

void vg_ge_p3_to_cached(vg_ge_cached *r, const vg_ge_p3 *p)
{
	vg_fe_add(&r->ypx, &p->Y, &p->X);
	vg_fe_sub(&r->ymx, &p->Y, &p->X);
	r->z = p->Z;
	vg_fe_mul(&r->t2d, &p->T, &vg_fe_d2);
}

void vg_ge_p3_to_niels(vg_ge_niels *r, const vg_ge_p3 *p)
{
	vg_fe zi, x, y;

	vg_fe_invert(&zi, &p->Z);
	vg_fe_mul(&x, &p->X, &zi);
	vg_fe_mul(&y, &p->Y, &zi);
	vg_fe_add(&r->ypx, &y, &x);
	vg_fe_sub(&r->ymx, &y, &x);
	vg_fe_mul(&r->xy2d, &x, &y);
	vg_fe_mul(&r->xy2d, &r->xy2d, &vg_fe_d2);
	vg_wipe(&zi, sizeof(zi));
	vg_wipe(&x, sizeof(x));
	vg_wipe(&y, sizeof(y));
}

void vg_ge_completed_to_p2(vg_ge_p2 *r, const vg_ge_completed *p)
{
	vg_fe_mul(&r->X, &p->E, &p->F); /* X3 = E*F */
	vg_fe_mul(&r->Y, &p->G, &p->H); /* Y3 = G*H */
	vg_fe_mul(&r->Z, &p->F, &p->G); /* Z3 = F*G */
}

void vg_ge_completed_to_p3(vg_ge_p3 *r, const vg_ge_completed *p)
{
	vg_fe_mul(&r->X, &p->E, &p->F); /* X3 = E*F */
	vg_fe_mul(&r->Y, &p->G, &p->H); /* Y3 = G*H */
	vg_fe_mul(&r->Z, &p->F, &p->G); /* Z3 = F*G */
	vg_fe_mul(&r->T, &p->E, &p->H); /* T3 = E*H */
}

/* dbl-2008-hwcd with a = -1; T is not read, so p2 and p3 share it. */
static void dbl(vg_ge_completed *r, const vg_fe *X, const vg_fe *Y, const vg_fe *Z)
{
	vg_fe a, b, c, t;

	vg_fe_sq(&a, X);               /* A = X1^2 */
	vg_fe_sq(&b, Y);               /* B = Y1^2 */
	vg_fe_sq(&c, Z);
	vg_fe_add(&c, &c, &c);         /* C = 2*Z1^2 */
	vg_fe_add(&t, X, Y);
	vg_fe_sq(&t, &t);              /* (X1 + Y1)^2 */
	vg_fe_add(&r->H, &a, &b);      /* A + B */
	vg_fe_sub(&r->E, &t, &r->H);   /* E = (X1 + Y1)^2 - A - B */
	vg_fe_sub(&r->G, &b, &a);      /* G = a*A + B = B - A */
	vg_fe_sub(&r->F, &r->G, &c);   /* F = G - C */
	vg_fe_neg(&r->H, &r->H);       /* H = a*A - B = -A - B */
}

void vg_ge_p2_dbl(vg_ge_completed *r, const vg_ge_p2 *p) { dbl(r, &p->X, &p->Y, &p->Z); }

void vg_ge_p3_dbl(vg_ge_completed *r, const vg_ge_p3 *p) { dbl(r, &p->X, &p->Y, &p->Z); }

/* add-2008-hwcd-3 (a = -1, k = 2d) with the second point cached. */
void vg_ge_add_cached(vg_ge_completed *r, const vg_ge_p3 *p, const vg_ge_cached *q)
{
	vg_fe a, b, c, d;

	vg_fe_sub(&a, &p->Y, &p->X);
	vg_fe_mul(&a, &a, &q->ymx);     /* A = (Y1 - X1)*(Y2 - X2) */
	vg_fe_add(&b, &p->Y, &p->X);
	vg_fe_mul(&b, &b, &q->ypx);     /* B = (Y1 + X1)*(Y2 + X2) */
	vg_fe_mul(&c, &p->T, &q->t2d);  /* C = T1*2d*T2 */
	vg_fe_mul(&d, &p->Z, &q->z);
	vg_fe_add(&d, &d, &d);          /* D = 2*Z1*Z2 */
	vg_fe_sub(&r->E, &b, &a);       /* E = B - A */
	vg_fe_sub(&r->F, &d, &c);       /* F = D - C */
	vg_fe_add(&r->G, &d, &c);       /* G = D + C */
	vg_fe_add(&r->H, &b, &a);       /* H = B + A */
}

/* The same with Z2 = 1 (madd-2008-hwcd-3): D = 2*Z1, one product fewer. */
void vg_ge_add_niels(vg_ge_completed *r, const vg_ge_p3 *p, const vg_ge_niels *q)
{
	vg_fe a, b, c, d;

	vg_fe_sub(&a, &p->Y, &p->X);
	vg_fe_mul(&a, &a, &q->ymx);     /* A = (Y1 - X1)*(y2 - x2) */
	vg_fe_add(&b, &p->Y, &p->X);
	vg_fe_mul(&b, &b, &q->ypx);     /* B = (Y1 + X1)*(y2 + x2) */
	vg_fe_mul(&c, &p->T, &q->xy2d); /* C = T1*2d*x2*y2 */
	vg_fe_add(&d, &p->Z, &p->Z);    /* D = 2*Z1 */
	vg_fe_sub(&r->E, &b, &a);       /* E = B - A */
	vg_fe_sub(&r->F, &d, &c);       /* F = D - C */
	vg_fe_add(&r->G, &d, &c);       /* G = D + C */
	vg_fe_add(&r->H, &b, &a);       /* H = B + A */
}

void vg_ge_cached_neg(vg_ge_cached *r, const vg_ge_cached *q)
{
	vg_fe ypx = q->ypx;

	r->ypx = q->ymx;
	r->ymx = ypx;
	r->z = q->z;
	vg_fe_neg(&r->t2d, &q->t2d);
}

void vg_ge_niels_cneg(vg_ge_niels *q, uint64_t ctl)
{
	vg_fe minus;

	vg_fe_cswap(&q->ypx, &q->ymx, ctl);
	vg_fe_neg(&minus, &q->xy2d);
	vg_fe_cmov(&q->xy2d, &minus, ctl);
}

void vg_ge_p3_neg(vg_ge_p3 *r, const vg_ge_p3 *p)
{
	vg_fe_neg(&r->X, &p->X);
	r->Y = p->Y;
	r->Z = p->Z;
	vg_fe_neg(&r->T, &p->T);
}

static void encode(uint8_t s[32], const vg_fe *X, const vg_fe *Y, const vg_fe *Z)
{
	vg_fe zi, x, y;

	vg_fe_invert(&zi, Z);
	vg_fe_mul(&x, X, &zi);
	vg_fe_mul(&y, Y, &zi);
	vg_fe_tobytes(s, &y); /* bit 255 is clear: y < p */
	s[31] |= (uint8_t)(vg_fe_isnegative(&x) << 7);
	vg_wipe(&zi, sizeof(zi));
	vg_wipe(&x, sizeof(x));
	vg_wipe(&y, sizeof(y));
}

void vg_ge_p2_tobytes(uint8_t s[32], const vg_ge_p2 *p) { encode(s, &p->X, &p->Y, &p->Z); }

void vg_ge_p3_tobytes(uint8_t s[32], const vg_ge_p3 *p) { encode(s, &p->X, &p->Y, &p->Z); }

int vg_ge_frombytes(vg_ge_p3 *h, const uint8_t s[32])
{
	vg_fe u, v, v3, vxx, t;
	uint8_t y_enc[32];
	unsigned sign = s[31] >> 7;

	/* 1. y must be canonical: the 255-bit value below p. Re-encoding the
	 * decoded y reproduces the low 255 bits exactly when it is. */
	vg_fe_frombytes(&h->Y, s);
	vg_fe_tobytes(y_enc, &h->Y);
	y_enc[31] |= (uint8_t)(sign << 7);
	if (memcmp(y_enc, s, 32) != 0)
		return -1;

	/* 2. x^2 = u/v with u = y^2 - 1, v = d*y^2 + 1 (v != 0 because -1/d
	 * is not a square). Candidate root x = u*v^3 * (u*v^7)^((p-5)/8). */
	vg_fe_1(&h->Z);
	vg_fe_sq(&u, &h->Y);
	vg_fe_mul(&v, &u, &vg_fe_d);
	vg_fe_sub(&u, &u, &h->Z);  /* u = y^2 - 1 */
	vg_fe_add(&v, &v, &h->Z);  /* v = d*y^2 + 1 */
	vg_fe_sq(&v3, &v);
	vg_fe_mul(&v3, &v3, &v);   /* v^3 */
	vg_fe_sq(&t, &v3);
	vg_fe_mul(&t, &t, &v);
	vg_fe_mul(&t, &t, &u);     /* u*v^7 */
	vg_fe_pow22523(&t, &t);    /* (u*v^7)^((p-5)/8) */
	vg_fe_mul(&t, &t, &v3);
	vg_fe_mul(&h->X, &t, &u);  /* x = u*v^3*(u*v^7)^((p-5)/8) */

	/* 3. v*x^2 is u (x is a root), -u (sqrt(-1)*x is), or neither (u/v
	 * is not a square: reject). */
	vg_fe_sq(&vxx, &h->X);
	vg_fe_mul(&vxx, &vxx, &v);
	if (!vg_fe_eq(&vxx, &u)) {
		vg_fe_neg(&t, &u);
		if (!vg_fe_eq(&vxx, &t))
			return -1;
		vg_fe_mul(&h->X, &h->X, &vg_fe_sqrtm1);
	}

	/* 4. Pick the root whose parity is the sign bit; x = 0 has no
	 * negative twin, so a set sign bit there is a non-canonical encoding. */
	if (vg_fe_iszero(&h->X) && sign)
		return -1;
	if (vg_fe_isnegative(&h->X) != sign)
		vg_fe_neg(&h->X, &h->X);
	vg_fe_mul(&h->T, &h->X, &h->Y);
	return 0;
}
