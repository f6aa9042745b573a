/* test_rsa_unit.c: unit tests of the RSA kernel: limb arithmetic and
 * Montgomery against an independent slow reference (32-bit digits,
 * branching long division), key validation, round trips, ranges, PSS
 * sign/verify, PKCS#1 v1.5 known answers and fault detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rsa/bn.h"
#include "dispatch.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_prime.h"
#include "rsa_testkeys.h"
#include "rsa_testutil.h"
#include "vecfile.h"
#include "vg/cpu.h"
#include "vg/rsa.h"
#include "vg/sha2.h"

#define MAXL VG_BN_MAX_LIMBS

/* ---- Reference arithmetic: 32-bit digits, plain branches ---------------- */

/* Enough digits for R^2 with R = 2^(64 MAXL), plus slack. */
#define REF_D (4 * MAXL * 2 + 8)

typedef struct {
	uint32_t d[REF_D];
} ref;

static void ref_from(ref *r, const uint64_t *a, size_t n)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		r->d[2 * i] = (uint32_t)a[i];
		r->d[2 * i + 1] = (uint32_t)(a[i] >> 32);
	}
}

static void ref_to(uint64_t *a, size_t n, const ref *r)
{
	for (size_t i = 0; i < n; i++)
		a[i] = r->d[2 * i] | (uint64_t)r->d[2 * i + 1] << 32;
}

static size_t ref_len(const ref *r)
{
	size_t n = REF_D;
	while (n > 0 && r->d[n - 1] == 0)
		n--;
	return n;
}

static int ref_cmp(const ref *a, const ref *b)
{
	for (size_t i = REF_D; i-- > 0;)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

static void ref_mul(ref *r, const ref *a, const ref *b)
{
	ref t;
	size_t al = ref_len(a), bl = ref_len(b);

	memset(&t, 0, sizeof(t));
	assert_true(al + bl <= REF_D);
	for (size_t i = 0; i < al; i++) {
		uint64_t c = 0;
		for (size_t j = 0; j < bl; j++) {
			uint64_t s = (uint64_t)a->d[i] * b->d[j] + t.d[i + j] + c;
			t.d[i + j] = (uint32_t)s;
			c = s >> 32;
		}
		t.d[i + bl] = (uint32_t)c;
	}
	*r = t;
}

static void ref_shl_digits(ref *r, size_t k)
{
	size_t l = ref_len(r);

	assert_true(l + k <= REF_D);
	memmove(r->d + k, r->d, l * 4);
	memset(r->d, 0, k * 4);
}

/* r = a mod m by binary long division (shift one bit in, subtract if
 * >= m). Slow and branchy: a reference, nothing more. */
static void ref_mod(ref *r, const ref *a, const ref *m)
{
	ref t;
	size_t ml = ref_len(m), al = ref_len(a);

	assert_true(ml > 0 && ml < REF_D);
	memset(&t, 0, sizeof(t));
	for (size_t i = 32 * al; i-- > 0;) {
		uint32_t c = (a->d[i / 32] >> (i % 32)) & 1;
		for (size_t j = 0; j <= ml; j++) {
			uint32_t nc = t.d[j] >> 31;
			t.d[j] = (t.d[j] << 1) | c;
			c = nc;
		}
		if (ref_cmp(&t, m) >= 0) {
			uint64_t borrow = 0;
			for (size_t j = 0; j <= ml; j++) {
				uint64_t s = (uint64_t)t.d[j] - m->d[j] - borrow;
				t.d[j] = (uint32_t)s;
				borrow = (s >> 32) & 1;
			}
		}
	}
	*r = t;
}

/* (a * b) mod m */
static void ref_mulmod(ref *r, const ref *a, const ref *b, const ref *m)
{
	ref t;
	ref_mul(&t, a, b);
	ref_mod(r, &t, m);
}

/* ---- Random operands ------------------------------------------------------ */

static uint64_t rng = 0x5eed0f7e57c0ffeeu;

static void rand_limbs(uint64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = trsa_rand(&rng);
}

/* Odd moduli of n limbs of several shapes. */
static void make_modulus(uint64_t *m, size_t n, int shape)
{
	rand_limbs(m, n);
	switch (shape) {
	case 0: /* full: top bit set */
		m[n - 1] |= (uint64_t)1 << 63;
		break;
	case 1: /* top limb 1 (one limb: m = 5; m = 1 is no modulus) */
		m[n - 1] = n > 1 ? 1 : 5;
		break;
	case 2: /* all ones */
		for (size_t i = 0; i < n; i++)
			m[i] = ~(uint64_t)0;
		break;
	case 3: /* 2^(64(n-1)) + 1, or 3 for one limb */
		for (size_t i = 0; i < n; i++)
			m[i] = 0;
		m[n - 1] |= n > 1 ? 1 : 2;
		break;
	default: /* random top limb, non-zero */
		m[n - 1] = (m[n - 1] >> (trsa_rand(&rng) % 63)) | 1;
		break;
	}
	m[0] |= 1;
}

#define SHAPES 5

/* a random value below m */
static void rand_below(uint64_t *a, const uint64_t *m, size_t n)
{
	ref ra, rm;
	rand_limbs(a, n);
	ref_from(&ra, a, n);
	ref_from(&rm, m, n);
	ref_mod(&ra, &ra, &rm);
	ref_to(a, n, &ra);
}

static const size_t sizes[] = {1, 2, 3, 5, 8, 16, 17, 24, 32, 48, 64};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* ---- bn ------------------------------------------------------------------- */

static void test_bn_bytes(void **state)
{
	uint8_t in[40], out[40];
	uint64_t a[5];

	(void)state;
	for (int i = 0; i < 40; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	/* 40 bytes into 5 limbs: fits; and back. */
	assert_int_equal(vg_bn_from_bytes(a, 5, in, 40), 1);
	assert_true(a[0] == 0xe1e8eff6fd040b12u); /* bytes 32..39, big-endian */
	vg_bn_to_bytes(out, 40, a, 5);
	assert_memory_equal(in, out, 40);
	/* Leading zero bytes beyond the capacity are fine; a non-zero one is
	 * reported. */
	memset(in, 0, 8);
	assert_int_equal(vg_bn_from_bytes(a, 4, in, 40), 1);
	in[3] = 1;
	assert_int_equal(vg_bn_from_bytes(a, 4, in, 40), 0);
	/* Short input zero-extends; to_bytes zero-extends too. */
	assert_int_equal(vg_bn_from_bytes(a, 5, in + 30, 10), 1);
	assert_true(a[2] == 0 && a[3] == 0 && a[4] == 0);
	vg_bn_to_bytes(out, 40, a, 5);
	for (int i = 0; i < 30; i++)
		assert_int_equal(out[i], 0);
	assert_memory_equal(out + 30, in + 30, 10);
	/* Empty input is zero. */
	assert_int_equal(vg_bn_from_bytes(a, 5, in, 0), 1);
	assert_true(vg_bn_is_zero(a, 5));
}

static void test_bn_add_sub(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		size_t n = sizes[s];
		for (int it = 0; it < 20; it++) {
			uint64_t a[MAXL], b[MAXL], r[MAXL], back[MAXL];
			ref ra, rb, rr, rs;
			rand_limbs(a, n);
			rand_limbs(b, n);
			if (it == 0)
				for (size_t i = 0; i < n; i++)
					a[i] = ~(uint64_t)0; /* carries all the way */
			uint64_t c = vg_bn_add(r, a, b, n);
			/* reference: a + b as n+1 limbs */
			ref_from(&ra, a, n);
			ref_from(&rb, b, n);
			uint64_t cc = 0;
			for (size_t i = 0; i < REF_D; i++) {
				cc += (uint64_t)ra.d[i] + rb.d[i];
				rs.d[i] = (uint32_t)cc;
				cc >>= 32;
			}
			ref_from(&rr, r, n);
			rr.d[2 * n] = (uint32_t)c;
			assert_int_equal(ref_cmp(&rr, &rs), 0);
			/* subtraction undoes it, and the borrow equals the carry */
			uint64_t bo = vg_bn_sub(back, r, b, n);
			assert_memory_equal(back, a, n * 8);
			assert_int_equal(bo, c);
			/* borrow of a - b is a < b */
			assert_int_equal(vg_bn_sub(r, a, b, n), vg_bn_lt(a, b, n));
			/* conditional forms */
			memcpy(r, a, n * 8);
			assert_int_equal(vg_bn_cond_add(0, r, b, n), 0);
			assert_memory_equal(r, a, n * 8);
			assert_int_equal(vg_bn_cond_add(1, r, b, n), c);
			assert_int_equal(vg_bn_cond_sub(0, r, b, n), 0);
			assert_int_equal(vg_bn_cond_sub(1, r, b, n), c);
			assert_memory_equal(r, a, n * 8);
		}
	}
}

static void test_bn_cmp(void **state)
{
	uint64_t a[8], b[8];

	(void)state;
	rand_limbs(a, 8);
	memcpy(b, a, sizeof(a));
	assert_int_equal(vg_bn_eq(a, b, 8), 1);
	assert_int_equal(vg_bn_lt(a, b, 8), 0);
	for (int i = 0; i < 8; i++) {
		b[i] = a[i] + 1;
		if (b[i] == 0)
			continue;
		assert_int_equal(vg_bn_eq(a, b, 8), 0);
		assert_int_equal(vg_bn_lt(a, b, 8), 1);
		assert_int_equal(vg_bn_lt(b, a, 8), 0);
		b[i] = a[i];
	}
	/* a smaller top limb wins over larger low limbs */
	a[7] = 5, b[7] = 6, a[0] = ~(uint64_t)0, b[0] = 0;
	assert_int_equal(vg_bn_lt(a, b, 8), 1);
	memset(a, 0, sizeof(a));
	assert_int_equal(vg_bn_is_zero(a, 8), 1);
	a[7] = 1;
	assert_int_equal(vg_bn_is_zero(a, 8), 0);
	/* ccopy */
	rand_limbs(b, 8);
	vg_bn_ccopy(0, a, b, 8);
	assert_int_equal(vg_bn_eq(a, b, 8), 0);
	vg_bn_ccopy(1, a, b, 8);
	assert_int_equal(vg_bn_eq(a, b, 8), 1);
}

static void test_bn_bits(void **state)
{
	uint64_t a[MAXL];

	(void)state;
	memset(a, 0, sizeof(a));
	assert_int_equal(vg_bn_bits(a, MAXL), 0);
	for (size_t bit = 0; bit < 64 * MAXL; bit++) {
		memset(a, 0, sizeof(a));
		a[bit / 64] = (uint64_t)1 << (bit % 64);
		/* lower bits do not change the length */
		if (bit > 0)
			a[0] |= 1;
		assert_int_equal(vg_bn_bits(a, MAXL), bit + 1);
	}
}

static void test_bn_mul(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		for (size_t t = 0; t < NSIZES; t += 3) {
			size_t an = sizes[s], bn = sizes[t];
			uint64_t a[MAXL], b[MAXL], r[2 * MAXL], w[2 * MAXL];
			ref ra, rb, rr, rw;
			rand_limbs(a, an);
			rand_limbs(b, bn);
			if (s == t)
				for (size_t i = 0; i < an; i++)
					a[i] = b[i] = ~(uint64_t)0;
			vg_bn_mul(r, a, an, b, bn);
			ref_from(&ra, a, an);
			ref_from(&rb, b, bn);
			ref_mul(&rr, &ra, &rb);
			ref_to(w, an + bn, &rr);
			ref_from(&rw, r, an + bn);
			assert_memory_equal(r, w, (an + bn) * 8);
			(void)rw;
		}
	}
}

