/* ct.h: constant-time helpers, all in one place.
 * Control values named `ctl` are 0 or 1; masks are 0 or all-ones.
 * None of these branch or index memory on their arguments. */
#ifndef VG_CT_H
#define VG_CT_H

#include <stddef.h>
#include <stdint.h>

/* All-ones if ctl == 1, zero if ctl == 0: two's-complement negation. */
static inline uint64_t vg_ct_mask(uint64_t ctl) { return (uint64_t)0 - ctl; }

/* 1 if x != 0: the top bit of (x | -x) is set exactly when x is non-zero. */
static inline uint64_t vg_ct_nonzero(uint64_t x) { return (x | ((uint64_t)0 - x)) >> 63; }

/* 1 if x == 0. */
static inline uint64_t vg_ct_iszero(uint64_t x) { return 1 ^ vg_ct_nonzero(x); }

/* 1 if x == y. */
static inline uint64_t vg_ct_eq(uint64_t x, uint64_t y) { return vg_ct_iszero(x ^ y); }

/* ctl ? a : b */
static inline uint64_t vg_ct_select(uint64_t ctl, uint64_t a, uint64_t b)
{
	uint64_t m = vg_ct_mask(ctl);
	return b ^ (m & (a ^ b));
}

/* 1 if the n bytes at a and b are equal; reads every byte. */
static inline uint64_t vg_ct_memeq(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	uint64_t d = 0;
	for (size_t i = 0; i < n; i++)
		d |= (uint64_t)(x[i] ^ y[i]);
	return vg_ct_iszero(d);
}

/* Hide a value from the optimiser so mask arithmetic is not turned back
 * into a branch. */
static inline uint64_t vg_ct_barrier(uint64_t x)
{
	__asm__("" : "+r"(x));
	return x;
}

#endif
