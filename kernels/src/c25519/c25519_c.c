/* c25519_c.c: the C row of the Curve25519 family (c25519_impl.h): the
 * portable reference of the hot Ed25519/X25519 operations on the 5 x 51-bit
 * field (fe.c) and the point code (ge*.c), with the signatures of the
 * assembly tiers. Secret: the scalars, the ladder state, every point and
 * field element of x25519, x25519_base and base_encode; constant time in
 * all of them (masked swaps and table scans, fixed inversion chain,
 * branch-free zero check). dsm_encode is VARIABLE TIME, for public data
 * only. The peer's u-coordinate is public. */
#include <string.h>

#include "c25519_impl.h"
#include "ct.h"
#include "fe.h"
#include "ge.h"
#include "vg/wipe.h"

/* decodeScalar25519: clear bits 0-2 (a multiple of the cofactor 8), clear
 * bit 255 and set bit 254 (fixed ladder length). */
static void clamp(uint8_t e[32], const uint8_t scalar[32])
{
	memcpy(e, scalar, 32);
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
}

/* The Montgomery ladder of RFC 7748 section 5, line by line, with
 * a24 = (486662 - 2) / 4 = 121665. x2/z2 ends as the u-coordinate of
 * [e]u; the swap is a masked exchange driven by the scalar bit. */
static void ladder(vg_fe *x2, vg_fe *z2, const uint8_t e[32], const vg_fe *x1)
{
	vg_fe x3, z3, a, aa, b, bb, ee, c, d, da, cb;
	uint64_t swap = 0;

	vg_fe_1(x2);
	vg_fe_0(z2);
	x3 = *x1;
	vg_fe_1(&z3);
	for (int t = 254; t >= 0; t--) {
		uint64_t k_t = (e[t >> 3] >> (t & 7)) & 1; /* t is public */
		swap ^= k_t;
		vg_fe_cswap(x2, &x3, swap);
		vg_fe_cswap(z2, &z3, swap);
		swap = k_t;

		vg_fe_add(&a, x2, z2);        /* A = x_2 + z_2 */
		vg_fe_sq(&aa, &a);            /* AA = A^2 */
		vg_fe_sub(&b, x2, z2);        /* B = x_2 - z_2 */
		vg_fe_sq(&bb, &b);            /* BB = B^2 */
		vg_fe_sub(&ee, &aa, &bb);     /* E = AA - BB */
		vg_fe_add(&c, &x3, &z3);      /* C = x_3 + z_3 */
		vg_fe_sub(&d, &x3, &z3);      /* D = x_3 - z_3 */
		vg_fe_mul(&da, &d, &a);       /* DA = D * A */
		vg_fe_mul(&cb, &c, &b);       /* CB = C * B */
		vg_fe_add(&x3, &da, &cb);
		vg_fe_sq(&x3, &x3);           /* x_3 = (DA + CB)^2 */
		vg_fe_sub(&z3, &da, &cb);
		vg_fe_sq(&z3, &z3);
		vg_fe_mul(&z3, &z3, x1);      /* z_3 = x_1 * (DA - CB)^2 */
		vg_fe_mul(x2, &aa, &bb);      /* x_2 = AA * BB */
		vg_fe_mul_small(z2, &ee, 121665);
		vg_fe_add(z2, z2, &aa);
		vg_fe_mul(z2, z2, &ee);       /* z_2 = E * (AA + a24 * E) */
	}
	vg_fe_cswap(x2, &x3, swap);
	vg_fe_cswap(z2, &z3, swap);

	vg_wipe(&x3, sizeof(x3));
	vg_wipe(&z3, sizeof(z3));
	vg_wipe(&a, sizeof(a));
	vg_wipe(&aa, sizeof(aa));
	vg_wipe(&b, sizeof(b));
	vg_wipe(&bb, sizeof(bb));
	vg_wipe(&ee, sizeof(ee));
	vg_wipe(&c, sizeof(c));
	vg_wipe(&d, sizeof(d));
	vg_wipe(&da, sizeof(da));
	vg_wipe(&cb, sizeof(cb));
}

int vg_c25519_x25519_c(uint8_t out[32], const uint8_t scalar[32], const uint8_t peer[32])
{
	uint8_t e[32];
	vg_fe x1, x2, z2, zi;

	clamp(e, scalar);
	vg_fe_frombytes(&x1, peer); /* masks bit 255; u >= p is used mod p */
	ladder(&x2, &z2, e, &x1);
	vg_fe_invert(&zi, &z2);     /* z2 = 0 (low-order peer) gives 0 */
	vg_fe_mul(&x2, &x2, &zi);
	vg_fe_tobytes(out, &x2);

	/* All-zero check without a branch: OR every byte and turn the result
	 * into a 0/1 flag. */
	uint64_t acc = 0;
	for (int i = 0; i < 32; i++)
		acc |= out[i];

	vg_wipe(e, sizeof(e));
	vg_wipe(&x2, sizeof(x2));
	vg_wipe(&z2, sizeof(z2));
	vg_wipe(&zi, sizeof(zi));
	return (int)vg_ct_iszero(acc);
}

/* X25519(scalar, 9) through Edwards: the clamped scalar times the Ed25519
 * base point with the constant-time comb, then the birational map
 * u = (1 + y)/(1 - y) = (Z + Y)/(Z - Y). Z - Y is never 0: that would need
 * y = 1, the identity, and a clamped scalar (2^254 <= e < 2^255, a
 * multiple of 8) is never a multiple of the prime L since 8L > 2^255. */
void vg_c25519_x25519_base_c(uint8_t out[32], const uint8_t scalar[32])
{
	uint8_t e[32];
	vg_ge_p3 P;
	vg_fe num, den;

	clamp(e, scalar);
	vg_ge_scalarmult_base(&P, e);
	vg_fe_add(&num, &P.Z, &P.Y);
	vg_fe_sub(&den, &P.Z, &P.Y);
	vg_fe_invert(&den, &den);
	vg_fe_mul(&num, &num, &den);
	vg_fe_tobytes(out, &num);

	vg_wipe(e, sizeof(e));
	vg_wipe(&P, sizeof(P));
	vg_wipe(&num, sizeof(num));
	vg_wipe(&den, sizeof(den));
}

void vg_c25519_base_encode_c(uint8_t out[32], const uint8_t a[32])
{
	vg_ge_p3 P;

	vg_ge_scalarmult_base(&P, a); /* a < 2^255 as the comb needs */
	vg_ge_p3_tobytes(out, &P);
	vg_wipe(&P, sizeof(P));
}

void vg_c25519_dsm_encode_c(uint8_t out[32], const uint8_t a[32], const vg_ge_p3 *A,
			    const uint8_t b[32])
{
	vg_ge_p2 R;

	vg_ge_double_scalarmult_vartime(&R, a, A, b);
	vg_ge_p2_tobytes(out, &R);
}
