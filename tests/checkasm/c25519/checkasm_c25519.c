/* checkasm_c25519.c: every c25519 assembly function, on every tier this
 * CPU has, against the portable C reference (fe.c, c25519_c.c, ge_base.c):
 * >= 10,000 random inputs plus edge values (0, 1, p-1, p, p+1, 2^255-1,
 * 2^256-1 and neighbours: the asm accepts any value below 2^256; the
 * comb on random and edge digit strings, the point operations on random
 * projective points with unreduced coordinates and the identity), with
 * sentinel-guarded outputs and the harness's register/stack checks; then
 * every row of the family table (vg_c25519_impls) the CPU can run against
 * row 0, the C reference. Nothing here is secret. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c25519/c25519_impl.h"
#include "c25519/fe.h"
#include "c25519/fe4.h"
#include "c25519/ge.h"
#include "c25519/ge_table.h"
#include "checkasm.h"

#define NEDGE 12
static const uint64_t P0 = 0xffffffffffffffedu, PM = 0xffffffffffffffffu,
		      P3 = 0x7fffffffffffffffu;
/* 0, 1, p-1, p, p+1, 2^255-1, 2^255, 2^256-1, 2^256-38, 2p-1, 2p, 19 */
static const vg_fe4 edge[NEDGE] = {
	{{0, 0, 0, 0}},         {{1, 0, 0, 0}},          {{P0 - 1, PM, PM, P3}},
	{{P0, PM, PM, P3}},     {{P0 + 1, PM, PM, P3}},  {{PM, PM, PM, P3}},
	{{0, 0, 0, 1ull << 63}}, {{PM, PM, PM, PM}},      {{PM - 37, PM, PM, PM}},
	{{0xffffffffffffffd9u, PM, PM, PM}}, {{0xffffffffffffffdau, PM, PM, PM}},
	{{19, 0, 0, 0}},
};

/* Input i: the edge values first, then random 256-bit values, some with
 * the top limb saturated (near 2^256) where carries are likeliest. */
static void input(vg_fe4 *f, int i)
{
	if (i < NEDGE) {
		*f = edge[i];
		return;
	}
	vg_checkasm_rand_bytes(f, sizeof(*f));
	uint64_t r = vg_checkasm_rand64();
	if ((r & 7) == 0)
		f->v[3] = PM;
	if ((r & 0x38) == 0)
		f->v[0] |= 0xffffffffffffff00u;
}

/* The C reference value of an element, fully reduced, as bytes. */
static void ref_bytes(uint8_t out[32], const vg_fe *f) { vg_fe_tobytes(out, f); }

typedef void (*fn2)(vg_fe4 *, const vg_fe4 *, const vg_fe4 *);
typedef void (*fn1)(vg_fe4 *, const vg_fe4 *);

/* Binary ops: mul, add, sub. */
static void check_binary(const char *name, fn2 f, void (*ref)(vg_fe *, const vg_fe *, const vg_fe *))
{
	vg_checkasm_func(name);
	int n = vg_checkasm_iters() + NEDGE * NEDGE;
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		vg_fe4 a, b;
		input(&a, i < NEDGE * NEDGE ? i / NEDGE : NEDGE + i);
		input(&b, i < NEDGE * NEDGE ? i % NEDGE : NEDGE + i);
		uint8_t raw[VG_CHECKASM_OUT(32)], got[32], want[32];
		vg_fe4 *out = (vg_fe4 *)vg_checkasm_guard(raw, 32);
		vg_checkasm_call(f, out, &a, &b);
		if (!vg_checkasm_guard_ok(raw, 32))
			break;
		vg_fe4_tobytes(got, out);
		vg_fe fa, fb, fh;
		vg_fe4_to_fe(&fa, &a);
		vg_fe4_to_fe(&fb, &b);
		ref(&fh, &fa, &fb);
		ref_bytes(want, &fh);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		/* in place: h may alias f */
		vg_fe4 c = a;
		vg_checkasm_call(f, &c, &c, &b);
		vg_fe4_tobytes(got, &c);
		vg_checkasm_eq(got, want, 32, "in place, i=%d", i);
	}
	vg_checkasm_func_done();
}

static void ref_a24(vg_fe *h, const vg_fe *f) { vg_fe_mul_small(h, f, 121665); }

static void ref_a24_add(vg_fe *h, const vg_fe *f, const vg_fe *g)
{
	vg_fe t;
	vg_fe_mul_small(&t, f, 121665);
	vg_fe_add(h, &t, g);
}

/* A wide value (five words, the fifth <= 38) as a C field element. */
static void wide_to_fe(vg_fe *h, const uint64_t w[5])
{
	vg_fe4 lo = {{w[0], w[1], w[2], w[3]}}, top = {{38 * w[4], 0, 0, 0}};
	vg_fe a, b;
	vg_fe4_to_fe(&a, &lo);
	vg_fe4_to_fe(&b, &top); /* 2^256 = 38 mod p */
	vg_fe_add(h, &a, &b);
}

