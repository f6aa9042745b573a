/* c25519_adx.c: the adx tier (BMI2 mulx, ADX adcx/adox) of the
 * Ed25519/X25519 hot operations: the shared glue of c25519_tier.inc over
 * fe4_adx.asm. Secret: as in c25519_tier.inc. */
#define TIER adx
#include "c25519_tier.inc"

const struct vg_c25519_impl vg_c25519_impl_adx = {
	.name = "adx",
	.features = VG_TIER_ADX,
	.x25519 = x25519,
	.x25519_base = x25519_base,
	.base_encode = base_encode,
	.dsm_encode = dsm_encode,
};
