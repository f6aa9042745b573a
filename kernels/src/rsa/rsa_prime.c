/* rsa_prime.c: a Miller-Rabin test of an RSA key's primes at load (see
 * rsa_prime.h). Secret: the prime, everything derived from it (p - 1, its
 * two-adic split, the powers), and the bases. Constant time in all of them:
 * the loops run a number of times fixed by the prime's bit length (public:
 * it sets the limb count everywhere else too), every conditional is a mask,
 * and the exponentiation is vg_mont_exp_ct. What the test costs depends on
 * the length and the number of rounds only. */
#include "rsa/rsa_prime.h"

#include "ct.h"
#include "random.h"
#include "vg/wipe.h"

/* 1 if a < b for small public-range integers held as words, as a mask
 * operand (no branch). */
static uint64_t lt_u64(uint64_t a, uint64_t b) { return (a - b) >> 63; }

/* a == b over n limbs, 1 or 0 (vg_bn_eq, restated for the two operands
 * this file compares many times). */
static uint64_t eq(const uint64_t *a, const uint64_t *b, size_t n) { return vg_bn_eq(a, b, n); }

/* The most factors of 2 in p - 1 the test follows: its squaring chain has
 * this many steps (a public count) instead of one per bit. A prime with
 * 2^TWO_ADIC_MAX dividing p - 1 (probability 2^-127 for a random prime)
 * is refused: the refusal is the only thing that depends on it, and a
 * verdict is public. */
#define TWO_ADIC_MAX 128

struct mr_scratch {
	uint64_t d[VG_BN_MAX_LIMBS];   /* (p - 1) / 2^t */
	uint64_t sh[VG_BN_MAX_LIMBS];  /* d shifted once more, for the masked copy */
	uint64_t one[VG_BN_MAX_LIMBS]; /* R mod p: 1 in the Montgomery domain */
	uint64_t mone[VG_BN_MAX_LIMBS];/* p - (R mod p): -1 */
	uint64_t aM[VG_BN_MAX_LIMBS], x[VG_BN_MAX_LIMBS];
	uint64_t raw[2 * VG_BN_MAX_LIMBS];
	uint8_t rnd[16 * VG_BN_MAX_LIMBS];
};

uint64_t vg_rsa_prime_check(const vg_mont *ctx, size_t bits, unsigned rounds)
{
	struct mr_scratch s;
	const uint64_t *p = ctx->m;
	size_t n = ctx->n;
	uint64_t ok = 1;
	vg_wipe(&s, sizeof(s));

	/* p - 1 = 2^t d with d odd. t is secret: counted and applied with
	 * masks over fixed ranges (p is odd, so bit 0 of p - 1 is 0 and
	 * t >= 1). */
	for (size_t i = 0; i < n; i++)
		s.d[i] = p[i];
	s.d[0] ^= 1; /* p odd: p - 1 clears bit 0, no borrow */
	uint64_t t = 0, found = 0;
	for (size_t j = 0; j < bits; j++) {
		uint64_t b = s.d[j / 64] >> (j % 64) & 1;
		found |= b;
		t += (found ^ 1) & 1;
	}
	ok &= lt_u64(t, TWO_ADIC_MAX);
	size_t steps = bits < TWO_ADIC_MAX ? bits : TWO_ADIC_MAX;
	for (size_t k = 0; k < steps; k++) {
		for (size_t i = 0; i < n; i++)
			s.sh[i] = s.d[i] >> 1 | (i + 1 < n ? s.d[i + 1] << 63 : 0);
		/* k through a barrier: without it GCC 12 counted this loop
		 * (and the squaring loop below) in k - t, comparing k - t
		 * with steps - t to end it: the same iterations for every t,
		 * but a branch on a secret as far as anyone reading the code
		 * (or valgrind: the keygen ct test) can tell. */
		vg_bn_ccopy(lt_u64(vg_ct_barrier(k), t), s.d, s.sh, n);
	}

	/* 1 and -1 in the Montgomery domain. */
	s.raw[0] = 1;
	vg_mont_reduce(ctx, s.one, s.raw, 1);
	vg_bn_sub(s.mone, p, s.one, n);

	for (unsigned r = 0; r < rounds; r++) {
		/* A random base, uniform modulo p as FIPS 186-5 B.3.1 step
		 * 4.1 asks: 2n random limbs reduced mod p (the excess 64 n
		 * bits make the bias below 2^-(64 n)). The reduction lands in
		 * the Montgomery domain, a R mod p, which is as uniform as a.
		 * B.3.1 draws from [2, p - 2]; 1 or p - 1 would make one
		 * round vacuous and 0 would fail a prime, each with
		 * probability 1/p (below 2^-500 for an RSA prime): not worth
		 * a redraw, whose count would depend on p. */
		if (vg_random_bytes(s.rnd, 16 * n) < 0) {
			ok = 0;
			break;
		}
		for (size_t i = 0; i < 2 * n; i++) {
			uint64_t w = 0;
			for (size_t b = 0; b < 8; b++)
				w |= (uint64_t)s.rnd[8 * i + b] << (8 * b);
			s.raw[i] = w;
		}
		vg_mont_reduce(ctx, s.aM, s.raw, 2 * n);

		/* x = a^d; passes if x = 1, or x^(2^i) = -1 for some i < t. */
		vg_mont_exp_ct(ctx, s.x, s.aM, s.d, bits);
		uint64_t pass = eq(s.x, s.one, n) | eq(s.x, s.mone, n);
		for (size_t i = 1; i < steps; i++) {
			vg_mont_sqr(ctx, s.x, s.x);
			pass |= lt_u64(vg_ct_barrier(i), t) & eq(s.x, s.mone, n);
		}
		ok &= pass;
	}
	vg_wipe(&s, sizeof(s));
	return ok;
}