static int below_2_255_plus_2_12(const vg_fe4 *h)
{
	return h->v[3] < (1ull << 63) ||
	       (h->v[3] == (1ull << 63) && h->v[2] == 0 && h->v[1] == 0 && h->v[0] < 4096);
}

/* vg_fe4_addsub_w: s = m + p, d = m - p for wide m and p (the ladder's
 * FE_ADDSUB_W): every pair of edge low halves with the carry words at
 * their extremes (0 and 38, in the four combinations), then random low
 * halves and carry words; the values mod p and the outputs' bound (below
 * 2^255 + 2^12, which the ladder's next products rely on). */
static void check_addsub_w(void)
{
	static const uint64_t tops[4][2] = {{0, 0}, {38, 38}, {0, 38}, {38, 0}};
	vg_checkasm_func("vg_fe4_addsub_w");
	int ne = NEDGE * NEDGE * 4;
	int n = vg_checkasm_iters() + ne;
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		vg_fe4 ml, pl;
		uint64_t mw[5], pw[5];
		if (i < ne) {
			input(&ml, i / (NEDGE * 4));
			input(&pl, (i / 4) % NEDGE);
			mw[4] = tops[i % 4][0];
			pw[4] = tops[i % 4][1];
		} else {
			input(&ml, NEDGE + i);
			input(&pl, NEDGE + i + 1);
			mw[4] = vg_checkasm_rand64() % 39;
			pw[4] = vg_checkasm_rand64() % 39;
		}
		memcpy(mw, ml.v, 32);
		memcpy(pw, pl.v, 32);
		uint8_t raw_s[VG_CHECKASM_OUT(32)], raw_d[VG_CHECKASM_OUT(32)];
		uint8_t got[64], want[64];
		vg_fe4 *s = (vg_fe4 *)vg_checkasm_guard(raw_s, 32);
		vg_fe4 *d = (vg_fe4 *)vg_checkasm_guard(raw_d, 32);
		vg_checkasm_call(vg_fe4_addsub_w, s, d, mw, pw);
		if (!vg_checkasm_guard_ok(raw_s, 32) || !vg_checkasm_guard_ok(raw_d, 32))
			break;
		uint8_t ok = (uint8_t)(below_2_255_plus_2_12(s) && below_2_255_plus_2_12(d)), one = 1;
		vg_checkasm_eq(&ok, &one, 1, "i=%d: m + p or m - p not below 2^255 + 2^12", i);
		vg_fe4_tobytes(got, s);
		vg_fe4_tobytes(got + 32, d);
		vg_fe fm, fp, fs, fd;
		wide_to_fe(&fm, mw);
		wide_to_fe(&fp, pw);
		vg_fe_add(&fs, &fm, &fp);
		vg_fe_sub(&fd, &fm, &fp);
		ref_bytes(want, &fs);
		ref_bytes(want + 32, &fd);
		vg_checkasm_eq(got, want, 64, "i=%d (m + p || m - p)", i);
	}
	vg_checkasm_func_done();
}

/* vg_fe4_mul_a24_add_adx's output bound (2^255 + 2^23, its comment's), on
 * the largest inputs: f = g = 2^256 - 1. */
static void check_a24_adx_bound(void)
{
	vg_checkasm_func("vg_fe4_mul_a24_add_adx bound");
	for (int i = 0; i < NEDGE * NEDGE && vg_checkasm_ok(); i++) {
		vg_fe4 f, g, h;
		input(&f, i / NEDGE);
		input(&g, i % NEDGE);
		vg_checkasm_call(vg_fe4_mul_a24_add_adx, &h, &f, &g);
		int ok = h.v[3] < (1ull << 63) || (h.v[3] == (1ull << 63) && h.v[2] == 0 &&
						   h.v[1] == 0 && h.v[0] < (1ull << 23));
		uint8_t b = (uint8_t)ok, one = 1;
		vg_checkasm_eq(&b, &one, 1, "i=%d: 121665 f + g not below 2^255 + 2^23", i);
	}
	vg_checkasm_func_done();
}

static void check_unary(const char *name, fn1 f, void (*ref)(vg_fe *, const vg_fe *))
{
	vg_checkasm_func(name);
	int n = vg_checkasm_iters() + NEDGE;
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		vg_fe4 a;
		input(&a, i);
		uint8_t raw[VG_CHECKASM_OUT(32)], got[32], want[32];
		vg_fe4 *out = (vg_fe4 *)vg_checkasm_guard(raw, 32);
		vg_checkasm_call(f, out, &a);
		if (!vg_checkasm_guard_ok(raw, 32))
			break;
		vg_fe4_tobytes(got, out);
		vg_fe fa, fh;
		vg_fe4_to_fe(&fa, &a);
		ref(&fh, &fa);
		ref_bytes(want, &fh);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
	}
	vg_checkasm_func_done();
}

