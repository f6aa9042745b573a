/* bn.h: fixed-capacity unsigned integers as little-endian arrays of 64-bit
 * limbs, for RSA. Limb VALUES may be secret; limb COUNTS are public. Every
 * function here runs in time that depends only on the counts it is given,
 * never on the values (no branch, index or division on a limb). */
#ifndef VG_RSA_BN_H
#define VG_RSA_BN_H

#include <stddef.h>
#include <stdint.h>

#include "vg/rsa.h"

/* Capacity of every limb array: a 4096-bit modulus. */
#define VG_BN_MAX_LIMBS (VG_RSA_MAX_BITS / 64)

/* r[0..n) = the big-endian bytes src[0..len) (leading zero bytes allowed).
 * Returns 1 if the value fits in n limbs, 0 if a non-zero byte lies beyond
 * them (then r holds the low n limbs). Reads every byte. */
uint64_t vg_bn_from_bytes(uint64_t *r, size_t n, const uint8_t *src, size_t len);

/* dst[0..len) = a[0..n) big-endian, truncated or zero-extended to len
 * bytes. */
void vg_bn_to_bytes(uint8_t *dst, size_t len, const uint64_t *a, size_t n);

/* r = a + b over n limbs; returns the carry out (0 or 1). r may alias. */
uint64_t vg_bn_add(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* r = a - b over n limbs; returns the borrow out (0 or 1). r may alias. */
uint64_t vg_bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);

/* If ctl (0 or 1), a += b over n limbs; returns the carry out (0 if !ctl). */
uint64_t vg_bn_cond_add(uint64_t ctl, uint64_t *a, const uint64_t *b, size_t n);

/* If ctl (0 or 1), a -= b over n limbs; returns the borrow out (0 if !ctl). */
uint64_t vg_bn_cond_sub(uint64_t ctl, uint64_t *a, const uint64_t *b, size_t n);

/* If ctl, r = a (n limbs); otherwise r is left as it is. */
void vg_bn_ccopy(uint64_t ctl, uint64_t *r, const uint64_t *a, size_t n);

/* 1 if a < b, else 0 (n limbs each). */
uint64_t vg_bn_lt(const uint64_t *a, const uint64_t *b, size_t n);

/* 1 if a == b, else 0 (n limbs each). */
uint64_t vg_bn_eq(const uint64_t *a, const uint64_t *b, size_t n);

/* 1 if a == 0, else 0. */
uint64_t vg_bn_is_zero(const uint64_t *a, size_t n);

/* Bit length of a (0 for a == 0). */
size_t vg_bn_bits(const uint64_t *a, size_t n);

/* Bits pos..pos+wbits-1 of e, which has ebits bits (the bits above are
 * zero; words past the one holding bit ebits-1 are not read): the
 * exponentiations' window digits. pos, ebits and wbits (1..63) are
 * public; the result is not. */
uint64_t vg_bn_window(const uint64_t *e, size_t pos, size_t ebits, unsigned wbits);

/* r[0..an+bn) = a * b, schoolbook. r must not alias a or b. */
void vg_bn_mul(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b, size_t bn);

/* r[0..mn) = a[0..an) mod m[0..mn), m > 0, one bit of a per step
 * (shift in, subtract m by mask): 64*an steps of O(mn). Slow but simple and
 * constant time for any m, even or odd: used only at key load. r must not
 * alias a. */
void vg_bn_mod(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m, size_t mn);

/* r[0..mn) = 2^k mod m, m > 1, by k constant-time modular doublings. */
void vg_bn_pow2_mod(uint64_t *r, size_t k, const uint64_t *m, size_t mn);

/* ---- division and inversion (bn_div.c, bn_gcd.c): for key generation.
 * Constant time in every value; only the counts given decide the time. */

/* q[0..an) = a / m and r[0..mn) = a mod m for a[0..an) and m[0..mn) > 0,
 * one bit of a per step (shift in, subtract m by mask, record the bit):
 * 64*an steps of O(mn). q must alias neither a nor r. */
void vg_bn_divmod(uint64_t *q, uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m,
		  size_t mn);

/* floor(2^64 / s) for an odd public s, 3 <= s < 2^32: the reciprocal the
 * two functions below multiply by instead of dividing. */
uint64_t vg_bn_small_recip(uint32_t s);

/* a[0..n) mod s, given recip = vg_bn_small_recip(s): Horner over 32-bit
 * digits, each step a multiplication by recip and one masked correction,
 * the same instructions whatever a is (s may be secret too: no division
 * instruction, whose time varies with its operands, is used). */
uint32_t vg_bn_mod_small(const uint64_t *a, size_t n, uint32_t s, uint64_t recip);

/* q[0..n) = a[0..n) / s (q may alias a); returns a mod s. As above. */
uint32_t vg_bn_div_small(uint64_t *q, const uint64_t *a, size_t n, uint32_t s, uint64_t recip);

/* r = a^-1 mod m for odd m > 1 of n limbs and any a[0..n): returns 1 if
 * gcd(a, m) = 1 (r < m is then the inverse), else 0 (and r = 0). Binary
 * extended Euclid with a fixed count of 128 n iterations, every choice a
 * mask. r must alias neither a nor m. */
uint64_t vg_bn_modinv_odd(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n);

/* g = gcd(a, b) for a, b of n limbs, both non-zero: returns 1, or 0 if
 * either is zero (g = 0 then). Constant time as vg_bn_modinv_odd. g must
 * alias neither. */
uint64_t vg_bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t n);

#endif
