/* c25519_ifma.c: the ifma row (AVX-512F/VL + IFMA) of the Ed25519/X25519
 * hot operations: X25519 on the 4-lane ladder of x25519_ifma.asm, the
 * fixed-base comb (key pairs, signing, X25519 of the base point) on the
 * 4-lane point formulas of ge52_ifma.asm, verification's double
 * multiplication on the same formulas one by one (ge52_ops_ifma.asm);
 * inversion and the A multiples are the adx tier's (the tier's features
 * include ADX). Secret: as in c25519_tier.inc. */
#define VARIANT ifma
#define TIER adx
#define LADDER vg_x25519_ladder_ifma
#define COMB vg_ge4_comb_ifma
#define COMB_TABLE vg_ge52_base_comb
#define OWN_DSM
#include "c25519_tier.inc"

/* d = (Y - X, Y + X, 2d T, 2Z) of the cached point c, or of -c */
static void put_cached(vg_ge52_niels *d, const vg_ge4_cached *c, int neg)
{
	vg_fe4 t, zero = {{0, 0, 0, 0}};
	vg_ge52_put(d->v, neg ? 1 : 0, &c->ymx);
	vg_ge52_put(d->v, neg ? 0 : 1, &c->ypx);
	if (neg)
		SUB(&t, &zero, &c->t2d);
	else
		t = c->t2d;
	vg_ge52_put(d->v, 2, &t);
	ADD(&t, &c->z, &c->z);
	vg_ge52_put(d->v, 3, &t);
}

/* VERIFICATION ONLY, VARIABLE TIME (public a, A, b): the encoding of
 * [a]A + [b]B, the wNAF Straus loop of ge_vartime.c with the state in
 * the 4 lanes. a[31] <= 127, b[31] <= 127. */
void DSM_ENCODE(uint8_t out[32], const uint8_t a[32], const vg_ge_p3 *A, const uint8_t b[32])
{
	const vg_ge52_niels *bodd = vg_ge52_base_odd();
	int8_t anaf[256], bnaf[256];
	vg_ge52_niels ai[16]; /* (2j + 1) A, then their negations */
	vg_ge4_p3 u, a2;
	vg_ge4_cached c, a2c;
	vg_fe4 d2;

	vg_ge_wnaf(anaf, a, 5);
	vg_ge_wnaf(bnaf, b, 8);
	vg_fe4_from_fe(&d2, &vg_fe_d2);
	vg_fe4_from_fe(&u.X, &A->X);
	vg_fe4_from_fe(&u.Y, &A->Y);
	vg_fe4_from_fe(&u.Z, &A->Z);
	vg_fe4_from_fe(&u.T, &A->T);
	a2 = u;
	GE_DBL(&a2);
	ADD(&a2c.ypx, &a2.Y, &a2.X);
	SUB(&a2c.ymx, &a2.Y, &a2.X);
	a2c.z = a2.Z;
	MUL(&a2c.t2d, &a2.T, &d2);
	for (unsigned j = 0; j < 8; j++) {
		if (j > 0)
			GE_ADD(&u, &a2c);
		ADD(&c.ypx, &u.Y, &u.X);
		SUB(&c.ymx, &u.Y, &u.X);
		c.z = u.Z;
		MUL(&c.t2d, &u.T, &d2);
		put_cached(&ai[j], &c, 0);
		put_cached(&ai[8 + j], &c, 1);
	}

	vg_ge52_p3 r;
	memset(&r, 0, sizeof(r));
	r.v[0][1] = 1; /* (0 : 1 : 1 : 0) */
	r.v[0][2] = 1;
	int i = 255;
	while (i >= 0 && anaf[i] == 0 && bnaf[i] == 0)
		i--;
	for (; i >= 0; i--) {
		vg_ge52_dbl_ifma(&r);
		if (anaf[i] > 0)
			vg_ge52_add_ifma(&r, &ai[anaf[i] / 2]);
		else if (anaf[i] < 0)
			vg_ge52_add_ifma(&r, &ai[8 + -anaf[i] / 2]);
		if (bnaf[i] > 0)
			vg_ge52_add_ifma(&r, &bodd[bnaf[i] / 2]);
		else if (bnaf[i] < 0)
			vg_ge52_add_ifma(&r, &bodd[64 + -bnaf[i] / 2]);
	}

	vg_fe4 zi, x, y, z;
	uint8_t xs[32];
	vg_ge52_get(&x, r.v, 0);
	vg_ge52_get(&y, r.v, 1);
	vg_ge52_get(&z, r.v, 2);
	invert(&zi, &z);
	MUL(&x, &x, &zi);
	MUL(&y, &y, &zi);
	vg_fe4_tobytes(out, &y);
	vg_fe4_tobytes(xs, &x);
	out[31] |= (uint8_t)((xs[0] & 1) << 7);
}
