/* test_ec_arith.c: the P-256/P-384 building blocks of every implementation
 * row against independent references: field and scalar arithmetic against
 * the bit-serial tbn of ecdsa_testutil.c, on random inputs and on edge
 * values (0, 1, m - 1, m, m + 1, values >= m up to R - 1, which the
 * multiplies must accept unreduced), the build-time constants and every
 * table entry, and the point formulas and the three scalar
 * multiplications against OpenSSL's EC_POINT arithmetic, including the
 * cases complete formulas exist for (P + P, P - P, the identity). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ec/ec.h"
#include "ec/ecdsa_internal.h"
#include "ecdsa_testutil.h"

#define ITER 200

/* The rows under test: the C rows, and whatever each curve dispatches to
 * (the same row until assembly tiers exist; then the tiers too). */
static const struct vg_ec_impl *rows[4];
static size_t nrows;

static int setup(void **state)
{
	(void)state;
	const struct vg_ec_impl *all[] = {&vg_ec_p256_impls[0], &vg_ec_p384_impls[0],
					  vg_ecdsa_impl(VG_ECDSA_P256),
					  vg_ecdsa_impl(VG_ECDSA_P384)};
	for (size_t i = 0; i < 4; i++) {
		size_t j;
		for (j = 0; j < nrows; j++)
			if (rows[j] == all[i])
				break;
		if (j == nrows)
			rows[nrows++] = all[i];
	}
	return 0;
}

static vg_ecdsa_curve curve_of(const struct vg_ec_impl *f)
{
	return f->curve->limbs == 4 ? VG_ECDSA_P256 : VG_ECDSA_P384;
}

static void limbs_eq(const uint64_t *a, const tbn *want, size_t n, const char *what)
{
	uint64_t w[VG_EC_MAX_LIMBS];
	tbn_to_limbs(w, n, want);
	if (memcmp(a, w, n * 8) != 0)
		fail_msg("%s differs from the reference", what);
}

/* Edge and random operands below R for a modulus m: kind selects one. */
static void operand(uint64_t *rng, tbn *v, const tbn *m, const tbn *R, int kind)
{
	tbn one;
	size_t bytes = m->d[11] ? 48 : 32; /* m is a 384-bit or a 256-bit modulus */
	tbn_from_u64(&one, 1);
	switch (kind) {
	case 0: tbn_from_u64(v, 0); break;
	case 1: tbn_from_u64(v, 1); break;
	case 2: tbn_sub(v, m, &one); break;                         /* m - 1 */
	case 3: *v = *m; break;                                     /* m itself, unreduced */
	case 4: tbn_add(v, m, &one); break;                         /* m + 1 */
	case 5: tbn_sub(v, R, &one); break;                         /* R - 1, the largest input */
	case 6: tbn_shl(v, &one, (unsigned)(8 * bytes - 1)); break; /* the top bit alone */
	default: { /* random below R, sometimes forced >= m */
		uint8_t b[48];
		tec_rand_bytes(rng, b, bytes);
		if (kind % 3 == 0)
			memset(b, 0xff, 4); /* top word all ones: likely >= m */
		tbn_from_be(v, b, bytes);
	}
	}
}

/* Check r = a b R^-1 mod m, reduced: r R == a b (mod m) and r < m. */
static void check_mont(const uint64_t *r, const tbn *a, const tbn *b, const tbn *m, const tbn *R,
		       size_t n, const char *what)
{
	tbn rv, lhs, rhs;
	tbn_from_limbs(&rv, r, n);
	if (tbn_cmp(&rv, m) >= 0)
		fail_msg("%s: result not reduced", what);
	tbn_mulmod(&lhs, &rv, R, m);
	tbn_mulmod(&rhs, a, b, m);
	if (tbn_cmp(&lhs, &rhs) != 0)
		fail_msg("%s: wrong product", what);
}

