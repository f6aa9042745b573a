/* test_fe.c: GF(2^255 - 19) and scalar (mod L) arithmetic against the
 * independent bit-serial reference of ec_testutil.c, on random inputs
 * (including limbs at the top of the accepted bound) and edge values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "c25519/fe.h"
#include "c25519/sc.h"
#include "ec_testutil.h"

#define ITER 300

static ect_num P, LL;

static int setup(void **state)
{
	(void)state;
	ect_p(&P);
	ect_l(&LL);
	return 0;
}

/* Assert that h represents x mod p (through the canonical encoding). */
static void expect_fe(const vg_fe *h, const ect_num *x, const char *what)
{
	ect_num r;
	uint8_t want[32], got[32];
	ect_mod(&r, x, &P);
	ect_to_le(want, 32, &r);
	vg_fe_tobytes(got, h);
	if (memcmp(want, got, 32) != 0)
		fail_msg("%s: field result differs from the reference", what);
}

/* A random element whose limbs use the whole accepted range (< 2^52), so
 * unreduced representations are exercised, not only canonical ones. */
static void rand_fe(uint64_t *rng, vg_fe *h, ect_num *val)
{
	uint64_t mode = ect_rand(rng) % 4;
	for (int i = 0; i < 5; i++) {
		uint64_t x = ect_rand(rng);
		switch (mode) {
		case 0: x &= ((uint64_t)1 << 52) - 1; break;      /* anywhere below 2^52 */
		case 1: x &= ((uint64_t)1 << 51) - 1; break;      /* reduced-size limbs */
		case 2: x = ((uint64_t)1 << 52) - 1 - (x & 0xff); break; /* near the bound */
		default: x = (x & 1) ? ((uint64_t)1 << 51) - 1 - (x & 31) : (x & 31); break;
		}
		h->v[i] = x;
	}
	ect_from_limbs51(val, h->v);
}

static void test_constants(void **state)
{
	(void)state;
	ect_num d, t, e, one, four;
	/* d = -121665 / 121666 mod p; inverse by Fermat in the reference. */
	ect_num a, b, pm2;
	ect_from_u64(&a, 121665);
	ect_from_u64(&b, 121666);
	ect_from_u64(&t, 2);
	ect_sub(&pm2, &P, &t);
	ect_powmod(&t, &b, &pm2, &P);
	ect_mulmod(&d, &a, &t, &P);
	ect_sub(&d, &P, &d);
	expect_fe(&vg_fe_d, &d, "d");
	ect_addmod(&t, &d, &d, &P);
	expect_fe(&vg_fe_d2, &t, "2d");
	/* sqrt(-1) = 2^((p-1)/4) */
	ect_from_u64(&one, 1);
	ect_from_u64(&four, 4);
	ect_sub(&e, &P, &one); /* p - 1 = 4 * (2^253 - 5) */
	ect_num q;
	memset(&q, 0, sizeof(q));
	for (int i = 0; i < ECT_LIMBS; i++) /* e / 4: shift right by 2 */
		q.w[i] = e.w[i] >> 2 | (i + 1 < ECT_LIMBS ? e.w[i + 1] << 30 : 0);
	ect_from_u64(&t, 2);
	ect_powmod(&t, &t, &q, &P);
	expect_fe(&vg_fe_sqrtm1, &t, "sqrt(-1)");
	(void)four;
}

static void test_bytes_roundtrip(void **state)
{
	(void)state;
	uint64_t rng = 1;
	uint8_t s[32], got[32], want[32];
	ect_num x, r;

	for (int i = 0; i < ITER; i++) {
		ect_rand_bytes(&rng, s, 32);
		if (i % 3 == 0) /* values in [p, 2^256): high bytes all ones */
			memset(s + 1, 0xff, 31);
		vg_fe h;
		vg_fe_frombytes(&h, s);
		vg_fe_tobytes(got, &h);
		s[31] &= 0x7f; /* frombytes ignores bit 255 */
		ect_from_le(&x, s, 32);
		ect_mod(&r, &x, &P);
		ect_to_le(want, 32, &r);
		assert_memory_equal(got, want, 32);
		for (int j = 0; j < 5; j++)
			assert_true(h.v[j] < ((uint64_t)1 << 51));
	}
}

