/* c25519_impl.h: the Curve25519 family of the kernel dispatch
 * (dispatch.h): the hot operations of Ed25519 and X25519, one row per
 * variant. Row 0 is the portable C reference (c25519_c.c), then the
 * assembly tiers base, adx and ifma (c25519_tier.inc and c25519_ifma.c
 * over kernels/x86_64/c25519/); the table is c25519_impls.c. Secret: the
 * scalars and every intermediate value of these operations. */
#ifndef VG_C25519_IMPL_H
#define VG_C25519_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "ge.h"

/* One variant's functions. Declared once per variant through
 * VG_C25519_DECL, so the rows and the functions cannot drift:
 *  x25519: RFC 7748 X25519 with the clamping; returns 1 if the output is
 *    all zero (low-order peer), else 0.
 *  x25519_base: X25519(scalar, 9), through the Ed25519 comb.
 *  base_encode: the RFC 8032 encoding of [a]B, for a < 2^255.
 *  dsm_encode: VARIABLE TIME, public inputs only (verification): the
 *    encoding of [a]A + [b]B, a[31] <= 127, b[31] <= 127. */
#define VG_C25519_DECL(t)                                                                  \
	int vg_c25519_x25519_##t(uint8_t out[32], const uint8_t scalar[32],                \
				 const uint8_t peer[32]);                                  \
	void vg_c25519_x25519_base_##t(uint8_t out[32], const uint8_t scalar[32]);         \
	void vg_c25519_base_encode_##t(uint8_t out[32], const uint8_t a[32]);              \
	void vg_c25519_dsm_encode_##t(uint8_t out[32], const uint8_t a[32], const vg_ge_p3 *A, \
				      const uint8_t b[32]);
VG_C25519_DECL(c)
VG_C25519_DECL(base)
VG_C25519_DECL(adx)
VG_C25519_DECL(ifma)

struct vg_c25519_impl {
	struct vg_variant v;
	int (*x25519)(uint8_t out[32], const uint8_t scalar[32], const uint8_t peer[32]);
	void (*x25519_base)(uint8_t out[32], const uint8_t scalar[32]);
	void (*base_encode)(uint8_t out[32], const uint8_t a[32]);
	void (*dsm_encode)(uint8_t out[32], const uint8_t a[32], const vg_ge_p3 *A,
			   const uint8_t b[32]);
};

/* The table (c25519_impls.c): row 0 the C reference, then the asm tiers
 * of this build in order of preference. */
extern const struct vg_c25519_impl vg_c25519_impls[];
extern const size_t vg_c25519_nimpls;

/* The chosen row (defined by dispatch.c's family list). Never NULL. */
const struct vg_c25519_impl *vg_c25519_impl(void);

#endif
