/* c25519_base.c: the base tier (x86-64 mul/adc) of the Ed25519/X25519 hot
 * operations: the shared glue of c25519_tier.inc over fe4_base.asm.
 * Secret: as in c25519_tier.inc. */
#define TIER base
#include "c25519_tier.inc"

const struct vg_c25519_impl vg_c25519_impl_base = {
	.name = "base",
	.features = VG_TIER_BASE,
	.x25519 = x25519,
	.x25519_base = x25519_base,
	.base_encode = base_encode,
	.dsm_encode = dsm_encode,
};