/* Encodings at and around p, with the canonical results spelled out:
 * input p + in_off (or in_off when in_p is 0) must encode as
 * out_off (or p + out_off when out_off is negative). */
static void test_tobytes_edges(void **state)
{
	(void)state;
	static const struct {
		int in_p, in_off, out_off;
	} cases[] = {
		{0, 0, 0},    /* 0 */
		{1, 0, 0},    /* p -> 0 */
		{1, 1, 1},    /* p + 1 -> 1 */
		{1, 18, 18},  /* 2^255 - 1 = p + 18 -> 18 */
		{1, -1, -1},  /* p - 1 stays */
		{1, -19, -19} /* 2^255 - 38 stays */
	};
	uint8_t s[32], got[32], want[32];
	vg_fe h;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ect_num x, w, off;
		ect_from_u64(&x, 0);
		if (cases[i].in_p)
			x = P;
		ect_from_u64(&off, (uint64_t)(cases[i].in_off < 0 ? -cases[i].in_off : cases[i].in_off));
		if (cases[i].in_off < 0)
			ect_sub(&x, &x, &off);
		else
			ect_add(&x, &x, &off);
		ect_from_u64(&off, (uint64_t)(cases[i].out_off < 0 ? -cases[i].out_off : cases[i].out_off));
		if (cases[i].out_off < 0)
			ect_sub(&w, &P, &off);
		else
			w = off;
		ect_to_le(s, 32, &x);
		ect_to_le(want, 32, &w);
		vg_fe_frombytes(&h, s);
		vg_fe_tobytes(got, &h);
		assert_memory_equal(got, want, 32);
		s[31] |= 0x80; /* bit 255 is ignored */
		vg_fe_frombytes(&h, s);
		vg_fe_tobytes(got, &h);
		assert_memory_equal(got, want, 32);
	}

	/* Unreduced limb patterns: all limbs at the bound 2^52 - 1; p itself
	 * as limbs; p plus 2^51 - 1 in limb 0 (above 2^255). */
	ect_num x;
	for (int i = 0; i < 5; i++)
		h.v[i] = ((uint64_t)1 << 52) - 1;
	ect_from_limbs51(&x, h.v);
	expect_fe(&h, &x, "max limbs");
	vg_fe pp = {{((uint64_t)1 << 51) - 19, ((uint64_t)1 << 51) - 1, ((uint64_t)1 << 51) - 1,
		     ((uint64_t)1 << 51) - 1, ((uint64_t)1 << 51) - 1}};
	vg_fe_tobytes(got, &pp);
	memset(want, 0, 32);
	assert_memory_equal(got, want, 32);
	pp.v[0] += ((uint64_t)1 << 51) - 1;
	ect_from_limbs51(&x, pp.v);
	expect_fe(&pp, &x, "above 2^255 as limbs");
}

