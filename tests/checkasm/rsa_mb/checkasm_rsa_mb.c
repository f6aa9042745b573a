/* checkasm_rsa_mb.c: the rsa_mb family table (vg_rsa_mb_impls,
 * rsa_mb_impl.h): every row the CPU can run, each slot against the same
 * slot of row 0, the C reference (a slot holding row 0's own function is
 * not checked again). The eight-lane multiply at every lane count 1..8
 * (lanes in use with different random moduli of three shapes, the rest
 * idle, all zero, as the batched exponentiation leaves them), with one
 * lane's a or b an edge value (0, 1, m - 1, m, m + 1, 2m - 1, 2^k and
 * 2^k - 1 below 2m, every digit 2^52 - 1 where the contract allows it:
 * b with a < m) beside random operands below 2m in the other lanes, the
 * edge lane moving through every position; outputs into sentinel-guarded
 * buffers and in place over a and over b. The squaring slot likewise
 * (a-edges, b = a) against row 0's multiply; the window slot (a table
 * read, squarings and a multiply in one call) against row 0's. The table read on random
 * tables with every index in every lane, beside random indices.
 * Callee-saved registers and the stack are checked by the trampoline.
 * Nothing secret: test data. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checkasm.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_mb_impl.h"

#define LANES VG_RSA_MB_LANES
#define MAXD VG_RSA_MB_MAX_DIGITS
#define M52 (((uint64_t)1 << 52) - 1)
#define LIMBS (MAXD * 52 / 64 + 1) /* 64-bit limbs of one number, with room */

/* One lane's number in 64-bit limbs (n limbs: 52 L >= 64 n + 2). */
struct lane {
	uint64_t m[LIMBS], a[LIMBS], b[LIMBS];
};

/* An odd modulus of n limbs. shape 0: top bit set (a prime's length, the
 * largest allowed: 4 m < 2^(52 L)); 1: a random top limb; 2: top limb 1. */
static void rand_modulus(uint64_t *m, size_t n, int shape)
{
	memset(m, 0, LIMBS * 8);
	vg_checkasm_rand_bytes(m, n * 8);
	if (shape == 0)
		m[n - 1] |= (uint64_t)1 << 63;
	else if (shape == 1)
		m[n - 1] |= (uint64_t)1 << (vg_checkasm_rand64() % 64);
	else
		m[n - 1] = 1;
	m[0] |= 1;
}

/* A random value below 2m (n + 1 limbs): below m, then m added or not. */
static void rand_below2m(uint64_t *v, const uint64_t *m, size_t n)
{
	memset(v, 0, LIMBS * 8);
	vg_checkasm_rand_bytes(v, n * 8);
	v[n - 1] = m[n - 1] > 1 ? v[n - 1] % m[n - 1] : 0;
	if (vg_checkasm_rand64() & 1)
		v[n] = vg_bn_add(v, v, m, n);
}

/* Edge value k (0..8) for modulus m into v; returns 0 when k is past the
 * list. Every value is below 2m except 8 (every digit 2^52 - 1), allowed
 * for b only with a < m (the input reduction's contract). */
static int edge(uint64_t *v, const uint64_t *m, size_t n, int k)
{
	uint64_t one[LIMBS] = {1};
	size_t bit;

	memset(v, 0, LIMBS * 8);
	switch (k) {
	case 0: /* 0 */
		return 1;
	case 1: /* 1 */
		v[0] = 1;
		return 1;
	case 2: /* m - 1 */
		memcpy(v, m, n * 8);
		v[0] -= 1;
		return 1;
	case 3: /* m */
		memcpy(v, m, n * 8);
		return 1;
	case 4: /* m + 1 */
		memcpy(v, m, n * 8);
		v[0] += 1;
		return 1;
	case 5: /* 2m - 1 */
		v[n] = vg_bn_add(v, m, m, n);
		(void)vg_bn_sub(v, v, one, n + 1);
		return 1;
	case 6: /* 2^k, k below m's length */
	case 7: /* 2^k - 1 */
		bit = vg_checkasm_rand64() % vg_bn_bits(m, n);
		v[bit / 64] = (uint64_t)1 << (bit % 64);
		if (k == 7)
			(void)vg_bn_sub(v, v, one, n + 1);
		return 1;
	case 8: /* every digit 2^52 - 1 */
		memset(v, 0xff, LIMBS * 8);
		return 1;
	default:
		return 0;
	}
}

