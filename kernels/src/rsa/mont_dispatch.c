/* mont_dispatch.c: picks the Montgomery multiply for a limb count from the
 * usable CPU features (see mont_asm.h). Nothing here is secret: limb
 * counts and CPU features are public. */
#include "rsa/mont_asm.h"

#include "rsa/rsa52.h"

#include "cpu_internal.h"
#include "vg_config.h"

/* Owned here; written only by the test-only switch below. */
static int force_c;

void vg_mont_force_c_for_tests(int on) { force_c = on; }

enum tier { TIER_C, TIER_BASE, TIER_ADX, TIER_IFMA };

static enum tier current_tier(void)
{
#if VG_HAVE_ASM
	uint32_t f = vg_cpu_features();

	if (force_c)
		return TIER_C;
	if ((f & VG_TIER_IFMA) == VG_TIER_IFMA)
		return TIER_IFMA;
	if ((f & VG_TIER_ADX) == VG_TIER_ADX)
		return TIER_ADX;
	return TIER_BASE;
#else
	return TIER_C;
#endif
}

vg_mont_mul_fn *vg_mont_pick(size_t n)
{
	enum tier t = current_tier();

#if VG_HAVE_ASM
	/* One entry per tier and size: the CRT halves of RSA-2048/3072/4096
	 * (16, 24, 32 limbs) and the moduli of the public operation (32, 48,
	 * 64 limbs). */
	static vg_mont_mul_fn *const table[][5] = {
		[TIER_BASE] = {vg_mont_mul_base_16, vg_mont_mul_base_24, vg_mont_mul_base_32,
			       vg_mont_mul_base_48, vg_mont_mul_base_64},
		[TIER_ADX] = {vg_mont_mul_adx_16, vg_mont_mul_adx_24, vg_mont_mul_adx_32,
			      vg_mont_mul_adx_48, vg_mont_mul_adx_64},
	};
	static const unsigned char slot[9] = {[2] = 1, [3] = 2, [4] = 3, [6] = 4, [8] = 5};

	/* The ifma tier's Montgomery multiply (public op, Garner) is adx's. */
	if (t == TIER_IFMA)
		t = TIER_ADX;
	if (t != TIER_C && n % 8 == 0 && n / 8 < 9 && slot[n / 8] != 0)
		return table[t][slot[n / 8] - 1];
#endif
	(void)t;
	(void)n;
	return vg_mont_mul_c;
}

vg_mont_mul_fn *vg_mont_pick_sqr(size_t n)
{
#if VG_HAVE_ASM
	enum tier t = current_tier();

	if (t == TIER_ADX || t == TIER_IFMA) {
		if (n == 16)
			return vg_mont_sqr_adx_16;
		if (n == 24)
			return vg_mont_sqr_adx_24;
		if (n == 32)
			return vg_mont_sqr_adx_32;
	}
#endif
	return vg_mont_pick(n);
}

const char *vg_mont_tier_name(void)
{
	static const char *const names[] = {"c", "base", "adx", "ifma"};

	return names[current_tier()];
}

const struct vg_rsa52_impl *vg_rsa52_pick(size_t digits)
{
#if VG_HAVE_ASM
	static const struct vg_rsa52_impl impl[3] = {
		{vg_amm52x2_ifma_20, vg_rsa52_select2_ifma_24, NULL},
		{vg_amm52x2_ifma_30, vg_rsa52_select2_ifma_32, NULL},
		{vg_amm52x2_ifma_40, vg_rsa52_select2_ifma_40, vg_ams52x2_ifma_40},
	};
	if (current_tier() == TIER_IFMA && (digits == 20 || digits == 30 || digits == 40))
		return &impl[digits / 10 - 2];
#endif
	(void)digits;
	return NULL;
}

vg_amm52x2_fn *vg_amm52x1_pick(size_t digits)
{
#if VG_HAVE_ASM
	if (current_tier() == TIER_IFMA) {
		if (digits == 40)
			return vg_amm52x1_ifma_40;
		if (digits == 60)
			return vg_amm52x1_ifma_60;
		if (digits == 80)
			return vg_amm52x1_ifma_80;
	}
#endif
	(void)digits;
	return NULL;
}