static void test_bn_mod(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		size_t mn = sizes[s];
		for (int it = 0; it < 4; it++) {
			size_t an = mn + (size_t)it * 3;
			uint64_t a[3 * MAXL], m[MAXL], r[MAXL], w[MAXL];
			ref ra, rm, rr;
			if (an > 2 * MAXL)
				an = 2 * MAXL;
			rand_limbs(a, an);
			rand_limbs(m, mn);
			/* even moduli too (p - 1) */
			if (it & 1)
				m[0] &= ~(uint64_t)1;
			if (it == 2)
				m[mn - 1] >>= 40;
			if (m[mn - 1] == 0)
				m[mn - 1] = 1;
			vg_bn_mod(r, a, an, m, mn);
			ref_from(&ra, a, an);
			ref_from(&rm, m, mn);
			ref_mod(&rr, &ra, &rm);
			ref_to(w, mn, &rr);
			assert_memory_equal(r, w, mn * 8);
		}
	}
	/* a already below m, a == m, a == 0 */
	{
		uint64_t m[4], a[4], r[4];
		rand_limbs(m, 4);
		memcpy(a, m, sizeof(a));
		vg_bn_mod(r, a, 4, m, 4);
		assert_true(vg_bn_is_zero(r, 4));
		a[0]--;
		vg_bn_mod(r, a, 4, m, 4);
		assert_memory_equal(r, a, sizeof(a));
		memset(a, 0, sizeof(a));
		vg_bn_mod(r, a, 4, m, 4);
		assert_true(vg_bn_is_zero(r, 4));
	}
}

/* ---- Montgomery ----------------------------------------------------------- */

static void test_mont_m0inv(void **state)
{
	(void)state;
	for (int i = 0; i < 1000; i++) {
		uint64_t m = trsa_rand(&rng) | 1;
		if (i == 0)
			m = 1;
		if (i == 1)
			m = ~(uint64_t)0;
		assert_true(m * vg_mont_m0inv(m) == ~(uint64_t)0); /* m * m0inv = -1 */
	}
}

/* R^2 mod m by the reference */
static void ref_rr(ref *r, const uint64_t *m, size_t n)
{
	ref rm, p;
	memset(&p, 0, sizeof(p));
	p.d[4 * n] = 1; /* 2^(128 n) */
	ref_from(&rm, m, n);
	ref_mod(r, &p, &rm);
}

static void test_mont_rr(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		for (int shape = 0; shape < SHAPES; shape++) {
			size_t n = sizes[s];
			uint64_t m[MAXL], rr[MAXL], w[MAXL];
			ref r;
			make_modulus(m, n, shape);
			vg_mont_rr(rr, m, n);
			ref_rr(&r, m, n);
			ref_to(w, n, &r);
			assert_memory_equal(rr, w, n * 8);
		}
	}
}