static void test_arith(void **state)
{
	(void)state;
	uint64_t rng = 2;
	for (int i = 0; i < ITER; i++) {
		vg_fe f, g, h;
		ect_num a, b, r;
		rand_fe(&rng, &f, &a);
		rand_fe(&rng, &g, &b);

		vg_fe_add(&h, &f, &g);
		ect_addmod(&r, &a, &b, &P);
		expect_fe(&h, &r, "add");
		for (int j = 0; j < 5; j++)
			assert_true(h.v[j] < ((uint64_t)1 << 52));

		vg_fe_sub(&h, &f, &g);
		ect_submod(&r, &a, &b, &P);
		expect_fe(&h, &r, "sub");
		for (int j = 0; j < 5; j++)
			assert_true(h.v[j] < ((uint64_t)1 << 52));

		vg_fe_neg(&h, &f);
		ect_num z;
		ect_from_u64(&z, 0);
		ect_submod(&r, &z, &a, &P);
		expect_fe(&h, &r, "neg");

		vg_fe_mul(&h, &f, &g);
		ect_mulmod(&r, &a, &b, &P);
		expect_fe(&h, &r, "mul");
		for (int j = 0; j < 5; j++)
			assert_true(h.v[j] < ((uint64_t)1 << 52));

		vg_fe_sq(&h, &f);
		ect_mulmod(&r, &a, &a, &P);
		expect_fe(&h, &r, "sq");
		vg_fe m;
		vg_fe_mul(&m, &f, &f);
		uint8_t x1[32], x2[32];
		vg_fe_tobytes(x1, &h);
		vg_fe_tobytes(x2, &m);
		assert_memory_equal(x1, x2, 32); /* sq == mul(f, f) */

		uint32_t c = (uint32_t)ect_rand(&rng);
		if (i == 0)
			c = 121665;
		vg_fe_mul_small(&h, &f, c);
		ect_from_u64(&b, c);
		ect_mulmod(&r, &a, &b, &P);
		expect_fe(&h, &r, "mul_small");

		/* in-place (aliased) forms */
		h = f;
		vg_fe_mul(&h, &h, &h);
		ect_mulmod(&r, &a, &a, &P);
		expect_fe(&h, &r, "mul aliased");
		h = f;
		vg_fe_sub(&h, &h, &h);
		ect_from_u64(&r, 0);
		expect_fe(&h, &r, "sub aliased");
	}
}

static void test_sqn(void **state)
{
	(void)state;
	uint64_t rng = 3;
	vg_fe f, h, g;
	ect_num a, r;
	rand_fe(&rng, &f, &a);
	vg_fe_sqn(&h, &f, 7);
	g = f;
	for (int i = 0; i < 7; i++)
		vg_fe_sq(&g, &g);
	uint8_t x1[32], x2[32];
	vg_fe_tobytes(x1, &h);
	vg_fe_tobytes(x2, &g);
	assert_memory_equal(x1, x2, 32);
	ect_num e;
	ect_from_u64(&e, 128);
	ect_powmod(&r, &a, &e, &P);
	expect_fe(&h, &r, "sqn(7)");
}

static void test_invert(void **state)
{
	(void)state;
	uint64_t rng = 4;
	ect_num pm2, two, one, r;
	ect_from_u64(&two, 2);
	ect_from_u64(&one, 1);
	ect_sub(&pm2, &P, &two);

	for (int i = 0; i < 40; i++) {
		vg_fe f, inv, prod;
		ect_num a;
		rand_fe(&rng, &f, &a);
		vg_fe_invert(&inv, &f);
		vg_fe_mul(&prod, &f, &inv);
		ect_mod(&r, &a, &P);
		if (ect_cmp(&r, &(ect_num){{0}}) != 0)
			expect_fe(&prod, &one, "f * 1/f");
		/* (a*b) * 1/b == a */
		vg_fe g, ab;
		ect_num b;
		rand_fe(&rng, &g, &b);
		vg_fe_mul(&ab, &f, &g);
		vg_fe_invert(&inv, &g);
		vg_fe_mul(&prod, &ab, &inv);
		expect_fe(&prod, &a, "(a*b)/b");
		if (i < 3) { /* against the reference exponentiation, a few times */
			vg_fe_invert(&inv, &f);
			ect_powmod(&r, &a, &pm2, &P);
			expect_fe(&inv, &r, "invert vs a^(p-2)");
		}
	}
	/* 0, and p (an unreduced zero), invert to 0. */
	vg_fe z, inv;
	vg_fe_0(&z);
	vg_fe_invert(&inv, &z);
	assert_true(vg_fe_iszero(&inv));
	uint8_t pb[32];
	ect_to_le(pb, 32, &P);
	vg_fe_frombytes(&z, pb);
	vg_fe_invert(&inv, &z);
	assert_true(vg_fe_iszero(&inv));
}

