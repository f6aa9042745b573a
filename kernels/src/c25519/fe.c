/* fe.c: GF(2^255 - 19) with five 51-bit limbs (see fe.h for the bound
 * invariant). Secret: every field element; no branch, index or division
 * depends on a limb. Products use unsigned __int128 accumulators. */
#include "fe.h"

#include "ct.h"
#include "vg/wipe.h"

typedef unsigned __int128 vg_u128;

#define MASK51 (((uint64_t)1 << 51) - 1)

/* Limbs of the constants (computed once from their definitions; the unit
 * test checks d * 121666 == -121665, d2 == d + d and sqrtm1^2 == -1). */
const vg_fe vg_fe_d = {{0x34dca135978a3, 0x1a8283b156ebd, 0x5e7a26001c029, 0x739c663a03cbb,
			0x52036cee2b6ff}};
const vg_fe vg_fe_d2 = {{0x69b9426b2f159, 0x35050762add7a, 0x3cf44c0038052, 0x6738cc7407977,
			 0x2406d9dc56dff}};
const vg_fe vg_fe_sqrtm1 = {{0x61b274a0ea0b0, 0xd5a5fc8f189d, 0x7ef5e9cbd0c60, 0x78595a6804c9e,
			     0x2b8324804fc1d}};

void vg_fe_0(vg_fe *h) { *h = (vg_fe){{0, 0, 0, 0, 0}}; }

void vg_fe_1(vg_fe *h) { *h = (vg_fe){{1, 0, 0, 0, 0}}; }

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

/* h = the five limb values h0..h4 (each below 2^63) after one carry pass:
 * limbs 1..4 end below 2^51 and limb 0 below 2^51 + 19 * (h4 >> 51). The
 * carry out of limb 4 is worth 2^255 = 19 mod p. Taking the limbs as
 * values lets callers pass sums directly, with no store in between. */
static inline void fe_carry(vg_fe *h, uint64_t h0, uint64_t h1, uint64_t h2, uint64_t h3,
			    uint64_t h4)
{
	h1 += h0 >> 51;
	h2 += h1 >> 51;
	h3 += h2 >> 51;
	h4 += h3 >> 51;
	h->v[0] = (h0 & MASK51) + 19 * (h4 >> 51);
	h->v[1] = h1 & MASK51;
	h->v[2] = h2 & MASK51;
	h->v[3] = h3 & MASK51;
	h->v[4] = h4 & MASK51;
}

void vg_fe_frombytes(vg_fe *h, const uint8_t s[32])
{
	uint64_t x0 = load_le64(s), x1 = load_le64(s + 8), x2 = load_le64(s + 16);
	uint64_t x3 = load_le64(s + 24) & 0x7fffffffffffffff; /* drop bit 255 */

	h->v[0] = x0 & MASK51;
	h->v[1] = (x0 >> 51 | x1 << 13) & MASK51;
	h->v[2] = (x1 >> 38 | x2 << 26) & MASK51;
	h->v[3] = (x2 >> 25 | x3 << 39) & MASK51;
	h->v[4] = x3 >> 12;
}

void vg_fe_tobytes(uint8_t s[32], const vg_fe *f)
{
	vg_fe t;

	/* After one carry pass (inputs below 2^52) limbs 1..4 are below 2^51
	 * and limb 0 below 2^51 + 38, so t < 2^255 + 38 < 2p: t mod p is t or
	 * t - p.
	 * q = 1 exactly when t >= p, i.e. when t + 19 reaches 2^255: propagate
	 * the carries of t + 19 and keep the one out of bit 255. */
	fe_carry(&t, f->v[0], f->v[1], f->v[2], f->v[3], f->v[4]);
	uint64_t q = (t.v[0] + 19) >> 51;
	q = (t.v[1] + q) >> 51;
	q = (t.v[2] + q) >> 51;
	q = (t.v[3] + q) >> 51;
	q = (t.v[4] + q) >> 51;

	/* t - q*p = t + 19q - q*2^255: add 19q, carry, and drop bit 255. */
	t.v[0] += 19 * q;
	uint64_t c;
	c = t.v[0] >> 51, t.v[0] &= MASK51, t.v[1] += c;
	c = t.v[1] >> 51, t.v[1] &= MASK51, t.v[2] += c;
	c = t.v[2] >> 51, t.v[2] &= MASK51, t.v[3] += c;
	c = t.v[3] >> 51, t.v[3] &= MASK51, t.v[4] += c;
	t.v[4] &= MASK51;

	store_le64(s, t.v[0] | t.v[1] << 51);
	store_le64(s + 8, t.v[1] >> 13 | t.v[2] << 38);
	store_le64(s + 16, t.v[2] >> 26 | t.v[3] << 25);
	store_le64(s + 24, t.v[3] >> 39 | t.v[4] << 12);
	VG_WIPE_VAR(t);
}

