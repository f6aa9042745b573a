/* rsa_mb_impls.c: the rsa_mb family's table of variants (rsa_mb_impl.h):
 * the portable references of the eight-lane multiply and table read, and
 * the rows, C first, then ifma. Secret: every operand, modulus, k0 and
 * index, as in rsa_mb_impl.h. */
#include "rsa/rsa_mb_impl.h"

#include "ct.h"
#include "rsa/rsa52.h"
#include "vg/cpu.h"
#include "vg/wipe.h"
#include "vg_config.h"

#define LANES VG_RSA_MB_LANES

const size_t vg_rsa_mb_digits[VG_RSA_MB_SIZES] = {20, 30, 40};

/* Lane by lane through the single multiply of rsa52.c, whose result is
 * the same unique almost-Montgomery value: gather the lane's digits, one
 * vg_amm52_c, scatter. Every lane is read before r is written (r may
 * alias a or b). */
void vg_amm52mb_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
		  const uint64_t *k0, size_t L)
{
	uint64_t x[LANES][VG_RSA_MB_MAX_DIGITS], y[VG_RSA_MB_MAX_DIGITS];
	uint64_t n[VG_RSA_MB_MAX_DIGITS], t[VG_RSA_MB_MAX_DIGITS];

	for (size_t l = 0; l < LANES; l++) {
		for (size_t j = 0; j < L; j++) {
			t[j] = a[LANES * j + l];
			y[j] = b[LANES * j + l];
			n[j] = m[LANES * j + l];
		}
		vg_amm52_c(x[l], t, y, n, k0[l], L);
	}
	for (size_t l = 0; l < LANES; l++)
		for (size_t j = 0; j < L; j++)
			r[LANES * j + l] = x[l][j];
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
	vg_wipe(n, sizeof(n));
	vg_wipe(t, sizeof(t));
}

void vg_rsa52mb_select_c(uint64_t *sel, const uint64_t *table, const uint64_t *idx, size_t L)
{
	/* Every entry read whole; lane l keeps entry idx[l] under a mask. */
	for (size_t j = 0; j < LANES * L; j++)
		sel[j] = 0;
	for (uint64_t i = 0; i < VG_RSA_MB_TABLE; i++) {
		const uint64_t *e = table + i * LANES * L;
		uint64_t mask[LANES];
		for (size_t l = 0; l < LANES; l++)
			mask[l] = vg_ct_barrier(vg_ct_mask(vg_ct_eq(i, idx[l])));
		for (size_t j = 0; j < L; j++)
			for (size_t l = 0; l < LANES; l++)
				sel[LANES * j + l] |= e[LANES * j + l] & mask[l];
	}
}

#define CMB(L)                                                                                     \
	static void amm52mb_c_##L(uint64_t *r, const uint64_t *a, const uint64_t *b,               \
				  const uint64_t *m, const uint64_t *k0)                           \
	{                                                                                          \
		vg_amm52mb_c(r, a, b, m, k0, L);                                                   \
	}                                                                                          \
	static void select_c_##L(uint64_t *sel, const uint64_t *table, const uint64_t *idx)        \
	{                                                                                          \
		vg_rsa52mb_select_c(sel, table, idx, L);                                           \
	}
CMB(20)
CMB(30)
CMB(40)

/* A window as a table read, nsq squarings and a multiply: the C row's. */
#define WIN(name, L, select, sqr, mul)                                                             \
	static void name(uint64_t *acc, const uint64_t *table, const uint64_t *idx,                \
			 const uint64_t *m, const uint64_t *k0, size_t nsq)                        \
	{                                                                                          \
		_Alignas(64) uint64_t sel[LANES * L];                                              \
		select(sel, table, idx);                                                           \
		for (size_t i = 0; i < nsq; i++)                                                   \
			sqr(acc, acc, acc, m, k0);                                                 \
		mul(acc, acc, sel, m, k0);                                                         \
		vg_wipe(sel, sizeof(sel));                                                         \
	}
WIN(win_c_20, 20, select_c_20, amm52mb_c_20, amm52mb_c_20)
WIN(win_c_30, 30, select_c_30, amm52mb_c_30, amm52mb_c_30)
WIN(win_c_40, 40, select_c_40, amm52mb_c_40, amm52mb_c_40)
#if VG_HAVE_ASM
/* The ifma row's at 30 and 40 digits (at 20 the window is one asm
 * function, its table read included): the squarings (long enough that
 * calling them costs little), then the multiply that reads the table
 * itself, two digits of sel at a time inside its loop: a separate read of
 * a table larger than the L1 data cache (60 and 80 KiB) cost about a
 * tenth of the exponentiation (AMD Zen 5, measured), where inside the
 * multiply its loads and masks run beside the products. */
#define WINSEL(name, sqr, mulsel)                                                                  \
	static void name(uint64_t *acc, const uint64_t *table, const uint64_t *idx,                \
			 const uint64_t *m, const uint64_t *k0, size_t nsq)                        \
	{                                                                                          \
		for (size_t i = 0; i < nsq; i++)                                                   \
			sqr(acc, acc, acc, m, k0);                                                 \
		mulsel(acc, acc, table, idx, m, k0);                                               \
	}
WINSEL(win_ifma_30, vg_amm52mb_sqr_ifma_30, vg_amm52mb_mulsel_ifma_30)
WINSEL(win_ifma_40, vg_amm52mb_sqr_ifma_40, vg_amm52mb_mulsel_ifma_40)
#endif

const struct vg_rsa_mb_impl vg_rsa_mb_impls[] = {
	{
		.v = {"c", 0},
		.mul = {amm52mb_c_20, amm52mb_c_30, amm52mb_c_40},
		.sqr = {amm52mb_c_20, amm52mb_c_30, amm52mb_c_40},
		.select = {select_c_20, select_c_30, select_c_40},
		.win = {win_c_20, win_c_30, win_c_40},
	},
#if VG_HAVE_ASM
	{
		.v = {"ifma", VG_TIER_IFMA},
		.mul = {vg_amm52mb_ifma_20, vg_amm52mb_ifma_30, vg_amm52mb_ifma_40},
		.sqr = {vg_amm52mb_sqr_ifma_20, vg_amm52mb_sqr_ifma_30, vg_amm52mb_sqr_ifma_40},
		.select = {vg_rsa52mb_select_ifma_20, vg_rsa52mb_select_ifma_30,
			   vg_rsa52mb_select_ifma_40},
		.win = {vg_amm52mb_win_ifma_20, win_ifma_30, win_ifma_40},
	},
#endif
};

const size_t vg_rsa_mb_nimpls = sizeof(vg_rsa_mb_impls) / sizeof(vg_rsa_mb_impls[0]);
