/* ec_point.c: projective point formulas on y^2 = x^3 - 3x + b, affine
 * conversion, the curve equation, and the SEC1 uncompressed encoding.
 * Constant time except vg_ec_point_decode (public keys only): every
 * coordinate may be secret (the points of k G while signing).
 *
 * Formulas: Renes, Costello, Batina, "Complete addition formulas for
 * prime order elliptic curves" (EUROCRYPT 2016, ePrint 2015/1060),
 * Algorithms 4, 5 and 6 (a = -3). Each line below is one line of the
 * paper's algorithm, numbered as there. They are complete: correct for
 * P = Q, P = -Q and the identity, with no branch (Algorithm 5 excepts only
 * an affine second operand equal to the identity, which has no affine
 * form). */
#include "ec/ec.h"
#include "vg/error.h"
#include "vg/wipe.h"

/* Local shorthands over the row's field operations (f in scope). */
#define MUL(r, a, b) f->fe_mul((r), (a), (b))
#define ADD(r, a, b) f->fe_add((r), (a), (b))
#define SUB(r, a, b) f->fe_sub((r), (a), (b))

/* The temporaries of one formula, in one block so one wipe clears them,
 * and their names as in the paper. */
struct tmp {
	uint64_t t[5][VG_EC_MAX_LIMBS];
	uint64_t X3[VG_EC_MAX_LIMBS], Y3[VG_EC_MAX_LIMBS], Z3[VG_EC_MAX_LIMBS];
};
#define TMP_NAMES(v)                                                             \
	uint64_t *t0 = (v).t[0], *t1 = (v).t[1], *t2 = (v).t[2], *t3 = (v).t[3]; \
	uint64_t *t4 = (v).t[4], *X3 = (v).X3, *Y3 = (v).Y3, *Z3 = (v).Z3;       \
	(void)t4

void vg_ec_point_identity(const struct vg_ec_impl *f, vg_ec_point *r)
{
	const struct vg_ec_curve *c = f->curve;
	for (size_t i = 0; i < VG_EC_MAX_LIMBS; i++)
		r->x[i] = r->y[i] = r->z[i] = 0;
	vg_ec_copy(r->y, c->p.one, c->limbs);
}

void vg_ec_point_from_affine(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *x,
			     const uint64_t *y)
{
	const struct vg_ec_curve *c = f->curve;
	for (size_t i = 0; i < VG_EC_MAX_LIMBS; i++)
		r->x[i] = r->y[i] = r->z[i] = 0;
	vg_ec_copy(r->x, x, c->limbs);
	vg_ec_copy(r->y, y, c->limbs);
	vg_ec_copy(r->z, c->p.one, c->limbs);
}

void vg_ec_point_cmov(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *p,
		      uint64_t ctl)
{
	size_t n = f->curve->limbs;
	vg_ec_cmov(r->x, p->x, n, ctl);
	vg_ec_cmov(r->y, p->y, n, ctl);
	vg_ec_cmov(r->z, p->z, n, ctl);
}

