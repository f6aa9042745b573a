/* checkasm_ec.c: the P-256/P-384 assembly and the SHA-NI compression
 * against their C references.
 *
 * The families' tables (vg_ec_p256_impls, vg_ec_p384_impls, ec.h): every
 * row the CPU can run, each slot against the same slot of row 0, the C
 * reference (a slot already checked in an earlier row is not checked
 * again): the field and scalar multiplies bit for bit on random operands
 * below R and on the edges 0, 1, m - 1, m, m + 1, p - 1, n - 1, 2^(64N-1)
 * and R - 1 (they take any value below R), into sentinel-guarded buffers
 * and in place over either operand; add and sub on reduced operands
 * (0, 1, p - 1, random); the inversions (one and two at once); the fixed-base multiplication on
 * random and edge scalars (0, 1, 2, n - 1, n, n + 1, R - 1, every comb
 * digit 64, every digit -63, and the same for 5-bit digits: 16, -15) and
 * the double multiplication, compared as
 * affine points.
 *
 * The asm functions outside the tables, by name per tier (base, adx, and
 * ifma's comb): the Jacobian doubling and additions against the C
 * projective formulas of row 0, on random points with random Z and on
 * P = Q, P = -Q (whose flags are checked too), and the comb (projective
 * out; P-256's ifma comb on 5-bit digits and comb5) on recoded scalars
 * against row 0's base_mul. Every asm call goes through the
 * harness's trampoline (callee-saved registers, stack alignment, the
 * direction flag). The divsteps inversion's parts (ec_inv.asm, shared by
 * every tier, checked at base; the ifma rows' fused batches at ifma):
 * the steps of one and two inversions against their C reference on edge and random words, random t and
 * step counts 1..62, and the matrix applications for p and n of both
 * curves on edge residues (0, 1, m - 1, m - 2), edge matrix rows
 * (|a| + |b| = 2^62) and random states, into a guarded buffer; the
 * fused batches (steps, pending d, e updates, f, g) on random states.
 *
 * The sha256 family: the SHA-NI compression against the C one on random
 * states and messages, 0 to 5 blocks, into a guarded state.
 *
 * Nothing secret: test data. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checkasm.h"
#include "ec/ec.h"
#include "ec/ec_asm.h"
#include "sha2/sha256_impl.h"

#define MAXN VG_EC_MAX_LIMBS

/* ---- operands ---- */

/* Edge operand k (0..8) for a modulus of n limbs (p and n the curve's),
 * or a random one below R for k >= 9; reduced ones only if `reduced`
 * (then from 0, 1, m - 1 and random below m). */
static void operand(uint64_t *v, const uint64_t *m, const struct vg_ec_curve *c, int k,
		    int reduced)
{
	size_t n = c->limbs;
	memset(v, 0, MAXN * 8);
	if (reduced) {
		k %= 4;
		if (k == 3) {
			do
				vg_checkasm_rand_bytes(v, n * 8);
			while (!vg_ec_lt(v, m, n));
			return;
		}
	}
	switch (k) {
	case 0: return;                    /* 0 */
	case 1: v[0] = 1; return;          /* 1 */
	case 2:                            /* m - 1 */
		memcpy(v, m, n * 8);
		v[0] -= 1;
		return;
	case 3: memcpy(v, m, n * 8); return; /* m */
	case 4:                             /* m + 1 (m odd: no carry) */
		memcpy(v, m, n * 8);
		v[0] += 1;
		return;
	case 5:
		memcpy(v, c->p.m, n * 8);
		v[0] -= 1;
		return;
	case 6:
		memcpy(v, c->n.m, n * 8);
		v[0] -= 1;
		return;
	case 7: v[n - 1] = (uint64_t)1 << 63; return;
	case 8: memset(v, 0xff, n * 8); return; /* R - 1 */
	default: vg_checkasm_rand_bytes(v, n * 8);
	}
}

/* ---- the table slots ---- */

/* r = a op b three ways: a guarded buffer, r = a, r = b. */
static int check_binop(vg_ec_mul_fn *fn, vg_ec_mul_fn *ref, const uint64_t *a, const uint64_t *b,
		       size_t n, int i)
{
	uint64_t want[MAXN], x[MAXN];
	uint8_t raw[VG_CHECKASM_OUT(MAXN * 8)];
	uint8_t *out = vg_checkasm_guard(raw, n * 8);

	ref(want, a, b);
	vg_checkasm_call(fn, (uint64_t *)(void *)out, a, b);
	if (!vg_checkasm_eq(out, want, n * 8, "i=%d", i) || !vg_checkasm_guard_ok(raw, n * 8))
		return 0;
	memcpy(x, a, n * 8);
	vg_checkasm_call(fn, x, x, b);
	if (!vg_checkasm_eq(x, want, n * 8, "i=%d (r = a)", i))
		return 0;
	memcpy(x, b, n * 8);
	vg_checkasm_call(fn, x, a, x);
	return vg_checkasm_eq(x, want, n * 8, "i=%d (r = b)", i);
}

