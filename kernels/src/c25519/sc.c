/* sc.c: scalars modulo L (Ed25519 group order) by Barrett reduction with
 * 64-bit limbs (HAC algorithm 14.42, b = 2^64, k = 4). Secret: all inputs
 * (the signing nonce and key); every step is straight-line arithmetic, and
 * the final correction is a masked subtraction. */
#include "sc.h"

#include "ct.h"
#include "vg/wipe.h"

typedef unsigned __int128 vg_u128;

/* L, little-endian 64-bit limbs. */
static const uint64_t L[4] = {0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0, 0x1000000000000000};

/* mu = floor(2^512 / L), a 260-bit constant (five limbs). The unit test
 * checks the reduction against a bit-by-bit reference, on random inputs
 * and on the inputs where the estimate is at its worst. */
static const uint64_t MU[5] = {0xed9ce5a30a2c131b, 0x2106215d086329a7, 0xffffffffffffffeb,
			       0xffffffffffffffff, 0xf};

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | p[i];
	return x;
}

static void store_le64(uint8_t *p, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

/* r = x * y (na and nb limbs; r has na + nb limbs), schoolbook, the
 * loops unrolled (constant sizes: the compiler folds L's zero limb and
 * power-of-two top limb; sc_muladd 0.8 of the rolled loops' time). */
static void mul_limbs(uint64_t *r, const uint64_t *x, unsigned nx, const uint64_t *y, unsigned ny)
{
	for (unsigned i = 0; i < nx + ny; i++)
		r[i] = 0;
#pragma GCC unroll 8
	for (unsigned i = 0; i < nx; i++) {
		uint64_t carry = 0;
#pragma GCC unroll 8
		for (unsigned j = 0; j < ny; j++) {
			vg_u128 t = (vg_u128)x[i] * y[j] + r[i + j] + carry;
			r[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		r[i + ny] = carry;
	}
}

/* r = x * y mod 2^(64 n), its low n limbs only (n <= nx + ny): the
 * products at or above limb n are skipped, their carries dropped. */
static void mul_limbs_lo(uint64_t *r, const uint64_t *x, unsigned nx, const uint64_t *y,
			 unsigned ny, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		r[i] = 0;
#pragma GCC unroll 8
	for (unsigned i = 0; i < nx; i++) {
		uint64_t carry = 0;
#pragma GCC unroll 8
		for (unsigned j = 0; j < ny; j++) {
			if (i + j >= n) /* public sizes: folded away once unrolled */
				break;
			vg_u128 t = (vg_u128)x[i] * y[j] + r[i + j] + carry;
			r[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		if (i + ny < n)
			r[i + ny] = carry;
	}
}

/* r (5 limbs) -= L if r >= L, without a branch: compute r - L, and keep it
 * unless the subtraction borrowed. */
static void cond_sub_l(uint64_t r[5])
{
	uint64_t d[5], borrow = 0;
	for (unsigned i = 0; i < 5; i++) {
		uint64_t li = i < 4 ? L[i] : 0;
		vg_u128 t = (vg_u128)r[i] - li - borrow;
		d[i] = (uint64_t)t;
		borrow = (uint64_t)(t >> 127); /* 1 if it wrapped below zero */
	}
	uint64_t keep = vg_ct_barrier(vg_ct_mask(borrow)); /* all-ones: r < L, keep r */
	for (unsigned i = 0; i < 5; i++)
		r[i] = (r[i] & keep) | (d[i] & ~keep);
	vg_wipe(d, sizeof(d));
}

/* out = x mod L for x < 2^512 (8 limbs).
 *
 * Why one correction is enough (HAC's general bound allows two): write
 * q1 = floor(x / 2^192) and eps = 2^512/L - mu (about 0.225). Then
 *   x/L - q1*mu/2^320 = (x mod 2^192)/L + q1*eps/2^320 < 2^-60 + 0.225,
 * since q1 < 2^320. The estimate q3 = floor(q1*mu/2^320) is therefore
 * floor(x/L) or floor(x/L) - 1, and r = x - q3*L lies in [0, 2L). */
static void barrett(uint8_t out[32], const uint64_t x[8])
{
	uint64_t q2[10], r2[5], r[5];

	/* q2 = q1 * mu; q3 = floor(q2 / 2^320) is limbs 5..9 of q2. */
	mul_limbs(q2, x + 3, 5, MU, 5);
	/* r = (x - q3 * L) mod 2^320, computed on the low five limbs only:
	 * the true value is below 2L, so nothing above limb 4 matters. */
	mul_limbs_lo(r2, q2 + 5, 5, L, 4, 5);
	uint64_t borrow = 0;
	for (unsigned i = 0; i < 5; i++) {
		vg_u128 t = (vg_u128)x[i] - r2[i] - borrow;
		r[i] = (uint64_t)t;
		borrow = (uint64_t)(t >> 127);
	}
	cond_sub_l(r);
	for (unsigned i = 0; i < 4; i++)
		store_le64(out + 8 * i, r[i]);

	vg_wipe(q2, sizeof(q2));
	vg_wipe(r2, sizeof(r2));
	vg_wipe(r, sizeof(r));
}

void vg_sc_reduce(uint8_t out[32], const uint8_t in[64])
{
	uint64_t x[8];

	for (unsigned i = 0; i < 8; i++)
		x[i] = load_le64(in + 8 * i);
	barrett(out, x);
	vg_wipe(x, sizeof(x));
}

void vg_sc_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32])
{
	uint64_t x[4], y[4], z[8];

	for (unsigned i = 0; i < 4; i++) {
		x[i] = load_le64(a + 8 * i);
		y[i] = load_le64(b + 8 * i);
	}
	/* a*b + c <= (2^256 - 1)^2 + 2^256 - 1 < 2^512: fits eight limbs. */
	mul_limbs(z, x, 4, y, 4);
	uint64_t carry = 0;
	for (unsigned i = 0; i < 8; i++) {
		vg_u128 t = (vg_u128)z[i] + (i < 4 ? load_le64(c + 8 * i) : 0) + carry;
		z[i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
	barrett(out, z);
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
	vg_wipe(z, sizeof(z));
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
