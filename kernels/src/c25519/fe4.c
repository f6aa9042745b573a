/* fe4.c: the C helpers of the 4 x 64-bit representation (fe4.h):
 * conversions to and from bytes and the 5 x 51 form, full reduction,
 * masked move. Secret: every element; no branch or index on limbs. */
#include "fe4.h"

#include "ct.h"

typedef unsigned __int128 vg_u128;

void vg_fe4_frombytes(vg_fe4 *h, const uint8_t s[32])
{
	for (int i = 0; i < 4; i++) {
		uint64_t x = 0;
		for (int j = 7; j >= 0; j--)
			x = x << 8 | s[8 * i + j];
		h->v[i] = x;
	}
	h->v[3] &= 0x7fffffffffffffffu;
}

/* Any value below 2^256 to [0, p): fold bit 255 (2^255 = 19), giving
 * v < 2^255 + 19 * 2; then v >= p exactly when v + 19 has bit 255 set,
 * and then v - p is v + 19 with that bit cleared. */
void vg_fe4_tobytes(uint8_t s[32], const vg_fe4 *h)
{
	uint64_t v[4], u[4];
	vg_u128 c = (vg_u128)(h->v[3] >> 63) * 19;
	v[3] = h->v[3] & 0x7fffffffffffffffu;
	for (int i = 0; i < 3; i++) {
		c += h->v[i];
		v[i] = (uint64_t)c;
		c >>= 64;
	}
	v[3] += (uint64_t)c; /* < 2^63 + 1: no overflow */
	c = 19;
	for (int i = 0; i < 4; i++) {
		c += v[i];
		u[i] = (uint64_t)c;
		c >>= 64;
	}
	uint64_t ge = u[3] >> 63; /* v >= p */
	u[3] &= 0x7fffffffffffffffu;
	uint64_t m = vg_ct_barrier(vg_ct_mask(ge));
	for (int i = 0; i < 4; i++) {
		uint64_t x = v[i] ^ (m & (v[i] ^ u[i]));
		for (int j = 0; j < 8; j++)
			s[8 * i + j] = (uint8_t)(x >> (8 * j));
	}
}

void vg_fe4_from_fe(vg_fe4 *h, const vg_fe *f)
{
	uint8_t s[32];
	vg_fe_tobytes(s, f);
	vg_fe4_frombytes(h, s);
}

/* 5 x 51 limbs of a value below 2^256: the top limb gets 52 bits, within
 * the fe.h input bound (< 2^52). */
void vg_fe4_to_fe(vg_fe *h, const vg_fe4 *f)
{
	const uint64_t m = ((uint64_t)1 << 51) - 1;
	h->v[0] = f->v[0] & m;
	h->v[1] = (f->v[0] >> 51 | f->v[1] << 13) & m;
	h->v[2] = (f->v[1] >> 38 | f->v[2] << 26) & m;
	h->v[3] = (f->v[2] >> 25 | f->v[3] << 39) & m;
	h->v[4] = f->v[3] >> 12;
}

void vg_fe4_cmov(vg_fe4 *f, const vg_fe4 *g, uint64_t ctl)
{
	uint64_t m = vg_ct_barrier(vg_ct_mask(ctl));
	for (int i = 0; i < 4; i++)
		f->v[i] ^= m & (f->v[i] ^ g->v[i]);
}