typedef struct {
	uint64_t m[MAXL], rr[MAXL];
	vg_mont ctx;
	ref rm;
} modctx;

static void modctx_make(modctx *c, size_t n, int shape)
{
	make_modulus(c->m, n, shape);
	vg_mont_rr(c->rr, c->m, n);
	vg_rsa_mont_init(vg_rsa_impl(), &c->ctx, c->m, c->rr, vg_mont_m0inv(c->m[0]), n);
	ref_from(&c->rm, c->m, n);
}

/* Check r == a * b * R^-1 mod m, as (r * R) mod m == (a * b) mod m, and
 * r < m. */
static void check_montmul(const modctx *c, const uint64_t *a, const uint64_t *b)
{
	size_t n = c->ctx.n;
	uint64_t r[MAXL];
	ref ra, rb, rr, lhs, rhs;

	vg_mont_mul_c(r, a, b, c->m, c->ctx.m0inv, n);
	ref_from(&rr, r, n);
	assert_true(ref_cmp(&rr, &c->rm) < 0);
	ref_shl_digits(&rr, 2 * n);
	ref_mod(&lhs, &rr, &c->rm);
	ref_from(&ra, a, n);
	ref_from(&rb, b, n);
	ref_mulmod(&rhs, &ra, &rb, &c->rm);
	assert_int_equal(ref_cmp(&lhs, &rhs), 0);
}

static void test_mont_mul_random(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		for (int shape = 0; shape < SHAPES; shape++) {
			modctx c;
			size_t n = sizes[s];
			modctx_make(&c, n, shape);
			for (int it = 0; it < 6; it++) {
				uint64_t a[MAXL], b[MAXL];
				rand_below(a, c.m, n);
				rand_below(b, c.m, n);
				check_montmul(&c, a, b);
				/* a need not be reduced: any a < R */
				rand_limbs(a, n);
				check_montmul(&c, a, b);
			}
		}
	}
}

static void test_mont_mul_edges(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		for (int shape = 0; shape < SHAPES; shape++) {
			size_t n = sizes[s];
			modctx c;
			uint64_t v[6][MAXL];
			modctx_make(&c, n, shape);
			memset(v, 0, sizeof(v));
			/* 0, 1, m - 1, m - 2, all-ones limbs below m's top limb,
			 * R mod m */
			v[1][0] = 1;
			memcpy(v[2], c.m, n * 8);
			v[2][0] -= 1;
			memcpy(v[3], c.m, n * 8);
			v[3][0] -= 2; /* every test modulus is odd and >= 3 */
			for (size_t i = 0; i + 1 < n; i++)
				v[4][i] = ~(uint64_t)0;
			if (n == 1)
				v[4][0] = c.m[0] >> 1;
			vg_mont_mul_c(v[5], c.rr, v[1], c.m, c.ctx.m0inv, n);
			for (int i = 0; i < 6; i++) {
				for (int j = 0; j < 6; j++)
					check_montmul(&c, v[i], v[j]);
			}
			/* aliasing: r = a = b */
			{
				uint64_t x[MAXL], y[MAXL];
				memcpy(x, v[2], sizeof(x));
				vg_mont_mul_c(y, x, x, c.m, c.ctx.m0inv, n);
				vg_mont_mul_c(x, x, x, c.m, c.ctx.m0inv, n);
				assert_memory_equal(x, y, n * 8);
			}
		}
	}
}

static void test_mont_reduce(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		size_t n = sizes[s];
		modctx c;
		modctx_make(&c, n, (int)(s % SHAPES));
		for (size_t an = 1; an <= 2 * MAXL; an += 1 + an / 2) {
			uint64_t a[2 * MAXL], r[MAXL], w[MAXL];
			ref ra, rr;
			rand_limbs(a, an);
			vg_mont_reduce(&c.ctx, r, a, an);
			ref_from(&ra, a, an);
			ref_shl_digits(&ra, 2 * n);
			ref_mod(&rr, &ra, &c.rm);
			ref_to(w, n, &rr);
			assert_memory_equal(r, w, n * 8);
			/* with R^3 (the CRT halves' contexts): the same value */
			{
				uint64_t rrr[MAXL];
				vg_mont ctx3 = c.ctx;
				vg_mont_mul(&c.ctx, rrr, c.rr, c.rr);
				ctx3.rrr = rrr;
				memset(r, 0, sizeof(r));
				vg_mont_reduce(&ctx3, r, a, an);
				assert_memory_equal(r, w, n * 8);
			}
		}
	}
}

static void test_mont_add_sub(void **state)
{
	(void)state;
	for (size_t s = 0; s < NSIZES; s++) {
		size_t n = sizes[s];
		modctx c;
		modctx_make(&c, n, (int)(s % SHAPES));
		for (int it = 0; it < 20; it++) {
			uint64_t a[MAXL], b[MAXL], r[MAXL], back[MAXL], w[MAXL];
			ref ra, rb, rs;
			rand_below(a, c.m, n);
			rand_below(b, c.m, n);
			if (it == 0) { /* m-1 + m-1 */
				memcpy(a, c.m, n * 8);
				a[0]--;
				memcpy(b, a, n * 8);
			}
			vg_mont_add(&c.ctx, r, a, b);
			ref_from(&ra, a, n);
			ref_from(&rb, b, n);
			memset(&rs, 0, sizeof(rs));
			uint64_t cc = 0;
			for (size_t i = 0; i < REF_D; i++) {
				cc += (uint64_t)ra.d[i] + rb.d[i];
				rs.d[i] = (uint32_t)cc;
				cc >>= 32;
			}
			ref_mod(&rs, &rs, &c.rm);
			ref_to(w, n, &rs);
			assert_memory_equal(r, w, n * 8);
			vg_mont_sub(&c.ctx, back, r, b);
			assert_memory_equal(back, a, n * 8);
		}
	}
}

/* reference a^e mod m, e of ebits bits */
static void ref_powmod(ref *r, const ref *a, const uint64_t *e, size_t ebits, const ref *m)
{
	ref acc;
	memset(&acc, 0, sizeof(acc));
	acc.d[0] = 1;
	ref_mod(&acc, &acc, m);
	for (size_t i = ebits; i-- > 0;) {
		ref_mulmod(&acc, &acc, &acc, m);
		if ((e[i / 64] >> (i % 64)) & 1)
			ref_mulmod(&acc, &acc, a, m);
	}
	*r = acc;
}

