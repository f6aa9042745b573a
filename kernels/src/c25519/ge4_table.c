/* ge4_table.c: the base-point comb and the odd multiples of B for
 * verification (ge_table.h) converted once to the 4 x 64-bit
 * representation the assembly tiers use. Public constants.
 * The converted table is owned here: written once under pthread_once,
 * read-only afterwards. */
#include <pthread.h>

#include "fe4.h"
#include "ge_table.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static vg_ge4_niels comb4[32][8];
static vg_ge4_niels comb32[52][16];
static vg_ge4_niels comb64[43][32];
static vg_ge4_niels odd4[64];

static void conv(vg_ge4_niels *d, const vg_ge_niels *s)
{
	vg_fe4_from_fe(&d->ypx, &s->ypx);
	vg_fe4_from_fe(&d->ymx, &s->ymx);
	vg_fe4_from_fe(&d->xy2d, &s->xy2d);
}

static void convert(void)
{
	for (int i = 0; i < 32; i++)
		for (int j = 0; j < 8; j++)
			conv(&comb4[i][j], &vg_ge_base_comb[i][j]);
	for (int i = 0; i < 52; i++)
		for (int j = 0; j < 16; j++)
			conv(&comb32[i][j], &vg_ge_base_comb32[i][j]);
	for (int i = 0; i < 43; i++)
		for (int j = 0; j < 32; j++)
			conv(&comb64[i][j], &vg_ge_base_comb64[i][j]);
	for (int j = 0; j < 64; j++)
		conv(&odd4[j], &vg_ge_base_odd[j]);
}

const vg_ge4_niels (*vg_ge4_base_comb(void))[8]
{
	pthread_once(&once, convert);
	return (const vg_ge4_niels (*)[8])comb4;
}

const vg_ge4_niels (*vg_ge4_base_comb32(void))[16]
{
	pthread_once(&once, convert);
	return (const vg_ge4_niels(*)[16])comb32;
}

const vg_ge4_niels (*vg_ge4_base_comb64(void))[32]
{
	pthread_once(&once, convert);
	return (const vg_ge4_niels(*)[32])comb64;
}

const vg_ge4_niels *vg_ge4_base_odd(void)
{
	pthread_once(&once, convert);
	return odd4;
}
