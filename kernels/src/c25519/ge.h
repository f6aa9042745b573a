/* ge.h: points of the Ed25519 curve -x^2 + y^2 = 1 + d x^2 y^2 over
 * GF(2^255 - 19), with the Hisil-Wong-Carter-Dawson (2008) formulas in
 * extended coordinates. These formulas are complete for this curve (a = -1
 * is a square, d is not), so addition has no exceptional cases: the
 * identity and doubling need no branches.
 *
 * Secret: the points passed to the formulas are treated as secret (the
 * formulas are straight-line code); vg_ge_frombytes and
 * vg_ge_double_scalarmult_vartime are for public data only. */
#ifndef VG_GE_H
#define VG_GE_H

#include <stdint.h>

#include "fe.h"

/* Projective: x = X/Z, y = Y/Z. */
typedef struct {
	vg_fe X, Y, Z;
} vg_ge_p2;

/* Extended: x = X/Z, y = Y/Z, x*y = T/Z. */
typedef struct {
	vg_fe X, Y, Z, T;
} vg_ge_p3;

/* The result of an addition or doubling before its last multiplications,
 * named as in HWCD: X3 = E*F, Y3 = G*H, Z3 = F*G, T3 = E*H. Converting to
 * p2 costs 3 multiplications, to p3 costs 4, so a doubling that feeds
 * another doubling skips T. */
typedef struct {
	vg_fe E, F, G, H;
} vg_ge_completed;

/* A point ready to be added: (Y + X, Y - X, Z, 2d*T). */
typedef struct {
	vg_fe ypx, ymx, z, t2d;
} vg_ge_cached;

/* An affine point ready to be added (Z = 1): (y + x, y - x, 2d*x*y). The
 * precomputed base-point tables hold these. */
typedef struct {
	vg_fe ypx, ymx, xy2d;
} vg_ge_niels;

void vg_ge_p2_identity(vg_ge_p2 *h);
void vg_ge_p3_identity(vg_ge_p3 *h);
void vg_ge_niels_identity(vg_ge_niels *h);

void vg_ge_p3_to_cached(vg_ge_cached *r, const vg_ge_p3 *p);
/* Affine niels form; costs one inversion. Used to build the tables. */
void vg_ge_p3_to_niels(vg_ge_niels *r, const vg_ge_p3 *p);
void vg_ge_completed_to_p2(vg_ge_p2 *r, const vg_ge_completed *p);
void vg_ge_completed_to_p3(vg_ge_p3 *r, const vg_ge_completed *p);

void vg_ge_p2_dbl(vg_ge_completed *r, const vg_ge_p2 *p);           /* r = 2p */
void vg_ge_p3_dbl(vg_ge_completed *r, const vg_ge_p3 *p);           /* r = 2p */
void vg_ge_add_cached(vg_ge_completed *r, const vg_ge_p3 *p, const vg_ge_cached *q); /* p + q */
void vg_ge_add_niels(vg_ge_completed *r, const vg_ge_p3 *p, const vg_ge_niels *q);   /* p + q */

/* -q: negation is (x, y) -> (-x, y), so y + x and y - x trade places and
 * the x*y term changes sign. vg_ge_niels_cneg does it only if ctl (0 or 1),
 * in constant time. */
void vg_ge_cached_neg(vg_ge_cached *r, const vg_ge_cached *q);
void vg_ge_niels_cneg(vg_ge_niels *q, uint64_t ctl);
void vg_ge_p3_neg(vg_ge_p3 *r, const vg_ge_p3 *p);

/* Canonical 32-byte encoding (RFC 8032 section 5.1.2): y, with the parity
 * of x in bit 255. Constant time. */
void vg_ge_p2_tobytes(uint8_t s[32], const vg_ge_p2 *p);
void vg_ge_p3_tobytes(uint8_t s[32], const vg_ge_p3 *p);

/* Strict decoding (RFC 8032 section 5.1.3) of a PUBLIC encoding: 0 and h
 * set, or -1 if s is not the canonical encoding of a curve point, i.e. if
 * y >= p, or (y^2 - 1)/(d y^2 + 1) is not a square, or x = 0 with the sign
 * bit set. Small-order points are accepted. */
int vg_ge_frombytes(vg_ge_p3 *h, const uint8_t s[32]);

/* h = [a]B for the base point B, constant time in a, by the precomputed
 * comb in ge_base.c. a is 32 bytes little-endian with a[31] <= 127 (any
 * value below 2^255, reduced mod L or not). */
void vg_ge_scalarmult_base(vg_ge_p3 *h, const uint8_t a[32]);

/* Width-w NAF of s < 2^255 (ge_vartime.c; variable time: public s). */
void vg_ge_wnaf(int8_t naf[256], const uint8_t s[32], unsigned w);

/* r = [a]A + [b]B for PUBLIC a, A, b: VARIABLE TIME (ge_vartime.c).
 * a[31] <= 127 and b[31] <= 127. */
void vg_ge_double_scalarmult_vartime(vg_ge_p2 *r, const uint8_t a[32], const vg_ge_p3 *A,
				     const uint8_t b[32]);

#endif