static void test_mont_exp(void **state)
{
	static const size_t ns[] = {1, 2, 5, 8, 16};
	static const size_t ebits_list[] = {0, 1, 2, 3, 4, 5, 7, 63, 64, 65, 130, 257};

	(void)state;
	for (size_t s = 0; s < sizeof(ns) / sizeof(ns[0]); s++) {
		size_t n = ns[s];
		modctx c;
		modctx_make(&c, n, (int)(s % SHAPES));
		for (size_t k = 0; k < sizeof(ebits_list) / sizeof(ebits_list[0]); k++) {
			size_t ebits = ebits_list[k];
			uint64_t e[5] = {0}, a[MAXL], aM[MAXL], rM[MAXL], r[MAXL], w[MAXL];
			ref ra, rr;
			if (ebits > 0) {
				rand_limbs(e, (ebits + 63) / 64);
				if (ebits % 64)
					e[ebits / 64] &= ((uint64_t)1 << (ebits % 64)) - 1;
				if (k % 3 == 0 && ebits > 1) /* zero-padded exponent */
					e[(ebits - 1) / 64] &= ~((uint64_t)1 << ((ebits - 1) % 64));
			}
			rand_below(a, c.m, n);
			vg_mont_mul(&c.ctx, aM, a, c.rr);
			vg_mont_exp_ct(&c.ctx, rM, aM, e, ebits);
			vg_mont_from(&c.ctx, r, rM);
			ref_from(&ra, a, n);
			ref_powmod(&rr, &ra, e, ebits, &c.rm);
			ref_to(w, n, &rr);
			assert_memory_equal(r, w, n * 8);

			/* public exponent: low 64 bits, at least 1 */
			uint64_t pe = e[0] | 1;
			vg_mont_exp_pub(&c.ctx, rM, aM, pe);
			vg_mont_from(&c.ctx, r, rM);
			ref_powmod(&rr, &ra, &pe, 64, &c.rm);
			ref_to(w, n, &rr);
			assert_memory_equal(r, w, n * 8);
		}
	}
}

/* ---- Keys ----------------------------------------------------------------- */

static vg_rsa_key *keys[3]; /* 2048, 3072, 4096 from the decryption vectors */
static const char *const key_files[3] = {"rsa_pkcs1_2048_test.txt", "rsa_pkcs1_3072_test.txt",
					 "rsa_pkcs1_4096_test.txt"};

static int setup_keys(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		keys[i] = trsa_key_from_file(key_files[i]);
	return 0;
}

static int teardown_keys(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		trsa_key_free(keys[i]);
	return 0;
}

/* The 2048-bit key's parts, for editing. */
static void parts_2048(trsa_parts *t)
{
	vg_vecfile *f = vg_vec_open(key_files[0]);
	assert_true(vg_vec_next(f));
	trsa_parts_hex(t, f);
	while (vg_vec_next(f))
		;
	assert_int_equal(vg_vec_close(f), 0);
}


/* ---- Primality of the key's factors (rsa_prime.c) ------------------------ */

/* The Miller-Rabin check accepts primes and refuses composites that a
 * Fermat test (what key loading did before) lets through: Carmichael
 * numbers pass Fermat to every base prime to them, and strong
 * pseudoprimes to small bases pass those bases. The numbers were made
 * with Python (pow-based Miller-Rabin, trial division): a Chernick
 * Carmichael number (6k+1)(12k+1)(18k+1) of 310 bits, a 512-bit prime and
 * a 1023-bit product of two 512-bit primes. */
static int prime_check_hex(const char *hex)
{
	uint8_t b[8 * MAXL];
	size_t len = strlen(hex) / 2;
	for (size_t i = 0; i < len; i++) {
		unsigned v;
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		b[i] = (uint8_t)v;
	}
	uint64_t m[MAXL], rr[MAXL];
	assert_int_equal(vg_bn_from_bytes(m, MAXL, b, len), 1);
	size_t bits = vg_bn_bits(m, MAXL), n = (bits + 63) / 64;
	vg_mont_rr(rr, m, n);
	vg_mont ctx;
	vg_mont_init(&ctx, m, rr, vg_mont_m0inv(m[0]), n);
	return (int)vg_rsa_prime_check(&ctx, bits, VG_RSA_MR_ROUNDS);
}

static void test_prime_check(void **state)
{
	(void)state;
	static const char *primes[] = {
		"0f4243", /* 1000003 */
		"1fffffffffffffff", /* 2^61 - 1 */
		"9f008c8caf152ba1dfbed936c173e91ba1ccb955fef75d1b373768a88d69d95e787f73ead6759d6b"
		"37bca79c5f09399972aad0566ff3b4f971095f88867e5b0f",
	};
	static const char *composites[] = {
		"0231",     /* 561 = 3 11 17, the first Carmichael number */
		"a051",     /* 41041, Carmichael */
		"07ff",     /* 2047 = 23 89, strong pseudoprime to base 2 */
		"bfa1eb47", /* 3215031751, strong pseudoprime to bases 2, 3, 5, 7 */
		"3eaf9664dc92f09bd6dec12442f1a80f426376073d4bcdaf4d069709b2b2d29afc56cc603b8941",
		"58e976b4083d988d8a74242a3df184ac26cf8c16d1b6dc5cfb9e6b8277becd39031ca67ac6894892"
		"8f4fa9275e822082e19e2678ff0763dca23a71602f938d76f38d39de4cc340b8e817bfdf330fb223"
		"4d0aad53b4c8540ad360e8981207db0688072b49ad75b3683b75cc6bce95ae1d818d6cc068bd2d07"
		"2dd02439955fac09",
	};
	for (size_t i = 0; i < sizeof(primes) / sizeof(primes[0]); i++)
		assert_int_equal(prime_check_hex(primes[i]), 1);
	for (size_t i = 0; i < sizeof(composites) / sizeof(composites[0]); i++)
		assert_int_equal(prime_check_hex(composites[i]), 0);
}

static void test_key_accessors(void **state)
{
	uint8_t n[VG_RSA_MAX_BYTES], e[8];
	size_t nl, el;
	trsa_parts t;
	static const size_t bits[3] = {2048, 3072, 4096};

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(vg_rsa_key_bits(keys[i]), bits[i]);
		assert_int_equal(vg_rsa_key_bytes(keys[i]), bits[i] / 8);
		assert_int_equal(vg_rsa_public_key_bytes(vg_rsa_key_public(keys[i])), bits[i] / 8);
	}
	assert_true(vg_rsa_key_size() == sizeof(struct vg_rsa_key));
	assert_true(vg_rsa_public_key_size() == sizeof(struct vg_rsa_public_key));

	parts_2048(&t);
	assert_int_equal(vg_rsa_public_export(vg_rsa_key_public(keys[0]), n, sizeof(n), &nl, e,
					      sizeof(e), &el),
			 0);
	assert_int_equal(nl, 256);
	assert_int_equal(el, 3);
	/* the vector's modulus has a leading 00 (two's complement) */
	assert_int_equal(t.parts.n_len, 257);
	assert_memory_equal(n, t.parts.n + 1, 256);
	assert_memory_equal(e, t.parts.e, 3);
	/* too small buffers */
	assert_int_equal(vg_rsa_public_export(vg_rsa_key_public(keys[0]), n, 255, &nl, e, 8, &el),
			 VG_E_INVALID);
	assert_int_equal(vg_rsa_public_export(vg_rsa_key_public(keys[0]), n, 256, &nl, e, 2, &el),
			 VG_E_INVALID);
	trsa_parts_free(&t);
}

/* Load parts into a stack key, expect rc; on failure the key is wiped. */
static void expect_load(const vg_rsa_key_parts *p, int want)
{
	struct vg_rsa_key key;
	int rc = vg_rsa_key_init(&key, p);
	if (rc != want)
		fprintf(stderr, "key load: got %d, want %d\n", rc, want);
	assert_int_equal(rc, want);
	if (rc != 0) {
		static const struct vg_rsa_key zero;
		assert_memory_equal(&key, &zero, sizeof(key));
	}
	vg_rsa_key_wipe(&key);
}