void vg_fe_add(vg_fe *h, const vg_fe *f, const vg_fe *g)
{
	/* limbs < 2^53 before the carry, < 2^52 after */
	fe_carry(h, f->v[0] + g->v[0], f->v[1] + g->v[1], f->v[2] + g->v[2], f->v[3] + g->v[3],
		 f->v[4] + g->v[4]);
}

/* f - g computed as f + 4p - g: every limb of 4p (2^53 - 76, then
 * 2^53 - 4) exceeds any limb of g (< 2^52), so nothing underflows. */
#define FOUR_P0 ((uint64_t)0x1fffffffffffb4)
#define FOUR_P ((uint64_t)0x1ffffffffffffc)

void vg_fe_sub(vg_fe *h, const vg_fe *f, const vg_fe *g)
{
	fe_carry(h, (f->v[0] + FOUR_P0) - g->v[0], (f->v[1] + FOUR_P) - g->v[1],
		 (f->v[2] + FOUR_P) - g->v[2], (f->v[3] + FOUR_P) - g->v[3],
		 (f->v[4] + FOUR_P) - g->v[4]);
}

void vg_fe_neg(vg_fe *h, const vg_fe *f)
{
	fe_carry(h, FOUR_P0 - f->v[0], FOUR_P - f->v[1], FOUR_P - f->v[2], FOUR_P - f->v[3],
		 FOUR_P - f->v[4]);
}

/* Carry five 128-bit column sums into h. With inputs below 2^52 each column
 * is below 2^111, so the carry out of the top column is below 2^60 and
 * 19 times it still fits 64 bits. Output limbs are below 2^52. */
static void fe_carry_wide(vg_fe *h, vg_u128 r0, vg_u128 r1, vg_u128 r2, vg_u128 r3, vg_u128 r4)
{
	r1 += (uint64_t)(r0 >> 51);
	r2 += (uint64_t)(r1 >> 51);
	r3 += (uint64_t)(r2 >> 51);
	r4 += (uint64_t)(r3 >> 51);
	uint64_t c = (uint64_t)(r4 >> 51);
	uint64_t h0 = ((uint64_t)r0 & MASK51) + 19 * c;
	h->v[0] = h0 & MASK51;
	h->v[1] = ((uint64_t)r1 & MASK51) + (h0 >> 51);
	h->v[2] = (uint64_t)r2 & MASK51;
	h->v[3] = (uint64_t)r3 & MASK51;
	h->v[4] = (uint64_t)r4 & MASK51;
}

/* Schoolbook product: column k collects f_i*g_j with i + j = k, plus
 * 19 * f_i*g_j with i + j = k + 5 (since 2^255 = 19 mod p). */
