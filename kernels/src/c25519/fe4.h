/* fe4.h: GF(2^255 - 19) with four 64-bit limbs, the representation of the
 * x86-64 assembly tiers (kernels/x86_64/c25519/). An element is any value
 * below 2^256 taken mod p (partially reduced); only vg_fe4_tobytes gives
 * the unique representative. Secret: every element; all functions are
 * constant time.
 *
 * The assembly prototypes are declared once here, by tier, through
 * VG_FE4_TIER_DECL, and the C glue compiled per tier (c25519_tier.inc)
 * calls them through the same names, so C and asm cannot drift. */
#ifndef VG_FE4_H
#define VG_FE4_H

#include <stdint.h>

#include "fe.h"

typedef struct {
	uint64_t v[4];
} vg_fe4;

/* An Ed25519 point in extended coordinates (x = X/Z, y = Y/Z, XY = ZT)
 * and a precomputed affine one (y + x, y - x, 2d x y). */
typedef struct {
	vg_fe4 X, Y, Z, T;
} vg_ge4_p3;
typedef struct {
	vg_fe4 ypx, ymx, xy2d;
} vg_ge4_niels;
/* A projective point prepared for additions: (Y + X, Y - X, Z, 2d T). */
typedef struct {
	vg_fe4 ypx, ymx, z, t2d;
} vg_ge4_cached;

/* The per-tier assembly (fe4_tier.asm, ge4_tier.asm). sqrn: h = f^(2^n), n >= 1. The
 * ladder runs RFC 7748's loop over bits 254..0 of the clamped scalar e
 * (bits 2..0 must be zero: its last three steps only double) and writes xz[0] = x2, xz[1] = z2 (projective u of [e]x1). comb sets
 * h = sum_j e_j comb[j][.] for 52 digits in [-16, 16] (radix 32, a row
 * per digit: comb[j][k] = (k + 1) 32^j B), scanning every entry; comb64
 * likewise for 43 digits in [-32, 32] (radix 64, comb[j][k] = (k + 1)
 * 64^j B), with AVX (the caller checks VG_CPU_AVX).
 * madd/add: h += q; dbl: h = 2h; dbl_p2: h = 2h with T left stale (for a
 * result that only feeds another doubling). */
#define VG_FE4_TIER_DECL(t)                                                                \
	void vg_fe4_mul_##t(vg_fe4 *h, const vg_fe4 *f, const vg_fe4 *g);                  \
	void vg_fe4_sqr_##t(vg_fe4 *h, const vg_fe4 *f);                                   \
	void vg_fe4_sqrn_##t(vg_fe4 *h, const vg_fe4 *f, unsigned n);                      \
	void vg_x25519_ladder_##t(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);    \
	void vg_ge4_comb_##t(vg_ge4_p3 *h, const vg_ge4_niels comb[52][16],                 \
			     const int8_t e[52]);                                              \
	void vg_ge4_comb64_##t(vg_ge4_p3 *h, const vg_ge4_niels comb[43][32],               \
			       const int8_t e[43]);                                            \
	void vg_ge4_madd_##t(vg_ge4_p3 *h, const vg_ge4_niels *q);                         \
	void vg_ge4_add_##t(vg_ge4_p3 *h, const vg_ge4_cached *q);                         \
	void vg_ge4_dbl_##t(vg_ge4_p3 *h);                                                 \
	void vg_ge4_dbl_p2_##t(vg_ge4_p3 *h);
VG_FE4_TIER_DECL(base)
VG_FE4_TIER_DECL(adx)
/* The ifma tier (x25519_ifma.asm, ge52_ifma.asm): four field elements
 * in the lanes of five ymm limb vectors, radix 2^51. The ladder and the
 * comb have the contracts of the ones above; the comb reads its own table
 * (vg_ge52_base_comb) and the radix-16 digits of ge_base.c (64 digits in
 * [-8, 8], comb[j][k] = (k + 1) 256^j B). The other operations of that
 * tier are the adx ones. */
typedef struct {
	_Alignas(32) uint64_t v[5][4]; /* limb i of lanes (y - x, y + x, 2dxy, 2) */
} vg_ge52_niels;
void vg_x25519_ladder_ifma(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1);
void vg_ge4_comb_ifma(vg_ge4_p3 *h, const vg_ge52_niels comb[32][8], const int8_t e[64]);
/* A point (X, Y, Z, T) in the same lanes, limbs below 2^61. Verification
 * (ge52_ops_ifma.asm): s += q for q as lanes (y - x, y + x, 2d t, 2z)
 * (a table entry, or a projective point prepared by vg_ge52_put);
 * s = 2s. */
typedef struct {
	_Alignas(32) uint64_t v[5][4];
} vg_ge52_p3;
void vg_ge52_add_ifma(vg_ge52_p3 *s, const vg_ge52_niels *q);
void vg_ge52_dbl_ifma(vg_ge52_p3 *s);

/* Tier-independent assembly (fe4_base.asm): h = f + g, f - g, 121665 f,
 * 121665 f + g (the ladders' macros, exported for checkasm). */