static void test_mul(void **state)
{
	uint64_t rng = 1;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		size_t n = tc->limbs;
		for (int it = 0; it < ITER + 49; it++) {
			tbn a, b;
			uint64_t al[VG_EC_MAX_LIMBS], bl[VG_EC_MAX_LIMBS], r[VG_EC_MAX_LIMBS];
			/* every pair of edge kinds first, then random */
			int ka = it < 49 ? it / 7 : 7 + it % 5, kb = it < 49 ? it % 7 : 8 + it % 3;
			for (int which = 0; which < 2; which++) {
				const tbn *m = which ? &tc->n : &tc->p;
				operand(&rng, &a, m, &tc->R, ka);
				operand(&rng, &b, m, &tc->R, kb);
				tbn_to_limbs(al, n, &a);
				tbn_to_limbs(bl, n, &b);
				if (which) {
					f->sc_mul(r, al, bl);
					check_mont(r, &a, &b, m, &tc->R, n, "sc_mul");
				} else {
					f->fe_mul(r, al, bl);
					check_mont(r, &a, &b, m, &tc->R, n, "fe_mul");
					f->fe_sqr(r, al);
					check_mont(r, &a, &a, m, &tc->R, n, "fe_sqr");
					/* aliasing: r = a */
					memcpy(r, al, n * 8);
					f->fe_mul(r, r, bl);
					check_mont(r, &a, &b, m, &tc->R, n, "fe_mul in place");
				}
			}
		}
	}
}

/* Reduced operands: add, sub, to/from Montgomery form, reduce_once. */
static void test_add_sub(void **state)
{
	uint64_t rng = 2;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		size_t n = tc->limbs;
		for (int it = 0; it < ITER; it++) {
			tbn a, b, want, t;
			uint64_t al[VG_EC_MAX_LIMBS], bl[VG_EC_MAX_LIMBS], r[VG_EC_MAX_LIMBS];
			int ka = it < 9 ? (int[]){0, 1, 2}[it / 3] : 7,
			    kb = it < 9 ? (int[]){0, 1, 2}[it % 3] : 8;
			for (int which = 0; which < 2; which++) {
				const tbn *m = which ? &tc->n : &tc->p;
				operand(&rng, &a, m, &tc->R, ka);
				operand(&rng, &b, m, &tc->R, kb);
				tbn_mod(&a, &a, m);
				tbn_mod(&b, &b, m);
				tbn_to_limbs(al, n, &a);
				tbn_to_limbs(bl, n, &b);
				if (which) {
					vg_ec_sc_add(f, r, al, bl);
				} else {
					vg_ec_fe_add(f, r, al, bl);
				}
				tbn_addmod(&want, &a, &b, m);
				limbs_eq(r, &want, n, "add");
				if (!which) {
					vg_ec_fe_sub(f, r, al, bl);
					tbn_submod(&want, &a, &b, m);
					limbs_eq(r, &want, n, "sub");
					vg_ec_fe_to_mont(f, r, al);
					tbn_mulmod(&want, &a, &tc->R, m);
					limbs_eq(r, &want, n, "fe_to_mont");
					vg_ec_fe_from_mont(f, r, r);
					limbs_eq(r, &a, n, "fe_from_mont");
				} else {
					vg_ec_sc_to_mont(f, r, al);
					tbn_mulmod(&want, &a, &tc->R, m);
					limbs_eq(r, &want, n, "sc_to_mont");
					vg_ec_sc_from_mont(f, r, r);
					limbs_eq(r, &a, n, "sc_from_mont");
				}
				/* reduce_once: a + m - 1 < 2m comes back as a - 1 (or m - 1) */
				tbn_add(&t, &a, m);
				tbn_from_u64(&want, 1);
				tbn_sub(&t, &t, &want);
				if (tbn_cmp(&t, &tc->R) < 0) {
					tbn_to_limbs(r, n, &t);
					vg_ec_reduce_once(r, r,
							  which ? f->curve->n.m : f->curve->p.m, n);
					tbn_mod(&want, &t, m);
					limbs_eq(r, &want, n, "reduce_once");
				}
			}
		}
	}
}

