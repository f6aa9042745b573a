/* test_keygen_arith.c: the constant-time arithmetic under RSA key
 * generation against OpenSSL's BIGNUMs (variable time, independent code):
 * residues and quotients by word-sized divisors (vg_bn_mod_small,
 * vg_bn_div_small), long division (vg_bn_divmod), the binary gcd and
 * inverse (vg_bn_gcd, vg_bn_modinv_odd), trial division
 * (vg_sieve_coprime, against a list of primes made here by naive trial
 * division), on random and edge inputs; and Miller-Rabin
 * (vg_rsa_prime_check) on known primes (Mersenne primes, primes with a
 * large power of two in p - 1, random OpenSSL primes) and composites
 * (Carmichael numbers, strong pseudoprimes to the first prime bases, RSA
 * moduli). A Fermat test in place of Miller-Rabin would pass the
 * Carmichael numbers; a base fixed at 2 would pass the strong
 * pseudoprimes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/bn.h>

#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_prime.h"
#include "rsa/rsa_sieve.h"

static uint64_t rng = 0x6b657967656eULL;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random value of n limbs with a random shape: all bits, a short top,
 * runs of zeros or ones (the edges of carries and borrows). */
static void rand_limbs(uint64_t *a, size_t n)
{
	unsigned shape = (unsigned)(rnd() % 5);
	for (size_t i = 0; i < n; i++) {
		a[i] = rnd();
		if (shape == 1 && i == n - 1)
			a[i] >>= rnd() % 64;
		if (shape == 2 && rnd() % 2)
			a[i] = 0;
		if (shape == 3 && rnd() % 2)
			a[i] = ~(uint64_t)0;
	}
}

static BIGNUM *to_bn(const uint64_t *a, size_t n)
{
	uint8_t b[8 * 2 * VG_BN_MAX_LIMBS];
	vg_bn_to_bytes(b, 8 * n, a, n);
	BIGNUM *r = BN_bin2bn(b, (int)(8 * n), NULL);
	assert_non_null(r);
	return r;
}

static void from_bn(uint64_t *a, size_t n, const BIGNUM *x)
{
	uint8_t b[8 * 2 * VG_BN_MAX_LIMBS];
	assert_true(BN_num_bytes(x) <= (int)(8 * n));
	assert_int_equal(BN_bn2binpad(x, b, (int)(8 * n)), (int)(8 * n));
	assert_int_equal(vg_bn_from_bytes(a, n, b, 8 * n), 1);
}

static void assert_bn_eq(const uint64_t *a, size_t n, const BIGNUM *x)
{
	BIGNUM *y = to_bn(a, n);
	assert_int_equal(BN_cmp(y, x), 0);
	BN_free(y);
}

/* Odd divisors in [3, 2^32): small primes, e values, the extremes. */
static uint32_t pick_small(void)
{
	static const uint32_t fixed[] = {3, 5, 7, 8167, 65537, 65541, 0xffffffffu, 0xfffffffbu};
	if (rnd() % 2)
		return fixed[rnd() % (sizeof(fixed) / sizeof(fixed[0]))];
	return (uint32_t)(rnd() | 1) | 2; /* odd, >= 3 */
}

static void test_small_division(void **state)
{
	uint64_t a[VG_BN_MAX_LIMBS], q[VG_BN_MAX_LIMBS];
	BN_CTX *ctx = BN_CTX_new();

	(void)state;
	for (int it = 0; it < 3000; it++) {
		size_t n = 1 + rnd() % VG_BN_MAX_LIMBS;
		uint32_t s = pick_small();
		uint64_t recip = vg_bn_small_recip(s);
		rand_limbs(a, n);
		if (it % 7 == 0) { /* a multiple of s, and that minus one */
			BIGNUM *x = to_bn(a, n);
			BN_div_word(x, s);
			BN_mul_word(x, s);
			if (it % 14 == 0 && !BN_is_zero(x))
				BN_sub_word(x, 1);
			from_bn(a, n, x);
			BN_free(x);
		}
		if (it == 1)
			memset(a, 0, sizeof(a));
		BIGNUM *x = to_bn(a, n);
		BN_ULONG ref = BN_mod_word(x, s);
		assert_int_equal(vg_bn_mod_small(a, n, s, recip), ref);
		assert_int_equal(vg_bn_div_small(q, a, n, s, recip), ref);
		BN_div_word(x, s);
		assert_bn_eq(q, n, x);
		/* in place */
		assert_int_equal(vg_bn_div_small(a, a, n, s, recip), ref);
		assert_bn_eq(a, n, x);
		BN_free(x);
	}
	BN_CTX_free(ctx);
}