void vg_fe4_add(vg_fe4 *h, const vg_fe4 *f, const vg_fe4 *g);
void vg_fe4_sub(vg_fe4 *h, const vg_fe4 *f, const vg_fe4 *g);
void vg_fe4_mul_a24(vg_fe4 *h, const vg_fe4 *f);
void vg_fe4_mul_a24_add(vg_fe4 *h, const vg_fe4 *f, const vg_fe4 *g);
/* s = m + p, d = m - p for m and p wide (five words, m[4], p[4] <= 38:
 * a product before its fold): the ladder's and the comb's FE_ADDSUB_W,
 * exported for checkasm. The outputs are below 2^255 + 2^12. */
void vg_fe4_addsub_w(vg_fe4 *s, vg_fe4 *d, const uint64_t m[5], const uint64_t p[5]);
/* 121665 f + g with mulx (fe4_adx.asm, the adx ladder's), below
 * 2^255 + 2^23. */
void vg_fe4_mul_a24_add_adx(vg_fe4 *h, const vg_fe4 *f, const vg_fe4 *g);

/* C helpers (fe4.c). frombytes ignores bit 255; tobytes reduces fully. */
void vg_fe4_frombytes(vg_fe4 *h, const uint8_t s[32]);
void vg_fe4_tobytes(uint8_t s[32], const vg_fe4 *h);
void vg_fe4_from_fe(vg_fe4 *h, const vg_fe *f);
void vg_fe4_to_fe(vg_fe *h, const vg_fe4 *f);
/* h = 1/f (0 for f = 0 mod p), constant time: Bernstein-Yang divsteps
 * (fe4_inv.c); any tier (its one product uses vg_fe4_mul_base). */
void vg_fe4_invert(vg_fe4 *h, const vg_fe4 *f);
/* The two parts of a batch of vg_fe4_invert, in asm (fe4_inv.asm, any
 * tier) and as C references (fe4_inv.c):
 * vg_fe4_divsteps62: n divsteps (1 <= n <= 62) on the low 64 bits of f
 * (odd) and g with t = 2 delta (odd); returns the new t and writes the
 * transition matrix m = (u, v, q, r): f_n 2^n = u f + v g,
 * g_n 2^n = q f + r g.
 * vg_fe4_inv_apply: with M = (u, v; q, r) = m from 62 steps, f, g
 * (fg[0..5), fg[5..10): signed 62-bit limbs, the top one signed) <-
 * M (f, g) / 2^62 (the floor when fewer steps left low bits), and
 * d, e (de[0], de[1], below 2^256) <- M (d, e) mod p, below 2^256.
 * vg_fe4_divsteps_c: one chunk of the reference (1 <= n <= 19), the
 * step the asm's packed words follow. */
int64_t vg_fe4_divsteps62(int64_t m[4], int64_t t, uint64_t f, uint64_t g, unsigned n);
int64_t vg_fe4_divsteps62_c(int64_t m[4], int64_t t, uint64_t f, uint64_t g, unsigned n);
void vg_fe4_inv_apply(int64_t fg[10], vg_fe4 de[2], const int64_t m[4]);
void vg_fe4_inv_apply_c(int64_t fg[10], vg_fe4 de[2], const int64_t m[4]);
int64_t vg_fe4_divsteps_c(int64_t m[4], int64_t t, uint64_t f, uint64_t g, unsigned n);
/* if ctl (0 or 1): f = g */
void vg_fe4_cmov(vg_fe4 *f, const vg_fe4 *g, uint64_t ctl);

/* The comb table of ge_table.h in this representation (ge4_table.c),
 * converted once on first use: [row][j] = {y+x, y-x, 2d x y}. Public. */
const vg_ge4_niels (*vg_ge4_base_comb(void))[8];
/* The radix-32 comb (ge_table.h) likewise: [row][j] = (j + 1) 32^row B,
 * the table of the base and adx combs. Public. */
const vg_ge4_niels (*vg_ge4_base_comb32(void))[16];
/* The radix-64 comb likewise (comb64's table). Public. */
const vg_ge4_niels (*vg_ge4_base_comb64(void))[32];
/* vg_ge_base_odd (B, 3B, ..., 127B) in this representation. Public. */
const vg_ge4_niels *vg_ge4_base_odd(void);
/* The comb table in the ifma layout (ge52_table.c), converted once. Public. */
const vg_ge52_niels (*vg_ge52_base_comb(void))[8];
/* vg_ge4_base_odd in the ifma layout: [j] = (2j + 1) B, [64 + j] = -(2j + 1) B. */
const vg_ge52_niels *vg_ge52_base_odd(void);
/* Lane conversions (ge52_table.c): lane of every limb vector of v = f
 * (canonical limbs); f = lane of v (limbs below 2^62 in). */
void vg_ge52_put(uint64_t v[5][4], unsigned lane, const vg_fe4 *f);
void vg_ge52_get(vg_fe4 *f, const uint64_t v[5][4], unsigned lane);

#endif