void vg_ec_point_add(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *P,
		     const vg_ec_point *Q)
{
	const uint64_t *b = f->curve->b;
	size_t n = f->curve->limbs;
	const uint64_t *X1 = P->x, *Y1 = P->y, *Z1 = P->z, *X2 = Q->x, *Y2 = Q->y, *Z2 = Q->z;
	struct tmp v;
	TMP_NAMES(v);

	MUL(t0, X1, X2); /*  1. t0 = X1 X2 */
	MUL(t1, Y1, Y2); /*  2. t1 = Y1 Y2 */
	MUL(t2, Z1, Z2); /*  3. t2 = Z1 Z2 */
	ADD(t3, X1, Y1); /*  4. t3 = X1 + Y1 */
	ADD(t4, X2, Y2); /*  5. t4 = X2 + Y2 */
	MUL(t3, t3, t4); /*  6. t3 = t3 t4 */
	ADD(t4, t0, t1); /*  7. t4 = t0 + t1 */
	SUB(t3, t3, t4); /*  8. t3 = t3 - t4 */
	ADD(t4, Y1, Z1); /*  9. t4 = Y1 + Z1 */
	ADD(X3, Y2, Z2); /* 10. X3 = Y2 + Z2 */
	MUL(t4, t4, X3); /* 11. t4 = t4 X3 */
	ADD(X3, t1, t2); /* 12. X3 = t1 + t2 */
	SUB(t4, t4, X3); /* 13. t4 = t4 - X3 */
	ADD(X3, X1, Z1); /* 14. X3 = X1 + Z1 */
	ADD(Y3, X2, Z2); /* 15. Y3 = X2 + Z2 */
	MUL(X3, X3, Y3); /* 16. X3 = X3 Y3 */
	ADD(Y3, t0, t2); /* 17. Y3 = t0 + t2 */
	SUB(Y3, X3, Y3); /* 18. Y3 = X3 - Y3 */
	MUL(Z3, b, t2);  /* 19. Z3 = b t2 */
	SUB(X3, Y3, Z3); /* 20. X3 = Y3 - Z3 */
	ADD(Z3, X3, X3); /* 21. Z3 = X3 + X3 */
	ADD(X3, X3, Z3); /* 22. X3 = X3 + Z3 */
	SUB(Z3, t1, X3); /* 23. Z3 = t1 - X3 */
	ADD(X3, t1, X3); /* 24. X3 = t1 + X3 */
	MUL(Y3, b, Y3);  /* 25. Y3 = b Y3 */
	ADD(t1, t2, t2); /* 26. t1 = t2 + t2 */
	ADD(t2, t1, t2); /* 27. t2 = t1 + t2 */
	SUB(Y3, Y3, t2); /* 28. Y3 = Y3 - t2 */
	SUB(Y3, Y3, t0); /* 29. Y3 = Y3 - t0 */
	ADD(t1, Y3, Y3); /* 30. t1 = Y3 + Y3 */
	ADD(Y3, t1, Y3); /* 31. Y3 = t1 + Y3 */
	ADD(t1, t0, t0); /* 32. t1 = t0 + t0 */
	ADD(t0, t1, t0); /* 33. t0 = t1 + t0 */
	SUB(t0, t0, t2); /* 34. t0 = t0 - t2 */
	MUL(t1, t4, Y3); /* 35. t1 = t4 Y3 */
	MUL(t2, t0, Y3); /* 36. t2 = t0 Y3 */
	MUL(Y3, X3, Z3); /* 37. Y3 = X3 Z3 */
	ADD(Y3, Y3, t2); /* 38. Y3 = Y3 + t2 */
	MUL(X3, t3, X3); /* 39. X3 = t3 X3 */
	SUB(X3, X3, t1); /* 40. X3 = X3 - t1 */
	MUL(Z3, t4, Z3); /* 41. Z3 = t4 Z3 */
	MUL(t1, t3, t0); /* 42. t1 = t3 t0 */
	ADD(Z3, Z3, t1); /* 43. Z3 = Z3 + t1 */

	vg_ec_copy(r->x, X3, n);
	vg_ec_copy(r->y, Y3, n);
	vg_ec_copy(r->z, Z3, n);
	vg_wipe(&v, sizeof(v));
}

