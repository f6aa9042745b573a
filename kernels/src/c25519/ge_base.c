/* ge_base.c: constant-time fixed-base multiplication [a]B (key
 * generation, signing, X25519 public values). Secret: the scalar a, its
 * digits and every intermediate point. Each table lookup reads all eight
 * entries of its row and keeps one under a mask; a negative digit negates
 * the selected point under a mask. No branch or index depends on a.
 *
 * Method (a signed radix-16 comb): write a = sum_{i<64} e_i 16^i with
 * e_i in [-8, 8). Grouping odd and even positions,
 *   [a]B = 16 * sum_j [e_{2j+1}] (256^j B) + sum_j [e_{2j}] (256^j B),
 * and row j of vg_ge_base_comb holds 1..8 times 256^j B. That is 64
 * mixed additions, 4 doublings and 64 eight-entry scans. */
#include "ct.h"
#include "ge.h"
#include "ge_table.h"
#include "vg/wipe.h"

static void niels_cmov(vg_ge_niels *t, const vg_ge_niels *u, uint64_t ctl)
{
	vg_fe_cmov(&t->ypx, &u->ypx, ctl);
	vg_fe_cmov(&t->ymx, &u->ymx, ctl);
	vg_fe_cmov(&t->xy2d, &u->xy2d, ctl);
}

/* t = [b] (256^row B) for a digit b in [-8, 8]. row is public (it is the
 * loop position); b is secret. */
static void select_niels(vg_ge_niels *t, unsigned row, int8_t b)
{
	uint8_t ub = (uint8_t)b;
	uint64_t neg = ub >> 7;                                  /* 1 if b < 0 */
	uint64_t mag = (uint8_t)((ub ^ (uint8_t)(0 - neg)) + neg); /* |b|: two's complement */

	vg_ge_niels_identity(t); /* b = 0 keeps the identity */
	for (unsigned j = 0; j < 8; j++)
		niels_cmov(t, &vg_ge_base_comb[row][j], vg_ct_eq(mag, j + 1));
	vg_ge_niels_cneg(t, neg);
}

void vg_ge_scalarmult_base(vg_ge_p3 *h, const uint8_t a[32])
{
	int8_t e[64];
	vg_ge_niels t;
	vg_ge_completed r;
	vg_ge_p2 s;

	/* Unsigned nibbles, then recentre each into [-8, 8) by carrying 1 into
	 * the next nibble when it is 8 or more. The last digit absorbs the
	 * final carry: with a[31] <= 127 it ends in [0, 8]. */
	for (unsigned i = 0; i < 32; i++) {
		e[2 * i] = (int8_t)(a[i] & 15);
		e[2 * i + 1] = (int8_t)(a[i] >> 4);
	}
	int carry = 0;
	for (unsigned i = 0; i < 63; i++) {
		int x = e[i] + carry;      /* in [0, 16] */
		carry = (x + 8) >> 4;      /* 1 if x >= 8 (x + 8 >= 0: no sign issue) */
		e[i] = (int8_t)(x - 16 * carry);
	}
	e[63] = (int8_t)(e[63] + carry);

	/* Odd positions: sum_j e_{2j+1} 256^j B. */
	vg_ge_p3_identity(h);
	for (unsigned i = 1; i < 64; i += 2) {
		select_niels(&t, i / 2, e[i]);
		vg_ge_add_niels(&r, h, &t);
		vg_ge_completed_to_p3(h, &r);
	}

	/* Times 16: four doublings, only the last one needs T. */
	vg_ge_p3_dbl(&r, h);
	vg_ge_completed_to_p2(&s, &r);
	vg_ge_p2_dbl(&r, &s);
	vg_ge_completed_to_p2(&s, &r);
	vg_ge_p2_dbl(&r, &s);
	vg_ge_completed_to_p2(&s, &r);
	vg_ge_p2_dbl(&r, &s);
	vg_ge_completed_to_p3(h, &r);

	/* Even positions: plus sum_j e_{2j} 256^j B. */
	for (unsigned i = 0; i < 64; i += 2) {
		select_niels(&t, i / 2, e[i]);
		vg_ge_add_niels(&r, h, &t);
		vg_ge_completed_to_p3(h, &r);
	}

	vg_wipe(e, sizeof(e));
	vg_wipe(&t, sizeof(t));
	vg_wipe(&r, sizeof(r));
	vg_wipe(&s, sizeof(s));
}
