/* bn.c: limb-array arithmetic for RSA (see bn.h). Limb values may be secret:
 * loops run over public limb counts only, carries come from 128-bit sums,
 * and choices are made by masks (ct.h), never by branches. */
#include "rsa/bn.h"

#include "ct.h"

typedef unsigned __int128 u128;

uint64_t vg_bn_from_bytes(uint64_t *r, size_t n, const uint8_t *src, size_t len)
{
	uint64_t over = 0;

	for (size_t i = 0; i < n; i++)
		r[i] = 0;
	/* Byte i counted from the least significant end; its limb and shift
	 * depend only on i, which is public. */
	for (size_t i = 0; i < len; i++) {
		uint64_t b = src[len - 1 - i];
		if (i / 8 < n)
			r[i / 8] |= b << (8 * (i % 8));
		else
			over |= b;
	}
	return vg_ct_iszero(over);
}

void vg_bn_to_bytes(uint8_t *dst, size_t len, const uint64_t *a, size_t n)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t limb = i / 8 < n ? a[i / 8] : 0;
		dst[len - 1 - i] = (uint8_t)(limb >> (8 * (i % 8)));
	}
}

uint64_t vg_bn_add(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t carry = 0;

	for (size_t i = 0; i < n; i++) {
		u128 t = (u128)a[i] + b[i] + carry;
		r[i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
	return carry;
}

uint64_t vg_bn_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t borrow = 0;

	for (size_t i = 0; i < n; i++) {
		/* a - b - borrow wraps below zero to 2^128 - x: bit 64 and up
		 * are all ones exactly when a borrow leaves this limb. */
		u128 t = (u128)a[i] - b[i] - borrow;
		r[i] = (uint64_t)t;
		borrow = (uint64_t)(t >> 64) & 1;
	}
	return borrow;
}

uint64_t vg_bn_cond_add(uint64_t ctl, uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t m = vg_ct_mask(ctl), carry = 0;

	for (size_t i = 0; i < n; i++) {
		u128 t = (u128)a[i] + (b[i] & m) + carry;
		a[i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
	return carry;
}

uint64_t vg_bn_cond_sub(uint64_t ctl, uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t m = vg_ct_mask(ctl), borrow = 0;

	for (size_t i = 0; i < n; i++) {
		u128 t = (u128)a[i] - (b[i] & m) - borrow;
		a[i] = (uint64_t)t;
		borrow = (uint64_t)(t >> 64) & 1;
	}
	return borrow;
}

void vg_bn_ccopy(uint64_t ctl, uint64_t *r, const uint64_t *a, size_t n)
{
	uint64_t m = vg_ct_barrier(vg_ct_mask(ctl));

	for (size_t i = 0; i < n; i++)
		r[i] ^= m & (r[i] ^ a[i]);
}

uint64_t vg_bn_lt(const uint64_t *a, const uint64_t *b, size_t n)
{
	/* a < b exactly when a - b borrows; the difference is not kept. */
	uint64_t borrow = 0;

	for (size_t i = 0; i < n; i++) {
		u128 t = (u128)a[i] - b[i] - borrow;
		borrow = (uint64_t)(t >> 64) & 1;
	}
	return borrow;
}

uint64_t vg_bn_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return vg_ct_iszero(d);
}

uint64_t vg_bn_is_zero(const uint64_t *a, size_t n)
{
	uint64_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i];
	return vg_ct_iszero(d);
}

/* Bit length of one limb by a masked binary search: each step halves the
 * window with a shift whose count is a mask (shifts are constant time). */
static uint64_t limb_bits(uint64_t x)
{
	uint64_t k = 0, s;

	s = vg_ct_nonzero(x >> 32) << 5;
	x >>= s;
	k += s;
	s = vg_ct_nonzero(x >> 16) << 4;
	x >>= s;
	k += s;
	s = vg_ct_nonzero(x >> 8) << 3;
	x >>= s;
	k += s;
	s = vg_ct_nonzero(x >> 4) << 2;
	x >>= s;
	k += s;
	s = vg_ct_nonzero(x >> 2) << 1;
	x >>= s;
	k += s;
	s = vg_ct_nonzero(x >> 1);
	x >>= s;
	k += s;
	return k + x; /* x is now 0 or 1 */
}

size_t vg_bn_bits(const uint64_t *a, size_t n)
{
	uint64_t bits = 0;

	/* Scan upwards: the last non-zero limb seen is the top one. */
	for (size_t i = 0; i < n; i++)
		bits = vg_ct_select(vg_ct_nonzero(a[i]), 64 * (uint64_t)i + limb_bits(a[i]), bits);
	return (size_t)bits;
}

uint64_t vg_bn_window(const uint64_t *e, size_t pos, size_t ebits, unsigned wbits)
{
	size_t w = pos / 64, off = pos % 64;
	uint64_t v = e[w] >> off;

	if (off > 64 - wbits && 64 * (w + 1) < ebits)
		v |= e[w + 1] << (64 - off);
	return v & (((uint64_t)1 << wbits) - 1);
}

void vg_bn_mul(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b, size_t bn)
{
	for (size_t i = 0; i < an + bn; i++)
		r[i] = 0;
	for (size_t i = 0; i < an; i++) {
		uint64_t carry = 0;
		for (size_t j = 0; j < bn; j++) {
			/* (2^64-1)^2 + 2 (2^64-1) = 2^128 - 1: no overflow. */
			u128 t = (u128)a[i] * b[j] + r[i + j] + carry;
			r[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		r[i + bn] = carry;
	}
}

/* r = (2 r + bit) mod m, given r < m. 2r + bit < 2m, so one subtraction
 * by mask suffices; the doubling's carry out of the top limb says r >= m
 * on its own. */
static void shl1_mod(uint64_t *r, uint64_t bit, const uint64_t *m, size_t mn)
{
	uint64_t top = r[mn - 1] >> 63;

	for (size_t i = mn - 1; i > 0; i--)
		r[i] = (r[i] << 1) | (r[i - 1] >> 63);
	r[0] = (r[0] << 1) | bit;
	vg_bn_cond_sub(top | (vg_bn_lt(r, m, mn) ^ 1), r, m, mn);
}

void vg_bn_mod(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *m, size_t mn)
{
	for (size_t i = 0; i < mn; i++)
		r[i] = 0;
	for (size_t i = 64 * an; i-- > 0;)
		shl1_mod(r, (a[i / 64] >> (i % 64)) & 1, m, mn);
}

void vg_bn_pow2_mod(uint64_t *r, size_t k, const uint64_t *m, size_t mn)
{
	/* Start from 1 (reduced: m > 1) and double k times. */
	for (size_t i = 0; i < mn; i++)
		r[i] = 0;
	r[0] = 1;
	for (size_t i = 0; i < k; i++)
		shl1_mod(r, 0, m, mn);
}