static void check_sqrn(const char *name, void (*f)(vg_fe4 *, const vg_fe4 *, unsigned))
{
	vg_checkasm_func(name);
	int n = vg_checkasm_iters() + NEDGE;
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		vg_fe4 a;
		input(&a, i);
		unsigned k = 1 + (unsigned)(vg_checkasm_rand64() % 12);
		if (i % 1000 == 999)
			k = 100; /* the longest run of the inversion chain */
		uint8_t raw[VG_CHECKASM_OUT(32)], got[32], want[32];
		vg_fe4 *out = (vg_fe4 *)vg_checkasm_guard(raw, 32);
		vg_checkasm_call(f, out, &a, k);
		if (!vg_checkasm_guard_ok(raw, 32))
			break;
		vg_fe4_tobytes(got, out);
		vg_fe fa, fh;
		vg_fe4_to_fe(&fa, &a);
		vg_fe_sqn(&fh, &fa, k);
		ref_bytes(want, &fh);
		vg_checkasm_eq(got, want, 32, "i=%d n=%u", i, k);
	}
	vg_checkasm_func_done();
}

/* The RFC 7748 ladder on the C field code: the same formulas in the same
 * order as the asm, so x2 and z2 agree mod p, not only their ratio. */
static void ref_ladder(vg_fe *x2, vg_fe *z2, const uint8_t e[32], const vg_fe *x1)
{
	vg_fe x3 = *x1, z3, a, aa, b, bb, ee, c, d, da, cb;
	uint64_t swap = 0;
	vg_fe_1(x2);
	vg_fe_0(z2);
	vg_fe_1(&z3);
	for (int t = 254; t >= 0; t--) {
		uint64_t k = (e[t >> 3] >> (t & 7)) & 1;
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
		vg_fe_mul_small(z2, &ee, 121665);
		vg_fe_add(z2, z2, &aa);
		vg_fe_mul(z2, z2, &ee);
	}
	vg_fe_cswap(x2, &x3, swap);
	vg_fe_cswap(z2, &z3, swap);
}

static void check_ladder(const char *name,
			 void (*f)(vg_fe4 xz[2], const uint8_t e[32], const vg_fe4 *x1))
{
	vg_checkasm_func(name);
	int n = vg_checkasm_iters() + NEDGE;
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t e[32];
		vg_fe4 x1;
		vg_checkasm_rand_bytes(e, 32);
		e[0] &= 248;
		e[31] = (uint8_t)((e[31] & 127) | 64);
		if (i == 1) /* extreme scalars: all ones, only bit 254 */
			memset(e, 0xff, 32), e[0] = 248, e[31] = 127;
		if (i == 2)
			memset(e, 0, 32), e[31] = 64;
		input(&x1, i);
		x1.v[3] &= P3; /* the ladder's input has bit 255 cleared */
		uint8_t raw[VG_CHECKASM_OUT(64)], got[64], want[64];
		vg_fe4 *xz = (vg_fe4 *)vg_checkasm_guard(raw, 64);
		vg_checkasm_call(f, xz, e, &x1);
		if (!vg_checkasm_guard_ok(raw, 64))
			break;
		vg_fe4_tobytes(got, &xz[0]);
		vg_fe4_tobytes(got + 32, &xz[1]);
		vg_fe fx1, x2, z2;
		vg_fe4_to_fe(&fx1, &x1);
		ref_ladder(&x2, &z2, e, &fx1);
		ref_bytes(want, &x2);
		ref_bytes(want + 32, &z2);
		vg_checkasm_eq(got, want, 64, "i=%d (x2 || z2)", i);
	}
	vg_checkasm_func_done();
}

/* vg_fe4_divsteps62 (asm, every tier) against its C reference: random odd
 * f, any g, odd t from small to near the int64 range, every step count
 * 1..62 (each chunk boundary: 19, 38, 57, and the inversion's 62 and
 * 32), and the edges f = 1 or all ones, g = 0, 1 or all ones, t = +-1. */
static void check_divsteps(void)
{
	static const uint64_t fe[] = {1, ~(uint64_t)0, 0x8000000000000001u};
	static const uint64_t ge[] = {0, 1, ~(uint64_t)0, 0x8000000000000000u};
	static const int64_t te[] = {1, -1, 3, -3, 0x3fffffffffffffff, -0x3fffffffffffffff};
	vg_checkasm_func("vg_fe4_divsteps62");
	int n = vg_checkasm_iters();
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint64_t f = vg_checkasm_rand64() | 1, g = vg_checkasm_rand64();
		int64_t t = (int64_t)((vg_checkasm_rand64() >> (vg_checkasm_rand64() % 63)) | 1);
		if (vg_checkasm_rand64() & 1)
			t = -t;
		if (i < 72 * 3) { /* every combination of the edges, at 19, 62, 32 steps */
			f = fe[i % 3];
			g = ge[(i / 3) % 4];
			t = te[(i / 12) % 6];
		}
		unsigned steps = i < 72 * 3 ? (unsigned[]){19, 62, 32}[i / 72] : 1 + (unsigned)(i % 62);
		int64_t got[4], want[4];
		int64_t tg = (int64_t)vg_checkasm_call(vg_fe4_divsteps62, got, t, f, g, steps);
		int64_t tw = vg_fe4_divsteps62_c(want, t, f, g, steps);
		if (!vg_checkasm_eq(got, want, sizeof(got), "rows, i=%d n=%u", i, steps))
			break;
		vg_checkasm_eq(&tg, &tw, sizeof(tg), "t, i=%d n=%u", i, steps);
	}
	vg_checkasm_func_done();
}