/* add delta to the big-endian number buf[0..len) (no overflow here) */
static void be_add(uint8_t *buf, size_t len, int delta)
{
	int c = delta;
	for (size_t i = len; i-- > 0 && c != 0;) {
		int v = buf[i] + c;
		buf[i] = (uint8_t)v;
		c = v >> 8;
	}
}

static void test_key_rejections(void **state)
{
	trsa_parts t;
	vg_rsa_key_parts p;
	uint8_t big[1024], e_buf[9];

	(void)state;
	parts_2048(&t);
	p = t.parts;
	expect_load(&p, 0);

	/* p q != n: change p, and separately n */
	be_add(t.buf[3], p.p_len, 2);
	expect_load(&p, VG_E_KEY);
	be_add(t.buf[3], p.p_len, -2);
	be_add(t.buf[0], p.n_len, 2);
	expect_load(&p, VG_E_KEY);
	be_add(t.buf[0], p.n_len, -2);
	expect_load(&p, 0);

	/* bad dp, dq, qinv, d */
	for (int field = 2; field < 8; field++) {
		uint8_t *b = t.buf[field];
		size_t len = field == 2   ? p.d_len
			     : field == 5 ? p.dp_len
			     : field == 6 ? p.dq_len
			     : field == 7 ? p.qinv_len
					  : 0;
		if (len == 0)
			continue;
		be_add(b, len, 2);
		expect_load(&p, VG_E_KEY);
		be_add(b, len, -2);
	}
	expect_load(&p, 0);
	/* dp + (p - 1) is congruent to d too, but not reduced: rejected (the
	 * exponentiation reads dp at p's length) */
	{
		uint8_t dp2[300];
		const uint8_t *save = p.dp;
		size_t save_len = p.dp_len, len = p.p_len + 1;
		int c = -1; /* - 1 */
		memset(dp2, 0, sizeof(dp2));
		memcpy(dp2 + len - p.dp_len, p.dp, p.dp_len);
		for (size_t i = 0; i < len; i++) {
			int pb = i < p.p_len ? p.p[p.p_len - 1 - i] : 0;
			int v = dp2[len - 1 - i] + pb + c;
			dp2[len - 1 - i] = (uint8_t)v;
			c = v >> 8; /* arithmetic shift: -1 on borrow */
		}
		p.dp = dp2, p.dp_len = len;
		expect_load(&p, VG_E_KEY);
		p.dp = save, p.dp_len = save_len;
		expect_load(&p, 0);
	}

	/* qinv + p: not < p */
	{
		uint8_t q2[300];
		size_t len = p.p_len + 1;
		uint8_t *save = t.buf[7];
		size_t save_len = p.qinv_len;
		memset(q2, 0, sizeof(q2));
		memcpy(q2 + len - p.qinv_len, save, p.qinv_len);
		/* add p */
		int c = 0;
		for (size_t i = 0; i < len; i++) {
			int pb = i < p.p_len ? p.p[p.p_len - 1 - i] : 0;
			int v = q2[len - 1 - i] + pb + c;
			q2[len - 1 - i] = (uint8_t)v;
			c = v >> 8;
		}
		p.qinv = q2;
		p.qinv_len = len;
		expect_load(&p, VG_E_KEY);
		p.qinv = save;
		p.qinv_len = save_len;
	}

	/* e: even, 1, 0, 3 (odd but not matching d: caught by the
	 * sign-and-check at load), too long */
	{
		const uint8_t *save = p.e;
		size_t save_len = p.e_len;
		static const uint8_t e_even[] = {0x01, 0x00, 0x00}, e_one[] = {1}, e_zero[] = {0},
				     e_three[] = {3};
		p.e = e_even, p.e_len = 3;
		expect_load(&p, VG_E_KEY);
		p.e = e_one, p.e_len = 1;
		expect_load(&p, VG_E_KEY);
		p.e = e_zero, p.e_len = 1;
		expect_load(&p, VG_E_KEY);
		p.e = e_three, p.e_len = 1;
		expect_load(&p, VG_E_KEY);
		memset(e_buf, 0, sizeof(e_buf));
		e_buf[0] = 1, e_buf[8] = 1;
		p.e = e_buf, p.e_len = 9;
		expect_load(&p, VG_E_UNSUPPORTED);
		e_buf[0] = 0; /* leading zero: same e = 1 */
		expect_load(&p, VG_E_KEY);
		e_buf[6] = 1; /* e = 2^16 + 1 with leading zeros */
		p.e = e_buf + 1, p.e_len = 8;
		expect_load(&p, 0);
		p.e = save, p.e_len = save_len;
	}

	/* modulus sizes: 1024 and 8192 bits, and one bit over 4096 */
	{
		const uint8_t *save = p.n;
		size_t save_len = p.n_len;
		memset(big, 0xff, sizeof(big));
		p.n = big, p.n_len = 128;
		expect_load(&p, VG_E_UNSUPPORTED);
		p.n_len = 1024;
		expect_load(&p, VG_E_UNSUPPORTED);
		memset(big, 0, sizeof(big));
		big[511] = 1;
		big[0] = 1;
		p.n = big, p.n_len = 513;
		expect_load(&p, VG_E_UNSUPPORTED);
		/* 2047 bits */
		memset(big, 0xff, sizeof(big));
		big[0] = 0x7f;
		p.n_len = 256;
		expect_load(&p, VG_E_UNSUPPORTED);
		p.n = save, p.n_len = save_len;
	}
	/* even modulus (n + 1) */
	be_add(t.buf[0], p.n_len, 1);
	expect_load(&p, VG_E_KEY);
	be_add(t.buf[0], p.n_len, -1);

	/* p and q swapped: the given qinv is not p^-1 mod q */
	{
		vg_rsa_key_parts s = p;
		s.p = p.q, s.p_len = p.q_len, s.q = p.p, s.q_len = p.p_len;
		s.dp = p.dq, s.dp_len = p.dq_len, s.dq = p.dp, s.dq_len = p.dp_len;
		expect_load(&s, VG_E_KEY);
	}
	/* p = q = sqrt-ish: p q != n anyway; p = n, q = 1: too short */
	{
		vg_rsa_key_parts s = p;
		static const uint8_t one[] = {1};
		s.p = p.n, s.p_len = p.n_len, s.q = one, s.q_len = 1;
		expect_load(&s, VG_E_KEY);
	}
	/* every value required */
	{
		vg_rsa_key_parts s = p;
		s.d_len = 0;
		expect_load(&s, VG_E_KEY);
		s = p;
		s.qinv = NULL;
		expect_load(&s, VG_E_KEY);
	}
	assert_int_equal(vg_rsa_key_init(NULL, &p), VG_E_INVALID);
	{
		struct vg_rsa_key key;
		assert_int_equal(vg_rsa_key_init(&key, NULL), VG_E_INVALID);
	}
	expect_load(&p, 0);
	trsa_parts_free(&t);
}

/* A key given with p < q (the factors swapped, qinv = p^-1 mod q
 * recomputed by Fermat with the library's own exponentiation) loads and
 * gives the same signatures. */