void vg_ec_point_madd(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *P,
		      const uint64_t *X2, const uint64_t *Y2)
{
	const uint64_t *b = f->curve->b;
	size_t n = f->curve->limbs;
	const uint64_t *X1 = P->x, *Y1 = P->y, *Z1 = P->z;
	struct tmp v;
	TMP_NAMES(v);

	MUL(t0, X1, X2); /*  1. t0 = X1 X2 */
	MUL(t1, Y1, Y2); /*  2. t1 = Y1 Y2 */
	ADD(t3, X2, Y2); /*  3. t3 = X2 + Y2 */
	ADD(t4, X1, Y1); /*  4. t4 = X1 + Y1 */
	MUL(t3, t3, t4); /*  5. t3 = t3 t4 */
	ADD(t4, t0, t1); /*  6. t4 = t0 + t1 */
	SUB(t3, t3, t4); /*  7. t3 = t3 - t4 */
	MUL(t4, Y2, Z1); /*  8. t4 = Y2 Z1 */
	ADD(t4, t4, Y1); /*  9. t4 = t4 + Y1 */
	MUL(Y3, X2, Z1); /* 10. Y3 = X2 Z1 */
	ADD(Y3, Y3, X1); /* 11. Y3 = Y3 + X1 */
	MUL(Z3, b, Z1);  /* 12. Z3 = b Z1 */
	SUB(X3, Y3, Z3); /* 13. X3 = Y3 - Z3 */
	ADD(Z3, X3, X3); /* 14. Z3 = X3 + X3 */
	ADD(X3, X3, Z3); /* 15. X3 = X3 + Z3 */
	SUB(Z3, t1, X3); /* 16. Z3 = t1 - X3 */
	ADD(X3, t1, X3); /* 17. X3 = t1 + X3 */
	MUL(Y3, b, Y3);  /* 18. Y3 = b Y3 */
	ADD(t1, Z1, Z1); /* 19. t1 = Z1 + Z1 */
	ADD(t2, t1, Z1); /* 20. t2 = t1 + Z1 */
	SUB(Y3, Y3, t2); /* 21. Y3 = Y3 - t2 */
	SUB(Y3, Y3, t0); /* 22. Y3 = Y3 - t0 */
	ADD(t1, Y3, Y3); /* 23. t1 = Y3 + Y3 */
	ADD(Y3, t1, Y3); /* 24. Y3 = t1 + Y3 */
	ADD(t1, t0, t0); /* 25. t1 = t0 + t0 */
	ADD(t0, t1, t0); /* 26. t0 = t1 + t0 */
	SUB(t0, t0, t2); /* 27. t0 = t0 - t2 */
	MUL(t1, t4, Y3); /* 28. t1 = t4 Y3 */
	MUL(t2, t0, Y3); /* 29. t2 = t0 Y3 */
	MUL(Y3, X3, Z3); /* 30. Y3 = X3 Z3 */
	ADD(Y3, Y3, t2); /* 31. Y3 = Y3 + t2 */
	MUL(X3, t3, X3); /* 32. X3 = t3 X3 */
	SUB(X3, X3, t1); /* 33. X3 = X3 - t1 */
	MUL(Z3, t4, Z3); /* 34. Z3 = t4 Z3 */
	MUL(t1, t3, t0); /* 35. t1 = t3 t0 */
	ADD(Z3, Z3, t1); /* 36. Z3 = Z3 + t1 */

	vg_ec_copy(r->x, X3, n);
	vg_ec_copy(r->y, Y3, n);
	vg_ec_copy(r->z, Z3, n);
	vg_wipe(&v, sizeof(v));
}

void vg_ec_point_dbl(const struct vg_ec_impl *f, vg_ec_point *r, const vg_ec_point *P)
{
	const uint64_t *b = f->curve->b;
	size_t n = f->curve->limbs;
	const uint64_t *X = P->x, *Y = P->y, *Z = P->z;
	struct tmp v;
	TMP_NAMES(v);

	f->fe_sqr(t0, X); /*  1. t0 = X^2 */
	f->fe_sqr(t1, Y); /*  2. t1 = Y^2 */
	f->fe_sqr(t2, Z); /*  3. t2 = Z^2 */
	MUL(t3, X, Y);    /*  4. t3 = X Y */
	ADD(t3, t3, t3);  /*  5. t3 = t3 + t3 */
	MUL(Z3, X, Z);    /*  6. Z3 = X Z */
	ADD(Z3, Z3, Z3);  /*  7. Z3 = Z3 + Z3 */
	MUL(Y3, b, t2);   /*  8. Y3 = b t2 */
	SUB(Y3, Y3, Z3);  /*  9. Y3 = Y3 - Z3 */
	ADD(X3, Y3, Y3);  /* 10. X3 = Y3 + Y3 */
	ADD(Y3, X3, Y3);  /* 11. Y3 = X3 + Y3 */
	SUB(X3, t1, Y3);  /* 12. X3 = t1 - Y3 */
	ADD(Y3, t1, Y3);  /* 13. Y3 = t1 + Y3 */
	MUL(Y3, X3, Y3);  /* 14. Y3 = X3 Y3 */
	MUL(X3, X3, t3);  /* 15. X3 = X3 t3 */
	ADD(t3, t2, t2);  /* 16. t3 = t2 + t2 */
	ADD(t2, t2, t3);  /* 17. t2 = t2 + t3 */
	MUL(Z3, b, Z3);   /* 18. Z3 = b Z3 */
	SUB(Z3, Z3, t2);  /* 19. Z3 = Z3 - t2 */
	SUB(Z3, Z3, t0);  /* 20. Z3 = Z3 - t0 */
	ADD(t3, Z3, Z3);  /* 21. t3 = Z3 + Z3 */
	ADD(Z3, Z3, t3);  /* 22. Z3 = Z3 + t3 */
	ADD(t3, t0, t0);  /* 23. t3 = t0 + t0 */
	ADD(t0, t3, t0);  /* 24. t0 = t3 + t0 */
	SUB(t0, t0, t2);  /* 25. t0 = t0 - t2 */
	MUL(t0, t0, Z3);  /* 26. t0 = t0 Z3 */
	ADD(Y3, Y3, t0);  /* 27. Y3 = Y3 + t0 */
	MUL(t0, Y, Z);    /* 28. t0 = Y Z */
	ADD(t0, t0, t0);  /* 29. t0 = t0 + t0 */
	MUL(Z3, t0, Z3);  /* 30. Z3 = t0 Z3 */
	SUB(X3, X3, Z3);  /* 31. X3 = X3 - Z3 */
	MUL(Z3, t0, t1);  /* 32. Z3 = t0 t1 */
	ADD(Z3, Z3, Z3);  /* 33. Z3 = Z3 + Z3 */
	ADD(Z3, Z3, Z3);  /* 34. Z3 = Z3 + Z3 */

	vg_ec_copy(r->x, X3, n);
	vg_ec_copy(r->y, Y3, n);
	vg_ec_copy(r->z, Z3, n);
	vg_wipe(&v, sizeof(v));
}