/* Multiplies (any a, b < R; sqr when fn is a squaring: b = a) and
 * additions (reduced operands): every pair of edges, then random. */
static void check_arith(const struct vg_ec_curve *c, const uint64_t *m, vg_ec_mul_fn *fn,
			vg_ec_mul_fn *ref, vg_ec_sqr_fn *sfn, vg_ec_sqr_fn *sref, int reduced)
{
	size_t n = c->limbs;
	uint64_t a[MAXN], b[MAXN], want[MAXN], x[MAXN];
	int edges = reduced ? 4 : 9, iters = vg_checkasm_iters();

	for (int i = 0; i < edges * edges + iters; i++) {
		int ka = i < edges * edges ? i / edges : 9 + (int)(vg_checkasm_rand64() % 2) * 9;
		int kb = i < edges * edges ? i % edges : 9;
		operand(a, m, c, ka, reduced);
		operand(b, m, c, kb, reduced);
		if (i >= edges * edges && vg_checkasm_rand64() % 2 && !reduced)
			vg_ec_reduce_once(a, a, m, n); /* half the random ones reduced */
		if (fn) {
			if (!check_binop(fn, ref, a, b, n, i))
				return;
		} else {
			uint8_t raw[VG_CHECKASM_OUT(MAXN * 8)];
			uint8_t *out = vg_checkasm_guard(raw, n * 8);
			sref(want, a);
			vg_checkasm_call(sfn, (uint64_t *)(void *)out, a);
			if (!vg_checkasm_eq(out, want, n * 8, "i=%d", i) ||
			    !vg_checkasm_guard_ok(raw, n * 8))
				return;
			memcpy(x, a, n * 8);
			vg_checkasm_call(sfn, x, x);
			if (!vg_checkasm_eq(x, want, n * 8, "i=%d (in place)", i))
				return;
		}
	}
}

static void check_inv(const struct vg_ec_impl *f, const struct vg_ec_impl *c0, int scalar)
{
	const struct vg_ec_curve *c = f->curve;
	const uint64_t *m = scalar ? c->n.m : c->p.m;
	size_t n = c->limbs;
	uint64_t a[MAXN], got[MAXN], want[MAXN];
	int iters = vg_checkasm_iters() / 20;

	for (int i = 0; i < 4 + iters; i++) {
		operand(a, m, c, i < 4 ? i : 9, 1);
		(scalar ? c0->sc_inv : c0->fe_inv)(c0, want, a);
		(scalar ? f->sc_inv : f->fe_inv)(f, got, a);
		if (!vg_checkasm_eq(got, want, n * 8, "i=%d", i))
			return;
	}
}

/* inv2 (1/z mod p and 1/k mod n at once) against row 0's two inversions,
 * on the edges 0, 1, m - 1 and random reduced values of both. */
static void check_inv2(const struct vg_ec_impl *f, const struct vg_ec_impl *c0)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	uint64_t z[MAXN], k[MAXN], gz[MAXN], gk[MAXN], wz[MAXN], wk[MAXN];
	int iters = vg_checkasm_iters() / 40;

	for (int i = 0; i < 16 + iters; i++) {
		operand(z, c->p.m, c, i < 16 ? i / 4 : 9, 1);
		operand(k, c->n.m, c, i < 16 ? i % 4 : 9, 1);
		c0->fe_inv(c0, wz, z);
		c0->sc_inv(c0, wk, k);
		f->inv2(f, gz, z, gk, k);
		if (!vg_checkasm_eq(gz, wz, n * 8, "1/z i=%d", i) ||
		    !vg_checkasm_eq(gk, wk, n * 8, "1/k i=%d", i))
			return;
	}
}

/* Affine (x, y) of a projective (homogeneous: jac = 0) or Jacobian point
 * with row 0's arithmetic; returns 1 for the identity (then x = y = 0). */