static void test_key_swapped_order(void **state)
{
	trsa_parts t;
	vg_rsa_key_parts s;
	struct vg_rsa_key key;
	uint8_t qinv[VG_RSA_MAX_BYTES], in[256], o1[256], o2[256];
	const struct vg_rsa_crt *P = &keys[0]->p, *Q = &keys[0]->q;

	(void)state;
	parts_2048(&t);
	/* p^-1 mod q = p^(q-2) mod q */
	{
		uint64_t e[MAXL], aM[MAXL], rM[MAXL], r[MAXL], two[MAXL] = {2};
		vg_mont ctx;
		vg_rsa_mont_init(vg_rsa_impl(), &ctx, Q->prime, Q->rr, Q->m0inv, Q->limbs);
		vg_bn_sub(e, Q->prime, two, Q->limbs);
		vg_mont_reduce(&ctx, aM, P->prime, P->limbs);
		vg_mont_exp_ct(&ctx, rM, aM, e, Q->bits);
		vg_mont_from(&ctx, r, rM);
		vg_bn_to_bytes(qinv, 128, r, Q->limbs);
	}
	s = t.parts;
	s.p = t.parts.q, s.p_len = t.parts.q_len, s.q = t.parts.p, s.q_len = t.parts.p_len;
	s.dp = t.parts.dq, s.dp_len = t.parts.dq_len, s.dq = t.parts.dp, s.dq_len = t.parts.dp_len;
	s.qinv = qinv, s.qinv_len = 128;
	assert_int_equal(vg_rsa_key_init(&key, &s), 0);
	assert_true(vg_bn_lt(key.p.prime, key.q.prime, MAXL)); /* p < q now */
	for (int i = 0; i < 5; i++) {
		trsa_rand_bytes(&rng, in, sizeof(in));
		in[0] &= 0x7f;
		assert_int_equal(vg_rsa_private(&key, o1, in, 256), 0);
		assert_int_equal(vg_rsa_private(keys[0], o2, in, 256), 0);
		assert_memory_equal(o1, o2, 256);
	}
	vg_rsa_key_wipe(&key);
	trsa_parts_free(&t);
}

static void test_public_key_init(void **state)
{
	uint8_t n[600], e[] = {1, 0, 1};
	struct vg_rsa_public_key pub;

	(void)state;
	memset(n, 0xff, sizeof(n));
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 128, e, 3), 0); /* 1024 */
	assert_int_equal(vg_rsa_public_key_bytes(&pub), 128);
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 512, e, 3), 0); /* 4096 */
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 127, e, 3), VG_E_UNSUPPORTED);
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 513, e, 3), VG_E_UNSUPPORTED);
	n[0] = 0x7f; /* 1023 bits */
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 128, e, 3), VG_E_UNSUPPORTED);
	n[0] = 0;    /* leading zero byte, 4088-bit */
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 512, e, 3), 0);
	assert_int_equal(vg_rsa_public_key_bytes(&pub), 511);
	n[127] = 0xfe; /* even */
	assert_int_equal(vg_rsa_public_key_init(&pub, n + 1, 127, e, 3), VG_E_UNSUPPORTED);
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 128, e, 3), VG_E_UNSUPPORTED);
	memset(n, 0xff, sizeof(n));
	n[255] = 0xfe;
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 256, e, 3), VG_E_KEY);
	n[255] = 0xff;
	e[2] = 0;
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 256, e, 3), VG_E_KEY);
	assert_int_equal(vg_rsa_public_key_init(&pub, n, 256, e + 2, 1), VG_E_KEY);
	assert_int_equal(vg_rsa_public_key_init(NULL, n, 256, e, 3), VG_E_INVALID);
}

static void test_roundtrip(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		const vg_rsa_public_key *pub = vg_rsa_key_public(keys[i]);
		size_t k = vg_rsa_key_bytes(keys[i]);
		uint8_t x[VG_RSA_MAX_BYTES], y[VG_RSA_MAX_BYTES], z[VG_RSA_MAX_BYTES];
		uint8_t nb[VG_RSA_MAX_BYTES], eb[8];
		size_t nl, el;
		assert_int_equal(vg_rsa_public_export(pub, nb, sizeof(nb), &nl, eb, sizeof(eb), &el), 0);
		for (int it = 0; it < 6; it++) {
			trsa_rand_bytes(&rng, x, k);
			if (x[0] >= nb[0])
				x[0] = (uint8_t)(nb[0] - 1);
			if (it == 0)
				memset(x, 0, k); /* 0 */
			if (it == 1) {
				memset(x, 0, k);
				x[k - 1] = 1; /* 1 */
			}
			if (it == 2) {
				memcpy(x, nb, k);
				x[k - 1] -= 1; /* n - 1 */
			}
			assert_int_equal(vg_rsa_public(pub, y, x, k), 0);
			assert_int_equal(vg_rsa_private(keys[i], z, y, k), 0);
			assert_memory_equal(x, z, k);
			assert_int_equal(vg_rsa_private(keys[i], y, x, k), 0);
			assert_int_equal(vg_rsa_public(pub, z, y, k), 0);
			assert_memory_equal(x, z, k);
			/* in place */
			memcpy(z, x, k);
			assert_int_equal(vg_rsa_private(keys[i], z, z, k), 0);
			assert_memory_equal(y, z, k);
		}
	}
}

static void test_range(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		const vg_rsa_public_key *pub = vg_rsa_key_public(keys[i]);
		size_t k = vg_rsa_key_bytes(keys[i]);
		uint8_t x[VG_RSA_MAX_BYTES + 1], y[VG_RSA_MAX_BYTES + 1], eb[8];
		size_t nl, el;
		assert_int_equal(vg_rsa_public_export(pub, x, sizeof(x), &nl, eb, sizeof(eb), &el), 0);
		/* n itself, n + 1, all ones */
		assert_int_equal(vg_rsa_private(keys[i], y, x, k), VG_E_RANGE);
		assert_int_equal(vg_rsa_public(pub, y, x, k), VG_E_RANGE);
		x[k - 1] += 1;
		assert_int_equal(vg_rsa_private(keys[i], y, x, k), VG_E_RANGE);
		memset(x, 0xff, k);
		assert_int_equal(vg_rsa_private(keys[i], y, x, k), VG_E_RANGE);
		assert_int_equal(vg_rsa_public(pub, y, x, k), VG_E_RANGE);
		/* wrong lengths */
		memset(x, 0, sizeof(x));
		assert_int_equal(vg_rsa_private(keys[i], y, x, k - 1), VG_E_INVALID);
		assert_int_equal(vg_rsa_private(keys[i], y, x, k + 1), VG_E_INVALID);
		assert_int_equal(vg_rsa_public(pub, y, x, k + 1), VG_E_INVALID);
		assert_int_equal(vg_rsa_private(keys[i], y, x, 0), VG_E_INVALID);
	}
}

static const vg_hash_alg algs[3] = {VG_HASH_SHA256, VG_HASH_SHA384, VG_HASH_SHA512};

