/* checkasm_ec_mb.c: the ec_p256_mb and ec_p384_mb family tables
 * (ec_mb.h): every row the CPU can run against row 0, the C reference.
 * The batched comb at every lane count 1..8 (lanes in use with random
 * scalars in [1, n - 1], the rest idle: zero digits), with one lane an
 * edge scalar (1, 2, h - 1, h, h + 1 for the digit bound h (16 or 64),
 * n - 1, n - 2, n - h, 2^(bits - 1) and neighbours, the scalars whose
 * digits are all h or all 1 where below n, near n) beside random ones, the edge lane moving through every position; outputs into
 * sentinel-guarded buffers (the words a row must not write keep the
 * sentinel). Every few iterations each lane's point is also compared
 * (affine) with [k]G of the P-256 C row's own comb, so the reference
 * cannot drift with the assembly. Callee-saved registers and the stack
 * are checked by the trampoline (P-384: the assembly under the row's
 * packing step is also called through it, and must give what it gives
 * called directly). Nothing secret: test data. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checkasm.h"
#include "ec/ec_mb.h"

#define LANES VG_EC_MB_LANES
#define MAXN VG_EC_MAX_LIMBS
#define OUT (LANES * sizeof(vg_ec_point))

static const struct vg_ec_impl *cf; /* the curve's C row */
static size_t N, ROWS;               /* its limbs, the comb's digit rows */
static unsigned W;                   /* the digit width: 5 (P-256), 7 (P-384) */

static int iszero(const uint64_t *k)
{
	uint64_t o = 0;
	for (size_t i = 0; i < N; i++)
		o |= k[i];
	return o == 0;
}

/* a < b on N limbs */
static int lt(const uint64_t *a, const uint64_t *b)
{
	for (size_t i = N; i-- > 0;)
		if (a[i] != b[i])
			return a[i] < b[i];
	return 0;
}

/* r = a - v (small v, a >= v) */
static void sub_small(uint64_t *r, const uint64_t *a, uint64_t v)
{
	uint64_t borrow = v;
	for (size_t i = 0; i < N; i++) {
		uint64_t t = a[i] - borrow;
		borrow = a[i] < borrow;
		r[i] = t;
	}
}

/* A random scalar in [1, n - 1]. */
static void rand_scalar(uint64_t *k)
{
	const uint64_t *n = cf->curve->n.m;
	do
		vg_checkasm_rand_bytes(k, N * 8);
	while (!lt(k, n) || iszero(k));
}

/* The scalar whose 52 digits are all v (|v| <= 16), as an integer mod
 * 2^256; 1 if it is in [1, n - 1]. */
static int all_digits(uint64_t *k, int v)
{
	uint64_t acc[MAXN + 1] = {0};
	for (size_t i = ROWS; i-- > 0;) {
		/* acc = acc 32 + v */
		uint64_t c = 0;
		for (size_t j = 0; j <= N; j++) {
			uint64_t t = (acc[j] << W) | c;
			c = acc[j] >> (64 - W);
			acc[j] = t;
		}
		uint64_t add = (uint64_t)(int64_t)v, carry = 0;
		for (size_t j = 0; j <= N; j++) {
			uint64_t a = j == 0 ? add : (v < 0 ? ~(uint64_t)0 : 0);
			uint64_t s = acc[j] + a;
			uint64_t c1 = s < acc[j];
			uint64_t s2 = s + carry;
			carry = c1 | (s2 < s);
			acc[j] = s2;
		}
	}
	memcpy(k, acc, N * 8);
	return acc[N] == 0 && lt(k, cf->curve->n.m) && !iszero(k);
}

/* Edge scalar e into k; 0 past the list (or an edge not in [1, n - 1]). */
#define NEDGE 14
static int edge(uint64_t *k, int e)
{
	const uint64_t *n = cf->curve->n.m;
	uint64_t h = (uint64_t)1 << (W - 1), top[MAXN] = {0};
	memset(k, 0, N * 8);
	top[N - 1] = (uint64_t)1 << 63;
	switch (e) {
	case 0: k[0] = 1; return 1;
	case 1: k[0] = 2; return 1;
	case 2: k[0] = h - 1; return 1;
	case 3: k[0] = h; return 1;
	case 4: k[0] = h + 1; return 1;
	case 5: sub_small(k, n, 1); return 1;
	case 6: sub_small(k, n, 2); return 1;
	case 7: sub_small(k, n, h); return 1;
	case 8: memcpy(k, top, N * 8); return 1;        /* 2^(bits-1): high digits alone */
	case 9: memcpy(k, top, N * 8); k[0] = 1; return 1; /* 2^(bits-1) + 1 */
	case 10: sub_small(k, top, 1); return 1;
	case 11: return all_digits(k, (int)h);
	case 12: return all_digits(k, 1);
	case 13: /* near n */
		for (size_t i = 0; i + 1 < N; i++)
			k[i] = ~(uint64_t)0;
		k[N - 1] = n[N - 1] - 1;
		return 1;
	}
	return 0;
}

static void digits(int8_t *d, const uint64_t (*k)[MAXN], size_t nl)
{
	int8_t dl[VG_EC_MB_MAX_ROWS];
	memset(d, 0, VG_EC_MB_MAX_ROWS * LANES);
	for (size_t l = 0; l < nl; l++) {
		if (W == 5)
			vg_ec_comb_recode_w(dl, k[l], N, ROWS, W);
		else
			vg_ec_comb_recode(dl, k[l], N, ROWS);
		for (size_t i = 0; i < ROWS; i++)
			d[LANES * i + l] = dl[i];
	}
}