/* A signed 62-bit limb string of |value| < 2^(62 * 4 + top bits): limbs
 * 0..3 below 2^62, the top one signed. */
static void rand_limbs62(int64_t *x, int top_bits)
{
	for (int i = 0; i < 4; i++)
		x[i] = (int64_t)(vg_checkasm_rand64() >> 2);
	x[4] = (int64_t)vg_checkasm_rand64() >> (64 - top_bits);
}

/* vg_fe4_inv_apply (asm, every tier) against its C reference, on the
 * states the inversion meets: matrices of 62 divsteps of random f, g
 * (|u| + |v| <= 2^62, exact division), and also random matrices with
 * entries up to +-2^62 (the extremes +-2^62, 0 included) on random limbs
 * (there only d and e are compared: f and g would not divide exactly);
 * d and e random below 2^256, edge values among them (0, p, 2^256 - 1). */
static void check_inv_apply(void)
{
	static const int64_t me[] = {0, 1, -1, (int64_t)1 << 62, -((int64_t)1 << 62),
				     ((int64_t)1 << 62) - 1, -((int64_t)1 << 62) + 1};
	vg_checkasm_func("vg_fe4_inv_apply");
	int n = vg_checkasm_iters();
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		int64_t fg[10], fgw[10], m[4];
		vg_fe4 de[2], dew[2];
		int exact = i % 2 == 0;
		rand_limbs62(fg, 9);
		rand_limbs62(fg + 5, 9);
		if (exact) {
			uint64_t flo = (uint64_t)fg[0] | (uint64_t)fg[1] << 62;
			uint64_t glo = (uint64_t)fg[5] | (uint64_t)fg[6] << 62;
			fg[0] |= 1; /* f odd */
			flo |= 1;
			(void)vg_fe4_divsteps62_c(m, (int64_t)(vg_checkasm_rand64() % 64) * 2 - 63,
						  flo, glo, 62);
		} else {
			for (int k = 0; k < 4; k++)
				m[k] = (int64_t)(vg_checkasm_rand64() >> 1) >> 1; /* |.| < 2^62 */
			if (i % 8 == 1)
				for (int k = 0; k < 4; k++)
					m[k] = me[vg_checkasm_rand64() % 7];
		}
		input(&de[0], i % 64 < NEDGE ? i % 64 : NEDGE + 1);
		input(&de[1], (i / 2) % 64 < NEDGE ? (i / 2) % 64 : NEDGE + 1);
		memcpy(fgw, fg, sizeof(fg));
		memcpy(dew, de, sizeof(de));
		vg_checkasm_call(vg_fe4_inv_apply, fg, de, m);
		vg_fe4_inv_apply_c(fgw, dew, m);
		if (exact && !vg_checkasm_eq(fg, fgw, sizeof(fg), "f, g: i=%d", i))
			break;
		vg_checkasm_eq(de, dew, sizeof(de), "d, e: i=%d", i);
	}
	vg_checkasm_func_done();
}

/* The comb on the C point formulas, for any digits in [-8, 8] (the asm
 * must not assume the recoding's ranges): sum of [e_{2j+1}] 16 row_j and
 * [e_{2j}] row_j, with the table of ge_table.h. Not constant time. */
static void ref_comb(vg_ge_p3 *h, const int8_t e[64])
{
	vg_ge_completed r;
	vg_ge_niels t;
	vg_ge_p3_identity(h);
	for (int pass = 1; pass >= 0; pass--) {
		if (pass == 0)
			for (int d = 0; d < 4; d++) {
				vg_ge_p3_dbl(&r, h);
				vg_ge_completed_to_p3(h, &r);
			}
		for (int j = 0; j < 32; j++) {
			int b = e[2 * j + pass], m = b < 0 ? -b : b;
			if (m == 0)
				vg_ge_niels_identity(&t);
			else
				t = vg_ge_base_comb[j][m - 1];
			vg_ge_niels_cneg(&t, b < 0);
			vg_ge_add_niels(&r, h, &t);
			vg_ge_completed_to_p3(h, &r);
		}
	}
}

/* The radix-2^wb combs of the base and adx tiers (wb = 5: 52 digits in
 * [-16, 16], vg_ge_base_comb32; wb = 6: 43 digits in [-32, 32],
 * vg_ge_base_comb64) on the C point formulas, for any digits: only the
 * even rows (k + 1) 2^(2 wb i) B of the table (entries a row), odd digits
 * first, wb doublings, then the even ones (the asm reads a row per digit,
 * the odd rows 2^wb 2^(2 wb i) B too: this checks them by another route).
 * Not constant time. */