static int affine(const struct vg_ec_impl *c0, uint64_t *x, uint64_t *y, const vg_ec_point *P,
		  int jac)
{
	size_t n = c0->curve->limbs;
	uint64_t zi[MAXN], t[MAXN];
	memset(x, 0, MAXN * 8);
	memset(y, 0, MAXN * 8);
	if (vg_ec_iszero(P->z, n))
		return 1;
	c0->fe_inv(c0, zi, P->z);
	if (jac) {
		c0->fe_mul(t, zi, zi);
		c0->fe_mul(x, P->x, t);
		c0->fe_mul(t, t, zi);
		c0->fe_mul(y, P->y, t);
	} else {
		c0->fe_mul(x, P->x, zi);
		c0->fe_mul(y, P->y, zi);
	}
	return 0;
}

static int same_point(const struct vg_ec_impl *c0, const vg_ec_point *got, int gjac,
		      const vg_ec_point *want, int wjac, const char *what, int i)
{
	uint64_t gx[MAXN], gy[MAXN], wx[MAXN], wy[MAXN];
	int gi = affine(c0, gx, gy, got, gjac), wi = affine(c0, wx, wy, want, wjac);
	size_t n = c0->curve->limbs;
	if (gi != wi) {
		vg_checkasm_fail("%s i=%d: identity %d, want %d", what, i, gi, wi);
		return 0;
	}
	return vg_checkasm_eq(gx, wx, n * 8, "%s x i=%d", what, i) &&
	       vg_checkasm_eq(gy, wy, n * 8, "%s y i=%d", what, i);
}

/* Scalar kind k: the edges (0..9), else random below R. */
static void scalar(const struct vg_ec_curve *c, uint64_t *k, int kind)
{
	size_t n = c->limbs;
	memset(k, 0, MAXN * 8);
	switch (kind) {
	case 0: return;
	case 1: k[0] = 1; return;
	case 2: k[0] = 2; return;
	case 3: memcpy(k, c->n.m, n * 8); k[0] -= 1; return; /* n - 1 */
	case 4: memcpy(k, c->n.m, n * 8); return;             /* n */
	case 5: memcpy(k, c->n.m, n * 8); k[0] += 1; return;  /* n + 1 */
	case 6: memset(k, 0xff, n * 8); return;               /* R - 1 */
	case 7: /* every window 1000000b: every digit 64 */
	case 8: /* every window 1000001b: digits -63 and carries */
		for (size_t i = 0; i + VG_EC_COMB_W <= 64 * n; i += VG_EC_COMB_W) {
			size_t b = i + VG_EC_COMB_W - 1;
			k[b / 64] |= (uint64_t)1 << (b % 64);
			if (kind == 8)
				k[i / 64] |= (uint64_t)1 << (i % 64);
		}
		return;
	case 9: memcpy(k, c->n.m, n * 8); k[0] -= 2; return; /* n - 2 */
	case 10: /* every 5-bit window 10000b: every comb5 digit +16 */
	case 11: /* every window 10001b: digits -15 and carries */
		for (size_t i = 0; i + VG_EC_COMB5_W <= 64 * n; i += VG_EC_COMB5_W) {
			size_t b = i + VG_EC_COMB5_W - 1;
			k[b / 64] |= (uint64_t)1 << (b % 64);
			if (kind == 11)
				k[i / 64] |= (uint64_t)1 << (i % 64);
		}
		return;
	default: vg_checkasm_rand_bytes(k, n * 8);
	}
}

static void check_base_mul(const struct vg_ec_impl *f, const struct vg_ec_impl *c0)
{
	uint64_t k[MAXN];
	vg_ec_point got, want;
	int iters = vg_checkasm_iters() / 100;

	for (int i = 0; i < 12 + iters; i++) {
		scalar(f->curve, k, i);
		c0->base_mul(c0, &want, k);
		f->base_mul(f, &got, k);
		if (!same_point(c0, &got, 0, &want, 0, "base_mul", i))
			return;
	}
}

static void check_dsm(const struct vg_ec_impl *f, const struct vg_ec_impl *c0)
{
	uint64_t u1[MAXN], u2[MAXN], kq[MAXN];
	vg_ec_point Q, got, want;
	int iters = vg_checkasm_iters() / 200;

	for (int i = 0; i < 30 + iters; i++) {
		scalar(f->curve, u1, i < 10 ? i : i < 20 ? 100 : i - 20);
		scalar(f->curve, u2, i < 10 ? 100 : i < 20 ? i - 10 : i - 20);
		scalar(f->curve, kq, i % 5 == 0 ? 1 : 100); /* Q = G sometimes */
		c0->base_mul(c0, &Q, kq);
		if (vg_ec_iszero(Q.z, f->curve->limbs))
			continue;
		c0->dsm(c0, &want, u1, u2, &Q);
		f->dsm(f, &got, u1, u2, &Q);
		if (!same_point(c0, &got, 0, &want, 0, "dsm", i))
			return;
	}
}