static void test_pow22523(void **state)
{
	(void)state;
	uint64_t rng = 5;
	ect_num e, five, eight, r, t;
	/* e = (p - 5) / 8 = 2^252 - 3 */
	memset(&e, 0, sizeof(e));
	e.w[252 / 32] = 1u << (252 % 32);
	ect_from_u64(&t, 3);
	ect_sub(&e, &e, &t);
	ect_from_u64(&five, 5);
	ect_from_u64(&eight, 8);
	ect_mul(&t, &e, &eight);
	ect_add(&t, &t, &five);
	assert_int_equal(ect_cmp(&t, &P), 0); /* 8e + 5 == p */
	for (int i = 0; i < 3; i++) {
		vg_fe f, h;
		ect_num a;
		rand_fe(&rng, &f, &a);
		vg_fe_pow22523(&h, &f);
		ect_powmod(&r, &a, &e, &P);
		expect_fe(&h, &r, "pow22523");
	}
}

static void test_cmov_cswap(void **state)
{
	(void)state;
	uint64_t rng = 6;
	vg_fe f, g, f0, g0;
	ect_num a, b;
	rand_fe(&rng, &f0, &a);
	rand_fe(&rng, &g0, &b);

	f = f0, g = g0;
	vg_fe_cmov(&f, &g, 0);
	assert_memory_equal(&f, &f0, sizeof(f));
	vg_fe_cmov(&f, &g, 1);
	assert_memory_equal(&f, &g0, sizeof(f));

	f = f0, g = g0;
	vg_fe_cswap(&f, &g, 0);
	assert_memory_equal(&f, &f0, sizeof(f));
	assert_memory_equal(&g, &g0, sizeof(g));
	vg_fe_cswap(&f, &g, 1);
	assert_memory_equal(&f, &g0, sizeof(f));
	assert_memory_equal(&g, &f0, sizeof(g));
}

static void test_predicates(void **state)
{
	(void)state;
	uint64_t rng = 7;
	vg_fe f, g;
	uint8_t s[32];

	vg_fe_0(&f);
	assert_int_equal(vg_fe_iszero(&f), 1);
	assert_int_equal(vg_fe_isnegative(&f), 0);
	vg_fe_1(&f);
	assert_int_equal(vg_fe_iszero(&f), 0);
	assert_int_equal(vg_fe_isnegative(&f), 1);
	vg_fe_neg(&g, &f); /* p - 1: even */
	assert_int_equal(vg_fe_isnegative(&g), 0);
	/* p as bytes is zero; p + 1 is one (odd). */
	ect_to_le(s, 32, &P);
	vg_fe_frombytes(&f, s);
	assert_int_equal(vg_fe_iszero(&f), 1);
	assert_int_equal(vg_fe_isnegative(&f), 0);
	s[0]++;
	vg_fe_frombytes(&f, s);
	assert_int_equal(vg_fe_iszero(&f), 0);
	assert_int_equal(vg_fe_isnegative(&f), 1);

	for (int i = 0; i < ITER; i++) {
		ect_num a, r;
		uint8_t b[32];
		rand_fe(&rng, &f, &a);
		ect_mod(&r, &a, &P);
		ect_to_le(b, 32, &r);
		assert_int_equal(vg_fe_isnegative(&f), b[0] & 1);
		assert_int_equal(vg_fe_iszero(&f), ect_cmp(&r, &(ect_num){{0}}) == 0);
		vg_fe_frombytes(&g, b); /* same value, canonical limbs */
		assert_int_equal(vg_fe_eq(&f, &g), 1);
		g.v[2] ^= 1;
		assert_int_equal(vg_fe_eq(&f, &g), 0);
	}
}

/* ---- scalars mod L ---- */