static void ref_comb_wide(vg_ge_p3 *h, const int8_t *e, int nd, int wb, const vg_ge_niels *table,
			  int entries)
{
	vg_ge_completed r;
	vg_ge_niels t;
	vg_ge_p3_identity(h);
	for (int pass = 1; pass >= 0; pass--) {
		if (pass == 0)
			for (int d = 0; d < wb; d++) {
				vg_ge_p3_dbl(&r, h);
				vg_ge_completed_to_p3(h, &r);
			}
		for (int j = pass; j < nd; j += 2) {
			int b = e[j], m = b < 0 ? -b : b;
			if (m == 0)
				vg_ge_niels_identity(&t);
			else
				t = table[(j - pass) * entries + m - 1];
			vg_ge_niels_cneg(&t, b < 0);
			vg_ge_add_niels(&r, h, &t);
			vg_ge_completed_to_p3(h, &r);
		}
	}
}

/* A comb with its table (the tiers' layouts differ: ifma has its own),
 * digits in [-D, D] (D = 8: 64 of them, radix 16, ref_comb; D = 16: 52,
 * radix 32, and D = 32: 43, radix 64, ref_comb_wide): the asm point's
 * X/Z and Y/Z against the reference's, and its invariant XY = ZT. */
typedef void (*combfn)(vg_ge4_p3 *, const void *, const int8_t *);
static void check_comb(const char *name, combfn f, const void *comb, int D)
{
	const int nd = D == 8 ? 64 : D == 16 ? 52 : 43;
	vg_checkasm_func(name);
	int n = vg_checkasm_iters() + 6;
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		int8_t e[64];
		for (int k = 0; k < nd; k++) {
			/* uniform in [-D, D] */
			int v = (int)(vg_checkasm_rand64() % (2 * D + 1)) - D;
			/* edge runs: all 0, all D, all -D, alternating, one digit set */
			e[k] = (int8_t)(i == 0   ? 0
					: i == 1 ? D
					: i == 2 ? -D
					: i == 3 ? (k & 1 ? D : -D)
					: i == 4 ? (k == nd - 1 ? D : 0)
					: i == 5 ? (k == 0 ? -1 : 0)
						 : v);
		}
		uint8_t raw[VG_CHECKASM_OUT(128)], got[32], want[32];
		vg_ge4_p3 *h = (vg_ge4_p3 *)vg_checkasm_guard(raw, 128);
		vg_checkasm_call(f, h, comb, e);
		if (!vg_checkasm_guard_ok(raw, 128))
			break;
		vg_ge_p3 P, R;
		vg_fe4_to_fe(&P.X, &h->X);
		vg_fe4_to_fe(&P.Y, &h->Y);
		vg_fe4_to_fe(&P.Z, &h->Z);
		vg_fe4_to_fe(&P.T, &h->T);
		vg_ge_p3_tobytes(got, &P);
		if (D == 8)
			ref_comb(&R, e);
		else if (D == 16)
			ref_comb_wide(&R, e, 52, 5, &vg_ge_base_comb32[0][0], 16);
		else
			ref_comb_wide(&R, e, 43, 6, &vg_ge_base_comb64[0][0], 32);
		vg_ge_p3_tobytes(want, &R);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		vg_fe xy, zt;
		uint8_t bxy[32], bzt[32];
		vg_fe_mul(&xy, &P.X, &P.Y);
		vg_fe_mul(&zt, &P.Z, &P.T);
		vg_fe_tobytes(bxy, &xy);
		vg_fe_tobytes(bzt, &zt);
		vg_checkasm_eq(bxy, bzt, 32, "XY = ZT, i=%d", i);
	}
	vg_checkasm_func_done();
}

/* A random point of the prime-order subgroup, [a]B, in random projective
 * coordinates (every coordinate times a random lambda), as fe4 with some
 * coordinates not reduced (+ p); i = 0 gives the identity (0, 1, 1, 0). */
static void rand_point(vg_ge_p3 *P, vg_ge4_p3 *P4, int i)
{
	uint8_t a[32], l[32];
	vg_checkasm_rand_bytes(a, 32);
	a[31] &= 127;
	if (i == 0)
		memset(a, 0, 32);
	vg_ge_scalarmult_base(P, a);
	vg_checkasm_rand_bytes(l, 32);
	l[0] |= 1;
	vg_fe lam;
	vg_fe_frombytes(&lam, l);
	if (i > 1) {
		vg_fe_mul(&P->X, &P->X, &lam);
		vg_fe_mul(&P->Y, &P->Y, &lam);
		vg_fe_mul(&P->Z, &P->Z, &lam);
		vg_fe_mul(&P->T, &P->T, &lam);
	}
	vg_fe4 *c4[4] = {&P4->X, &P4->Y, &P4->Z, &P4->T};
	const vg_fe *c[4] = {&P->X, &P->Y, &P->Z, &P->T};
	uint64_t r = vg_checkasm_rand64();
	for (int k = 0; k < 4; k++) {
		vg_fe4_from_fe(c4[k], c[k]);
		if ((r >> k & 3) == 0) { /* + p: still below 2^256 */
			unsigned __int128 t = (unsigned __int128)c4[k]->v[0] + P0;
			c4[k]->v[0] = (uint64_t)t;
			for (int j = 1; j < 4; j++) {
				t = (t >> 64) + c4[k]->v[j] + (j == 3 ? P3 : PM);
				c4[k]->v[j] = (uint64_t)t;
			}
		}
	}
}

