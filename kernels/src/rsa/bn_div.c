/* bn_div.c: constant-time division for key generation (see bn.h): long
 * division by a multi-limb m, and division by a word-sized s through a
 * precomputed reciprocal. Secret: the dividends, the quotients, the
 * remainders and, for vg_bn_divmod, m (a divisor made of secret primes).
 * Public: every length, and the small divisors' reciprocals when the
 * divisor is public (trial division's primes, e). No division instruction
 * touches a secret: its latency depends on its operands on most cores. */
#include "rsa/bn.h"

#include "ct.h"
#include "rsa/bn_small.h"

void vg_bn_divmod(uint64_t *q, uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m,
		  size_t mn)
{
	for (size_t i = 0; i < mn; i++)
		r[i] = 0;
	for (size_t i = 0; i < an; i++)
		q[i] = 0;
	/* Invariant: r < m. r = 2r + bit < 2m, so one subtraction by mask
	 * reduces it; the bit shifted out of the top limb says r >= m by
	 * itself. That subtraction is the quotient bit. */
	for (size_t i = 64 * an; i-- > 0;) {
		uint64_t top = r[mn - 1] >> 63;
		for (size_t j = mn - 1; j > 0; j--)
			r[j] = (r[j] << 1) | (r[j - 1] >> 63);
		r[0] = (r[0] << 1) | ((a[i / 64] >> (i % 64)) & 1);
		uint64_t ge = top | (vg_bn_lt(r, m, mn) ^ 1);
		(void)vg_bn_cond_sub(ge, r, m, mn);
		q[i / 64] |= ge << (i % 64); /* i is public: so is the limb */
	}
}

uint64_t vg_bn_small_recip(uint32_t s)
{
	/* s is odd and > 1, so it does not divide 2^64 and
	 * floor((2^64 - 1) / s) = floor(2^64 / s). Public s only. */
	return ~(uint64_t)0 / s;
}

uint32_t vg_bn_mod_small(const uint64_t *a, size_t n, uint32_t s, uint64_t recip)
{
	uint64_t r = 0, q;

	for (size_t i = n; i-- > 0;) {
		r = vg_bn_small_step(r, a[i] >> 32, s, recip, &q);
		r = vg_bn_small_step(r, a[i] & 0xffffffffu, s, recip, &q);
	}
	return (uint32_t)r;
}

uint32_t vg_bn_div_small(uint64_t *q, const uint64_t *a, size_t n, uint32_t s, uint64_t recip)
{
	uint64_t r = 0, hi, lo;

	for (size_t i = n; i-- > 0;) {
		uint64_t w = a[i]; /* read before q[i] (it may alias) is written */
		r = vg_bn_small_step(r, w >> 32, s, recip, &hi);
		r = vg_bn_small_step(r, w & 0xffffffffu, s, recip, &lo);
		q[i] = (hi << 32) | lo;
	}
	return (uint32_t)r;
}