static void test_sc_reduce(void **state)
{
	(void)state;
	uint64_t rng = 8;
	uint8_t in[64], got[32], want[32];
	ect_num x, r;

	for (int i = 0; i < ITER + 4; i++) {
		if (i < ITER) {
			ect_rand_bytes(&rng, in, 64);
		} else {
			int k = i - ITER; /* edges: 0, 2^512 - 1, L, L - 1 */
			memset(in, k == 1 ? 0xff : 0, 64);
			if (k >= 2) {
				ect_num t = LL, one;
				ect_from_u64(&one, 1);
				if (k == 3)
					ect_sub(&t, &t, &one);
				ect_to_le(in, 32, &t);
			}
		}
		vg_sc_reduce(got, in);
		ect_from_le(&x, in, 64);
		ect_mod(&r, &x, &LL);
		ect_to_le(want, 32, &r);
		assert_memory_equal(got, want, 32);
	}
	/* Multiples of L near the top reduce to 0 .. small: k*L + j */
	for (uint64_t k = 1; k < 2000; k += 97) {
		ect_num kk, t, j;
		ect_from_u64(&kk, (k << 40) ^ ect_rand(&rng));
		ect_mul(&t, &LL, &kk);
		ect_from_u64(&j, k % 3);
		ect_add(&t, &t, &j);
		ect_to_le(in, 64, &t);
		vg_sc_reduce(got, in);
		memset(want, 0, 32);
		want[0] = (uint8_t)(k % 3);
		assert_memory_equal(got, want, 32);
	}
}

static void test_sc_muladd(void **state)
{
	(void)state;
	uint64_t rng = 9;
	uint8_t a[32], b[32], c[32], got[32], want[32];
	for (int i = 0; i < ITER; i++) {
		ect_rand_bytes(&rng, a, 32);
		ect_rand_bytes(&rng, b, 32);
		ect_rand_bytes(&rng, c, 32);
		if (i == 0) {
			memset(a, 0xff, 32);
			memset(b, 0xff, 32);
			memset(c, 0xff, 32);
		}
		vg_sc_muladd(got, a, b, c);
		ect_num x, y, z, t, r;
		ect_from_le(&x, a, 32);
		ect_from_le(&y, b, 32);
		ect_from_le(&z, c, 32);
		ect_mul(&t, &x, &y);
		ect_add(&t, &t, &z);
		ect_mod(&r, &t, &LL);
		ect_to_le(want, 32, &r);
		assert_memory_equal(got, want, 32);
		vg_sc_muladd(a, a, b, c); /* aliased output */
		assert_memory_equal(a, want, 32);
	}
}

/* vg_sc_reduce(x) against the reference reduction. */
static void expect_reduce(const ect_num *x)
{
	uint8_t in[64], got[32], want[32];
	ect_num r;

	ect_to_le(in, 64, x);
	vg_sc_reduce(got, in);
	ect_mod(&r, x, &LL);
	ect_to_le(want, 32, &r);
	assert_memory_equal(got, want, 32);
}

/* Inputs at the edges of the Barrett estimate: m*L + j and m*L - 1 for
 * remainders j at both ends of [0, L), with m the largest multiple that
 * fits 512 bits and the ones below it, powers of two and random m up to
 * 2^260 (where the estimate falls short by one, the correction runs;
 * where it is exact, it must not). */
static void test_sc_reduce_near_multiples(void **state)
{
	(void)state;
	uint64_t rng = 10;
	ect_num top, rem, one, js[4], ms[40];
	unsigned nm = 0;

	ect_from_u64(&one, 1);
	ect_from_u64(&js[0], 0);
	ect_from_u64(&js[1], 1);
	ect_sub(&js[2], &LL, &one);	/* L - 1 */
	ect_sub(&js[3], &js[2], &one); /* L - 2 */

	/* top = floor((2^512 - 1) / L) * L, and the multiples below it. */
	uint8_t ff[64];
	memset(ff, 0xff, 64);
	ect_from_le(&top, ff, 64);
	ect_mod(&rem, &top, &LL);
	ect_sub(&top, &top, &rem);
	for (unsigned t = 0; t < 8; t++) {
		ms[nm] = top;
		ect_sub(&top, &top, &LL);
		nm++;
	}
	/* 2^k * L, and random m of 64..260 bits, times L. */
	for (unsigned k = 0; k < 260; k += 37) {
		uint8_t b[40] = {0};
		ect_num m;
		b[k / 8] = (uint8_t)(1u << (k % 8));
		ect_from_le(&m, b, sizeof(b));
		ect_mul(&ms[nm++], &m, &LL);
	}
	while (nm < 40) {
		uint8_t b[33];
		ect_num m;
		ect_rand_bytes(&rng, b, sizeof(b));
		b[32] &= (uint8_t)((1u << (ect_rand(&rng) % 5)) - 1); /* up to 2^260 */
		ect_from_le(&m, b, sizeof(b));
		ect_mul(&ms[nm++], &m, &LL);
	}

	for (unsigned i = 0; i < nm; i++) {
		for (unsigned j = 0; j < 4; j++) {
			ect_num x;
			ect_add(&x, &ms[i], &js[j]);
			uint8_t chk[72];
			ect_to_le(chk, 72, &x);
			int fits = 1;
			for (unsigned b = 64; b < 72; b++)
				fits &= chk[b] == 0;
			if (fits)
				expect_reduce(&x);
		}
		if (ect_cmp(&ms[i], &one) > 0) {
			ect_num x;
			ect_sub(&x, &ms[i], &one);
			expect_reduce(&x);
		}
	}
}