/* ---- the Jacobian functions by name ---- */

struct jac {
	const char *tier;
	uint32_t features;
	vg_ec_jdbl_fn *jdbl;
	vg_ec_jmadd_fn *jmadd;
	vg_ec_jadd_fn *jadd;
	vg_ec_comb_fn *comb;
	unsigned w; /* the comb's digit width: 7 (comb) or 5 (comb5) */
};

/* A random multiple of G as a Jacobian point with a random Z (and its
 * projective form with Z = 1 in *proj), from row 0. */
static void rand_jac(const struct vg_ec_impl *c0, vg_ec_point *J, vg_ec_point *proj,
		     const uint64_t *k)
{
	const struct vg_ec_curve *c = c0->curve;
	size_t n = c->limbs;
	uint64_t x[MAXN], y[MAXN], z[MAXN], t[MAXN];
	vg_ec_point P;
	c0->base_mul(c0, &P, k);
	affine(c0, x, y, &P, 0);
	vg_ec_point_from_affine(c0, proj, x, y);
	do {
		vg_checkasm_rand_bytes(z, n * 8);
		vg_ec_reduce_once(z, z, c->p.m, n);
	} while (vg_ec_iszero(z, n));
	memset(J, 0, sizeof(*J));
	c0->fe_mul(t, z, z);
	c0->fe_mul(J->x, x, t);
	c0->fe_mul(t, t, z);
	c0->fe_mul(J->y, y, t);
	memcpy(J->z, z, n * 8);
}

static void check_jac(const struct vg_ec_impl *c0, const struct jac *j)
{
	const struct vg_ec_curve *c = c0->curve;
	size_t n = c->limbs;
	char name[96];
	int iters = vg_checkasm_iters() / 20;
	uint64_t k1[MAXN], k2[MAXN], xy[2 * MAXN], ax[MAXN], ay[MAXN];
	vg_ec_point P, Q, Pp, Qp, got, want;
	static const uint64_t zero[MAXN];

	snprintf(name, sizeof(name), "%s jdbl, jmadd, jadd (%s)", c->name, j->tier);
	vg_checkasm_func(name);
	for (int i = 0; i < iters; i++) {
		scalar(c, k1, 100);
		scalar(c, k2, 100);
		int kind = i % 4; /* 0: random, 1: Q = P, 2: Q = -P */
		rand_jac(c0, &P, &Pp, k1);
		if (kind == 1 || kind == 2)
			memcpy(k2, k1, sizeof(k2));
		rand_jac(c0, &Q, &Qp, k2);
		if (kind == 2) {
			c0->fe_sub(Q.y, zero, Q.y);
			c0->fe_sub(Qp.y, zero, Qp.y);
		}

		vg_ec_point_dbl(c0, &want, &Pp);
		vg_checkasm_call(j->jdbl, &got, &P);
		if (!same_point(c0, &got, 1, &want, 0, "jdbl", i))
			break;
		got = P; /* in place */
		vg_checkasm_call(j->jdbl, &got, &got);
		if (!same_point(c0, &got, 1, &want, 0, "jdbl in place", i))
			break;

		vg_ec_point_add(c0, &want, &Pp, &Qp);
		uint64_t fl = vg_checkasm_call(j->jadd, &got, &P, &Q);
		uint64_t wfl = kind == 1 ? 3 : kind == 2 ? 1 : 0;
		if (fl != wfl) {
			vg_checkasm_fail("jadd i=%d: flags %d, want %d", i, (int)fl, (int)wfl);
			break;
		}
		if (kind == 0 && !same_point(c0, &got, 1, &want, 0, "jadd", i))
			break;
		got = P;
		vg_checkasm_call(j->jadd, &got, &got, &Q);
		if (kind == 0 && !same_point(c0, &got, 1, &want, 0, "jadd in place", i))
			break;

		affine(c0, ax, ay, &Qp, 0);
		memcpy(xy, ax, n * 8);
		memcpy(xy + n, ay, n * 8);
		fl = vg_checkasm_call(j->jmadd, &got, &P, xy);
		if (fl != wfl) {
			vg_checkasm_fail("jmadd i=%d: flags %d, want %d", i, (int)fl, (int)wfl);
			break;
		}
		if (kind == 0 && !same_point(c0, &got, 1, &want, 0, "jmadd", i))
			break;
		got = P;
		vg_checkasm_call(j->jmadd, &got, &got, xy);
		if (kind == 0 && !same_point(c0, &got, 1, &want, 0, "jmadd in place", i))
			break;
	}
	vg_checkasm_func_done();

	snprintf(name, sizeof(name), "%s comb (%s)", c->name, j->tier);
	vg_checkasm_func(name);
	for (int i = 0; i < 12 + vg_checkasm_iters() / 100; i++) {
		int8_t d[VG_EC_COMB5_ROWS(MAXN)];
		scalar(c, k1, i);
		c0->base_mul(c0, &want, k1);
		if (j->w == VG_EC_COMB5_W) {
			vg_ec_comb_recode_w(d, k1, n, c->comb5_rows, j->w);
			vg_checkasm_call(j->comb, &got, c->comb5, d);
		} else {
			vg_ec_comb_recode(d, k1, n, c->comb_rows);
			vg_checkasm_call(j->comb, &got, c->comb, d);
		}
		if (!same_point(c0, &got, 0, &want, 0, "comb", i))
			break;
	}
	vg_checkasm_func_done();
}