/* got (asm) against want (C): the same affine point, and XY = ZT when T
 * was computed. */
static void check_point(const vg_ge4_p3 *got4, const vg_ge_p3 *want, int with_t, int i)
{
	vg_ge_p3 g;
	uint8_t bg[32], bw[32];
	vg_fe4_to_fe(&g.X, &got4->X);
	vg_fe4_to_fe(&g.Y, &got4->Y);
	vg_fe4_to_fe(&g.Z, &got4->Z);
	vg_fe4_to_fe(&g.T, &got4->T);
	vg_ge_p3_tobytes(bg, &g);
	vg_ge_p3_tobytes(bw, want);
	vg_checkasm_eq(bg, bw, 32, "point, i=%d", i);
	if (with_t) {
		vg_fe xy, zt;
		vg_fe_mul(&xy, &g.X, &g.Y);
		vg_fe_mul(&zt, &g.Z, &g.T);
		vg_fe_tobytes(bg, &xy);
		vg_fe_tobytes(bw, &zt);
		vg_checkasm_eq(bg, bw, 32, "XY = ZT, i=%d", i);
	}
}

typedef void (*gefn)(vg_ge4_p3 *, const void *);

/* madd (niels), add (cached), dbl and dbl_p2 of one tier. */
static void check_points(const char *tier, gefn madd, gefn add, void (*dbl)(vg_ge4_p3 *),
			 void (*dbl_p2)(vg_ge4_p3 *))
{
	char name[64];
	for (int op = 0; op < 4; op++) {
		static const char *const ops[] = {"vg_ge4_madd", "vg_ge4_add", "vg_ge4_dbl",
						  "vg_ge4_dbl_p2"};
		snprintf(name, sizeof(name), "%s_%s", ops[op], tier);
		vg_checkasm_func(name);
		int n = vg_checkasm_iters() + 4;
		for (int i = 0; i < n && vg_checkasm_ok(); i++) {
			vg_ge_p3 P, Q, R;
			vg_ge4_p3 P4, Q4;
			vg_ge_completed c;
			rand_point(&P, &P4, i);
			uint8_t raw[VG_CHECKASM_OUT(128)];
			vg_ge4_p3 *h = (vg_ge4_p3 *)vg_checkasm_guard(raw, 128);
			*h = P4;
			if (op == 0) {
				vg_ge_niels q = vg_ge_base_comb[i % 32][(i / 32) % 8];
				vg_ge_niels_cneg(&q, (uint64_t)(i / 256) & 1);
				if (i == 1)
					vg_ge_niels_identity(&q);
				vg_ge4_niels q4;
				vg_fe4_from_fe(&q4.ypx, &q.ypx);
				vg_fe4_from_fe(&q4.ymx, &q.ymx);
				vg_fe4_from_fe(&q4.xy2d, &q.xy2d);
				vg_checkasm_call(madd, h, &q4);
				vg_ge_add_niels(&c, &P, &q);
			} else if (op == 1) {
				rand_point(&Q, &Q4, i == 1 ? 0 : i + 1);
				if (i == 2)
					Q = P; /* doubling through the addition */
				vg_ge_cached q;
				vg_ge_p3_to_cached(&q, &Q);
				vg_ge4_cached q4;
				vg_fe4_from_fe(&q4.ypx, &q.ypx);
				vg_fe4_from_fe(&q4.ymx, &q.ymx);
				vg_fe4_from_fe(&q4.z, &q.z);
				vg_fe4_from_fe(&q4.t2d, &q.t2d);
				vg_checkasm_call(add, h, &q4);
				vg_ge_add_cached(&c, &P, &q);
			} else {
				vg_checkasm_call(op == 2 ? dbl : dbl_p2, h);
				vg_ge_p3_dbl(&c, &P);
			}
			if (!vg_checkasm_guard_ok(raw, 128))
				break;
			vg_ge_completed_to_p3(&R, &c);
			check_point(h, &R, op != 3, i);
			if (op == 3 && memcmp(&h->T, &P4.T, 32) != 0)
				vg_checkasm_fail("dbl_p2 wrote T, i=%d", i);
		}
		vg_checkasm_func_done();
	}
}

/* The ifma lane-form point operations (verification): s += table entry
 * (affine, either sign), s += a projective point in the (y - x, y + x,
 * 2dt, 2z) lanes, s = 2s; the state's limbs made unreduced (up to 2^60
 * added as 2^9 p limb by limb) on most inputs. */