void vg_fe_mul(vg_fe *h, const vg_fe *f, const vg_fe *g)
{
	uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
	uint64_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
	uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;

	vg_u128 r0 = (vg_u128)f0 * g0 + (vg_u128)f1 * g4_19 + (vg_u128)f2 * g3_19 +
		     (vg_u128)f3 * g2_19 + (vg_u128)f4 * g1_19;
	vg_u128 r1 = (vg_u128)f0 * g1 + (vg_u128)f1 * g0 + (vg_u128)f2 * g4_19 +
		     (vg_u128)f3 * g3_19 + (vg_u128)f4 * g2_19;
	vg_u128 r2 = (vg_u128)f0 * g2 + (vg_u128)f1 * g1 + (vg_u128)f2 * g0 +
		     (vg_u128)f3 * g4_19 + (vg_u128)f4 * g3_19;
	vg_u128 r3 = (vg_u128)f0 * g3 + (vg_u128)f1 * g2 + (vg_u128)f2 * g1 + (vg_u128)f3 * g0 +
		     (vg_u128)f4 * g4_19;
	vg_u128 r4 = (vg_u128)f0 * g4 + (vg_u128)f1 * g3 + (vg_u128)f2 * g2 + (vg_u128)f3 * g1 +
		     (vg_u128)f4 * g0;
	fe_carry_wide(h, r0, r1, r2, r3, r4);
}

/* The same columns as vg_fe_mul with g = f, each cross product counted
 * once and doubled. */
void vg_fe_sq(vg_fe *h, const vg_fe *f)
{
	uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
	uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
	uint64_t f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3;
	uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;

	vg_u128 r0 = (vg_u128)f0 * f0 + (vg_u128)f1_38 * f4 + (vg_u128)f2_38 * f3;
	vg_u128 r1 = (vg_u128)f0_2 * f1 + (vg_u128)f2_38 * f4 + (vg_u128)f3_19 * f3;
	vg_u128 r2 = (vg_u128)f0_2 * f2 + (vg_u128)f1 * f1 + (vg_u128)f3_38 * f4;
	vg_u128 r3 = (vg_u128)f0_2 * f3 + (vg_u128)f1_2 * f2 + (vg_u128)f4_19 * f4;
	vg_u128 r4 = (vg_u128)f0_2 * f4 + (vg_u128)f1_2 * f3 + (vg_u128)f2 * f2;
	fe_carry_wide(h, r0, r1, r2, r3, r4);
}

void vg_fe_sqn(vg_fe *h, const vg_fe *f, unsigned n)
{
	vg_fe_sq(h, f);
	for (unsigned i = 1; i < n; i++)
		vg_fe_sq(h, h);
}

void vg_fe_mul_small(vg_fe *h, const vg_fe *f, uint32_t c)
{
	fe_carry_wide(h, (vg_u128)f->v[0] * c, (vg_u128)f->v[1] * c, (vg_u128)f->v[2] * c,
		      (vg_u128)f->v[3] * c, (vg_u128)f->v[4] * c);
}

/* The common prefix of the two exponentiations below: returns
 * z11 = z^11 and z250 = z^(2^250 - 1), with 249 squarings and 10 products.
 * The names say which power of z each temporary holds. */
static void fe_pow_2_250_1(vg_fe *z250, vg_fe *z11, const vg_fe *z)
{
	vg_fe z2, z9, z2_5_0, z2_10_0, z2_20_0, z2_50_0, z2_100_0, t;

	vg_fe_sq(&z2, z);                   /* z^2 */
	vg_fe_sqn(&t, &z2, 2);              /* z^8 */
	vg_fe_mul(&z9, &t, z);              /* z^9 */
	vg_fe_mul(z11, &z9, &z2);           /* z^11 */
	vg_fe_sq(&t, z11);                  /* z^22 */
	vg_fe_mul(&z2_5_0, &t, &z9);        /* z^31 = z^(2^5 - 1) */
	vg_fe_sqn(&t, &z2_5_0, 5);          /* z^(2^10 - 2^5) */
	vg_fe_mul(&z2_10_0, &t, &z2_5_0);   /* z^(2^10 - 1) */
	vg_fe_sqn(&t, &z2_10_0, 10);        /* z^(2^20 - 2^10) */
	vg_fe_mul(&z2_20_0, &t, &z2_10_0);  /* z^(2^20 - 1) */
	vg_fe_sqn(&t, &z2_20_0, 20);        /* z^(2^40 - 2^20) */
	vg_fe_mul(&t, &t, &z2_20_0);        /* z^(2^40 - 1) */
	vg_fe_sqn(&t, &t, 10);              /* z^(2^50 - 2^10) */
	vg_fe_mul(&z2_50_0, &t, &z2_10_0);  /* z^(2^50 - 1) */
	vg_fe_sqn(&t, &z2_50_0, 50);        /* z^(2^100 - 2^50) */
	vg_fe_mul(&z2_100_0, &t, &z2_50_0); /* z^(2^100 - 1) */
	vg_fe_sqn(&t, &z2_100_0, 100);      /* z^(2^200 - 2^100) */
	vg_fe_mul(&t, &t, &z2_100_0);       /* z^(2^200 - 1) */
	vg_fe_sqn(&t, &t, 50);              /* z^(2^250 - 2^50) */
	vg_fe_mul(z250, &t, &z2_50_0);      /* z^(2^250 - 1) */

	vg_wipe(&z2, sizeof(z2));
	vg_wipe(&z9, sizeof(z9));
	vg_wipe(&z2_5_0, sizeof(z2_5_0));
	vg_wipe(&z2_10_0, sizeof(z2_10_0));
	vg_wipe(&z2_20_0, sizeof(z2_20_0));
	vg_wipe(&z2_50_0, sizeof(z2_50_0));
	vg_wipe(&z2_100_0, sizeof(z2_100_0));
	vg_wipe(&t, sizeof(t));
}

