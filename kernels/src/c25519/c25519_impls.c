/* c25519_impls.c: the Curve25519 family's table of variants (see
 * c25519_impl.h and dispatch.h): the C reference first, then the asm
 * tiers in order of preference. Nothing here is secret. */
#include "c25519_impl.h"
#include "vg/cpu.h"
#include "vg_config.h"

#define ROW(t, feat)                                                                      \
	{                                                                                  \
		.v = {#t, (feat)}, .x25519 = vg_c25519_x25519_##t,                         \
		.x25519_base = vg_c25519_x25519_base_##t,                                  \
		.base_encode = vg_c25519_base_encode_##t, .dsm_encode = vg_c25519_dsm_encode_##t, \
	}

const struct vg_c25519_impl vg_c25519_impls[] = {
	ROW(c, 0),
#if VG_HAVE_ASM
	ROW(base, VG_TIER_BASE),
	ROW(adx, VG_TIER_ADX),
	ROW(ifma, VG_TIER_IFMA),
#endif
};

const size_t vg_c25519_nimpls = sizeof(vg_c25519_impls) / sizeof(vg_c25519_impls[0]);
