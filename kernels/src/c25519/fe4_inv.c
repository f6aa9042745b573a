/* fe4_inv.c: constant-time inversion in GF(2^255 - 19) by Bernstein-Yang
 * divsteps (the "half-delta" variant: 590 steps suffice for a 255-bit
 * modulus: 9 batches of 62 and a last one of 32). Secret: the input and every
 * intermediate value; the step count is fixed and every choice is a mask.
 *
 * Each batch runs 62 divsteps on the low 64 bits of f and g only (in
 * chunks of at most 19, vg_fe4_divsteps62 in fe4_inv.asm) and records
 * them as a 2x2 matrix M with f_new 2^62 = u f + v g and
 * g_new 2^62 = q f + r g; then M is applied to the full f, g (signed
 * 62-bit limbs, exact division by 2^62) and to the field elements d, e
 * (f = d x 2^-n, g = e x 2^-n mod p after n steps). At the end f = +-1,
 * so 1/x = +-d 2^-590, one multiplication by a constant. The last batch
 * (32 steps) needs only the sign of f and d: M is applied the same way,
 * and the sign of the floor-shifted sum is the sign of u f + v g.
 * The asm does each batch in two calls (fe4_inv.asm: the steps, then M
 * applied to f, g, d, e); the C functions below are their references. */
#include "ct.h"
#include "fe4.h"
#include "vg/wipe.h"

#define M62 ((uint64_t)0x3fffffffffffffff)
#define BATCHES 10 /* 9 x 62 + 32 = 590 steps */
#define CHUNK 19   /* steps per call of vg_fe4_divsteps (its limit) */

typedef __int128 i128;

/* 2^-590 mod p (little-endian 64-bit limbs). */
static const vg_fe4 inv2_590 = {{0xa0f99e2375022099u, 0xa8c68f3f1d132595u,
				 0x6c6c893805ac5242u, 0x276508b241770615u}};

typedef struct {
	int64_t u, v, q, r;
} mat;

/* One chunk of the portable reference of vg_fe4_divsteps62 (fe4.h; the
 * asm in fe4_inv.asm packs each row with its value the same way):
 * n <= 19 divsteps on the low bits of f (odd) and g; t = 2 delta (odd),
 * kept negated (nt = -t) so the sign mask of delta is one shift. Per step:
 * swap when delta > 0 and g is odd, then
 *   (delta, f, g) <- (1 - delta, g, (g - f)/2)  or (1 + delta, f, (g + (g&1) f)/2).
 * The matrix rows follow f and g scaled by 2^steps (f's row doubles
 * instead of g's halving), which keeps their updates linear; each row is
 * packed in one word as u + 2^32 v (|u|, |v| <= 2^n). x = -f or f (by the
 * sign of delta alone) is added to g when g is odd, and a swap then turns
 * f into g - f + f = g with one masked add. */
int64_t vg_fe4_divsteps_c(int64_t m[4], int64_t t, uint64_t f, uint64_t g, unsigned n)
{
	uint64_t rf = 1, rg = (uint64_t)1 << 32, nt = (uint64_t)-t;
	for (unsigned i = 0; i < n; i++) {
		uint64_t s = (uint64_t)((int64_t)nt >> 63);  /* delta > 0 */
		uint64_t x = (f ^ s) - s, xr = (rf ^ s) - s; /* -f, -rf when delta > 0 */
		uint64_t odd = vg_ct_barrier(0 - (g & 1));
		uint64_t c = s & odd; /* swap */
		g += x & odd;
		rg += xr & odd;
		nt = ((nt ^ c) - c) - 2; /* t = 2 + (c ? -t : t) */
		f += g & c;              /* swap: f + (g - f) = g */
		rf += rg & c;
		g >>= 1;
		rf <<= 1;
	}
	m[0] = (int32_t)(uint32_t)rf;
	m[1] = (int64_t)(rf - (uint64_t)m[0]) >> 32;
	m[2] = (int32_t)(uint32_t)rg;
	m[3] = (int64_t)(rg - (uint64_t)m[2]) >> 32;
	return (int64_t)(0 - nt);
}