static void check_points52(void)
{
	static const char *const ops[] = {"vg_ge52_add_ifma (affine)", "vg_ge52_add_ifma (projective)",
					  "vg_ge52_dbl_ifma"};
	const vg_ge52_niels *odd = vg_ge52_base_odd();
	for (int op = 0; op < 3; op++) {
		vg_checkasm_func(ops[op]);
		int n = vg_checkasm_iters() + 4;
		for (int i = 0; i < n && vg_checkasm_ok(); i++) {
			vg_ge_p3 P, Q, R;
			vg_ge4_p3 P4, Q4;
			vg_ge_completed c;
			rand_point(&P, &P4, i);
			_Alignas(64) uint8_t raw[VG_CHECKASM_OUT(sizeof(vg_ge52_p3))];
			vg_ge52_p3 *h = (vg_ge52_p3 *)vg_checkasm_guard(raw, sizeof(vg_ge52_p3));
			const vg_fe4 *c4[4] = {&P4.X, &P4.Y, &P4.Z, &P4.T};
			uint64_t r = vg_checkasm_rand64();
			for (unsigned l = 0; l < 4; l++) {
				vg_ge52_put(h->v, l, c4[l]);
				if (i > 3 && (r >> l & 3) != 0) /* 2^9 p: limbs < 2^61 */
					for (int k = 0; k < 5; k++)
						h->v[k][l] += (k == 0 ? (1ull << 51) - 19 : (1ull << 51) - 1) << 9;
			}
			if (op == 0) {
				int j = (int)(vg_checkasm_rand64() % 128);
				vg_checkasm_call(vg_ge52_add_ifma, h, &odd[j]);
				vg_ge_niels q = vg_ge_base_odd[j % 64];
				vg_ge_niels_cneg(&q, (uint64_t)(j >= 64));
				vg_ge_add_niels(&c, &P, &q);
			} else if (op == 1) {
				rand_point(&Q, &Q4, i == 1 ? 0 : i + 1);
				if (i == 2)
					Q = P, Q4 = P4; /* doubling through the addition */
				vg_ge52_niels q;
				vg_ge4_cached q4;
				vg_fe4 t;
				vg_fe4_add(&q4.ypx, &Q4.Y, &Q4.X);
				vg_fe4_sub(&q4.ymx, &Q4.Y, &Q4.X);
				vg_fe4 d2;
				vg_fe4_from_fe(&d2, &vg_fe_d2);
				vg_fe4_mul_base(&q4.t2d, &Q4.T, &d2);
				vg_fe4_add(&t, &Q4.Z, &Q4.Z);
				vg_ge52_put(q.v, 0, &q4.ymx);
				vg_ge52_put(q.v, 1, &q4.ypx);
				vg_ge52_put(q.v, 2, &q4.t2d);
				vg_ge52_put(q.v, 3, &t);
				vg_checkasm_call(vg_ge52_add_ifma, h, &q);
				vg_ge_cached qc;
				vg_ge_p3_to_cached(&qc, &Q);
				vg_ge_add_cached(&c, &P, &qc);
			} else {
				vg_checkasm_call(vg_ge52_dbl_ifma, h);
				vg_ge_p3_dbl(&c, &P);
			}
			if (!vg_checkasm_guard_ok(raw, sizeof(vg_ge52_p3)))
				break;
			vg_ge_completed_to_p3(&R, &c);
			vg_ge4_p3 g;
			vg_fe4 *g4[4] = {&g.X, &g.Y, &g.Z, &g.T};
			for (unsigned l = 0; l < 4; l++)
				vg_ge52_get(g4[l], h->v, l);
			check_point(&g, &R, 1, i);
		}
		vg_checkasm_func_done();
	}
}

/* The whole operations of a row of the family table (C glue + asm) against
 * row 0, the C reference, with guarded outputs and the harness's register
 * checks around the row's function. Fewer iterations: the C is slow. */
static void check_row(const struct vg_c25519_impl *im, const struct vg_c25519_impl *ref)
{
	char name[64];
	int n = vg_checkasm_iters() / 10;
	uint8_t raw[VG_CHECKASM_OUT(32)];

	snprintf(name, sizeof(name), "x25519 (%s row)", im->v.name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t s[32], u[32], want[32];
		vg_checkasm_rand_bytes(s, 32);
		vg_checkasm_rand_bytes(u, 32);
		if (i < NEDGE)
			memcpy(u, &edge[i], 32);
		uint8_t *got = vg_checkasm_guard(raw, 32);
		int z = (int)vg_checkasm_call(im->x25519, got, s, u);
		int zref = ref->x25519(want, s, u);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		vg_checkasm_guard_ok(raw, 32);
		if (z != zref)
			vg_checkasm_fail("zero flag %d, reference %d, i=%d", z, zref, i);
	}
	vg_checkasm_func_done();

	snprintf(name, sizeof(name), "x25519_base (%s row)", im->v.name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t s[32], want[32];
		vg_checkasm_rand_bytes(s, 32);
		uint8_t *got = vg_checkasm_guard(raw, 32);
		vg_checkasm_call(im->x25519_base, got, s);
		ref->x25519_base(want, s);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		vg_checkasm_guard_ok(raw, 32);
	}
	vg_checkasm_func_done();

	snprintf(name, sizeof(name), "base_encode [a]B (%s row)", im->v.name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t a[32], want[32];
		vg_checkasm_rand_bytes(a, 32);
		a[31] &= 127; /* any a < 2^255 */
		if (i == 0)
			memset(a, 0, 32); /* the identity */
		uint8_t *got = vg_checkasm_guard(raw, 32);
		vg_checkasm_call(im->base_encode, got, a);
		ref->base_encode(want, a);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		vg_checkasm_guard_ok(raw, 32);
	}
	vg_checkasm_func_done();

	snprintf(name, sizeof(name), "dsm_encode [a]A + [b]B (%s row)", im->v.name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t a[32], b[32], want[32];
		vg_ge_p3 A;
		vg_ge4_p3 A4;
		rand_point(&A, &A4, i);
		vg_checkasm_rand_bytes(a, 32);
		vg_checkasm_rand_bytes(b, 32);
		a[31] &= 127;
		b[31] &= 127;
		if (i == 1)
			memset(a, 0, 32); /* [b]B alone */
		if (i == 2)
			memset(b, 0, 32); /* [a]A alone */
		if (i == 3)
			memset(a, 0, 32), memset(b, 0, 32); /* the identity */
		uint8_t *got = vg_checkasm_guard(raw, 32);
		vg_checkasm_call(im->dsm_encode, got, a, &A, b);
		ref->dsm_encode(want, a, &A, b);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		vg_checkasm_guard_ok(raw, 32);
	}
	vg_checkasm_func_done();
}