/* ---- the divsteps inversion's parts (ec_inv.asm, every asm tier) ---- */

/* A small random t = 2 delta, as the steps see it: odd (half-delta) or
 * even (ordinary), |t| below a few hundred; edges at the extremes. */
static int64_t rand_t(int i)
{
	if (i % 17 == 0)
		return i % 2 ? 1 : 2;
	return (int64_t)(vg_checkasm_rand64() % 1201) - 600;
}

/* A 64-bit word of f (odd) or g, from the edges 0, 1, all ones, one bit,
 * alternating bits, or random. */
static uint64_t rand_word(int k)
{
	switch (k % 8) {
	case 0: return 0;
	case 1: return 1;
	case 2: return ~(uint64_t)0;
	case 3: return (uint64_t)1 << (vg_checkasm_rand64() % 64);
	case 4: return 0x5555555555555555u;
	default: return vg_checkasm_rand64();
	}
}

/* The steps of one and two inversions against the C. */
static void check_divsteps(void)
{
	int iters = vg_checkasm_iters();

	vg_checkasm_func("vg_ec_divsteps1, vg_ec_divsteps2");
	for (int i = 0; i < iters; i++) {
		uint64_t fg[4];
		int64_t t[2], tw[2], m[8], mw[8];
		unsigned n = i % 4 == 0 ? 62 : i % 4 == 1 ? 32 : 1 + (unsigned)(vg_checkasm_rand64() % 62);
		for (int j = 0; j < 4; j++)
			fg[j] = rand_word(i < 64 ? (i + j) / (j + 1) : 7);
		fg[0] |= 1; /* f is odd */
		fg[2] |= 1;
		t[0] = tw[0] = rand_t(i);
		t[1] = tw[1] = rand_t(i + 1);
		vg_ec_divsteps2_c(mw, tw, fg, n);
		vg_checkasm_call(vg_ec_divsteps2, m, t, fg, n);
		if (!vg_checkasm_eq(m, mw, sizeof(m), "divsteps2 m i=%d n=%u", i, n) ||
		    !vg_checkasm_eq(t, tw, sizeof(t), "divsteps2 t i=%d n=%u", i, n))
			break;
		vg_ec_divsteps1_c(mw, tw, fg + 2, n);
		vg_checkasm_call(vg_ec_divsteps1, m, t, fg + 2, n);
		if (!vg_checkasm_eq(m, mw, 4 * 8, "divsteps1 m i=%d n=%u", i, n) ||
		    !vg_checkasm_eq(t, tw, 8, "divsteps1 t i=%d n=%u", i, n))
			break;
	}
	vg_checkasm_func_done();
}

/* A matrix row (a, b) with |a| + |b| <= 2^62: the edges (+-2^62, 0),
 * (0, +-2^62), (2^61, -2^61), or random. */