/* n <= 19 steps; m = their matrix. */
static int64_t chunk(int64_t t, uint64_t f, uint64_t g, int n, mat *m)
{
	int64_t e[4];
	t = vg_fe4_divsteps_c(e, t, f, g, (unsigned)n);
	*m = (mat){e[0], e[1], e[2], e[3]};
	return t;
}

/* a = b a (the later steps' matrix applied after the earlier ones). The
 * products are matrices of at most 62 steps, whose rows have
 * |u| + |v| <= 2^62: no term overflows; unsigned arithmetic avoids
 * signed-overflow questions anyway. */
static void mat_mul(mat *a, const mat *b)
{
	uint64_t u = (uint64_t)b->u * (uint64_t)a->u + (uint64_t)b->v * (uint64_t)a->q;
	uint64_t v = (uint64_t)b->u * (uint64_t)a->v + (uint64_t)b->v * (uint64_t)a->r;
	uint64_t q = (uint64_t)b->q * (uint64_t)a->u + (uint64_t)b->r * (uint64_t)a->q;
	uint64_t r = (uint64_t)b->q * (uint64_t)a->v + (uint64_t)b->r * (uint64_t)a->r;
	*a = (mat){(int64_t)u, (int64_t)v, (int64_t)q, (int64_t)r};
}

/* vg_fe4_divsteps62's reference: n <= 62 divsteps on the low 64 bits of
 * f and g, as chunks of at most 19 (62 = 19 + 19 + 19 + 5, 32 = 19 + 13);
 * each later chunk starts from the low bits of (u f + v g) / 2^s, still
 * exact in 64 - s bits. Returns the new t; m = the n-step matrix
 * (f_n 2^n = u f + v g, ...). */
static int64_t batch(int64_t t, uint64_t f, uint64_t g, int n, mat *m)
{
	mat mk;
	int s = n < CHUNK ? n : CHUNK;
	t = chunk(t, f, g, s, m);
	while (s < n) {
		int c = n - s < CHUNK ? n - s : CHUNK;
		uint64_t fk = ((uint64_t)m->u * f + (uint64_t)m->v * g) >> s;
		uint64_t gk = ((uint64_t)m->q * f + (uint64_t)m->r * g) >> s;
		t = chunk(t, fk, gk, c, &mk);
		mat_mul(m, &mk);
		s += c;
	}
	return t;
}

/* (f, g) <- M (f, g) / 2^62, exact; 5 signed 62-bit limbs, top one signed.
 * For the last, shorter batch the low bits are not zero and the result is
 * only the floor; its sign is still that of M (f, g), all that is used. */
static void apply_fg(int64_t f[5], int64_t g[5], const mat *m)
{
	i128 cf = (i128)m->u * f[0] + (i128)m->v * g[0];
	i128 cg = (i128)m->q * f[0] + (i128)m->r * g[0];
	cf >>= 62; /* the low 62 bits are zero by construction */
	cg >>= 62;
	for (int i = 1; i < 5; i++) {
		cf += (i128)m->u * f[i] + (i128)m->v * g[i];
		cg += (i128)m->q * f[i] + (i128)m->r * g[i];
		f[i - 1] = (int64_t)((uint64_t)cf & M62);
		g[i - 1] = (int64_t)((uint64_t)cg & M62);
		cf >>= 62;
		cg >>= 62;
	}
	f[4] = (int64_t)cf;
	g[4] = (int64_t)cg;
}

/* h = a d + b e mod p, for |a|, |b| <= 2^62 and d, e < 2^256 (partially
 * reduced); h < 2^256. */