/* vg_sc_muladd on every combination of 0, 1, L - 1, L, L + 1 and
 * 2^256 - 1. */
static void test_sc_muladd_edges(void **state)
{
	(void)state;
	uint8_t v[6][32], got[32], want[32];
	ect_num t, one;

	ect_from_u64(&one, 1);
	memset(v, 0, sizeof(v));
	v[1][0] = 1;
	t = LL;
	ect_to_le(v[3], 32, &t);
	ect_sub(&t, &LL, &one);
	ect_to_le(v[2], 32, &t);
	ect_add(&t, &LL, &one);
	ect_to_le(v[4], 32, &t);
	memset(v[5], 0xff, 32);

	for (unsigned i = 0; i < 6; i++)
		for (unsigned j = 0; j < 6; j++)
			for (unsigned k = 0; k < 6; k++) {
				ect_num x, y, z, r;
				vg_sc_muladd(got, v[i], v[j], v[k]);
				ect_from_le(&x, v[i], 32);
				ect_from_le(&y, v[j], 32);
				ect_from_le(&z, v[k], 32);
				ect_mul(&t, &x, &y);
				ect_add(&t, &t, &z);
				ect_mod(&r, &t, &LL);
				ect_to_le(want, 32, &r);
				assert_memory_equal(got, want, 32);
			}
}

static void test_sc_canonical(void **state)
{
	(void)state;
	uint8_t s[32];
	ect_num t, one;
	ect_from_u64(&one, 1);

	ect_to_le(s, 32, &LL);
	assert_int_equal(vg_sc_is_canonical(s), 0); /* L */
	ect_sub(&t, &LL, &one);
	ect_to_le(s, 32, &t);
	assert_int_equal(vg_sc_is_canonical(s), 1); /* L - 1 */
	ect_add(&t, &LL, &one);
	ect_to_le(s, 32, &t);
	assert_int_equal(vg_sc_is_canonical(s), 0); /* L + 1 */
	memset(s, 0, 32);
	assert_int_equal(vg_sc_is_canonical(s), 1);
	memset(s, 0xff, 32);
	assert_int_equal(vg_sc_is_canonical(s), 0);
	memset(s, 0, 32);
	s[31] = 0x10; /* 2^252 < L */
	assert_int_equal(vg_sc_is_canonical(s), 1);
	s[31] = 0x20; /* 2^253 > L */
	assert_int_equal(vg_sc_is_canonical(s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_bytes_roundtrip),
		cmocka_unit_test(test_tobytes_edges),
		cmocka_unit_test(test_arith),
		cmocka_unit_test(test_sqn),
		cmocka_unit_test(test_invert),
		cmocka_unit_test(test_pow22523),
		cmocka_unit_test(test_cmov_cswap),
		cmocka_unit_test(test_predicates),
		cmocka_unit_test(test_sc_reduce),
		cmocka_unit_test(test_sc_reduce_near_multiples),
		cmocka_unit_test(test_sc_muladd),
		cmocka_unit_test(test_sc_muladd_edges),
		cmocka_unit_test(test_sc_canonical),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