/* The transposed operands of a batch, from lanes[0..nl); idle lanes zero. */
struct batch {
	uint64_t m[LANES * MAXD], a[LANES * MAXD], b[LANES * MAXD], k0[LANES];
};

static void to_batch(struct batch *bt, const struct lane *ln, size_t nl, size_t L)
{
	uint64_t d[MAXD];

	memset(bt, 0, sizeof(*bt));
	for (size_t l = 0; l < nl; l++) {
		vg_rsa52_to52(d, L, ln[l].m, LIMBS);
		for (size_t j = 0; j < L; j++)
			bt->m[LANES * j + l] = d[j];
		vg_rsa52_to52(d, L, ln[l].a, LIMBS);
		for (size_t j = 0; j < L; j++)
			bt->a[LANES * j + l] = d[j];
		vg_rsa52_to52(d, L, ln[l].b, LIMBS);
		for (size_t j = 0; j < L; j++)
			bt->b[LANES * j + l] = d[j] & M52;
		bt->k0[l] = vg_mont_m0inv(ln[l].m[0]) & M52; /* -m^-1 mod 2^52 */
	}
}

/* One batch checked three ways: into a guarded buffer, in place over a,
 * in place over b. */
static int check_one(vg_amm52mb_fn *fn, vg_amm52mb_fn *ref, const struct batch *bt, size_t L,
		     const char *what, size_t nl, int it)
{
	uint64_t want[LANES * MAXD], x[LANES * MAXD];
	uint8_t raw[VG_CHECKASM_OUT(LANES * MAXD * 8)];
	size_t bytes = LANES * L * 8;
	uint8_t *out = vg_checkasm_guard(raw, bytes);

	ref(want, bt->a, bt->b, bt->m, bt->k0);
	vg_checkasm_call(fn, (uint64_t *)(void *)out, bt->a, bt->b, bt->m, bt->k0);
	if (!vg_checkasm_eq(out, want, bytes, "L=%zu lanes=%zu %s it=%d", L, nl, what, it) ||
	    !vg_checkasm_guard_ok(raw, bytes))
		return 0;
	memcpy(x, bt->a, bytes);
	vg_checkasm_call(fn, x, x, bt->b, bt->m, bt->k0);
	if (!vg_checkasm_eq(x, want, bytes, "L=%zu lanes=%zu %s it=%d (r = a)", L, nl, what, it))
		return 0;
	memcpy(x, bt->b, bytes);
	vg_checkasm_call(fn, x, bt->a, x, bt->m, bt->k0);
	return vg_checkasm_eq(x, want, bytes, "L=%zu lanes=%zu %s it=%d (r = b)", L, nl, what, it);
}

static void check_mul(vg_amm52mb_fn *fn, vg_amm52mb_fn *ref, size_t L)
{
	/* n limbs per modulus: 4 m < 2^(52 L) with the top bit of limb n - 1 */
	size_t n = (52 * L - 2) / 64;
	struct lane ln[LANES];
	struct batch bt;
	int iters = vg_checkasm_iters() / LANES; /* per lane count */

	for (size_t nl = 1; nl <= LANES; nl++) {
		/* Edges: every edge for a and for b, in every lane position in
		 * use, the other lanes random (moduli of every shape). */
		for (size_t pos = 0; pos < nl; pos++)
			for (int k = 0; k <= 8; k++)
				for (int which = 0; which < 2; which++) {
					for (size_t l = 0; l < nl; l++) {
						rand_modulus(ln[l].m, n, (int)((l + pos) % 3));
						rand_below2m(ln[l].a, ln[l].m, n);
						rand_below2m(ln[l].b, ln[l].m, n);
					}
					if (which == 0 && k == 8)
						continue; /* a = 2^(52 L) - 1 is outside the contract */
					(void)edge(which ? ln[pos].b : ln[pos].a, ln[pos].m, n, k);
					if (k == 8) /* b any below 2^(52 L) needs a < m */
						(void)edge(ln[pos].a, ln[pos].m, n, 2);
					to_batch(&bt, ln, nl, L);
					if (!check_one(fn, ref, &bt, L, which ? "edge b" : "edge a",
						       nl, (int)(pos * 32 + (size_t)k)))
						return;
				}
		/* Random operands, and squarings (b = a), as the exponentiation
		 * calls it. */
		for (int it = 0; it < iters; it++) {
			for (size_t l = 0; l < nl; l++) {
				rand_modulus(ln[l].m, n, (int)(vg_checkasm_rand64() % 3));
				rand_below2m(ln[l].a, ln[l].m, n);
				if (it & 1)
					memcpy(ln[l].b, ln[l].a, sizeof(ln[l].b));
				else
					rand_below2m(ln[l].b, ln[l].m, n);
			}
			to_batch(&bt, ln, nl, L);
			if (!check_one(fn, ref, &bt, L, it & 1 ? "square" : "random", nl, it))
				return;
		}
	}
}