static void test_inv(void **state)
{
	uint64_t rng = 3;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		size_t n = tc->limbs;
		for (int it = 0; it < 12; it++) {
			for (int which = 0; which < 2; which++) {
				const tbn *m = which ? &tc->n : &tc->p;
				tbn a, am, want;
				uint64_t al[VG_EC_MAX_LIMBS], r[VG_EC_MAX_LIMBS];
				operand(&rng, &a, m, &tc->R,
					it < 3 ? it : 7); /* 0, 1, m - 1, random */
				tbn_mod(&a, &a, m);
				tbn_mulmod(&am, &a, &tc->R, m); /* a R */
				tbn_to_limbs(al, n, &am);
				if (which)
					f->sc_inv(f, r, al);
				else
					f->fe_inv(f, r, al);
				tbn_invmod(&want, &a, m); /* a^-1, 0 for 0 */
				tbn_mulmod(&want, &want, &tc->R, m);
				limbs_eq(r, &want, n, which ? "sc_inv" : "fe_inv");
			}
		}
	}
}

static void test_helpers(void **state)
{
	(void)state;
	uint64_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 5}, z[4] = {0}, r[4];
	uint8_t bytes[32], want[32];
	assert_int_equal(vg_ec_lt(a, b, 4), 1);
	assert_int_equal(vg_ec_lt(b, a, 4), 0);
	assert_int_equal(vg_ec_lt(a, a, 4), 0);
	assert_int_equal(vg_ec_eq(a, a, 4), 1);
	assert_int_equal(vg_ec_eq(a, b, 4), 0);
	assert_int_equal(vg_ec_iszero(z, 4), 1);
	assert_int_equal(vg_ec_iszero(a, 4), 0);
	memcpy(r, a, sizeof(r));
	vg_ec_cmov(r, b, 4, 0);
	assert_memory_equal(r, a, sizeof(r));
	vg_ec_cmov(r, b, 4, 1);
	assert_memory_equal(r, b, sizeof(r));
	/* big-endian: the last byte is the low byte of limb 0 */
	vg_ec_to_bytes(bytes, a, 4);
	memset(want, 0, 32);
	want[31] = 1;
	want[23] = 2;
	want[15] = 3;
	want[7] = 4;
	assert_memory_equal(bytes, want, 32);
	vg_ec_from_bytes(r, bytes, 4);
	assert_memory_equal(r, a, sizeof(r));
}