uint64_t vg_ec_point_to_affine(const struct vg_ec_impl *f, uint64_t *x, uint64_t *y,
			       const vg_ec_point *P)
{
	size_t n = f->curve->limbs;
	uint64_t zi[VG_EC_MAX_LIMBS];

	f->fe_inv(f, zi, P->z); /* Z = 0 (the identity) gives 0 */
	f->fe_mul(x, P->x, zi);
	f->fe_mul(y, P->y, zi);
	vg_wipe(zi, sizeof(zi));
	return vg_ec_iszero(P->z, n);
}

/* y^2 == x^3 - 3x + b, compared in constant time. */
uint64_t vg_ec_on_curve(const struct vg_ec_impl *f, const uint64_t *x, const uint64_t *y)
{
	size_t n = f->curve->limbs;
	uint64_t lhs[VG_EC_MAX_LIMBS], rhs[VG_EC_MAX_LIMBS], t[VG_EC_MAX_LIMBS];

	f->fe_sqr(lhs, y);            /* y^2 */
	f->fe_sqr(rhs, x);            /* x^2 */
	SUB(t, rhs, f->curve->p.one); /* x^2 - 1 ... */
	SUB(t, t, f->curve->p.one);
	SUB(t, t, f->curve->p.one); /* ... x^2 - 3 */
	MUL(rhs, t, x);             /* x^3 - 3x */
	ADD(rhs, rhs, f->curve->b); /* x^3 - 3x + b */
	uint64_t ok = vg_ec_eq(lhs, rhs, n);
	vg_wipe(lhs, sizeof(lhs));
	vg_wipe(rhs, sizeof(rhs));
	vg_wipe(t, sizeof(t));
	return ok;
}

int vg_ec_point_decode(const struct vg_ec_impl *f, uint64_t *x, uint64_t *y, const uint8_t *in,
		       size_t len)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	uint64_t ax[VG_EC_MAX_LIMBS], ay[VG_EC_MAX_LIMBS];

	/* Only the uncompressed form; the identity has no such encoding. */
	if (!in || len != 1 + 2 * c->bytes || in[0] != 0x04)
		return VG_E_KEY;
	vg_ec_from_bytes(ax, in + 1, n);
	vg_ec_from_bytes(ay, in + 1 + c->bytes, n);
	if (!vg_ec_lt(ax, c->p.m, n) || !vg_ec_lt(ay, c->p.m, n))
		return VG_E_KEY; /* non-canonical coordinate */
	vg_ec_fe_to_mont(f, x, ax);
	vg_ec_fe_to_mont(f, y, ay);
	if (!vg_ec_on_curve(f, x, y))
		return VG_E_KEY;
	return 0;
}

void vg_ec_point_encode(const struct vg_ec_impl *f, uint8_t *out, const uint64_t *x,
			const uint64_t *y)
{
	const struct vg_ec_curve *c = f->curve;
	uint64_t t[VG_EC_MAX_LIMBS];

	out[0] = 0x04;
	vg_ec_fe_from_mont(f, t, x);
	vg_ec_to_bytes(out + 1, t, c->limbs);
	vg_ec_fe_from_mont(f, t, y);
	vg_ec_to_bytes(out + 1 + c->bytes, t, c->limbs);
	vg_wipe(t, sizeof(t));
}
