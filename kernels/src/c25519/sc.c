/* sc.c: scalars modulo L (Ed25519 group order) by Barrett reduction with
 * 64-bit limbs (HAC algorithm 14.42, b = 2^64, k = 4). Secret: all inputs
 * (the signing nonce and key); every step is straight-line arithmetic, and
 * the final correction is a masked subtraction. */
#include "sc.h"

#include "ct.h"

typedef unsigned __int128 vg_u128;

/* L, little-endian 64-bit limbs. */
static const uint64_t L[4] = {0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0, 0x1000000000000000};

/* mu = floor(2^512 / L), a 260-bit constant (five limbs). The unit test
 * checks the reduction against a bit-by-bit reference, on random inputs
 * and on the inputs where the estimate is at its worst. */
static const uint64_t MU[5] = {0xed9ce5a30a2c131b, 0x2106215d086329a7, 0xffffffffffffffeb,
			       0xffffffffffffffff, 0xf};

/* Written out byte by byte, not as loops: GCC merges these into one
 * 64-bit load or store (as loops they stayed byte loops at -O2, about
 * half of vg_sc_reduce's time once the products were by columns). */
static inline uint64_t load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void store_le64(uint8_t *p, uint64_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
	p[4] = (uint8_t)(x >> 32);
	p[5] = (uint8_t)(x >> 40);
	p[6] = (uint8_t)(x >> 48);
	p[7] = (uint8_t)(x >> 56);
}

/* The product-scanning accumulator: a column's sum acc + 2^128 top.
 * Everything below is straight-line once inlined and unrolled (the sizes
 * are constants), and GCC keeps the limbs in registers (a few spill to
 * the stack, as in any C), so there are no arrays of secrets to wipe and
 * no read-modify-write of partial products through memory, which the
 * former row-by-row schoolbook did: by columns alone, vg_sc_reduce took
 * 0.54 of its time. */
static inline void mac(vg_u128 *acc, uint64_t *top, uint64_t a, uint64_t b)
{
	vg_u128 p = (vg_u128)a * b;
	*acc += p;
	*top += *acc < p; /* the carry out of 2^128 */
}

/* The column's low limb; the rest moves down to the next column. */
static inline uint64_t next_col(vg_u128 *acc, uint64_t *top)
{
	uint64_t lo = (uint64_t)*acc;
	*acc = (*acc >> 64) | (vg_u128)*top << 64;
	*top = 0;
	return lo;
}

/* out = x mod L for x < 2^512 (8 limbs).
 *
 * Why one correction is enough (HAC's general bound allows two): write
 * q1 = floor(x / 2^192) and eps = 2^512/L - mu (about 0.225). Then
 *   x/L - q1*mu/2^320 = (x mod 2^192)/L + q1*eps/2^320 < 2^-60 + 0.225,
 * since q1 < 2^320. The estimate q3 = floor(q1*mu/2^320) is therefore
 * floor(x/L) or floor(x/L) - 1, and r = x - q3*L lies in [0, 2L).
 * As 2L < 2^254, r is computed modulo 2^256: only q3 mod 2^256 (limbs
 * 5..8 of q1*mu) and the low four limbs of q3*L are needed. Inlined into
 * both callers, so x stays in registers instead of a stack copy. */
static inline __attribute__((always_inline)) void barrett(uint8_t out[32], const uint64_t x[8])
{
	const uint64_t *q1 = x + 3;
	uint64_t q3[4], r[4], d[4];
	vg_u128 acc = 0;
	uint64_t top = 0;

	/* q3 = limbs 5..8 of q1 * mu, every column exact (the carries into
	 * limb 5 come from all the columns below it). */
#pragma GCC unroll 16
	for (unsigned k = 0; k < 9; k++) {
#pragma GCC unroll 8
		for (unsigned i = 0; i < 5; i++)
			if (k >= i && k - i < 5) /* public sizes: folded away */
				mac(&acc, &top, q1[i], MU[k - i]);
		uint64_t limb = next_col(&acc, &top);
		if (k >= 5)
			q3[k - 5] = limb;
	}

	/* r = x - q3 * L mod 2^256, L = l0 + 2^64 l1 + 2^252: the 2^252 term
	 * only reaches limb 3, as (q3 mod 16) << 252. */
	acc = 0;
	top = 0;
	uint64_t borrow = 0;
#pragma GCC unroll 4
	for (unsigned k = 0; k < 4; k++) {
		mac(&acc, &top, q3[k], L[0]);
		if (k >= 1)
			mac(&acc, &top, q3[k - 1], L[1]);
		uint64_t t = next_col(&acc, &top);
		if (k == 3)
			t += q3[0] << 60;
		vg_u128 s = (vg_u128)x[k] - t - borrow;
		r[k] = (uint64_t)s;
		borrow = (uint64_t)(s >> 127); /* 1 if it wrapped below zero */
	}

	/* r -= L if r >= L: compute r - L, keep r if that borrowed. */
	borrow = 0;
#pragma GCC unroll 4
	for (unsigned i = 0; i < 4; i++) {
		vg_u128 s = (vg_u128)r[i] - L[i] - borrow;
		d[i] = (uint64_t)s;
		borrow = (uint64_t)(s >> 127);
	}
	uint64_t keep = vg_ct_barrier(vg_ct_mask(borrow)); /* all-ones: r < L, keep r */
#pragma GCC unroll 4
	for (unsigned i = 0; i < 4; i++)
		store_le64(out + 8 * i, (r[i] & keep) | (d[i] & ~keep));
}

void vg_sc_reduce(uint8_t out[32], const uint8_t in[64])
{
	uint64_t x[8];

#pragma GCC unroll 8
	for (unsigned i = 0; i < 8; i++)
		x[i] = load_le64(in + 8 * i);
	barrett(out, x);
}

void vg_sc_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32])
{
	uint64_t x[4], y[4], z[8];
	vg_u128 acc = 0;
	uint64_t top = 0;

#pragma GCC unroll 4
	for (unsigned i = 0; i < 4; i++) {
		x[i] = load_le64(a + 8 * i);
		y[i] = load_le64(b + 8 * i);
	}
	/* z = a*b + c <= (2^256 - 1)^2 + 2^256 - 1 < 2^512, by columns, c's
	 * limb k entering column k. Read before out is written (aliasing). */
#pragma GCC unroll 8
	for (unsigned k = 0; k < 8; k++) {
		if (k < 4) {
			uint64_t ck = load_le64(c + 8 * k);
			acc += ck;
			top += acc < ck;
		}
#pragma GCC unroll 4
		for (unsigned i = 0; i < 4; i++)
			if (k >= i && k - i < 4)
				mac(&acc, &top, x[i], y[k - i]);
		z[k] = next_col(&acc, &top);
	}
	barrett(out, z);
}

uint64_t vg_sc_is_canonical(const uint8_t s[32])
{
	/* s < L exactly when s - L borrows. */
	uint64_t borrow = 0;
	for (unsigned i = 0; i < 4; i++) {
		vg_u128 t = (vg_u128)load_le64(s + 8 * i) - L[i] - borrow;
		borrow = (uint64_t)(t >> 127);
	}
	return borrow;
}