static void rand_row(int64_t *a, int64_t *b, int k)
{
	const int64_t lim = (int64_t)1 << 62, half = (int64_t)1 << 61;
	switch (k % 8) {
	case 0: *a = lim; *b = 0; return;
	case 1: *a = -lim; *b = 0; return;
	case 2: *a = 0; *b = -lim; return;
	case 3: *a = half; *b = -half; return;
	case 4: *a = -half; *b = -half; return;
	default: {
		uint64_t r = vg_checkasm_rand64();
		*a = (int64_t)(vg_checkasm_rand64() % (uint64_t)half) * (r & 1 ? -1 : 1);
		*b = (int64_t)(vg_checkasm_rand64() % (uint64_t)half) * (r & 2 ? -1 : 1);
	}
	}
}

/* inv_apply4/6 on random states: f, g as 62-bit limbs (the top one
 * signed, below 2^(64 n - 62 (sl - 1)) in magnitude, as an inversion's
 * f and g stay), d, e from 0, 1, m - 1, m - 2 and random below m, for p and
 * n of both curves; the whole state compared, in a guarded buffer. */
static void check_apply(const struct vg_ec_curve *c, int scalar_mod)
{
	const struct vg_ec_mod *md = scalar_mod ? &c->n : &c->p;
	size_t n = c->limbs, sl = n + 1;
	int iters = vg_checkasm_iters() / 2;
	char name[96];

	snprintf(name, sizeof(name), "vg_ec_inv_apply%zu (%s mod %s)", n, c->name,
		 scalar_mod ? "n" : "p");
	vg_checkasm_func(name);
	for (int i = 0; i < iters; i++) {
		int64_t fg[2 * (MAXN + 1)], fgw[2 * (MAXN + 1)], m[4];
		uint64_t dew[2 * MAXN];
		uint8_t raw[VG_CHECKASM_OUT(2 * MAXN * 8)];
		uint64_t *de = (uint64_t *)(void *)vg_checkasm_guard(raw, 2 * n * 8);
		unsigned topbits = (unsigned)(64 * n - 62 * (sl - 1)) + 1;
		for (size_t j = 0; j < 2 * sl; j++)
			fg[j] = (int64_t)(vg_checkasm_rand64() >> 2);
		fg[sl - 1] = (int64_t)vg_checkasm_rand64() >> (64 - topbits);
		fg[2 * sl - 1] = (int64_t)vg_checkasm_rand64() >> (64 - topbits);
		for (size_t k = 0; k < 2; k++) {
			int kind = (i / (k + 1)) % 5;
			uint64_t *v = dew + k * n;
			memcpy(v, md->m, n * 8);
			if (kind == 0)
				memset(v, 0, n * 8);
			else if (kind == 1) {
				memset(v, 0, n * 8);
				v[0] = 1;
			} else if (kind == 2)
				v[0] -= 1;
			else if (kind == 3)
				v[0] -= 2;
			else
				do
					vg_checkasm_rand_bytes(v, n * 8);
				while (!vg_ec_lt(v, md->m, n));
		}
		rand_row(&m[0], &m[1], i);
		rand_row(&m[2], &m[3], i / 8);
		memcpy(fgw, fg, sizeof(fg));
		memcpy(de, dew, 2 * n * 8);
		if (n == 4) {
			vg_ec_inv_apply4_c(fgw, dew, m, md->m, md->m0inv);
			vg_checkasm_call(vg_ec_inv_apply4, fg, de, m, md->m, md->m0inv);
		} else {
			vg_ec_inv_apply6_c(fgw, dew, m, md->m, md->m0inv);
			vg_checkasm_call(vg_ec_inv_apply6, fg, de, m, md->m, md->m0inv);
		}
		if (!vg_checkasm_eq(fg, fgw, 2 * sl * 8, "f, g i=%d", i) ||
		    !vg_checkasm_eq(de, dew, 2 * n * 8, "d, e i=%d", i) ||
		    !vg_checkasm_guard_ok(raw, 2 * n * 8))
			break;
	}
	vg_checkasm_func_done();
}

/* A random inversion state for the ifma batches: f, g as 62-bit limbs
 * (f odd, the top limbs signed and small as an inversion's stay), d, e
 * from the edges and random below m, pending matrices with edge rows, t. */
