/* ge4_table.c: the base-point comb and the odd multiples of B for
 * verification (ge_table.h) converted once to the 4 x 64-bit
 * representation the assembly tiers use. Public constants.
 * The converted tables are owned here: each written once under its
 * pthread_once, read-only afterwards. */
#include <pthread.h>

#include "fe4.h"
#include "ge_table.h"

static vg_ge4_niels comb4[32][8];
static vg_ge4_niels comb32[52][16];
static vg_ge4_niels comb64[43][32];
static vg_ge4_niels odd4[64];

static void conv(vg_ge4_niels *d, const vg_ge_niels *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		vg_fe4_from_fe(&d[i].ypx, &s[i].ypx);
		vg_fe4_from_fe(&d[i].ymx, &s[i].ymx);
		vg_fe4_from_fe(&d[i].xy2d, &s[i].xy2d);
	}
}

/* Each table on its own first use: the base and adx rows read one comb
 * (radix 32 or 64, by the CPU's AVX), the ifma row builds its own from
 * the radix-16 one, so no row converts (or touches) tables it never reads. */
static void conv_comb4(void)
{
	conv(&comb4[0][0], &vg_ge_base_comb[0][0], 32 * 8);
}

static void conv_comb32(void)
{
	conv(&comb32[0][0], &vg_ge_base_comb32[0][0], 52 * 16);
}

static void conv_comb64(void)
{
	conv(&comb64[0][0], &vg_ge_base_comb64[0][0], 43 * 32);
}

static void conv_odd(void)
{
	conv(odd4, vg_ge_base_odd, 64);
}

static pthread_once_t once_comb4 = PTHREAD_ONCE_INIT, once_comb32 = PTHREAD_ONCE_INIT,
		      once_comb64 = PTHREAD_ONCE_INIT, once_odd = PTHREAD_ONCE_INIT;

const vg_ge4_niels (*vg_ge4_base_comb(void))[8]
{
	pthread_once(&once_comb4, conv_comb4);
	return (const vg_ge4_niels(*)[8])comb4;
}

const vg_ge4_niels (*vg_ge4_base_comb32(void))[16]
{
	pthread_once(&once_comb32, conv_comb32);
	return (const vg_ge4_niels(*)[16])comb32;
}

const vg_ge4_niels (*vg_ge4_base_comb64(void))[32]
{
	pthread_once(&once_comb64, conv_comb64);
	return (const vg_ge4_niels(*)[32])comb64;
}

const vg_ge4_niels *vg_ge4_base_odd(void)
{
	pthread_once(&once_odd, conv_odd);
	return odd4;
}
