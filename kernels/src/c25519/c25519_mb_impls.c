/* c25519_mb_impls.c: the c25519_mb family's table of variants
 * (c25519_mb_impl.h): the portable references of the eight-lane ladder,
 * multiply, squarings and fixed-base comb, and the rows, C first, then ifma. The
 * references take each lane out of the transposed layout and run it
 * through fe.c (constant time: masked swaps, fixed sequences), so the
 * asm row is checked against independent code. Secret: every scalar and
 * field element, as in c25519_mb_impl.h. */
#include "c25519/c25519_mb_impl.h"

#include "ct.h"
#include "fe.h"
#include "ge.h"
#include "vg/cpu.h"
#include "vg/wipe.h"
#include "vg_config.h"

#define LANES VG_C25519_MB_LANES

static void get_lane(vg_fe *f, const uint64_t *x, size_t l)
{
	for (size_t i = 0; i < 5; i++)
		f->v[i] = x[LANES * i + l];
}

static void put_lane(uint64_t *x, size_t l, const vg_fe *f)
{
	for (size_t i = 0; i < 5; i++)
		x[LANES * i + l] = f->v[i];
}

/* RFC 7748 section 5's ladder in one lane (the same steps as
 * c25519_c.c's), the scalar bit read at a public position and used only
 * as a swap mask. */
static void ladder_lane(vg_fe *x2, vg_fe *z2, const uint64_t *e, size_t l, const vg_fe *x1)
{
	vg_fe x3, z3, a, aa, b, bb, ee, c, d, da, cb;
	uint64_t swap = 0;

	vg_fe_1(x2);
	vg_fe_0(z2);
	x3 = *x1;
	vg_fe_1(&z3);
	for (int t = 254; t >= 0; t--) {
		uint64_t k = (e[LANES * ((unsigned)t / 64) + l] >> ((unsigned)t % 64)) & 1;
		swap ^= k;
		vg_fe_cswap(x2, &x3, swap);
		vg_fe_cswap(z2, &z3, swap);
		swap = k;
		vg_fe_add(&a, x2, z2);
		vg_fe_sq(&aa, &a);
		vg_fe_sub(&b, x2, z2);
		vg_fe_sq(&bb, &b);
		vg_fe_sub(&ee, &aa, &bb);
		vg_fe_add(&c, &x3, &z3);
		vg_fe_sub(&d, &x3, &z3);
		vg_fe_mul(&da, &d, &a);
		vg_fe_mul(&cb, &c, &b);
		vg_fe_add(&x3, &da, &cb);
		vg_fe_sq(&x3, &x3);
		vg_fe_sub(&z3, &da, &cb);
		vg_fe_sq(&z3, &z3);
		vg_fe_mul(&z3, &z3, x1);
		vg_fe_mul(x2, &aa, &bb);
		vg_fe_mul_small(&a, &ee, 121665);
		vg_fe_add(&a, &aa, &a);
		vg_fe_mul(z2, &ee, &a);
	}
	vg_fe_cswap(x2, &x3, swap);
	vg_fe_cswap(z2, &z3, swap);
	vg_wipe(&x3, sizeof(x3));
	vg_wipe(&z3, sizeof(z3));
	vg_wipe(&a, sizeof(a));
	vg_wipe(&aa, sizeof(aa));
	vg_wipe(&b, sizeof(b));
	vg_wipe(&bb, sizeof(bb));
	vg_wipe(&ee, sizeof(ee));
	vg_wipe(&c, sizeof(c));
	vg_wipe(&d, sizeof(d));
	vg_wipe(&da, sizeof(da));
	vg_wipe(&cb, sizeof(cb));
	vg_wipe(&swap, sizeof(swap));
}

void vg_x25519mb_ladder_c(uint64_t xz[2 * VG_FE51MB_WORDS], const uint64_t e[32],
			  const uint64_t x1[VG_FE51MB_WORDS])
{
	vg_fe u, x2, z2;

	for (size_t l = 0; l < LANES; l++) {
		get_lane(&u, x1, l);
		ladder_lane(&x2, &z2, e, l, &u);
		put_lane(xz, l, &x2);
		put_lane(xz + VG_FE51MB_WORDS, l, &z2);
	}
	vg_wipe(&u, sizeof(u));
	vg_wipe(&x2, sizeof(x2));
	vg_wipe(&z2, sizeof(z2));
}