/* The constants and tables against the standard and OpenSSL. */
static void test_constants(void **state)
{
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct vg_ec_curve *c = f->curve;
		vg_ecdsa_curve id = curve_of(f);
		const struct tec_curve *tc = tec_curve(id);
		size_t n = tc->limbs;
		tbn t, one;

		assert_int_equal(c->limbs, tc->limbs);
		assert_int_equal(c->bytes, tc->bytes);
		limbs_eq(c->p.m, &tc->p, n, "p");
		limbs_eq(c->n.m, &tc->n, n, "n");
		tbn_mod(&t, &tc->R, &tc->p);
		limbs_eq(c->p.one, &t, n, "R mod p");
		tbn_mulmod(&t, &t, &t, &tc->p);
		limbs_eq(c->p.rr, &t, n, "R^2 mod p");
		tbn_mod(&t, &tc->R, &tc->n);
		limbs_eq(c->n.one, &t, n, "R mod n");
		tbn_mulmod(&t, &t, &t, &tc->n);
		limbs_eq(c->n.rr, &t, n, "R^2 mod n");
		tbn_mulmod(&t, &tc->b, &tc->R, &tc->p);
		limbs_eq(c->b, &t, n, "b R");
		assert_true(c->p.m[0] * c->p.m0inv == UINT64_MAX); /* m m0inv = -1 mod 2^64 */
		assert_true(c->n.m[0] * c->n.m0inv == UINT64_MAX);
		assert_int_equal(c->comb_rows, VG_EC_COMB_ROWS(n));

		/* G and every table entry: x R, y R of OpenSSL's multiple. */
		uint8_t k[64], pt[97];
		size_t len;
		tbn_from_u64(&one, 1);
		memset(k, 0, sizeof(k));
		k[63] = 1;
		tos_mul(id, pt, &len, k, 64, NULL);
		tbn_from_be(&t, pt + 1, tc->bytes);
		tbn_mulmod(&t, &t, &tc->R, &tc->p);
		limbs_eq(c->gx, &t, n, "G.x R");
		for (size_t i = 0; i < c->comb_rows; i++) {
			for (size_t j = 0; j < VG_EC_COMB_ENTRIES; j++) {
				/* k = (j + 1) 2^(7 i) */
				tbn_from_u64(&t, j + 1);
				tbn_shl(&t, &t, (unsigned)(VG_EC_COMB_W * i));
				tbn_to_be(k, 64, &t);
				tos_mul(id, pt, &len, k, 64, NULL);
				const uint64_t *e = c->comb + (i * VG_EC_COMB_ENTRIES + j) * 2 * n;
				tbn_from_be(&t, pt + 1, tc->bytes);
				tbn_mulmod(&t, &t, &tc->R, &tc->p);
				limbs_eq(e, &t, n, "comb x");
				tbn_from_be(&t, pt + 1 + tc->bytes, tc->bytes);
				tbn_mulmod(&t, &t, &tc->R, &tc->p);
				limbs_eq(e + n, &t, n, "comb y");
			}
		}
		/* comb5 (P-256 only): entry j of row i = (j + 1) 2^(5 i) G */
		assert_int_equal(c->comb5_rows, n == 4 ? VG_EC_COMB5_ROWS(n) : 0);
		assert_true((c->comb5 != NULL) == (n == 4));
		for (size_t i = 0; i < c->comb5_rows; i++) {
			for (size_t j = 0; j < VG_EC_COMB5_ENTRIES; j++) {
				tbn_from_u64(&t, j + 1);
				tbn_shl(&t, &t, (unsigned)(VG_EC_COMB5_W * i));
				tbn_to_be(k, 64, &t);
				tos_mul(id, pt, &len, k, 64, NULL);
				const uint64_t *e = c->comb5 + (i * VG_EC_COMB5_ENTRIES + j) * 2 * n;
				tbn_from_be(&t, pt + 1, tc->bytes);
				tbn_mulmod(&t, &t, &tc->R, &tc->p);
				limbs_eq(e, &t, n, "comb5 x");
				tbn_from_be(&t, pt + 1 + tc->bytes, tc->bytes);
				tbn_mulmod(&t, &t, &tc->R, &tc->p);
				limbs_eq(e + n, &t, n, "comb5 y");
			}
		}
		for (size_t j = 0; j < VG_EC_GNAF_ENTRIES; j++) {
			tbn_from_u64(&t, 2 * j + 1);
			tbn_to_be(k, 64, &t);
			tos_mul(id, pt, &len, k, 64, NULL);
			const uint64_t *e = c->g_odd + j * 2 * n;
			tbn_from_be(&t, pt + 1, tc->bytes);
			tbn_mulmod(&t, &t, &tc->R, &tc->p);
			limbs_eq(e, &t, n, "g_odd x");
			tbn_from_be(&t, pt + 1 + tc->bytes, tc->bytes);
			tbn_mulmod(&t, &t, &tc->R, &tc->p);
			limbs_eq(e + n, &t, n, "g_odd y");
		}
	}
}

/* ---- points ---- */

/* Our projective point from an OpenSSL encoding (04 || X || Y, or 00 for
 * the identity), with a random Z so the formulas see general inputs. */