static void test_divmod(void **state)
{
	uint64_t a[VG_BN_MAX_LIMBS], m[VG_BN_MAX_LIMBS], q[VG_BN_MAX_LIMBS], r[VG_BN_MAX_LIMBS];
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *bq = BN_new(), *br = BN_new();

	(void)state;
	for (int it = 0; it < 400; it++) {
		size_t an = 1 + rnd() % VG_BN_MAX_LIMBS, mn = 1 + rnd() % 32;
		rand_limbs(a, an);
		rand_limbs(m, mn);
		if (it % 5 == 0)
			for (size_t i = 1; i < mn; i++)
				m[i] = 0; /* a small divisor in a wide array */
		if (vg_bn_is_zero(m, mn))
			m[0] = 1 + (it % 3 == 0);
		if (it == 3)
			for (size_t i = 0; i < mn; i++)
				m[i] = i == 0; /* m = 1 */
		BIGNUM *x = to_bn(a, an), *y = to_bn(m, mn);
		assert_int_equal(BN_div(bq, br, x, y, ctx), 1);
		vg_bn_divmod(q, r, a, an, m, mn);
		assert_bn_eq(q, an, bq);
		assert_bn_eq(r, mn, br);
		BN_free(x);
		BN_free(y);
	}
	BN_free(bq);
	BN_free(br);
	BN_CTX_free(ctx);
}

static void test_modinv(void **state)
{
	uint64_t a[VG_BN_MAX_LIMBS], m[VG_BN_MAX_LIMBS], r[VG_BN_MAX_LIMBS];
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *inv = BN_new();

	(void)state;
	for (int it = 0; it < 600; it++) {
		size_t n = 1 + rnd() % 32;
		rand_limbs(m, n);
		m[0] |= 1;
		if (vg_bn_is_zero(m, n) || (n == 1 && m[0] == 1))
			m[0] = 3;
		rand_limbs(a, n);
		switch (it % 8) {
		case 0: /* a = 0: no inverse */
			memset(a, 0, sizeof(a));
			break;
		case 1: /* a = 1 */
			memset(a, 0, sizeof(a));
			a[0] = 1;
			break;
		case 2: /* a = m - 1 (m is odd: clear bit 0) */
			memcpy(a, m, sizeof(a));
			a[0] ^= 1;
			break;
		case 3: /* a = m: gcd m */
			memcpy(a, m, sizeof(a));
			break;
		case 4: { /* a and m share the factor 3 */
			BIGNUM *x = to_bn(m, n);
			BN_div_word(x, 3);
			BN_mul_word(x, 3);
			if (BN_is_zero(x) || !BN_is_odd(x))
				BN_set_word(x, 9);
			from_bn(m, n, x);
			BN_set_word(x, 3);
			BN_mul_word(x, (BN_ULONG)(rnd() % 1000 + 1));
			from_bn(a, n, x);
			BN_free(x);
			break;
		}
		default:
			break; /* random, a may exceed m */
		}
		BIGNUM *x = to_bn(a, n), *y = to_bn(m, n);
		BIGNUM *ok = BN_mod_inverse(inv, x, y, ctx);
		uint64_t got = vg_bn_modinv_odd(r, a, m, n);
		if (ok) {
			assert_int_equal(got, 1);
			assert_bn_eq(r, n, inv);
		} else {
			assert_int_equal(got, 0);
			assert_true(vg_bn_is_zero(r, n));
		}
		BN_free(x);
		BN_free(y);
	}
	BN_free(inv);
	BN_CTX_free(ctx);
}