int main(int argc, char **argv)
{
	vg_checkasm_init("c25519", argc, argv);
	if (vg_checkasm_tier("base", VG_TIER_BASE)) {
		check_binary("vg_fe4_mul_base", vg_fe4_mul_base, vg_fe_mul);
		check_unary("vg_fe4_sqr_base", vg_fe4_sqr_base, vg_fe_sq);
		check_sqrn("vg_fe4_sqrn_base", vg_fe4_sqrn_base);
		check_binary("vg_fe4_add", vg_fe4_add, vg_fe_add);
		check_binary("vg_fe4_sub", vg_fe4_sub, vg_fe_sub);
		check_unary("vg_fe4_mul_a24", vg_fe4_mul_a24, ref_a24);
		check_binary("vg_fe4_mul_a24_add", vg_fe4_mul_a24_add, ref_a24_add);
		check_addsub_w();
		/* C (divsteps, fe4_inv.c), but every tier's inversion: against
		 * Fermat's chain in fe.c, including 0, p, 2p - 1 and 2^256 - 1 */
		check_unary("vg_fe4_invert", vg_fe4_invert, vg_fe_invert);
		check_divsteps();
		check_inv_apply();
		check_ladder("vg_x25519_ladder_base", vg_x25519_ladder_base);
		check_comb("vg_ge4_comb_base", (combfn)vg_ge4_comb_base, vg_ge4_base_comb32(), 16);
		check_points("base", (gefn)vg_ge4_madd_base, (gefn)vg_ge4_add_base, vg_ge4_dbl_base,
			     vg_ge4_dbl_p2_base);
	}
	if (vg_checkasm_tier("adx", VG_TIER_ADX)) {
		check_binary("vg_fe4_mul_adx", vg_fe4_mul_adx, vg_fe_mul);
		check_unary("vg_fe4_sqr_adx", vg_fe4_sqr_adx, vg_fe_sq);
		check_sqrn("vg_fe4_sqrn_adx", vg_fe4_sqrn_adx);
		check_binary("vg_fe4_mul_a24_add_adx", vg_fe4_mul_a24_add_adx, ref_a24_add);
		check_a24_adx_bound();
		check_ladder("vg_x25519_ladder_adx", vg_x25519_ladder_adx);
		check_comb("vg_ge4_comb_adx", (combfn)vg_ge4_comb_adx, vg_ge4_base_comb32(), 16);
		check_points("adx", (gefn)vg_ge4_madd_adx, (gefn)vg_ge4_add_adx, vg_ge4_dbl_adx,
			     vg_ge4_dbl_p2_adx);
	}
	/* the radix-64 combs the base and adx rows take when the CPU has AVX */
	if (vg_checkasm_tier("base+avx", VG_TIER_BASE | VG_CPU_AVX))
		check_comb("vg_ge4_comb64_base", (combfn)vg_ge4_comb64_base, vg_ge4_base_comb64(),
			   32);
	if (vg_checkasm_tier("adx+avx", VG_TIER_ADX | VG_CPU_AVX))
		check_comb("vg_ge4_comb64_adx", (combfn)vg_ge4_comb64_adx, vg_ge4_base_comb64(),
			   32);
	if (vg_checkasm_tier("ifma", VG_TIER_IFMA)) {
		check_ladder("vg_x25519_ladder_ifma", vg_x25519_ladder_ifma);
		check_comb("vg_ge4_comb_ifma", (combfn)vg_ge4_comb_ifma, vg_ge52_base_comb(), 8);
		check_points52();
	}
	/* Every row of the family table the CPU can run, against row 0 (C). */
	for (size_t i = 1; i < vg_c25519_nimpls; i++)
		if (vg_checkasm_row(&vg_c25519_impls[i].v))
			check_row(&vg_c25519_impls[i], &vg_c25519_impls[0]);
	return vg_checkasm_finish();
}