static void point_from(const struct vg_ec_impl *f, const struct tec_curve *tc, uint64_t *rng,
		       vg_ec_point *P, const uint8_t *enc)
{
	tbn x, y, z, t;
	uint8_t zb[48];
	size_t n = tc->limbs;

	memset(P, 0, sizeof(*P));
	tec_rand_bytes(rng, zb, tc->bytes);
	tbn_from_be(&z, zb, tc->bytes);
	tbn_mod(&z, &z, &tc->p);
	if (tbn_is_zero(&z))
		tbn_from_u64(&z, 7);
	if (enc[0] == 0) { /* (0 : Z : 0) is the identity for any Z != 0 */
		tbn_from_u64(&x, 0);
		tbn_from_u64(&y, 1);
	} else {
		tbn_from_be(&x, enc + 1, tc->bytes);
		tbn_from_be(&y, enc + 1 + tc->bytes, tc->bytes);
	}
	/* X = x z R, Y = y z R, Z = z R (mod p); for the identity Z = 0 */
	tbn_mulmod(&t, &x, &z, &tc->p);
	tbn_mulmod(&t, &t, &tc->R, &tc->p);
	tbn_to_limbs(P->x, n, &t);
	tbn_mulmod(&t, &y, &z, &tc->p);
	tbn_mulmod(&t, &t, &tc->R, &tc->p);
	tbn_to_limbs(P->y, n, &t);
	if (enc[0] != 0) {
		tbn_mulmod(&t, &z, &tc->R, &tc->p);
		tbn_to_limbs(P->z, n, &t);
	}
	(void)f;
}

/* P (projective, Montgomery) equals the OpenSSL encoding: X == x Z and
 * Y == y Z (the Montgomery factors cancel), coordinates reduced, and the
 * identity exactly when Z == 0 (then X == 0, Y != 0). */
static void expect_point(const struct tec_curve *tc, const vg_ec_point *P, const uint8_t *enc,
			 const char *what)
{
	tbn X, Y, Z, t;
	size_t n = tc->limbs;

	tbn_from_limbs(&X, P->x, n);
	tbn_from_limbs(&Y, P->y, n);
	tbn_from_limbs(&Z, P->z, n);
	if (tbn_cmp(&X, &tc->p) >= 0 || tbn_cmp(&Y, &tc->p) >= 0 || tbn_cmp(&Z, &tc->p) >= 0)
		fail_msg("%s: coordinate not reduced", what);
	if (enc[0] == 0) {
		if (!tbn_is_zero(&Z) || !tbn_is_zero(&X) || tbn_is_zero(&Y))
			fail_msg("%s: expected the identity", what);
		return;
	}
	if (tbn_is_zero(&Z))
		fail_msg("%s: unexpected identity", what);
	tbn_from_be(&t, enc + 1, tc->bytes);
	tbn_mulmod(&t, &t, &Z, &tc->p);
	if (tbn_cmp(&t, &X) != 0)
		fail_msg("%s: wrong x", what);
	tbn_from_be(&t, enc + 1 + tc->bytes, tc->bytes);
	tbn_mulmod(&t, &t, &Z, &tc->p);
	if (tbn_cmp(&t, &Y) != 0)
		fail_msg("%s: wrong y", what);
}

/* A random multiple of G (OpenSSL encoding), or special ones. */
static void rand_point(const struct tec_curve *tc, uint64_t *rng, uint8_t *enc, uint8_t *k)
{
	size_t len;
	tec_rand_bytes(rng, k, tc->bytes);
	tos_mul(tc->id, enc, &len, k, tc->bytes, NULL);
}

static void negate(const struct tec_curve *tc, uint8_t *out, const uint8_t *enc)
{
	tbn y;
	memcpy(out, enc, 1 + 2 * tc->bytes);
	if (enc[0] == 0)
		return;
	tbn_from_be(&y, enc + 1 + tc->bytes, tc->bytes);
	tbn_sub(&y, &tc->p, &y);
	tbn_to_be(out + 1 + tc->bytes, tc->bytes, &y);
}

