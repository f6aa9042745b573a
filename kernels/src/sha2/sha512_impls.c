/* sha512_impls.c: the SHA-512 family's table of variants (sha512_impl.h):
 * the C compression first, then the asm at the base tier and with rorx
 * at the adx tier (it needs only BMI2 of that tier). Nothing here is
 * secret. */
#include "sha2/sha512_impl.h"
#include "vg/cpu.h"
#include "vg_config.h"

const struct vg_sha512_impl vg_sha512_impls[] = {
	{.v = {"c", 0}, .blocks = vg_sha512_blocks_c},
#if VG_HAVE_ASM
	{.v = {"base", VG_TIER_BASE}, .blocks = vg_sha512_blocks_base},
	{.v = {"adx", VG_TIER_ADX}, .blocks = vg_sha512_blocks_bmi2},
#endif
};

const size_t vg_sha512_nimpls = sizeof(vg_sha512_impls) / sizeof(vg_sha512_impls[0]);