/* Lane l of r (affine) against [k]G of the C row. */
static int against_single(const vg_ec_point *r, const uint64_t *k, size_t l)
{
	vg_ec_point P, Q = r[l];
	uint64_t x1[MAXN], y1[MAXN], x2[MAXN], y2[MAXN];
	cf->base_mul(cf, &P, k);
	for (size_t i = N; i < VG_EC_MAX_LIMBS; i++)
		Q.x[i] = Q.y[i] = Q.z[i] = 0;
	vg_ec_point_to_affine(cf, x1, y1, &P);
	vg_ec_point_to_affine(cf, x2, y2, &Q);
	return vg_checkasm_eq(x2, x1, N * 8, "lane %zu x against [k]G", l) &&
	       vg_checkasm_eq(y2, y1, N * 8, "lane %zu y against [k]G", l);
}

static void check_comb(vg_ec_mb_comb_fn *fn, vg_ec_mb_comb_fn *ref)
{
	const uint64_t *table = W == 5 ? cf->curve->comb5 : cf->curve->comb;
	/* per lane count; P-384's C reference is slow: a fifth as many */
	int iters = vg_checkasm_iters() / LANES / (W == 5 ? 1 : 5);
	uint64_t k[LANES][MAXN];
	int8_t d[VG_EC_MB_MAX_ROWS * LANES];

	for (size_t nl = 1; nl <= LANES && vg_checkasm_ok(); nl++)
		for (int it = 0; it < iters && vg_checkasm_ok(); it++) {
			for (size_t l = 0; l < nl; l++)
				rand_scalar(k[l]);
			/* an edge in one lane, moving through the positions */
			int e = it % (NEDGE + 1);
			size_t el = (size_t)(it / (NEDGE + 1)) % nl;
			if (e < NEDGE && !edge(k[el], e))
				rand_scalar(k[el]);
			digits(d, (const uint64_t(*)[MAXN])k, nl);
			uint8_t raw[VG_CHECKASM_OUT(OUT)], rawr[VG_CHECKASM_OUT(OUT)];
			uint8_t *out = vg_checkasm_guard(raw, OUT);
			uint8_t *want = vg_checkasm_guard(rawr, OUT);
			ref((vg_ec_point *)(void *)want, table, d);
			if (fn == vg_p384mb_comb_ifma_pts) {
				/* the assembly itself through the trampoline */
				static _Alignas(64) uint64_t raw1[3 * 64], raw2[3 * 64];
				vg_checkasm_call(vg_p384mb_comb_ifma, raw1, table, d);
				vg_p384mb_comb_ifma(raw2, table, d);
				if (!vg_checkasm_eq(raw1, raw2, sizeof(raw1), "trampoline it=%d", it))
					return;
			}
			vg_checkasm_call(fn, (vg_ec_point *)(void *)out, table, d);
			if (!vg_checkasm_eq(out, want, OUT, "lanes=%zu it=%d edge %d in lane %zu", nl,
					    it, e, el) ||
			    !vg_checkasm_guard_ok(raw, OUT))
				return;
			if (it % 64 == 0 || e < NEDGE) {
				vg_ec_point r[LANES];
				memcpy(r, out, OUT);
				for (size_t l = 0; l < nl; l++)
					if (!against_single(r, k[l], l))
						return;
				/* idle lanes: (0 : 0 : 0) */
				static const uint64_t zero[3 * MAXN];
				for (size_t l = nl; l < LANES; l++)
					if (!vg_checkasm_eq(r[l].x, zero, N * 8, "idle lane %zu x", l) ||
					    !vg_checkasm_eq(r[l].y, zero, N * 8, "idle lane %zu y", l) ||
					    !vg_checkasm_eq(r[l].z, zero, N * 8, "idle lane %zu z", l))
						return;
			}
		}
}

int main(int argc, char **argv)
{
	vg_checkasm_init("ec_mb", argc, argv);
	for (int cv = 0; cv < 2; cv++) {
		const struct vg_ec_mb_impl *t = cv ? vg_ec_p384_mb_impls : vg_ec_p256_mb_impls;
		size_t nt = cv ? vg_ec_p384_mb_nimpls : vg_ec_p256_mb_nimpls;
		cf = cv ? &vg_ec_p384_impls[0] : &vg_ec_p256_impls[0];
		N = cf->curve->limbs;
		W = cv ? VG_EC_COMB_W : VG_EC_COMB5_W;
		ROWS = cv ? cf->curve->comb_rows : cf->curve->comb5_rows;
		for (size_t i = 1; i < nt; i++) {
			const struct vg_ec_mb_impl *im = &t[i];
			if (!vg_checkasm_row(&im->v))
				continue;
			if (im->comb != t[0].comb) {
				char name[64];
				snprintf(name, sizeof(name), "%s comb (%s)", cv ? "p384-mb" : "p256-mb",
					 im->v.name);
				vg_checkasm_func(name);
				check_comb(im->comb, t[0].comb);
				vg_checkasm_func_done();
			}
		}
	}
	return vg_checkasm_finish();
}