static void test_point_formulas(void **state)
{
	uint64_t rng = 4;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		size_t n = tc->limbs;
		uint8_t O[1] = {0};
		for (int it = 0; it < 40; it++) {
			uint8_t a[97], b[97], want[97], k[48];
			size_t len;
			vg_ec_point P, Q, R;
			rand_point(tc, &rng, a, k);
			switch (it % 5) {
			case 0: rand_point(tc, &rng, b, k); break;
			case 1: memcpy(b, a, sizeof(a)); break; /* P + P */
			case 2: negate(tc, b, a); break;        /* P + (-P) */
			case 3: b[0] = 0; break;                /* P + O */
			default:
				a[0] = 0;
				rand_point(tc, &rng, b, k);
				break; /* O + Q */
			}
			point_from(f, tc, &rng, &P, a);
			point_from(f, tc, &rng, &Q, b);
			tos_add(tc->id, want, &len, a, b);
			vg_ec_point_add(f, &R, &P, &Q);
			expect_point(tc, &R, want, "add");
			R = P; /* aliasing */
			vg_ec_point_add(f, &R, &R, &Q);
			expect_point(tc, &R, want, "add in place");
			if (b[0] != 0) { /* the mixed addition takes an affine Q only */
				uint64_t x[VG_EC_MAX_LIMBS], y[VG_EC_MAX_LIMBS];
				tbn t;
				tbn_from_be(&t, b + 1, tc->bytes);
				tbn_mulmod(&t, &t, &tc->R, &tc->p);
				tbn_to_limbs(x, n, &t);
				tbn_from_be(&t, b + 1 + tc->bytes, tc->bytes);
				tbn_mulmod(&t, &t, &tc->R, &tc->p);
				tbn_to_limbs(y, n, &t);
				vg_ec_point_madd(f, &R, &P, x, y);
				expect_point(tc, &R, want, "madd");
			}
			tos_add(tc->id, want, &len, a, a);
			vg_ec_point_dbl(f, &R, &P);
			expect_point(tc, &R, want, "dbl");
		}
		/* O + O, 2 O */
		vg_ec_point P, R;
		vg_ec_point_identity(f, &P);
		vg_ec_point_add(f, &R, &P, &P);
		expect_point(tc, &R, O, "O + O");
		vg_ec_point_dbl(f, &R, &P);
		expect_point(tc, &R, O, "2 O");
	}
}

/* Scalars for the multiplications: random below R, and the edges. */
static void scalar(const struct tec_curve *tc, uint64_t *rng, int kind, uint64_t *k)
{
	tbn t, one;
	size_t n = tc->limbs;
	tbn_from_u64(&one, 1);
	switch (kind) {
	case 0: tbn_from_u64(&t, 0); break;
	case 1: tbn_from_u64(&t, 1); break;
	case 2: tbn_from_u64(&t, 2); break;
	case 3: tbn_sub(&t, &tc->n, &one); break; /* n - 1: -G */
	case 4: t = tc->n; break;                 /* n: the identity */
	case 5: tbn_add(&t, &tc->n, &one); break;
	case 6: tbn_sub(&t, &tc->R, &one); break; /* R - 1: all ones */
	case 7: /* every 7-bit window 1000000b: every comb digit +64 */
	case 8: /* every window 1000001b: digits -63 with carries */
	case 9: /* every 5-bit window 10000b: every comb5 digit +16 */
	case 10: { /* every window 10001b: digits -15 with carries */
		size_t w = kind < 9 ? VG_EC_COMB_W : VG_EC_COMB5_W;
		memset(&t, 0, sizeof(t));
		for (size_t i = 0; i + w <= 64 * n; i += w) {
			size_t b = i + w - 1;
			t.d[b / 32] |= 1u << (b % 32);
			if (kind == 8 || kind == 10)
				t.d[i / 32] |= 1u << (i % 32);
		}
		break;
	}
	default: {
		uint8_t b[48];
		tec_rand_bytes(rng, b, tc->bytes);
		tbn_from_be(&t, b, tc->bytes);
	}
	}
	tbn_to_limbs(k, n, &t);
}