static void test_gcd(void **state)
{
	uint64_t a[VG_BN_MAX_LIMBS], b[VG_BN_MAX_LIMBS], g[VG_BN_MAX_LIMBS];
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *ref = BN_new();

	(void)state;
	for (int it = 0; it < 400; it++) {
		size_t n = 1 + rnd() % 32;
		rand_limbs(a, n);
		rand_limbs(b, n);
		if (it % 4 == 0) { /* a common factor c 2^k, the shape of p-1, q-1 */
			BIGNUM *x = to_bn(a, n), *y = to_bn(b, n);
			unsigned k = (unsigned)(rnd() % 70);
			BN_ULONG c = (BN_ULONG)(rnd() % 100000 + 1);
			BN_rshift(x, x, (int)(k + 20));
			BN_rshift(y, y, (int)(k + 20));
			BN_mul_word(x, c);
			BN_mul_word(y, c);
			BN_lshift(x, x, (int)k);
			BN_lshift(y, y, (int)k);
			from_bn(a, n, x);
			from_bn(b, n, y);
			BN_free(x);
			BN_free(y);
		}
		if (it % 9 == 1)
			memcpy(b, a, sizeof(b)); /* gcd(a, a) = a */
		if (it % 9 == 2) {               /* gcd(1, b) = 1 */
			memset(a, 0, sizeof(a));
			a[0] = 1;
		}
		if (it % 9 == 3) { /* a power of two */
			memset(a, 0, sizeof(a));
			a[n - 1] = (uint64_t)1 << (rnd() % 64);
		}
		BIGNUM *x = to_bn(a, n), *y = to_bn(b, n);
		uint64_t got = vg_bn_gcd(g, a, b, n);
		if (BN_is_zero(x) || BN_is_zero(y)) {
			assert_int_equal(got, 0);
		} else {
			assert_int_equal(got, 1);
			assert_int_equal(BN_gcd(ref, x, y, ctx), 1);
			assert_bn_eq(g, n, ref);
		}
		BN_free(x);
		BN_free(y);
	}
	/* zero operands */
	memset(a, 0, sizeof(a));
	b[0] = 5;
	assert_int_equal(vg_bn_gcd(g, a, b, 1), 0);
	assert_int_equal(vg_bn_gcd(g, b, a, 1), 0);
	BN_free(ref);
	BN_CTX_free(ctx);
}

/* The first VG_SIEVE_COUNT odd primes, by naive trial division. */
static uint32_t small_primes[VG_SIEVE_COUNT];

static void make_small_primes(void)
{
	size_t k = 0;
	for (uint32_t c = 3; k < VG_SIEVE_COUNT; c += 2) {
		int prime = 1;
		for (uint32_t d = 3; d * d <= c; d += 2)
			if (c % d == 0)
				prime = 0;
		if (prime)
			small_primes[k++] = c;
	}
}

static int ref_coprime(const uint64_t *a, size_t n)
{
	BIGNUM *x = to_bn(a, n);
	int ok = 1;
	for (size_t i = 0; i < VG_SIEVE_COUNT; i++)
		if (BN_mod_word(x, small_primes[i]) == 0)
			ok = 0;
	BN_free(x);
	return ok;
}

static void test_sieve(void **state)
{
	static struct vg_sieve sv;
	uint64_t a[VG_BN_MAX_LIMBS / 2];
	int hits = 0, misses = 0;

	(void)state;
	make_small_primes();
	vg_sieve_init(&sv);
	/* every prime is in some group, and every group entry is a listed prime */
	for (size_t i = 0; i < VG_SIEVE_COUNT; i++) {
		int found = 0;
		for (size_t g = 0; g < sv.groups; g++)
			for (size_t j = 0; j < VG_SIEVE_PER_GROUP; j++)
				found |= sv.g[g].p[j] == small_primes[i];
		assert_true(found);
	}
	/* random odd candidates of the RSA prime sizes */
	for (int it = 0; it < 600; it++) {
		size_t n = 16 + 8 * (size_t)(rnd() % 3);
		rand_limbs(a, n);
		a[0] |= 1;
		a[n - 1] |= (uint64_t)3 << 62;
		if (it % 3 == 0) { /* a multiple of one listed prime, often the last */
			uint32_t p = it % 2 ? small_primes[VG_SIEVE_COUNT - 1]
					    : small_primes[rnd() % VG_SIEVE_COUNT];
			BIGNUM *x = to_bn(a, n);
			BN_div_word(x, p);
			BN_mul_word(x, p);
			if (!BN_is_odd(x))
				BN_add_word(x, p);
			from_bn(a, n, x);
			BN_free(x);
		}
		int ref = ref_coprime(a, n);
		assert_int_equal(vg_sieve_coprime(&sv, a, n), (uint64_t)ref);
		hits += !ref;
		misses += ref;
	}
	assert_true(hits > 200 && misses > 30); /* both verdicts were exercised */
}

