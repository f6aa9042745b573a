/* sha256_impl.h: the SHA-256 compression as a kernel family (dispatch.h):
 * row 0 the portable C (sha256.c), then, with asm, the SHA-NI one
 * (kernels/x86_64/sha2/sha256_shani.asm), chosen where the CPU has the SHA
 * extensions. Not installed. Secret: the message and the state. */
#ifndef VG_SHA256_IMPL_H
#define VG_SHA256_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

/* h = the state after compressing nblocks 64-byte blocks at p into h
 * (FIPS 180-4 6.2.2); nblocks may be 0. */
typedef void vg_sha256_blocks_fn(uint32_t h[8], const uint8_t *p, size_t nblocks);

struct vg_sha256_impl {
	struct vg_variant v; /* "c", "shani" */
	vg_sha256_blocks_fn *blocks;
};

extern const struct vg_sha256_impl vg_sha256_impls[];
extern const size_t vg_sha256_nimpls;
const struct vg_sha256_impl *vg_sha256_impl(void); /* dispatch.c */

vg_sha256_blocks_fn vg_sha256_blocks_c;
vg_sha256_blocks_fn vg_sha256_blocks_shani;

#endif
