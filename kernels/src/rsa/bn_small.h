/* bn_small.h: one step of division by a word-sized s through its
 * reciprocal (vg_bn_small_recip), inlined by the residue and quotient
 * loops of bn_div.c and the trial division of rsa_sieve.c. Constant time
 * in r, c and s: two multiplications, subtractions and a mask. */
#ifndef VG_RSA_BN_SMALL_H
#define VG_RSA_BN_SMALL_H

#include <stdint.h>

#include "ct.h"

/* x = r 2^32 + c with r < s < 2^32, so x < s 2^32 < 2^64. With recip =
 * floor(2^64 / s) = (2^64 - eps) / s, 0 < eps <= s:
 *   x recip / 2^64 = x / s - x eps / (s 2^64) > x / s - 1,
 * so q = floor(x recip / 2^64) is floor(x / s) or one less, and x - q s
 * lies in [0, 2s): one subtraction by mask finishes. *quot gets the
 * exact quotient digit (< 2^32). */
static inline uint64_t vg_bn_small_step(uint64_t r, uint64_t c, uint64_t s, uint64_t recip,
					uint64_t *quot)
{
	uint64_t x = (r << 32) | c;
	uint64_t q = (uint64_t)(((unsigned __int128)x * recip) >> 64);
	uint64_t rem = x - q * s;
	/* rem < 2^33: rem - s borrows (top bit set) exactly when rem < s */
	uint64_t ge = ((rem - s) >> 63) ^ 1;
	ge = vg_ct_barrier(ge);
	*quot = q + ge;
	return rem - (s & vg_ct_mask(ge));
}

#endif
