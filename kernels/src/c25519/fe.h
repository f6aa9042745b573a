/* fe.h: arithmetic in GF(2^255 - 19), portable C with five 51-bit limbs.
 * Every function is constant time in its inputs (no branches, indices or
 * divisions on field values): field elements are treated as secret.
 *
 * An element is h = v[0] + v[1]*2^51 + v[2]*2^102 + v[3]*2^153 + v[4]*2^204,
 * taken mod p. Bound invariant: every function accepts limbs below 2^52 and
 * returns limbs below 2^52 (frombytes and the constants give < 2^51), so
 * outputs can be fed back as inputs without thinking about carries. Only
 * vg_fe_tobytes produces the unique (fully reduced) representative. */
#ifndef VG_FE_H
#define VG_FE_H

#include <stdint.h>

typedef struct {
	uint64_t v[5];
} vg_fe;

/* d = -121665/121666, 2d, and sqrt(-1) = 2^((p-1)/4), as limbs. */
extern const vg_fe vg_fe_d;
extern const vg_fe vg_fe_d2;
extern const vg_fe vg_fe_sqrtm1;

void vg_fe_0(vg_fe *h);
void vg_fe_1(vg_fe *h);

/* h = the 255-bit little-endian value of s; bit 255 is ignored. Values in
 * [p, 2^255) are accepted and behave as their residue mod p. */
void vg_fe_frombytes(vg_fe *h, const uint8_t s[32]);
/* s = the unique representative of h in [0, p), little-endian. */
void vg_fe_tobytes(uint8_t s[32], const vg_fe *h);

void vg_fe_add(vg_fe *h, const vg_fe *f, const vg_fe *g); /* h = f + g */
void vg_fe_sub(vg_fe *h, const vg_fe *f, const vg_fe *g); /* h = f - g */
void vg_fe_neg(vg_fe *h, const vg_fe *f);                 /* h = -f */
void vg_fe_mul(vg_fe *h, const vg_fe *f, const vg_fe *g); /* h = f * g */
void vg_fe_sq(vg_fe *h, const vg_fe *f);                  /* h = f^2 */
void vg_fe_sqn(vg_fe *h, const vg_fe *f, unsigned n);     /* h = f^(2^n), n >= 1 */
void vg_fe_mul_small(vg_fe *h, const vg_fe *f, uint32_t c); /* h = f * c */
/* h = 1/f = f^(p-2); 0 maps to 0. Fixed addition chain (see fe.c). */
void vg_fe_invert(vg_fe *h, const vg_fe *f);
/* h = f^((p-5)/8) = f^(2^252 - 3), the exponent of square-root extraction. */
void vg_fe_pow22523(vg_fe *h, const vg_fe *f);

/* The control ctl is 0 or 1 (see ct.h). */
void vg_fe_cmov(vg_fe *f, const vg_fe *g, uint64_t ctl);   /* if ctl: f = g */
void vg_fe_cswap(vg_fe *f, vg_fe *g, uint64_t ctl);        /* if ctl: swap */
/* Reduce fully, then: 1 if f == 0; 1 if f is "negative" (odd, RFC 8032);
 * 1 if f == g. */
uint64_t vg_fe_iszero(const vg_fe *f);
uint64_t vg_fe_isnegative(const vg_fe *f);
uint64_t vg_fe_eq(const vg_fe *f, const vg_fe *g);

#endif