/* Fermat: 1/z = z^(p-2) = z^(2^255 - 21), and 2^255 - 21 =
 * (2^250 - 1) * 2^5 + 11. 254 squarings and 11 multiplications, the same
 * sequence for every z, so the time does not depend on z. z = 0 gives 0. */
void vg_fe_invert(vg_fe *h, const vg_fe *z)
{
	vg_fe z250, z11;

	fe_pow_2_250_1(&z250, &z11, z);
	vg_fe_sqn(&z250, &z250, 5); /* z^(2^255 - 2^5) */
	vg_fe_mul(h, &z250, &z11);  /* z^(2^255 - 21) */
	vg_wipe(&z250, sizeof(z250));
	vg_wipe(&z11, sizeof(z11));
}

/* z^((p-5)/8) = z^(2^252 - 3) = z^((2^250 - 1) * 4 + 1). */
void vg_fe_pow22523(vg_fe *h, const vg_fe *z)
{
	vg_fe z250, z11;

	fe_pow_2_250_1(&z250, &z11, z);
	vg_fe_sqn(&z250, &z250, 2); /* z^(2^252 - 4) */
	vg_fe_mul(h, &z250, z);     /* z^(2^252 - 3) */
	vg_wipe(&z250, sizeof(z250));
	vg_wipe(&z11, sizeof(z11));
}

void vg_fe_cmov(vg_fe *f, const vg_fe *g, uint64_t ctl)
{
	uint64_t m = vg_ct_barrier(vg_ct_mask(ctl));
	for (int i = 0; i < 5; i++)
		f->v[i] ^= m & (f->v[i] ^ g->v[i]);
}

void vg_fe_cswap(vg_fe *f, vg_fe *g, uint64_t ctl)
{
	uint64_t m = vg_ct_barrier(vg_ct_mask(ctl));
	for (int i = 0; i < 5; i++) {
		uint64_t x = m & (f->v[i] ^ g->v[i]);
		f->v[i] ^= x;
		g->v[i] ^= x;
	}
}

uint64_t vg_fe_iszero(const vg_fe *f)
{
	uint8_t s[32];
	uint64_t acc = 0;

	vg_fe_tobytes(s, f);
	for (int i = 0; i < 32; i++)
		acc |= s[i];
	vg_wipe(s, sizeof(s));
	return vg_ct_iszero(acc);
}

uint64_t vg_fe_isnegative(const vg_fe *f)
{
	uint8_t s[32];

	vg_fe_tobytes(s, f);
	uint64_t neg = s[0] & 1;
	vg_wipe(s, sizeof(s));
	return neg;
}

uint64_t vg_fe_eq(const vg_fe *f, const vg_fe *g)
{
	vg_fe d;

	vg_fe_sub(&d, f, g);
	uint64_t eq = vg_fe_iszero(&d);
	vg_wipe(&d, sizeof(d));
	return eq;
}
