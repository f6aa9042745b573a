/* rsa_impls.c: the RSA family's table of variants (see rsa_impl.h and
 * dispatch.h): the C reference first, then the asm tiers in order of
 * preference, and the C row's radix-2^52 functions (the portable
 * references of rsa52.c with the signatures of the asm). Secret: the
 * operands of those functions, as in rsa52.h. */
#include "rsa/mont_asm.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "vg/cpu.h"
#include "vg_config.h"

/* Both halves, S = VG_RSA52_STRIDE(L) qwords apart, each by vg_amm52_c
 * (which writes r last: r may alias a or b). */
static void amm52x2_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
		      const uint64_t *k0, size_t L)
{
	size_t S = VG_RSA52_STRIDE(L);

	vg_amm52_c(r, a, b, m, k0[0], L);
	vg_amm52_c(r + S, a + S, b + S, m + S, k0[1], L);
}

#define C52(L, S)                                                                             \
	static void amm52x2_c_##L(uint64_t *r, const uint64_t *a, const uint64_t *b,           \
				  const uint64_t *m, const uint64_t *k0)                       \
	{                                                                                     \
		amm52x2_c(r, a, b, m, k0, L);                                                 \
	}                                                                                     \
	static void select2_c_##S(uint64_t *sel, const uint64_t *table, uint64_t ip, uint64_t iq) \
	{                                                                                     \
		vg_rsa52_select2_c(sel, table, ip, iq, S);                                    \
	}                                                                                     \
	static void amm52x2w_c_##L(uint64_t *acc, const uint64_t *sel, const uint64_t *m,      \
				   const uint64_t *k0, size_t nsq)                             \
	{                                                                                     \
		vg_amm52x2w_c(acc, sel, m, k0, nsq, L);                                       \
	}
C52(20, 24)
C52(30, 32)
C52(40, 40)

#define C52X1(L)                                                                              \
	static void amm52x1_c_##L(uint64_t *r, const uint64_t *a, const uint64_t *b,           \
				  const uint64_t *m, const uint64_t *k0)                       \
	{                                                                                     \
		vg_amm52_c(r, a, b, m, k0[0], L);                                             \
	}
C52X1(40)
C52X1(60)
C52X1(80)

/* The radix-2^52 slots of the rows without IFMA: the C functions (those
 * rows exponentiate in radix 2^64 and never call them). */
#define R52_C                                                                                 \
	.r52 = {{amm52x2_c_20, select2_c_24, amm52x2w_c_20},                                   \
		{amm52x2_c_30, select2_c_32, amm52x2w_c_30},                                   \
		{amm52x2_c_40, select2_c_40, amm52x2w_c_40}},                                  \
	.amm52x1 = {amm52x1_c_40, amm52x1_c_60, amm52x1_c_80}

#define MONT(t) {vg_mont_mul_##t##_16, vg_mont_mul_##t##_24, vg_mont_mul_##t##_32, \
		 vg_mont_mul_##t##_48, vg_mont_mul_##t##_64}
/* The squarings: the CRT halves' and the public moduli's. */
#define SQR_BASE {vg_mont_sqr_base_16, vg_mont_sqr_base_24, vg_mont_sqr_base_32, \
		  vg_mont_sqr_base_48, vg_mont_sqr_base_64}
#define SQR_ADX {vg_mont_sqr_adx_16, vg_mont_sqr_adx_24, vg_mont_sqr_adx_32, \
		 vg_mont_sqr_adx_48, vg_mont_sqr_adx_64}

const struct vg_rsa_impl vg_rsa_impls[] = {
	{
		.v = {"c", 0},
		.mul = {vg_mont_mul_c, vg_mont_mul_c, vg_mont_mul_c, vg_mont_mul_c, vg_mont_mul_c},
		.sqr = {vg_mont_mul_c, vg_mont_mul_c, vg_mont_mul_c, vg_mont_mul_c, vg_mont_mul_c},
		R52_C,
		.crt = vg_rsa_crt_mont,
		.pub = vg_rsa_pub_mont,
	},
#if VG_HAVE_ASM
	{
		.v = {"base", VG_TIER_BASE},
		.mul = MONT(base),
		.sqr = SQR_BASE,
		R52_C,
		.crt = vg_rsa_crt_mont,
		.pub = vg_rsa_pub_mont,
	},
	{
		.v = {"adx", VG_TIER_ADX},
		.mul = MONT(adx),
		.sqr = SQR_ADX,
		R52_C,
		.crt = vg_rsa_crt_mont,
		.pub = vg_rsa_pub_mont,
	},
	{
		/* Radix 2^52 for the exponentiations; Garner and the sizes the
		 * radix-2^52 code does not cover multiply with adx's. */
		.v = {"ifma", VG_TIER_IFMA},
		.mul = MONT(adx),
		.sqr = SQR_ADX,
		.r52 = {{vg_amm52x2_ifma_20, vg_rsa52_select2_ifma_24, vg_amm52x2w_ifma_20},
			{vg_amm52x2_ifma_30, vg_rsa52_select2_ifma_32, vg_amm52x2w_ifma_30},
			{vg_amm52x2_ifma_40, vg_rsa52_select2_ifma_40, vg_amm52x2w_ifma_40}},
		.amm52x1 = {vg_amm52x1_ifma_40, vg_amm52x1_ifma_60, vg_amm52x1_ifma_80},
		.crt = vg_rsa_crt_52,
		.pub = vg_rsa_pub_52,
	},
#endif
};

const size_t vg_rsa_nimpls = sizeof(vg_rsa_impls) / sizeof(vg_rsa_impls[0]);
