/* sha512_impl.h: the SHA-512 compression as a kernel family (dispatch.h),
 * serving SHA-512 and SHA-384 (sha512.c): row 0 the portable C, then,
 * with asm, kernels/x86_64/sha2/sha512_x86.asm at the base tier (mov and
 * ror) and the adx tier (rorx from BMI2), both with the message schedule
 * in SSE2. Not installed. Secret: the message and the state. */
#ifndef VG_SHA512_IMPL_H
#define VG_SHA512_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

/* h = the state after compressing nblocks 128-byte blocks at p into h
 * (FIPS 180-4 6.4.2); nblocks may be 0. */
typedef void vg_sha512_blocks_fn(uint64_t h[8], const uint8_t *p, size_t nblocks);

struct vg_sha512_impl {
	struct vg_variant v; /* "c", "base", "adx" */
	vg_sha512_blocks_fn *blocks;
};

extern const struct vg_sha512_impl vg_sha512_impls[];
extern const size_t vg_sha512_nimpls;
const struct vg_sha512_impl *vg_sha512_impl(void); /* dispatch.c */

vg_sha512_blocks_fn vg_sha512_blocks_c;
vg_sha512_blocks_fn vg_sha512_blocks_base;
vg_sha512_blocks_fn vg_sha512_blocks_bmi2;

#endif