static void rand_state(struct vg_ec_inv2_state *st, const struct vg_ec_curve *c, int i)
{
	size_t n = c->limbs, sl = n + 1;
	const struct vg_ec_mod *md[2] = {&c->p, &c->n};
	unsigned topbits = (unsigned)(64 * n - 62 * (sl - 1)) + 1;

	memset(st, 0, sizeof(*st));
	for (int j = 0; j < 2; j++) {
		for (size_t l = 0; l < 2 * sl; l++)
			st->fg[j][l] = (int64_t)(vg_checkasm_rand64() >> 2);
		st->fg[j][sl - 1] = (int64_t)vg_checkasm_rand64() >> (64 - topbits);
		st->fg[j][2 * sl - 1] = (int64_t)vg_checkasm_rand64() >> (64 - topbits);
		st->fg[j][0] |= 1;
		for (size_t k = 0; k < 2; k++) {
			uint64_t *v = st->de[j] + k * n;
			int kind = (i / (2 * j + k + 1)) % 5;
			memcpy(v, md[j]->m, n * 8);
			if (kind == 0)
				memset(v, 0, n * 8);
			else if (kind == 1) {
				memset(v, 0, n * 8);
				v[0] = 1;
			} else if (kind == 2)
				v[0] -= 1;
			else
				do
					vg_checkasm_rand_bytes(v, n * 8);
				while (!vg_ec_lt(v, md[j]->m, n));
		}
		rand_row(&st->m[j][0], &st->m[j][1], i + j);
		rand_row(&st->m[j][2], &st->m[j][3], i / 8 + j);
		st->t[j] = rand_t(i + j);
		st->m0inv[j] = md[j]->m0inv;
	}
}

/* The ifma rows' fused batches against vg_ec_inv2_batch_c: with and
 * without pending d, e updates, step counts 0, 32, 62 and random, for
 * both curves; the whole state compared. */
static void check_batch(const struct vg_ec_curve *c)
{
	int iters = vg_checkasm_iters() / 4;
	size_t n = c->limbs;
	char name[96];

	snprintf(name, sizeof(name), "vg_ec_inv2_batch%zu_avx512 (%s)", n, c->name);
	vg_checkasm_func(name);
	for (int i = 0; i < iters; i++) {
		struct vg_ec_inv2_state st, want;
		unsigned steps = i % 4 == 0   ? 62
				 : i % 4 == 1 ? 32
				 : i % 8 == 2 ? 0
					      : 1 + (unsigned)(vg_checkasm_rand64() % 62);
		unsigned lins = (unsigned)(i / 4) % 2;
		rand_state(&st, c, i);
		want = st;
		vg_ec_inv2_batch_c(&want, steps, lins, c->p.m, c->n.m, n);
		if (n == 4)
			vg_checkasm_call(vg_ec_inv2_batch4_avx512, &st, steps, lins, c->p.m, c->n.m);
		else
			vg_checkasm_call(vg_ec_inv2_batch6_avx512, &st, steps, lins, c->p.m, c->n.m);
		if (!vg_checkasm_eq(&st, &want, sizeof(st), "i=%d steps=%u lins=%u", i, steps, lins))
			break;
	}
	vg_checkasm_func_done();
}

/* ---- rows ---- */

static const void *done[256];
static size_t ndone;

static int fresh(const void *fn, const void *ref)
{
	if (fn == ref)
		return 0;
	for (size_t i = 0; i < ndone; i++)
		if (done[i] == fn)
			return 0;
	if (ndone < sizeof(done) / sizeof(done[0]))
		done[ndone++] = fn;
	return 1;
}

#define SLOT(field, what, call)                                                                \
	if (fresh((const void *)im->field, (const void *)c0->field)) {                         \
		snprintf(name, sizeof(name), "%s %s (%s row)", c->name, what, im->v.name);     \
		vg_checkasm_func(name);                                                        \
		call;                                                                          \
		vg_checkasm_func_done();                                                       \
	}

static void check_row(const struct vg_ec_impl *im, const struct vg_ec_impl *c0)
{
	const struct vg_ec_curve *c = im->curve;
	char name[96];

	SLOT(fe_mul, "fe_mul", check_arith(c, c->p.m, im->fe_mul, c0->fe_mul, NULL, NULL, 0));
	SLOT(fe_sqr, "fe_sqr", check_arith(c, c->p.m, NULL, NULL, im->fe_sqr, c0->fe_sqr, 0));
	SLOT(fe_add, "fe_add", check_arith(c, c->p.m, im->fe_add, c0->fe_add, NULL, NULL, 1));
	SLOT(fe_sub, "fe_sub", check_arith(c, c->p.m, im->fe_sub, c0->fe_sub, NULL, NULL, 1));
	SLOT(sc_mul, "sc_mul", check_arith(c, c->n.m, im->sc_mul, c0->sc_mul, NULL, NULL, 0));
	SLOT(fe_inv, "fe_inv", check_inv(im, c0, 0));
	SLOT(sc_inv, "sc_inv", check_inv(im, c0, 1));
	SLOT(inv2, "inv2", check_inv2(im, c0));
	SLOT(base_mul, "base_mul", check_base_mul(im, c0));
	SLOT(dsm, "dsm", check_dsm(im, c0));
}