/* vg_rsa_prime_check on x with rounds rounds. */
static uint64_t mr(const BIGNUM *x, unsigned rounds)
{
	uint64_t m[VG_BN_MAX_LIMBS], rr[VG_BN_MAX_LIMBS];
	size_t n = ((size_t)BN_num_bits(x) + 63) / 64;
	vg_mont ctx;

	from_bn(m, n, x);
	vg_mont_rr(rr, m, n);
	vg_rsa_mont_init(vg_rsa_impl(), &ctx, m, rr, vg_mont_m0inv(m[0]), n);
	return vg_rsa_prime_check(&ctx, (size_t)BN_num_bits(x), rounds);
}

static BIGNUM *dec(const char *d)
{
	BIGNUM *x = NULL;
	assert_true(BN_dec2bn(&x, d) > 0);
	return x;
}

static void test_miller_rabin(void **state)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *x = BN_new(), *y = BN_new(), *z = BN_new();
	/* Carmichael numbers (561 = 3 11 17, ...) and strong pseudoprimes to
	 * all prime bases up to 7, 23, 37 and 41 (OEIS A014233). */
	static const char *composites[] = {
		"561",
		"41041",
		"825265",
		"321197185",
		"5394826801",
		"232250619601",
		"9746347772161",
		"3215031751",
		"3825123056546413051",
		"318665857834031151167461",
		"3317044064679887385961981",
	};
	(void)state;

	/* Mersenne primes: 2^127 - 1, 2^521 - 1, 2^607 - 1, 2^1279 - 1. */
	static const int mexp[] = {127, 521, 607, 1279};
	for (size_t i = 0; i < 4; i++) {
		BN_zero(x);
		BN_set_bit(x, mexp[i]);
		BN_sub_word(x, 1);
		assert_int_equal(mr(x, 20), 1);
		/* and a composite neighbour: 2^k + 1 is divisible by 3 */
		BN_add_word(x, 2);
		assert_int_equal(mr(x, 20), 0);
	}
	for (size_t i = 0; i < sizeof(composites) / sizeof(composites[0]); i++) {
		BIGNUM *c = dec(composites[i]);
		assert_int_equal(BN_check_prime(c, ctx, NULL), 0); /* the list is right */
		assert_int_equal(mr(c, 20), 0);
		BN_free(c);
	}
	/* A Chernick Carmichael number (6k + 1)(12k + 1)(18k + 1), all three
	 * prime, of about 110 bits. */
	for (uint64_t k = (uint64_t)1 << 35;; k++) {
		BN_set_word(x, 6 * k + 1);
		BN_set_word(y, 12 * k + 1);
		BN_set_word(z, 18 * k + 1);
		if (BN_check_prime(x, ctx, NULL) == 1 && BN_check_prime(y, ctx, NULL) == 1 &&
		    BN_check_prime(z, ctx, NULL) == 1)
			break;
	}
	BN_mul(x, x, y, ctx);
	BN_mul(x, x, z, ctx);
	assert_int_equal(mr(x, 20), 0);

	/* Primes k 2^s + 1 with s = 100 and 120: the squaring chain runs that
	 * long (up to TWO_ADIC_MAX = 128). s = 130 is refused by design. */
	static const int twos[] = {100, 120, 130};
	for (size_t i = 0; i < 3; i++) {
		for (BN_ULONG k = (BN_ULONG)(rnd() >> 4) | 1;; k += 2) {
			BN_set_word(x, k);
			BN_lshift(x, x, twos[i]);
			BN_add_word(x, 1);
			if (BN_check_prime(x, ctx, NULL) == 1)
				break;
		}
		assert_int_equal(mr(x, 10), twos[i] < 128 ? 1 : 0);
	}

	/* Random primes of the RSA sizes, and products of two (RSA moduli). */
	static const int bits[] = {1024, 1536, 2048};
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(BN_generate_prime_ex(x, bits[i], 0, NULL, NULL, NULL), 1);
		assert_int_equal(mr(x, 5), 1);
		assert_int_equal(BN_generate_prime_ex(y, bits[i] / 2, 0, NULL, NULL, NULL), 1);
		assert_int_equal(BN_generate_prime_ex(z, bits[i] / 2, 0, NULL, NULL, NULL), 1);
		BN_mul(x, y, z, ctx);
		assert_int_equal(mr(x, 5), 0);
	}
	BN_free(x);
	BN_free(y);
	BN_free(z);
	BN_CTX_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_division), cmocka_unit_test(test_divmod),
		cmocka_unit_test(test_modinv),         cmocka_unit_test(test_gcd),
		cmocka_unit_test(test_sieve),          cmocka_unit_test(test_miller_rabin),
	};
	return cmocka_run_group_tests_name("keygen-arith", tests, NULL, NULL) != 0;
}
