/* ge52_table.c: the base-point comb and the odd multiples of B (ge_table.h,
 * through ge4_table.c) converted once to the lane layout of the ifma tier
 * (ge52_ifma.asm): per entry, limb i (radix 2^51, fully reduced) of the
 * lanes (y - x, y + x, 2d x y, 2); and the conversions between that
 * layout and vg_fe4. The tables are public constants owned here: written
 * once under pthread_once, read-only afterwards. The conversions are
 * constant time (the callers' data may be secret). */
#include <pthread.h>

#include "fe4.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static vg_ge52_niels comb52[32][8];
static vg_ge52_niels odd52[128];

void vg_ge52_put(uint64_t v[5][4], unsigned lane, const vg_fe4 *f)
{
	uint8_t s[32];
	uint64_t w[4] = {0, 0, 0, 0};
	vg_fe4_tobytes(s, f);
	for (int i = 0; i < 32; i++)
		w[i / 8] |= (uint64_t)s[i] << (8 * (i % 8));
	const uint64_t m = (1ull << 51) - 1;
	v[0][lane] = w[0] & m;
	v[1][lane] = (w[0] >> 51 | w[1] << 13) & m;
	v[2][lane] = (w[1] >> 38 | w[2] << 26) & m;
	v[3][lane] = (w[2] >> 25 | w[3] << 39) & m;
	v[4][lane] = w[3] >> 12;
}

void vg_ge52_get(vg_fe4 *f, const uint64_t v[5][4], unsigned lane)
{
	const uint64_t m = (1ull << 51) - 1;
	uint64_t l[5];
	for (int i = 0; i < 5; i++)
		l[i] = v[i][lane];
	/* one carry pass: l1..l4 < 2^51, l0 < 2^51 + 19 * 2^12, so the
	 * value is below 2^256 and packs into four words */
	for (int i = 0; i < 4; i++) {
		l[i + 1] += l[i] >> 51;
		l[i] &= m;
	}
	l[0] += 19 * (l[4] >> 51);
	l[4] &= m;
	unsigned __int128 t = l[0] + ((unsigned __int128)l[1] << 51);
	f->v[0] = (uint64_t)t;
	t = (t >> 64) + ((unsigned __int128)l[2] << 38);
	f->v[1] = (uint64_t)t;
	t = (t >> 64) + ((unsigned __int128)l[3] << 25);
	f->v[2] = (uint64_t)t;
	t = (t >> 64) + ((unsigned __int128)l[4] << 12);
	f->v[3] = (uint64_t)t;
}

/* d = (y - x, y + x, 2dxy, 2) of s, or of -s */
static void put_niels(vg_ge52_niels *d, const vg_ge4_niels *s, int neg)
{
	vg_fe4 t;
	vg_ge52_put(d->v, neg ? 1 : 0, &s->ymx);
	vg_ge52_put(d->v, neg ? 0 : 1, &s->ypx);
	if (neg) {
		vg_fe4 zero = {{0, 0, 0, 0}};
		vg_fe4_sub(&t, &zero, &s->xy2d);
		vg_ge52_put(d->v, 2, &t);
	} else {
		vg_ge52_put(d->v, 2, &s->xy2d);
	}
	for (int l = 0; l < 5; l++)
		d->v[l][3] = l == 0 ? 2 : 0;
}

static void convert(void)
{
	const vg_ge4_niels (*c)[8] = vg_ge4_base_comb();
	const vg_ge4_niels *o = vg_ge4_base_odd();
	for (int i = 0; i < 32; i++)
		for (int j = 0; j < 8; j++)
			put_niels(&comb52[i][j], &c[i][j], 0);
	for (int j = 0; j < 64; j++) {
		put_niels(&odd52[j], &o[j], 0);
		put_niels(&odd52[64 + j], &o[j], 1);
	}
}

const vg_ge52_niels (*vg_ge52_base_comb(void))[8]
{
	pthread_once(&once, convert);
	return (const vg_ge52_niels (*)[8])comb52;
}

const vg_ge52_niels *vg_ge52_base_odd(void)
{
	pthread_once(&once, convert);
	return odd52;
}