/* ---- sha256 ---- */

static void check_sha256(const struct vg_sha256_impl *im, const struct vg_sha256_impl *c0)
{
	uint8_t msg[5 * 64];
	uint32_t want[8];
	uint8_t raw[VG_CHECKASM_OUT(32)];
	int iters = vg_checkasm_iters() / 5;

	for (int i = 0; i < iters; i++) {
		size_t nb = (size_t)i % 6;
		uint32_t *h = (uint32_t *)(void *)vg_checkasm_guard(raw, 32);
		vg_checkasm_rand_bytes(msg, sizeof(msg));
		vg_checkasm_rand_bytes(want, sizeof(want));
		memcpy(h, want, 32);
		c0->blocks(want, msg, nb);
		vg_checkasm_call(im->blocks, h, msg, nb);
		if (!vg_checkasm_eq(h, want, 32, "i=%d, %zu blocks", i, nb) ||
		    !vg_checkasm_guard_ok(raw, 32))
			return;
	}
}

int main(int argc, char **argv)
{
	static const struct jac p256_jac[] = {
		{"base", VG_TIER_BASE, vg_p256_jdbl_base, vg_p256_jmadd_base, vg_p256_jadd_base,
		 vg_p256_comb_base, VG_EC_COMB_W},
		{"adx", VG_TIER_ADX, vg_p256_jdbl_adx, vg_p256_jmadd_adx, vg_p256_jadd_adx,
		 vg_p256_comb_adx, VG_EC_COMB_W},
		{"ifma", VG_TIER_IFMA, vg_p256_jdbl_adx, vg_p256_jmadd_adx, vg_p256_jadd_adx,
		 vg_p256_comb_ifma, VG_EC_COMB5_W},
	};
	static const struct jac p384_jac[] = {
		{"base", VG_TIER_BASE, vg_p384_jdbl_base, vg_p384_jmadd_base, vg_p384_jadd_base,
		 vg_p384_comb_base, VG_EC_COMB_W},
		{"adx", VG_TIER_ADX, vg_p384_jdbl_adx, vg_p384_jmadd_adx, vg_p384_jadd_adx,
		 vg_p384_comb_adx, VG_EC_COMB_W},
		{"ifma", VG_TIER_IFMA, vg_p384_jdbl_adx, vg_p384_jmadd_adx, vg_p384_jadd_adx,
		 vg_p384_comb_ifma, VG_EC_COMB_W},
	};

	vg_checkasm_init("ec", argc, argv);
	for (size_t i = 1; i < vg_ec_p256_nimpls; i++)
		if (vg_checkasm_row(&vg_ec_p256_impls[i].v))
			check_row(&vg_ec_p256_impls[i], &vg_ec_p256_impls[0]);
	ndone = 0; /* a function shared by both curves (the inversions) runs on each */
	for (size_t i = 1; i < vg_ec_p384_nimpls; i++)
		if (vg_checkasm_row(&vg_ec_p384_impls[i].v))
			check_row(&vg_ec_p384_impls[i], &vg_ec_p384_impls[0]);
	if (vg_checkasm_tier("base", VG_TIER_BASE)) {
		check_divsteps();
		for (int s = 0; s < 2; s++) {
			check_apply(&vg_p256_curve, s);
			check_apply(&vg_p384_curve, s);
		}
	}
	if (vg_checkasm_tier("ifma", VG_TIER_IFMA)) {
		check_batch(&vg_p256_curve);
		check_batch(&vg_p384_curve);
	}
	for (size_t i = 0; i < 3; i++) {
		if (vg_checkasm_tier(p256_jac[i].tier, p256_jac[i].features)) {
			check_jac(&vg_ec_p256_impls[0], &p256_jac[i]);
			check_jac(&vg_ec_p384_impls[0], &p384_jac[i]);
		}
	}
	for (size_t i = 1; i < vg_sha256_nimpls; i++) {
		if (vg_checkasm_row(&vg_sha256_impls[i].v)) {
			vg_checkasm_func("sha256 blocks (shani row)");
			check_sha256(&vg_sha256_impls[i], &vg_sha256_impls[0]);
			vg_checkasm_func_done();
		}
	}
	return vg_checkasm_finish();
}