/* The squaring slot (b == a) against row 0's multiply with b = a: every
 * a-edge in every lane position at every lane count, and random a. */
static void check_sqr(vg_amm52mb_fn *fn, vg_amm52mb_fn *ref, size_t L)
{
	size_t n = (52 * L - 2) / 64;
	struct lane ln[LANES];
	struct batch bt;
	int iters = vg_checkasm_iters() / LANES;

	for (size_t nl = 1; nl <= LANES; nl++) {
		for (size_t pos = 0; pos < nl; pos++)
			for (int k = 0; k < 8; k++) {
				for (size_t l = 0; l < nl; l++) {
					rand_modulus(ln[l].m, n, (int)((l + pos) % 3));
					rand_below2m(ln[l].a, ln[l].m, n);
				}
				(void)edge(ln[pos].a, ln[pos].m, n, k);
				for (size_t l = 0; l < nl; l++)
					memcpy(ln[l].b, ln[l].a, sizeof(ln[l].b));
				to_batch(&bt, ln, nl, L);
				if (!check_one(fn, ref, &bt, L, "square edge", nl,
					       (int)(pos * 32 + (size_t)k)))
					return;
			}
		for (int it = 0; it < iters; it++) {
			for (size_t l = 0; l < nl; l++) {
				rand_modulus(ln[l].m, n, (int)(vg_checkasm_rand64() % 3));
				rand_below2m(ln[l].a, ln[l].m, n);
				memcpy(ln[l].b, ln[l].a, sizeof(ln[l].b));
			}
			to_batch(&bt, ln, nl, L);
			if (!check_one(fn, ref, &bt, L, "square", nl, it))
				return;
		}
	}
}

/* The window slot (a table read, nsq squarings, then a multiply by the
 * entry read) against row 0's, for nsq 0, 1 and 5 (the exponentiation's
 * is VG_RSA_MB_WINDOW), acc an edge value in one lane (every position) or
 * random, every table entry random below 2m in each lane in use, idx
 * random with the edge lane's index moving through every entry, at every
 * lane count (idle lanes zero, index 0, as the exponentiation leaves
 * them); acc is written in place, its buffer guarded. */
static void check_win(vg_amm52mb_win_fn *fn, vg_amm52mb_win_fn *ref, size_t L)
{
	static const size_t nsqs[3] = {0, 1, 5};
	static uint64_t table[VG_RSA_MB_TABLE * LANES * MAXD];
	size_t n = (52 * L - 2) / 64, bytes = LANES * L * 8;
	struct lane ln[LANES];
	struct batch bt;
	uint64_t want[LANES * MAXD], idx[LANES];
	uint8_t raw[VG_CHECKASM_OUT(LANES * MAXD * 8)];
	int iters = vg_checkasm_iters() / LANES / 20;

	for (size_t nl = 1; nl <= LANES; nl++)
		for (int it = 0; it < 8 + iters; it++) {
			size_t pos = (size_t)it % nl, nsq = nsqs[it % 3];
			for (size_t l = 0; l < nl; l++) {
				rand_modulus(ln[l].m, n, (int)((l + (size_t)it) % 3));
				rand_below2m(ln[l].a, ln[l].m, n);
			}
			for (size_t e = 0; e < VG_RSA_MB_TABLE; e++) {
				for (size_t l = 0; l < nl; l++)
					rand_below2m(ln[l].b, ln[l].m, n);
				to_batch(&bt, ln, nl, L);
				memcpy(table + e * LANES * L, bt.b, bytes);
			}
			if (it < 8)
				(void)edge(ln[pos].a, ln[pos].m, n, it);
			to_batch(&bt, ln, nl, L);
			for (size_t l = 0; l < LANES; l++)
				idx[l] = l < nl ? vg_checkasm_rand64() % VG_RSA_MB_TABLE : 0;
			idx[pos] = (size_t)it % VG_RSA_MB_TABLE;
			memcpy(want, bt.a, bytes);
			ref(want, table, idx, bt.m, bt.k0, nsq);
			uint8_t *acc = vg_checkasm_guard(raw, bytes);
			memcpy(acc, bt.a, bytes);
			vg_checkasm_call(fn, (uint64_t *)(void *)acc, table, idx, bt.m, bt.k0, nsq);
			if (!vg_checkasm_eq(acc, want, bytes, "L=%zu lanes=%zu nsq=%zu it=%d", L,
					    nl, nsq, it) ||
			    !vg_checkasm_guard_ok(raw, bytes))
				return;
		}
}