static void test_pss_sign_verify(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		const vg_rsa_public_key *pub = vg_rsa_key_public(keys[i]);
		size_t k = vg_rsa_key_bytes(keys[i]);
		for (int a = 0; a < 3; a++) {
			uint8_t dig[64], s1[VG_RSA_MAX_BYTES], s2[VG_RSA_MAX_BYTES];
			size_t h = vg_hash_len(algs[a]);
			trsa_rand_bytes(&rng, dig, sizeof(dig));
			assert_int_equal(vg_rsa_sign_pss(keys[i], algs[a], dig, h, s1, k), 0);
			assert_int_equal(vg_rsa_sign_pss(keys[i], algs[a], dig, h, s2, k), 0);
			/* randomised: two signatures differ, both verify */
			assert_memory_not_equal(s1, s2, k);
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s1, k, h), 0);
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s2, k, h), 0);
			/* wrong salt length, hash, digest, signature */
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s1, k, h - 1),
					 VG_E_VERIFY);
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s1, k, 0),
					 VG_E_VERIFY);
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s1, k, (size_t)-1),
					 VG_E_VERIFY);
			assert_int_equal(
				vg_rsa_verify_pss(pub, algs[(a + 1) % 3], dig,
						  vg_hash_len(algs[(a + 1) % 3]), s1, k, h),
				VG_E_VERIFY);
			dig[0] ^= 1;
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s1, k, h),
					 VG_E_VERIFY);
			dig[0] ^= 1;
			s1[k / 2] ^= 0x10;
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s1, k, h),
					 VG_E_VERIFY);
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, s2, k - 1, h),
					 VG_E_VERIFY);
			/* caller errors: INVALID when signing; verification
			 * says VG_E_VERIFY to anything but a valid signature */
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h - 1, s2, k, h),
					 VG_E_VERIFY);
			assert_int_equal(vg_rsa_verify_pss(pub, (vg_hash_alg)0, dig, h, s2, k, h),
					 VG_E_VERIFY);
			assert_int_equal(vg_rsa_verify_pkcs1(pub, (vg_hash_alg)7, dig, h, s2, k),
					 VG_E_VERIFY);
			assert_int_equal(vg_rsa_sign_pss(keys[i], algs[a], dig, h - 1, s1, k),
					 VG_E_INVALID);
			assert_int_equal(vg_rsa_sign_pss(keys[i], algs[a], dig, h, s1, k - 1),
					 VG_E_INVALID);
			assert_int_equal(vg_rsa_sign_pss(keys[i], (vg_hash_alg)9, dig, h, s1, k),
					 VG_E_INVALID);
		}
	}
}

/* Moduli of 2049 bits (PSS: emLen = k - 1, no top bits to clear) and 3000
 * bits (top limb partly used): load, round trip, both signature schemes. */
static void test_odd_sizes(void **state)
{
	const char *const *const hexkeys[2] = {key2049, key3000};
	static const size_t bits[2] = {2049, 3000};

	(void)state;
	for (int i = 0; i < 2; i++) {
		uint8_t *buf[8];
		size_t len[8];
		vg_rsa_key_parts p;
		struct vg_rsa_key key;
		for (int j = 0; j < 8; j++) {
			buf[j] = vg_hex_alloc(hexkeys[i][j], &len[j]);
			assert_non_null(buf[j]);
		}
		p.n = buf[0], p.n_len = len[0], p.e = buf[1], p.e_len = len[1];
		p.d = buf[2], p.d_len = len[2], p.p = buf[3], p.p_len = len[3];
		p.q = buf[4], p.q_len = len[4], p.dp = buf[5], p.dp_len = len[5];
		p.dq = buf[6], p.dq_len = len[6], p.qinv = buf[7], p.qinv_len = len[7];
		assert_int_equal(vg_rsa_key_init(&key, &p), 0);
		assert_int_equal(vg_rsa_key_bits(&key), bits[i]);
		size_t k = vg_rsa_key_bytes(&key);
		assert_int_equal(k, (bits[i] + 7) / 8);
		const vg_rsa_public_key *pub = vg_rsa_key_public(&key);
		uint8_t x[VG_RSA_MAX_BYTES], y[VG_RSA_MAX_BYTES], z[VG_RSA_MAX_BYTES];
		uint8_t dig[64];

		trsa_rand_bytes(&rng, x, k);
		x[0] = 0;
		assert_int_equal(vg_rsa_private(&key, y, x, k), 0);
		assert_int_equal(vg_rsa_public(pub, z, y, k), 0);
		assert_memory_equal(x, z, k);
		for (int a = 0; a < 3; a++) {
			size_t h = vg_hash_len(algs[a]);
			trsa_rand_bytes(&rng, dig, h);
			assert_int_equal(vg_rsa_sign_pkcs1(&key, algs[a], dig, h, y, k), 0);
			assert_int_equal(vg_rsa_verify_pkcs1(pub, algs[a], dig, h, y, k), 0);
			assert_int_equal(vg_rsa_sign_pss(&key, algs[a], dig, h, y, k), 0);
			assert_int_equal(vg_rsa_verify_pss(pub, algs[a], dig, h, y, k, h), 0);
			/* the encoded message: 0xbc last; with 2049 bits a zero
			 * byte in front of the 256-byte EM */
			assert_int_equal(vg_rsa_public(pub, z, y, k), 0);
			assert_int_equal(z[k - 1], 0xbc);
			if (bits[i] % 8 == 1)
				assert_int_equal(z[0], 0);
			else
				assert_int_equal(z[0] >> (8 - (8 * k - bits[i] + 1)), 0);
		}
		if (bits[i] % 8 == 1) {
			/* A signature whose EM is valid in its low emLen bytes
			 * but has the byte in front set (m = 2^(8 emLen) + EM,
			 * still below n) must be rejected: I2OSP(m, emLen)
			 * fails. Signatures are randomised: try until the
			 * modified value is below n. */
			uint8_t nb[VG_RSA_MAX_BYTES], eb[8];
			size_t nl, el;
			int done = 0;
			assert_int_equal(vg_rsa_public_export(pub, nb, sizeof(nb), &nl, eb, 8, &el), 0);
			for (int tries = 0; tries < 64 && !done; tries++) {
				assert_int_equal(vg_rsa_sign_pss(&key, VG_HASH_SHA256, dig, 32, y, k), 0);
				assert_int_equal(vg_rsa_public(pub, z, y, k), 0);
				z[0] = 1;
				if (memcmp(z, nb, k) >= 0)
					continue;
				assert_int_equal(vg_rsa_private(&key, y, z, k), 0);
				assert_int_equal(vg_rsa_verify_pss(pub, VG_HASH_SHA256, dig, 32, y, k, 32),
						 VG_E_VERIFY);
				done = 1;
			}
			assert_true(done);
		}
		vg_rsa_key_wipe(&key);
		for (int j = 0; j < 8; j++)
			free(buf[j]);
	}
}

/* PKCS#1 v1.5: the first record of each supported hash in the sig_gen
 * files (JWK key) must be reproduced exactly, and verify. */