static void k_bytes(const struct tec_curve *tc, uint8_t *out, const uint64_t *k)
{
	tbn t;
	tbn_from_limbs(&t, k, tc->limbs);
	tbn_to_be(out, tc->bytes, &t);
}

static void test_base_mul(void **state)
{
	uint64_t rng = 5;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		for (int it = 0; it < 11 + 40; it++) {
			uint64_t k[VG_EC_MAX_LIMBS];
			uint8_t kb[48], want[97];
			size_t len;
			vg_ec_point R;
			scalar(tc, &rng, it, k);
			k_bytes(tc, kb, k);
			tos_mul(tc->id, want, &len, kb, tc->bytes, NULL);
			f->base_mul(f, &R, k);
			expect_point(tc, &R, want, "base_mul");
		}
	}
}

static void test_point_mul(void **state)
{
	uint64_t rng = 6;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		for (int it = 0; it < 9 + 15; it++) {
			uint64_t k[VG_EC_MAX_LIMBS];
			uint8_t kb[48], pk[48], p[97], want[97];
			size_t len;
			vg_ec_point P, R;
			scalar(tc, &rng, it, k);
			k_bytes(tc, kb, k);
			rand_point(tc, &rng, p, pk);
			point_from(f, tc, &rng, &P, p);
			tos_mul(tc->id, want, &len, kb, tc->bytes, p);
			f->point_mul(f, &R, k, &P);
			expect_point(tc, &R, want, "point_mul");
		}
	}
}

static void test_dsm(void **state)
{
	uint64_t rng = 7;
	(void)state;
	for (size_t ri = 0; ri < nrows; ri++) {
		const struct vg_ec_impl *f = rows[ri];
		const struct tec_curve *tc = tec_curve(curve_of(f));
		for (int it = 0; it < 9 * 3 + 20; it++) {
			uint64_t u1[VG_EC_MAX_LIMBS], u2[VG_EC_MAX_LIMBS];
			uint8_t b1[48], b2[48], pk[48], q[97], a1[97], a2[97], want[97];
			size_t len;
			vg_ec_point Q, R;
			/* edges of u1 with random u2, of u2 with random u1, both */
			scalar(tc, &rng, it < 9 ? it : it < 18 ? 100 : it < 27 ? it - 18 : 100, u1);
			scalar(tc, &rng,
			       it < 9    ? 100
			       : it < 18 ? it - 9
			       : it < 27 ? it - 18
					 : 100,
			       u2);
			k_bytes(tc, b1, u1);
			k_bytes(tc, b2, u2);
			rand_point(tc, &rng, q, pk);
			if (it % 7 == 3)
				tos_mul(tc->id, q, &len, (const uint8_t[]){1}, 1, NULL); /* Q = G */
			point_from(f, tc, &rng, &Q, q);
			tos_mul(tc->id, a1, &len, b1, tc->bytes, NULL);
			tos_mul(tc->id, a2, &len, b2, tc->bytes, q);
			tos_add(tc->id, want, &len, a1, a2);
			f->dsm(f, &R, u1, u2, &Q);
			expect_point(tc, &R, want, "dsm");
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_helpers),   cmocka_unit_test(test_mul),
		cmocka_unit_test(test_add_sub),   cmocka_unit_test(test_inv),
		cmocka_unit_test(test_constants), cmocka_unit_test(test_point_formulas),
		cmocka_unit_test(test_base_mul),  cmocka_unit_test(test_point_mul),
		cmocka_unit_test(test_dsm),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
