/* ge4_table.c: the base-point comb (ge_table.h) converted once to the
 * 4 x 64-bit representation the assembly tiers use. Public constants.
 * The converted table is owned here: written once under pthread_once,
 * read-only afterwards. */
#include <pthread.h>

#include "fe4.h"
#include "ge_table.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static vg_ge4_niels comb4[32][8];

static void convert(void)
{
	for (int i = 0; i < 32; i++)
		for (int j = 0; j < 8; j++) {
			vg_fe4_from_fe(&comb4[i][j].ypx, &vg_ge_base_comb[i][j].ypx);
			vg_fe4_from_fe(&comb4[i][j].ymx, &vg_ge_base_comb[i][j].ymx);
			vg_fe4_from_fe(&comb4[i][j].xy2d, &vg_ge_base_comb[i][j].xy2d);
		}
}

const vg_ge4_niels (*vg_ge4_base_comb(void))[8]
{
	pthread_once(&once, convert);
	return (const vg_ge4_niels (*)[8])comb4;
}
