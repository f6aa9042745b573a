/* ec_mont.h: n-limb Montgomery arithmetic (n <= VG_EC_MAX_LIMBS), the one
 * definition behind the field (mod p) and scalar (mod n) arithmetic of
 * P-256 and P-384. Limbs are 64-bit, little-endian; R = 2^(64 n).
 * Constant time: every value may be secret. Loops run over the public limb
 * count only and the final corrections are masked, never branched.
 *
 * The functions are static inline with n and the modulus as arguments: a
 * caller with constant arguments (p256.c, p384.c) gets a specialised copy,
 * and the generic callers (ec_fe.c) get a loop over a run-time n. */
#ifndef VG_EC_MONT_H
#define VG_EC_MONT_H

#include <stddef.h>
#include <stdint.h>

#include "ct.h"

#define VG_EC_MAX_LIMBS 6

typedef unsigned __int128 vg_u128;

/* Forced inlining keeps the specialisation when a caller passes constants
 * (a plain inline hint is not enough for a function of this size), and
 * the loops are unrolled so a constant limb count becomes straight-line
 * code with the modulus words as immediates (-O2 alone keeps the loops:
 * the multiply measured 2.5 times slower that way). */
#define VG_EC_INLINE static inline __attribute__((always_inline))
#define VG_EC_UNROLL _Pragma("GCC unroll 8")
/* Tells the compiler the limb count's bound (callers with a run-time n
 * pass 4 or 6), which also keeps its array-bounds analysis exact. */
#define VG_EC_ASSUME_LIMBS(n)                          \
	do {                                           \
		if ((n) == 0 || (n) > VG_EC_MAX_LIMBS) \
			__builtin_unreachable();       \
	} while (0)

/* r = t - m if that does not borrow, else t; t has n + 1 limbs (t[n] is a
 * carry word) and r gets n. Masked: both differences are computed. */
VG_EC_INLINE void vg_ec_mont_csub(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n)
{
	uint64_t d[VG_EC_MAX_LIMBS] = {0}, borrow = 0; /* = {0}: quiets -Wmaybe-uninitialized */
	VG_EC_ASSUME_LIMBS(n);

	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++) {
		vg_u128 z = (vg_u128)t[i] - m[i] - borrow;
		d[i] = (uint64_t)z;
		borrow = (uint64_t)(z >> 64) & 1;
	}
	/* t - m is non-negative iff the top word absorbs the borrow. */
	borrow = (uint64_t)(((vg_u128)t[n] - borrow) >> 64) & 1;
	uint64_t keep = vg_ct_barrier(vg_ct_mask(borrow)); /* all-ones: t < m, keep t */
	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++)
		r[i] = (t[i] & keep) | (d[i] & ~keep);
}

/* r = a b R^-1 mod m, fully reduced (r < m), for ANY a, b < 2^(64 n), not
 * only reduced ones. m is odd, m0inv = -m^-1 mod 2^64. r may alias a or b.
 *
 * Word-by-word (CIOS) Montgomery: for each word of a, t = (t + a_i b +
 * u m) / 2^64 with u chosen so the division is exact. With a, b < R the
 * loop keeps t < R + m (so t fits n limbs plus a carry bit); one
 * conditional subtraction of m leaves t < R, and a second one leaves
 * t < m (if t >= m after the first, t - m < R - m < m as m > R/2). */
VG_EC_INLINE void vg_ec_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
				 const uint64_t *m, uint64_t m0inv, size_t n)
{
	uint64_t t[VG_EC_MAX_LIMBS + 2];
	VG_EC_ASSUME_LIMBS(n);

	VG_EC_UNROLL
	for (size_t i = 0; i < n + 2; i++)
		t[i] = 0;
	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++) {
		/* t += a_i b */
		uint64_t c = 0;
		VG_EC_UNROLL
		for (size_t j = 0; j < n; j++) {
			vg_u128 z = (vg_u128)a[i] * b[j] + t[j] + c;
			t[j] = (uint64_t)z;
			c = (uint64_t)(z >> 64);
		}
		vg_u128 z = (vg_u128)t[n] + c;
		t[n] = (uint64_t)z;
		t[n + 1] = (uint64_t)(z >> 64);

		/* t = (t + u m) / 2^64, u = t_0 m0inv makes the low word zero */
		uint64_t u = t[0] * m0inv;
		z = (vg_u128)u * m[0] + t[0];
		c = (uint64_t)(z >> 64);
		VG_EC_UNROLL
		for (size_t j = 1; j < n; j++) {
			z = (vg_u128)u * m[j] + t[j] + c;
			t[j - 1] = (uint64_t)z;
			c = (uint64_t)(z >> 64);
		}
		z = (vg_u128)t[n] + c;
		t[n - 1] = (uint64_t)z;
		t[n] = t[n + 1] + (uint64_t)(z >> 64);
		t[n + 1] = 0;
	}
	vg_ec_mont_csub(t, t, m, n); /* t < R; t[n] must now be 0 */
	t[n] = 0;
	vg_ec_mont_csub(r, t, m, n); /* r < m */
}

/* r = a + b mod m for a, b < m. */
VG_EC_INLINE void vg_ec_mod_add(uint64_t *r, const uint64_t *a, const uint64_t *b,
				const uint64_t *m, size_t n)
{
	uint64_t t[VG_EC_MAX_LIMBS + 1], c = 0;
	VG_EC_ASSUME_LIMBS(n);

	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++) {
		vg_u128 z = (vg_u128)a[i] + b[i] + c;
		t[i] = (uint64_t)z;
		c = (uint64_t)(z >> 64);
	}
	t[n] = c;
	vg_ec_mont_csub(r, t, m, n); /* a + b < 2m */
}

/* r = a - b mod m for a, b < m: subtract, then add m back under the
 * borrow mask. */
VG_EC_INLINE void vg_ec_mod_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
				const uint64_t *m, size_t n)
{
	uint64_t t[VG_EC_MAX_LIMBS], borrow = 0, c = 0;
	VG_EC_ASSUME_LIMBS(n);

	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++) {
		vg_u128 z = (vg_u128)a[i] - b[i] - borrow;
		t[i] = (uint64_t)z;
		borrow = (uint64_t)(z >> 64) & 1;
	}
	uint64_t mask = vg_ct_barrier(vg_ct_mask(borrow));
	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++) {
		vg_u128 z = (vg_u128)t[i] + (m[i] & mask) + c;
		r[i] = (uint64_t)z;
		c = (uint64_t)(z >> 64);
	}
}

#endif