static void check_select(vg_rsa52mb_select_fn *fn, vg_rsa52mb_select_fn *ref, size_t L)
{
	static uint64_t table[VG_RSA_MB_TABLE * LANES * MAXD];
	uint64_t want[LANES * MAXD], idx[LANES];
	uint8_t raw[VG_CHECKASM_OUT(LANES * MAXD * 8)];
	size_t bytes = LANES * L * 8;

	for (int round = 0; round < 4; round++) {
		for (size_t j = 0; j < VG_RSA_MB_TABLE * LANES * L; j++)
			table[j] = vg_checkasm_rand64() & M52;
		for (size_t lane = 0; lane < LANES; lane++)
			for (uint64_t i = 0; i < VG_RSA_MB_TABLE; i++) {
				for (size_t l = 0; l < LANES; l++)
					idx[l] = vg_checkasm_rand64() % VG_RSA_MB_TABLE;
				idx[lane] = i;
				uint8_t *out = vg_checkasm_guard(raw, bytes);
				ref(want, table, idx);
				vg_checkasm_call(fn, (uint64_t *)(void *)out, table, idx);
				if (!vg_checkasm_eq(out, want, bytes, "L=%zu lane %zu index %u", L,
						    lane, (unsigned)i) ||
				    !vg_checkasm_guard_ok(raw, bytes))
					return;
			}
	}
}

int main(int argc, char **argv)
{
	const struct vg_rsa_mb_impl *c = &vg_rsa_mb_impls[0];
	char name[96];

	vg_checkasm_init("rsa_mb", argc, argv);
	for (size_t i = 1; i < vg_rsa_mb_nimpls; i++) {
		const struct vg_rsa_mb_impl *im = &vg_rsa_mb_impls[i];
		if (!vg_checkasm_row(&im->v))
			continue;
		for (size_t k = 0; k < VG_RSA_MB_SIZES; k++) {
			size_t L = vg_rsa_mb_digits[k];
			if (im->mul[k] != c->mul[k]) {
				snprintf(name, sizeof(name), "amm52mb %zu digits (%s row)", L,
					 im->v.name);
				vg_checkasm_func(name);
				check_mul(im->mul[k], c->mul[k], L);
				vg_checkasm_func_done();
			}
			if (im->sqr[k] != c->sqr[k]) {
				snprintf(name, sizeof(name), "amm52mb sqr %zu digits (%s row)", L,
					 im->v.name);
				vg_checkasm_func(name);
				check_sqr(im->sqr[k], c->mul[k], L);
				vg_checkasm_func_done();
			}
			if (im->win[k] != c->win[k]) {
				snprintf(name, sizeof(name), "amm52mb win %zu digits (%s row)", L,
					 im->v.name);
				vg_checkasm_func(name);
				check_win(im->win[k], c->win[k], L);
				vg_checkasm_func_done();
			}
			if (im->select[k] != c->select[k]) {
				snprintf(name, sizeof(name), "select mb %zu digits (%s row)", L,
					 im->v.name);
				vg_checkasm_func(name);
				check_select(im->select[k], c->select[k], L);
				vg_checkasm_func_done();
			}
		}
	}
	return vg_checkasm_finish();
}
