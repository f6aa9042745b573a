/* c25519_mb_impl.h: the c25519_mb kernel family (dispatch.h): Curve25519
 * arithmetic on eight independent operations at once, one per 64-bit
 * lane of the ifma tier's vectors, which vg_x25519_mb (vg/x25519_mb.h)
 * runs its batches through (x25519_mb.c), and the fixed-base
 * multiplication of vg_ed25519_sign_expanded_mb (vg/ed25519_mb.h,
 * ed25519_mb.c).
 *
 * Layout ("transposed"): a batch field element is five limbs in radix
 * 2^51 of eight lanes, 40 qwords, limb i of lane l at index 8 i + l, so
 * that limb i of all eight lanes is one zmm register; a value is taken mod
 * p = 2^255 - 19, its limbs below 2^52 (every function accepts and
 * returns that bound; only the glue's per-lane vg_fe_tobytes reduces
 * fully). A batch of scalars is four 64-bit words of eight lanes, word w
 * of lane l at index 8 w + l.
 *
 * Secret: every scalar, field element and intermediate. Public: the
 * number of lanes in use and the squaring counts. */
#ifndef VG_C25519_MB_IMPL_H
#define VG_C25519_MB_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "ge.h"

#define VG_C25519_MB_LANES 8
#define VG_FE51MB_WORDS (5 * VG_C25519_MB_LANES) /* one batch element */

/* The X25519 ladder of RFC 7748 in every lane: bits 254..0 of e (already
 * clamped) from (x2, z2) = (1, 0), (x3, z3) = (x1, 1); writes x2 to
 * xz[0..39] and z2 to xz[40..79], any representatives (the u-coordinate
 * of [e]x1 is x2 / z2, z2 = 0 for a low-order x1). */
typedef void vg_x25519mb_ladder_fn(uint64_t xz[2 * VG_FE51MB_WORDS], const uint64_t e[32],
				   const uint64_t x1[VG_FE51MB_WORDS]);
/* h = f g, lane by lane; h may alias f or g. */
typedef void vg_fe51mb_mul_fn(uint64_t h[VG_FE51MB_WORDS], const uint64_t f[VG_FE51MB_WORDS],
			      const uint64_t g[VG_FE51MB_WORDS]);
/* h = f^(2^n), lane by lane, n >= 1 (public); h may alias f. */
typedef void vg_fe51mb_sqrn_fn(uint64_t h[VG_FE51MB_WORDS], const uint64_t f[VG_FE51MB_WORDS],
			       size_t n);

/* [a]B in every lane by the signed radix-16 comb of ge_base.c: e holds
 * the 64 digits of each lane's scalar (e_i in [-8, 8], digit i of lane
 * l at e[8 i + l]), table is vg_ge_base_comb (ge_table.h). Writes X, Y,
 * Z of the extended result to h[0..39], h[40..79], h[80..119] (any
 * representatives: x = X / Z, y = Y / Z). */
typedef void vg_ge51mb_comb_fn(uint64_t h[3 * VG_FE51MB_WORDS], const vg_ge_niels table[32][8],
			       const int8_t e[64 * VG_C25519_MB_LANES]);

struct vg_c25519_mb_impl {
	struct vg_variant v;
	vg_x25519mb_ladder_fn *ladder;
	vg_fe51mb_mul_fn *mul;
	vg_fe51mb_sqrn_fn *sqrn;
	vg_ge51mb_comb_fn *comb;
};

/* The table (c25519_mb_impls.c): row 0 the C reference, then the ifma
 * row. */
extern const struct vg_c25519_mb_impl vg_c25519_mb_impls[];
extern const size_t vg_c25519_mb_nimpls;
/* The chosen row (dispatch.c). Never NULL. */
const struct vg_c25519_mb_impl *vg_c25519_mb_impl(void);

/* The portable references (the C row): each lane through fe.c. */
vg_x25519mb_ladder_fn vg_x25519mb_ladder_c;
vg_fe51mb_mul_fn vg_fe51mb_mul_c;
vg_fe51mb_sqrn_fn vg_fe51mb_sqrn_c;
vg_ge51mb_comb_fn vg_ge51mb_comb_c;

/* The assembly (kernels/x86_64/c25519/x25519mb_ifma.asm), only with asm. */
vg_x25519mb_ladder_fn vg_x25519mb_ladder_ifma;
vg_fe51mb_mul_fn vg_fe51mb_mul_ifma;
vg_fe51mb_sqrn_fn vg_fe51mb_sqrn_ifma;
vg_ge51mb_comb_fn vg_ge51mb_comb_ifma;

/* X25519 of nl lanes (1..8) on row im: out[l] = X25519(scalar[l],
 * point[l]) for l < nl, the clamping and masking of RFC 7748 included;
 * returns bit l set when lane l's output is all zero (a low-order point),
 * computed without a branch. Lanes nl.. idle (zero). Bit-identical to
 * vg_x25519 in every lane. */
unsigned vg_x25519_mb_batch(const struct vg_c25519_mb_impl *im, uint8_t *const out[],
			    const uint8_t *const scalar[], const uint8_t *const point[], size_t nl);

/* h = 1/z in every lane (Fermat's chain of fe.c on row im's multiply and
 * squarings; 0 gives 0). h may be z. */
void vg_fe51mb_invert(const struct vg_c25519_mb_impl *im, uint64_t h[VG_FE51MB_WORDS],
		      const uint64_t z[VG_FE51MB_WORDS]);

/* The RFC 8032 encodings of [a_l]B for nl lanes (1..8) on row im: out[l]
 * = the encoding of [a[l]]B, a[l] below 2^255 (as vg_ge_scalarmult_base
 * takes it); the same bytes as the C family's base_encode. Lanes nl..
 * idle (zero digits). */
void vg_ed25519_mb_base_encode(const struct vg_c25519_mb_impl *im, uint8_t *const out[],
			       const uint8_t *const a[], size_t nl);

/* The signatures of nl lanes (1..8) in one batch on row im, each the one
 * vg_ed25519_sign_expanded(sig[l], msg[l], len[l], h[l], pk[l]) gives
 * (vg_ed25519_sign_expanded_mb's batch, checked by the caller). */
void vg_ed25519_sign_mb_batch(const struct vg_c25519_mb_impl *im, uint8_t *const sig[],
			      const void *const msg[], const size_t len[], const uint8_t *const h[],
			      const uint8_t *const pk[], size_t nl);

#endif