static void lin(vg_fe4 *h, int64_t a, const vg_fe4 *d, int64_t b, const vg_fe4 *e)
{
	uint64_t w[4];
	i128 c = 0;
	for (int i = 0; i < 4; i++) {
		c += (i128)a * (i128)d->v[i] + (i128)b * (i128)e->v[i];
		w[i] = (uint64_t)c;
		c >>= 64;
	}
	/* value = w + c 2^256 = w + 38 c (mod p), |c| < 2^64 */
	c *= 38;
	for (int i = 0; i < 4; i++) {
		c += w[i];
		w[i] = (uint64_t)c;
		c >>= 64;
	}
	/* now c is -1, 0 or 1: fold 38 c again; a carry (c = 1) left w tiny,
	 * a borrow (c = -1) left it near 2^256, so this one cannot overflow */
	c *= 38;
	for (int i = 0; i < 4; i++) {
		c += w[i];
		h->v[i] = (uint64_t)c;
		c >>= 64;
	}
}

int64_t vg_fe4_divsteps62_c(int64_t m[4], int64_t t, uint64_t f, uint64_t g, unsigned n)
{
	mat mm;
	t = batch(t, f, g, (int)n, &mm);
	m[0] = mm.u;
	m[1] = mm.v;
	m[2] = mm.q;
	m[3] = mm.r;
	return t;
}

void vg_fe4_inv_apply_c(int64_t fg[10], vg_fe4 de[2], const int64_t m[4])
{
	const mat mm = {m[0], m[1], m[2], m[3]};
	vg_fe4 nd;
	apply_fg(fg, fg + 5, &mm);
	lin(&nd, mm.u, &de[0], mm.v, &de[1]);
	lin(&de[1], mm.q, &de[0], mm.r, &de[1]);
	de[0] = nd;
	vg_wipe(&nd, sizeof(nd));
}

void vg_fe4_invert(vg_fe4 *h, const vg_fe4 *z)
{
	uint8_t s[32];
	vg_fe4 x, de[2] = {{{0, 0, 0, 0}}, {{1, 0, 0, 0}}}; /* d, e */
	/* f = p, then g = x: 62-bit limbs, the top ones signed */
	int64_t fg[10] = {(int64_t)(M62 - 18), (int64_t)M62, (int64_t)M62, (int64_t)M62, 0x7f};
	int64_t *f = fg, *g = fg + 5;
	int64_t m[4];

	vg_fe4_tobytes(s, z); /* the unique representative: 0 <= g < p */
	vg_fe4_frombytes(&x, s);
	g[0] = (int64_t)(x.v[0] & M62);
	g[1] = (int64_t)((x.v[0] >> 62 | x.v[1] << 2) & M62);
	g[2] = (int64_t)((x.v[1] >> 60 | x.v[2] << 4) & M62);
	g[3] = (int64_t)((x.v[2] >> 58 | x.v[3] << 6) & M62);
	g[4] = (int64_t)(x.v[3] >> 56);

	int64_t t = 1; /* 2 delta, delta = 1/2 */
	for (int k = 0; k < BATCHES; k++) {
		uint64_t flo = (uint64_t)f[0] | (uint64_t)f[1] << 62;
		uint64_t glo = (uint64_t)g[0] | (uint64_t)g[1] << 62;
		/* public count */
		t = vg_fe4_divsteps62(m, t, flo, glo, k < BATCHES - 1 ? 62 : 32);
		vg_fe4_inv_apply(fg, de, m);
	}
	/* f = +-1 (or 0 / +-p for x = 0, where d = 0): 1/x = sign(f) d 2^-590 */
	int64_t sgn = (int64_t)(1 | (uint64_t)(f[4] >> 63)); /* 1 or -1, as a mask op */
	lin(&de[0], sgn, &de[0], 0, &de[1]);
	vg_fe4_mul_base(h, &de[0], &inv2_590);

	vg_wipe(s, sizeof(s));
	vg_wipe(&x, sizeof(x));
	vg_wipe(de, sizeof(de));
	vg_wipe(fg, sizeof(fg));
	vg_wipe(m, sizeof(m));
}