static void test_pkcs1_known_answers(void **state)
{
	static const char *const files[3] = {"rsa_pkcs1_2048_sig_gen_test.txt",
					     "rsa_pkcs1_3072_sig_gen_test.txt",
					     "rsa_pkcs1_4096_sig_gen_test.txt"};
	int checked = 0;

	(void)state;
	for (int fi = 0; fi < 3; fi++) {
		vg_vecfile *f = vg_vec_open(files[fi]);
		int seen[4] = {0};
		while (vg_vec_next(f)) {
			int alg = trsa_hash_alg(vg_vec_req(f, "sha"));
			trsa_parts t;
			vg_rsa_key *key;
			uint8_t dig[64], sig[VG_RSA_MAX_BYTES], *msg, *want;
			size_t ml, wl;
			int rc;
			if (alg == 0 || seen[alg] || strcmp(vg_vec_req(f, "result"), "valid") != 0)
				continue;
			seen[alg] = 1;
			assert_int_equal(trsa_parts_jwk(&t, f), 0);
			key = trsa_key_new(&t.parts, &rc);
			assert_non_null(key);
			msg = vg_vec_hex(f, "msg", &ml);
			want = vg_vec_hex(f, "sig", &wl);
			assert_int_equal(vg_hash((vg_hash_alg)alg, dig, msg, ml), 0);
			size_t h = vg_hash_len((vg_hash_alg)alg);
			assert_int_equal(wl, vg_rsa_key_bytes(key));
			assert_int_equal(vg_rsa_sign_pkcs1(key, (vg_hash_alg)alg, dig, h, sig, wl), 0);
			assert_memory_equal(sig, want, wl);
			assert_int_equal(vg_rsa_verify_pkcs1(vg_rsa_key_public(key), (vg_hash_alg)alg,
							     dig, h, sig, wl),
					 0);
			sig[wl - 1] ^= 1;
			assert_int_equal(vg_rsa_verify_pkcs1(vg_rsa_key_public(key), (vg_hash_alg)alg,
							     dig, h, sig, wl),
					 VG_E_VERIFY);
			/* caller errors */
			assert_int_equal(vg_rsa_sign_pkcs1(key, (vg_hash_alg)alg, dig, h, sig, wl - 1),
					 VG_E_INVALID);
			assert_int_equal(vg_rsa_sign_pkcs1(key, (vg_hash_alg)alg, dig, h + 1, sig, wl),
					 VG_E_INVALID);
			checked++;
			free(msg);
			free(want);
			trsa_key_free(key);
			trsa_parts_free(&t);
		}
		assert_int_equal(vg_vec_close(f), 0);
	}
	assert_int_equal(checked, 9);
}

/* Corrupt one CRT value of a loaded key at a time: the private operation
 * must notice (m^e != c), return VG_E_FAULT and zero its output. The
 * values are those the chosen row reads: the radix-2^52 method (ifma)
 * takes its constants from key->r52 and qinv_r, the 64-bit one qinv, R^2
 * and R^3 (a corrupted value the row never reads cannot fault it). */
static void test_fault(void **state)
{
	struct vg_rsa_key *bad = malloc(sizeof(*bad));
	uint8_t in[256], out[256], zero[256] = {0};
	int faults = 0;
	int r52 = vg_rsa_impl()->crt == vg_rsa_crt_52 && keys[0]->r52.digits != 0;
	size_t S = VG_RSA52_STRIDE(keys[0]->r52.digits);

	(void)state;
	assert_non_null(bad);
	trsa_rand_bytes(&rng, in, sizeof(in));
	in[0] = 0x12;
	for (int which = 0; which < 10; which++) {
		memcpy(bad, keys[0], sizeof(*bad));
		switch (which) {
		case 0: bad->p.exp[3] ^= 0x100; break;
		case 1: bad->q.exp[0] ^= 2; break;
		case 2: bad->p.prime[9] ^= 8; break;
		case 3: bad->p.m0inv ^= 1; break;
		case 4:
			if (r52)
				bad->qinv_r[5] ^= 1;
			else
				bad->qinv[5] ^= 1;
			break;
		case 5:
			if (r52)
				bad->r52.out[3] ^= 1;
			else
				bad->p.rr[0] ^= 4;
			break;
		case 6:
			if (r52)
				bad->r52.hi[S + 2] ^= 1 << 9;
			else
				bad->q.rr[7] ^= 1;
			break;
		case 7:
			if (r52)
				bad->r52.rr[1] ^= 1;
			else
				bad->p.rrr[2] ^= 1;
			break;
		case 8:
			if (r52)
				bad->r52.k0[1] ^= 1u << 20;
			else
				bad->q.rrr[4] ^= 2;
			break;
		case 9:
			if (r52)
				bad->r52.m[S + 7] ^= 1;
			else
				bad->q.m0inv ^= 1u << 20;
			break;
		}
		memset(out, 0xa5, sizeof(out));
		int rc = vg_rsa_private(bad, out, in, sizeof(in));
		assert_int_equal(rc, VG_E_FAULT);
		assert_memory_equal(out, zero, sizeof(out));
		/* the signing wrappers pass the fault on */
		uint8_t dig[32] = {1};
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_rsa_sign_pkcs1(bad, VG_HASH_SHA256, dig, 32, out, 256),
				 VG_E_FAULT);
		assert_memory_equal(out, zero, sizeof(out));
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_rsa_sign_pss(bad, VG_HASH_SHA256, dig, 32, out, 256),
				 VG_E_FAULT);
		assert_memory_equal(out, zero, sizeof(out));
		faults++;
	}
	/* the untouched key still works */
	assert_int_equal(vg_rsa_private(keys[0], out, in, sizeof(in)), 0);
	assert_memory_not_equal(out, zero, sizeof(out));
	assert_int_equal(faults, 10);
	vg_rsa_key_wipe(bad);
	free(bad);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest bn_tests[] = {
		cmocka_unit_test(test_bn_bytes),       cmocka_unit_test(test_bn_add_sub),
		cmocka_unit_test(test_bn_cmp),         cmocka_unit_test(test_bn_bits),
		cmocka_unit_test(test_bn_mul),         cmocka_unit_test(test_bn_mod),
		cmocka_unit_test(test_mont_m0inv),     cmocka_unit_test(test_mont_rr),
		cmocka_unit_test(test_mont_mul_random), cmocka_unit_test(test_mont_mul_edges),
		cmocka_unit_test(test_mont_reduce),    cmocka_unit_test(test_mont_add_sub),
		cmocka_unit_test(test_mont_exp),       cmocka_unit_test(test_prime_check),
	};
	const struct CMUnitTest rsa_tests[] = {
		cmocka_unit_test(test_key_accessors),   cmocka_unit_test(test_key_rejections),
		cmocka_unit_test(test_key_swapped_order), cmocka_unit_test(test_public_key_init),
		cmocka_unit_test(test_roundtrip),       cmocka_unit_test(test_range),
		cmocka_unit_test(test_pss_sign_verify), cmocka_unit_test(test_odd_sizes),
		cmocka_unit_test(test_pkcs1_known_answers),
		cmocka_unit_test(test_fault),
	};
	/* --c: run everything on the C row of the RSA family (the reference
	 * path of the private operation); by default the best tier available. */
	if (argc > 1 && strcmp(argv[1], "--c") == 0) {
		vg_dispatch_for_tests(0, 1);
		if (strcmp(vg_kernel_variant("rsa"), "c") != 0) {
			fprintf(stderr, "--c: variant %s in use\n", vg_kernel_variant("rsa"));
			return 1;
		}
	}
	int fails = cmocka_run_group_tests_name("rsa-bn-mont", bn_tests, NULL, NULL);
	fails += cmocka_run_group_tests_name("rsa-keys", rsa_tests, setup_keys, teardown_keys);
	return fails != 0;
}