/* Every lane is read before h is written (h may alias f or g). */
void vg_fe51mb_mul_c(uint64_t h[VG_FE51MB_WORDS], const uint64_t f[VG_FE51MB_WORDS],
		     const uint64_t g[VG_FE51MB_WORDS])
{
	vg_fe a, b, r[LANES];

	for (size_t l = 0; l < LANES; l++) {
		get_lane(&a, f, l);
		get_lane(&b, g, l);
		vg_fe_mul(&r[l], &a, &b);
	}
	for (size_t l = 0; l < LANES; l++)
		put_lane(h, l, &r[l]);
	vg_wipe(&a, sizeof(a));
	vg_wipe(&b, sizeof(b));
	vg_wipe(r, sizeof(r));
}

void vg_fe51mb_sqrn_c(uint64_t h[VG_FE51MB_WORDS], const uint64_t f[VG_FE51MB_WORDS], size_t n)
{
	vg_fe a;

	for (size_t l = 0; l < LANES; l++) {
		get_lane(&a, f, l);
		vg_fe_sqn(&a, &a, (unsigned)n);
		put_lane(h, l, &a);
	}
	vg_wipe(&a, sizeof(a));
}

/* t = [b] row, the lane's digit b in [-8, 8]: every entry of the row
 * read, one kept under a mask, negated under a mask (ge_base.c's scan). */
static void select_lane(vg_ge_niels *t, const vg_ge_niels row[8], int8_t b)
{
	uint8_t ub = (uint8_t)b;
	uint64_t neg = ub >> 7;
	uint64_t mag = (uint8_t)((ub ^ (uint8_t)(0 - neg)) + neg);

	vg_ge_niels_identity(t);
	for (unsigned j = 0; j < 8; j++) {
		uint64_t ctl = vg_ct_eq(mag, j + 1);
		vg_fe_cmov(&t->ypx, &row[j].ypx, ctl);
		vg_fe_cmov(&t->ymx, &row[j].ymx, ctl);
		vg_fe_cmov(&t->xy2d, &row[j].xy2d, ctl);
	}
	vg_ge_niels_cneg(t, neg);
}

/* Each lane by ge_base.c's comb on ge.c's formulas: odd positions, four
 * doublings, even positions. */
void vg_ge51mb_comb_c(uint64_t h[3 * VG_FE51MB_WORDS], const vg_ge_niels table[32][8],
		      const int8_t e[64 * VG_C25519_MB_LANES])
{
	vg_ge_p3 p;
	vg_ge_niels t;
	vg_ge_completed r;

	for (size_t l = 0; l < LANES; l++) {
		vg_ge_p3_identity(&p);
		for (unsigned i = 1; i < 64; i += 2) {
			select_lane(&t, table[i / 2], e[LANES * i + l]);
			vg_ge_add_niels(&r, &p, &t);
			vg_ge_completed_to_p3(&p, &r);
		}
		for (int d = 0; d < 4; d++) {
			vg_ge_p3_dbl(&r, &p);
			vg_ge_completed_to_p3(&p, &r);
		}
		for (unsigned i = 0; i < 64; i += 2) {
			select_lane(&t, table[i / 2], e[LANES * i + l]);
			vg_ge_add_niels(&r, &p, &t);
			vg_ge_completed_to_p3(&p, &r);
		}
		put_lane(h, l, &p.X);
		put_lane(h + VG_FE51MB_WORDS, l, &p.Y);
		put_lane(h + 2 * VG_FE51MB_WORDS, l, &p.Z);
	}
	vg_wipe(&p, sizeof(p));
	vg_wipe(&t, sizeof(t));
	vg_wipe(&r, sizeof(r));
}

const struct vg_c25519_mb_impl vg_c25519_mb_impls[] = {
	{
		.v = {"c", 0},
		.ladder = vg_x25519mb_ladder_c,
		.mul = vg_fe51mb_mul_c,
		.sqrn = vg_fe51mb_sqrn_c,
		.comb = vg_ge51mb_comb_c,
	},
#if VG_HAVE_ASM
	{
		.v = {"ifma", VG_TIER_IFMA},
		.ladder = vg_x25519mb_ladder_ifma,
		.mul = vg_fe51mb_mul_ifma,
		.sqrn = vg_fe51mb_sqrn_ifma,
		.comb = vg_ge51mb_comb_ifma,
	},
#endif
};

const size_t vg_c25519_mb_nimpls = sizeof(vg_c25519_mb_impls) / sizeof(vg_c25519_mb_impls[0]);
