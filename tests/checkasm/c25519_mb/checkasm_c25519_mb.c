/* checkasm_c25519_mb.c: the c25519_mb family table (vg_c25519_mb_impls,
 * c25519_mb_impl.h): every row the CPU can run, each function against the
 * same slot of row 0, the C reference (fe.c lane by lane), at every lane
 * count 1..8 (lanes in use random, the rest idle, all zero, as the batch
 * glue leaves them). Edge inputs go into one lane, moving through every
 * position, beside random ones in the others:
 *  - multiply and squarings: field values 0, 1, p - 1, p, p + 1, 2p - 1,
 *    2^255 - 1, 19, and every limb 2^52 - 1 or 2^51 - 1 (the contract's
 *    limit); compared mod p (fe.c's canonical bytes), outputs checked
 *    below the contract's 2^52 per limb; in place too;
 *  - ladder: u = 0, 1, p - 1, p, p + 1, 2^255 - 1 and the low-order
 *    points of order 4 and 8, scalars all-ones, zero and one before
 *    clamping; compared as ratios x2 / z2 (x2 z2' = x2' z2 and z2 = 0
 *    together), limbs below 2^52;
 *  - the whole batch (x25519_mb.c over the row) against the single C
 *    X25519, byte for byte, with its all-zero flags;
 *  - the fixed-base comb: digit strings all 0, all 8, all -8, alternating
 *    8 / -8, one digit set, and the recodings of the scalars 0, 1, L - 1
 *    and 2^255 - 1, beside random scalars' digits; compared as ratios
 *    X / Z and Y / Z, limbs below 2^52; and the Ed25519 encoding glue
 *    (ed25519_mb.c over the row) against the single C base_encode.
 * Outputs into sentinel-guarded buffers; callee-saved registers and the
 * stack are checked by the trampoline. Nothing secret: test data. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c25519/c25519_impl.h"
#include "c25519/c25519_mb_impl.h"
#include "c25519/fe.h"
#include "c25519/ge_table.h"
#include "checkasm.h"

#define LANES VG_C25519_MB_LANES
#define W VG_FE51MB_WORDS
#define M51 (((uint64_t)1 << 51) - 1)
#define M52 (((uint64_t)1 << 52) - 1)

/* Field edges as 5 x 51-bit limbs (limb 4 may use bit 51). */
#define NFEDGE 10
static void fe_edge(uint64_t v[5], int k)
{
	static const uint64_t p[5] = {M51 - 18, M51, M51, M51, M51};
	memset(v, 0, 5 * 8);
	switch (k) {
	case 0: /* 0 */
		break;
	case 1: /* 1 */
		v[0] = 1;
		break;
	case 2: /* p - 1 */
	case 3: /* p */
	case 4: /* p + 1 */
		memcpy(v, p, sizeof(p));
		v[0] += (uint64_t)k - 3;
		break;
	case 5: /* 2p - 1: limbs doubled, as an unreduced sum would leave them */
		for (int i = 0; i < 5; i++)
			v[i] = 2 * p[i];
		v[0] -= 1;
		break;
	case 6: /* 2^255 - 1 */
		for (int i = 0; i < 5; i++)
			v[i] = M51;
		break;
	case 7: /* 19 */
		v[0] = 19;
		break;
	case 8: /* every limb at the contract's limit */
		for (int i = 0; i < 5; i++)
			v[i] = M52;
		break;
	default: /* every limb 2^51 exactly (a carried limb's top) */
		for (int i = 0; i < 5; i++)
			v[i] = (uint64_t)1 << 51;
		break;
	}
}

static void rand_fe(uint64_t v[5])
{
	for (int i = 0; i < 5; i++)
		v[i] = vg_checkasm_rand64() & M52;
}

static void put(uint64_t *x, size_t l, const uint64_t v[5])
{
	for (size_t i = 0; i < 5; i++)
		x[LANES * i + l] = v[i];
}

static void get(vg_fe *f, const uint64_t *x, size_t l)
{
	for (size_t i = 0; i < 5; i++)
		f->v[i] = x[LANES * i + l];
}

/* nl lanes of f with lane pos an edge (k >= 0) or random (k < 0). */
static void fill(uint64_t *x, size_t nl, size_t pos, int k)
{
	uint64_t v[5];
	memset(x, 0, W * 8);
	for (size_t l = 0; l < nl; l++) {
		if (l == pos && k >= 0)
			fe_edge(v, k);
		else
			rand_fe(v);
		put(x, l, v);
	}
}

/* got and want agree mod p in every lane, got's limbs below 2^52. */
static int same_values(const uint64_t *got, const uint64_t *want, const char *what, size_t nl,
		       int it)
{
	for (size_t l = 0; l < LANES; l++) {
		vg_fe a, b;
		uint8_t ga[32], wb[32];
		get(&a, got, l);
		get(&b, want, l);
		for (int i = 0; i < 5; i++)
			if (a.v[i] > M52) {
				vg_checkasm_fail("%s lanes=%zu it=%d lane %zu limb %d above 2^52",
						 what, nl, it, l, i);
				return 0;
			}
		vg_fe_tobytes(ga, &a);
		vg_fe_tobytes(wb, &b);
		if (!vg_checkasm_eq(ga, wb, 32, "%s lanes=%zu it=%d lane %zu", what, nl, it, l))
			return 0;
	}
	return 1;
}

static int mul_one(vg_fe51mb_mul_fn *fn, vg_fe51mb_mul_fn *ref, const uint64_t *f,
		   const uint64_t *g, size_t nl, int it)
{
	uint64_t want[W], x[W];
	uint8_t raw[VG_CHECKASM_OUT(W * 8)];
	uint8_t *out = vg_checkasm_guard(raw, W * 8);

	ref(want, f, g);
	vg_checkasm_call(fn, (uint64_t *)(void *)out, f, g);
	memcpy(x, out, sizeof(x));
	if (!vg_checkasm_guard_ok(raw, W * 8) || !same_values(x, want, "mul", nl, it))
		return 0;
	memcpy(x, f, sizeof(x));
	vg_checkasm_call(fn, x, x, g);
	if (!same_values(x, want, "mul (h = f)", nl, it))
		return 0;
	memcpy(x, g, sizeof(x));
	vg_checkasm_call(fn, x, f, x);
	return same_values(x, want, "mul (h = g)", nl, it);
}

static void check_mul(vg_fe51mb_mul_fn *fn, vg_fe51mb_mul_fn *ref)
{
	uint64_t f[W], g[W];
	int iters = vg_checkasm_iters() / LANES;

	for (size_t nl = 1; nl <= LANES; nl++) {
		for (size_t pos = 0; pos < nl; pos++)
			for (int k = 0; k < NFEDGE; k++)
				for (int kg = -1; kg < NFEDGE; kg++) {
					fill(f, nl, pos, k);
					fill(g, nl, pos, kg);
					if (!mul_one(fn, ref, f, g, nl, k * 100 + kg))
						return;
				}
		for (int it = 0; it < iters; it++) {
			fill(f, nl, 0, -1);
			fill(g, nl, 0, -1);
			if (!mul_one(fn, ref, f, g, nl, it))
				return;
		}
	}
}

static void check_sqrn(vg_fe51mb_sqrn_fn *fn, vg_fe51mb_sqrn_fn *ref)
{
	static const size_t ns[6] = {1, 2, 5, 10, 50, 100};
	uint64_t f[W], want[W], x[W];
	uint8_t raw[VG_CHECKASM_OUT(W * 8)];
	int iters = vg_checkasm_iters() / LANES / 10;

	for (size_t nl = 1; nl <= LANES; nl++)
		for (int it = 0; it < (int)nl * NFEDGE + iters; it++) {
			size_t n = ns[it % 6];
			int k = it < (int)nl * NFEDGE ? it % NFEDGE : -1;
			fill(f, nl, (size_t)it / NFEDGE % nl, k);
			ref(want, f, n);
			uint8_t *out = vg_checkasm_guard(raw, W * 8);
			vg_checkasm_call(fn, (uint64_t *)(void *)out, f, n);
			memcpy(x, out, sizeof(x));
			if (!vg_checkasm_guard_ok(raw, W * 8) ||
			    !same_values(x, want, "sqrn", nl, it))
				return;
			memcpy(x, f, sizeof(x));
			vg_checkasm_call(fn, x, x, n);
			if (!same_values(x, want, "sqrn (h = f)", nl, it))
				return;
		}
}

/* Point edges as bytes: 0, 1, p - 1, p, p + 1, 2^255 - 1 (bit 255 set
 * too: masked), and the points of order 8 and 4 (RFC 7748's low-order
 * list; 0 and 1 above are of order 4 and 1... and p, p + 1 alias them). */
#define NPEDGE 9
static void point_edge(uint8_t u[32], int k)
{
	static const uint8_t o8a[32] = {0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae,
					0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f, 0xc4, 0x6a,
					0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd,
					0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00};
	static const uint8_t o8b[32] = {0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24,
					0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83, 0xef, 0x5b,
					0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86,
					0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57};
	memset(u, 0, 32);
	switch (k) {
	case 0:
		break;
	case 1:
		u[0] = 1;
		break;
	case 2: /* p - 1, p, p + 1 */
	case 3:
	case 4:
		memset(u, 0xff, 32);
		u[31] = 0x7f;
		u[0] = (uint8_t)(0xed + k - 3);
		break;
	case 5:
		memset(u, 0xff, 32);
		break;
	case 6:
		memcpy(u, o8a, 32);
		break;
	case 7:
		memcpy(u, o8b, 32);
		break;
	default: /* 9 with bit 255 set */
		u[0] = 9;
		u[31] = 0x80;
		break;
	}
}

#define NSEDGE 3
static void scalar_edge(uint8_t s[32], int k)
{
	memset(s, k == 0 ? 0xff : 0, 32);
	if (k == 2)
		s[0] = 1;
}

/* The clamped scalar and u of a lane, packed as the glue packs them. */
static void pack(uint64_t *e, uint64_t *x1, size_t l, const uint8_t s[32], const uint8_t u[32])
{
	uint8_t c[32];
	vg_fe f;
	memcpy(c, s, 32);
	c[0] &= 248;
	c[31] &= 127;
	c[31] |= 64;
	for (size_t w = 0; w < 4; w++) {
		uint64_t x = 0;
		for (int j = 7; j >= 0; j--)
			x = x << 8 | c[8 * w + (size_t)j];
		e[LANES * w + l] = x;
	}
	vg_fe_frombytes(&f, u);
	put(x1, l, f.v);
}

struct ops {
	uint8_t s[LANES][32], u[LANES][32];
};

/* nl random lanes with lane pos's scalar and point edges ks and ku (< 0:
 * random). */
static void rand_ops(struct ops *o, size_t nl, size_t pos, int ks, int ku)
{
	memset(o, 0, sizeof(*o));
	for (size_t l = 0; l < nl; l++) {
		vg_checkasm_rand_bytes(o->s[l], 32);
		vg_checkasm_rand_bytes(o->u[l], 32);
	}
	if (ks >= 0)
		scalar_edge(o->s[pos], ks);
	if (ku >= 0)
		point_edge(o->u[pos], ku);
}

static int ladder_one(vg_x25519mb_ladder_fn *fn, vg_x25519mb_ladder_fn *ref, const struct ops *o,
		      size_t nl, int it)
{
	uint64_t e[4 * LANES] = {0}, x1[W] = {0}, want[2 * W], got[2 * W];
	uint8_t raw[VG_CHECKASM_OUT(2 * W * 8)];

	for (size_t l = 0; l < nl; l++)
		pack(e, x1, l, o->s[l], o->u[l]);
	ref(want, e, x1);
	uint8_t *out = vg_checkasm_guard(raw, 2 * W * 8);
	vg_checkasm_call(fn, (uint64_t *)(void *)out, e, x1);
	memcpy(got, out, sizeof(got));
	if (!vg_checkasm_guard_ok(raw, 2 * W * 8))
		return 0;
	for (size_t l = 0; l < LANES; l++) {
		vg_fe xa, za, xc, zc, p, q;
		uint8_t pb[32], qb[32], zflags[2];
		get(&xa, got, l);
		get(&za, got + W, l);
		get(&xc, want, l);
		get(&zc, want + W, l);
		for (int i = 0; i < 5; i++)
			if (xa.v[i] > M52 || za.v[i] > M52) {
				vg_checkasm_fail("ladder lanes=%zu it=%d lane %zu: limb above 2^52",
						 nl, it, l);
				return 0;
			}
		vg_fe_mul(&p, &xa, &zc);
		vg_fe_mul(&q, &xc, &za);
		vg_fe_tobytes(pb, &p);
		vg_fe_tobytes(qb, &q);
		zflags[0] = (uint8_t)vg_fe_iszero(&za);
		zflags[1] = (uint8_t)vg_fe_iszero(&zc);
		if (!vg_checkasm_eq(pb, qb, 32, "ladder lanes=%zu it=%d lane %zu: x2/z2", nl, it,
				    l) ||
		    !vg_checkasm_eq(&zflags[0], &zflags[1], 1,
				    "ladder lanes=%zu it=%d lane %zu: z2 = 0", nl, it, l))
			return 0;
	}
	return 1;
}

static void check_ladder(vg_x25519mb_ladder_fn *fn, vg_x25519mb_ladder_fn *ref)
{
	struct ops o;
	int iters = vg_checkasm_iters() / 1000; /* the C reference is slow */

	for (size_t nl = 1; nl <= LANES; nl++) {
		for (size_t pos = 0; pos < nl; pos++) {
			for (int k = 0; k < NPEDGE; k++) {
				rand_ops(&o, nl, pos, -1, k);
				if (!ladder_one(fn, ref, &o, nl, k))
					return;
			}
			for (int k = 0; k < NSEDGE; k++) {
				rand_ops(&o, nl, pos, k, (int)(pos + (size_t)k) % NPEDGE);
				if (!ladder_one(fn, ref, &o, nl, 100 + k))
					return;
			}
		}
		for (int it = 0; it < iters; it++) {
			rand_ops(&o, nl, 0, -1, -1);
			if (!ladder_one(fn, ref, &o, nl, 1000 + it))
				return;
		}
	}
}

/* The glue over row im against the single C X25519 of every lane. */
static void check_batch(const struct vg_c25519_mb_impl *im)
{
	struct ops o;
	uint8_t got[LANES][32], want[32];
	uint8_t *outp[LANES];
	const uint8_t *sp[LANES], *up[LANES];

	for (size_t nl = 1; nl <= LANES; nl++)
		for (size_t pos = 0; pos < nl; pos++)
			for (int k = 0; k < NPEDGE; k++) {
				rand_ops(&o, nl, pos, k % 4 < NSEDGE ? k % 4 : -1, k);
				for (size_t l = 0; l < nl; l++) {
					outp[l] = got[l];
					sp[l] = o.s[l];
					up[l] = o.u[l];
				}
				memset(got, 0xa5, sizeof(got));
				unsigned zero = vg_x25519_mb_batch(im, outp, sp, up, nl);
				for (size_t l = 0; l < nl; l++) {
					uint8_t zw =
						(uint8_t)vg_c25519_x25519_c(want, o.s[l], o.u[l]);
					uint8_t zg = (uint8_t)((zero >> l) & 1);
					if (!vg_checkasm_eq(got[l], want, 32,
							    "batch lanes=%zu pos=%zu k=%d lane %zu",
							    nl, pos, k, l) ||
					    !vg_checkasm_eq(&zg, &zw, 1,
							    "batch flag lanes=%zu lane %zu", nl, l))
						return;
				}
				uint8_t none = (uint8_t)(zero >> nl), z = 0;
				if (!vg_checkasm_eq(&none, &z, 1,
						    "batch flags of idle lanes, lanes=%zu", nl))
					return;
			}
}

/* ge_base.c's recoding of a < 2^255 into 64 signed digits. */
static void recode(int8_t d[64], const uint8_t a[32])
{
	for (unsigned i = 0; i < 32; i++) {
		d[2 * i] = (int8_t)(a[i] & 15);
		d[2 * i + 1] = (int8_t)(a[i] >> 4);
	}
	int carry = 0;
	for (unsigned i = 0; i < 63; i++) {
		int x = d[i] + carry;
		carry = (x + 8) >> 4;
		d[i] = (int8_t)(x - 16 * carry);
	}
	d[63] = (int8_t)(d[63] + carry);
}

static void rand_scalar(uint8_t a[32])
{
	vg_checkasm_rand_bytes(a, 32);
	a[31] &= 127;
}

/* Digit edge k (0..8) into d; scalars through recode. */
#define NDEDGE 9
static void digit_edge(int8_t d[64], int k)
{
	static const uint8_t lm1[32] = {0xec, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
					0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
					0,    0,    0,    0,    0,    0,    0,    0,
					0,    0,    0,    0,    0,    0,    0,    0x10};
	uint8_t a[32] = {0};
	for (int i = 0; i < 64; i++)
		d[i] = k == 1 ? 8 : k == 2 ? -8 : k == 3 ? (i & 1 ? -8 : 8) : 0;
	if (k == 4)
		d[vg_checkasm_rand64() % 64] = (int8_t)(vg_checkasm_rand64() % 17) - 8;
	if (k == 5 || k == 6) {
		a[0] = k == 6; /* 0, 1 */
		recode(d, a);
	}
	if (k == 7)
		recode(d, lm1); /* L - 1 */
	if (k == 8) {
		memset(a, 0xff, 32);
		a[31] = 0x7f; /* 2^255 - 1 */
		recode(d, a);
	}
}

static int comb_one(vg_ge51mb_comb_fn *fn, vg_ge51mb_comb_fn *ref, const int8_t *e, size_t nl,
		    int it)
{
	uint64_t want[3 * W], got[3 * W];
	uint8_t raw[VG_CHECKASM_OUT(3 * W * 8)];

	ref(want, vg_ge_base_comb, e);
	uint8_t *out = vg_checkasm_guard(raw, 3 * W * 8);
	vg_checkasm_call(fn, (uint64_t *)(void *)out, vg_ge_base_comb, e);
	memcpy(got, out, sizeof(got));
	if (!vg_checkasm_guard_ok(raw, 3 * W * 8))
		return 0;
	for (size_t l = 0; l < LANES; l++) {
		vg_fe ga[3], wc[3], p, q;
		uint8_t pb[32], qb[32];
		for (int c = 0; c < 3; c++) {
			get(&ga[c], got + c * W, l);
			get(&wc[c], want + c * W, l);
			for (int i = 0; i < 5; i++)
				if (ga[c].v[i] > M52) {
					vg_checkasm_fail(
						"comb lanes=%zu it=%d lane %zu: limb above 2^52",
						nl, it, l);
					return 0;
				}
		}
		for (int c = 0; c < 2; c++) { /* X / Z, then Y / Z */
			vg_fe_mul(&p, &ga[c], &wc[2]);
			vg_fe_mul(&q, &wc[c], &ga[2]);
			vg_fe_tobytes(pb, &p);
			vg_fe_tobytes(qb, &q);
			if (!vg_checkasm_eq(pb, qb, 32,
					    "comb lanes=%zu it=%d lane %zu coordinate %d", nl, it,
					    l, c))
				return 0;
		}
		uint8_t zz = (uint8_t)vg_fe_iszero(&ga[2]), zero = 0;
		if (!vg_checkasm_eq(&zz, &zero, 1, "comb lanes=%zu it=%d lane %zu: Z = 0", nl, it,
				    l))
			return 0;
	}
	return 1;
}

static void check_comb(vg_ge51mb_comb_fn *fn, vg_ge51mb_comb_fn *ref)
{
	int8_t e[64 * LANES], d[64];
	uint8_t a[32];
	int iters = vg_checkasm_iters() / 500; /* the C reference is slow */

	for (size_t nl = 1; nl <= LANES; nl++)
		for (int it = 0; it < (int)nl * NDEDGE + iters; it++) {
			size_t pos = (size_t)it / NDEDGE % nl;
			memset(e, 0, sizeof(e));
			for (size_t l = 0; l < nl; l++) {
				rand_scalar(a);
				recode(d, a);
				if (l == pos && it < (int)nl * NDEDGE)
					digit_edge(d, it % NDEDGE);
				for (int i = 0; i < 64; i++)
					e[LANES * i + l] = d[i];
			}
			if (!comb_one(fn, ref, e, nl, it))
				return;
		}
}

/* The Ed25519 encoding glue over row im against the C base_encode. */
static void check_encode(const struct vg_c25519_mb_impl *im)
{
	uint8_t a[LANES][32], got[LANES][32], want[32];
	uint8_t *outp[LANES];
	const uint8_t *ap[LANES];

	for (size_t nl = 1; nl <= LANES; nl++)
		for (size_t pos = 0; pos < nl; pos++)
			for (int k = 0; k < 4; k++) {
				for (size_t l = 0; l < nl; l++) {
					rand_scalar(a[l]);
					outp[l] = got[l];
					ap[l] = a[l];
				}
				memset(a[pos], k == 3 ? 0xff : 0, 32);
				a[pos][31] &= 0x7f;
				a[pos][0] |= (uint8_t)(k == 1); /* 0, 1, 2^255 - 1 below */
				if (k == 2)
					rand_scalar(a[pos]);
				memset(got, 0xa5, sizeof(got));
				vg_ed25519_mb_base_encode(im, outp, ap, nl);
				for (size_t l = 0; l < nl; l++) {
					vg_c25519_base_encode_c(want, a[l]);
					if (!vg_checkasm_eq(
						    got[l], want, 32,
						    "encode lanes=%zu pos=%zu k=%d lane %zu", nl,
						    pos, k, l))
						return;
				}
			}
}

int main(int argc, char **argv)
{
	const struct vg_c25519_mb_impl *c = &vg_c25519_mb_impls[0];
	char name[96];

	vg_checkasm_init("c25519_mb", argc, argv);
	for (size_t i = 1; i < vg_c25519_mb_nimpls; i++) {
		const struct vg_c25519_mb_impl *im = &vg_c25519_mb_impls[i];
		if (!vg_checkasm_row(&im->v))
			continue;
		if (im->mul != c->mul) {
			snprintf(name, sizeof(name), "fe51mb mul (%s row)", im->v.name);
			vg_checkasm_func(name);
			check_mul(im->mul, c->mul);
			vg_checkasm_func_done();
		}
		if (im->sqrn != c->sqrn) {
			snprintf(name, sizeof(name), "fe51mb sqrn (%s row)", im->v.name);
			vg_checkasm_func(name);
			check_sqrn(im->sqrn, c->sqrn);
			vg_checkasm_func_done();
		}
		if (im->ladder != c->ladder) {
			snprintf(name, sizeof(name), "x25519mb ladder (%s row)", im->v.name);
			vg_checkasm_func(name);
			check_ladder(im->ladder, c->ladder);
			vg_checkasm_func_done();
		}
		if (im->comb != c->comb) {
			snprintf(name, sizeof(name), "ge51mb comb (%s row)", im->v.name);
			vg_checkasm_func(name);
			check_comb(im->comb, c->comb);
			vg_checkasm_func_done();
		}
		snprintf(name, sizeof(name), "ed25519 encode glue (%s row)", im->v.name);
		vg_checkasm_func(name);
		check_encode(im);
		vg_checkasm_func_done();
		snprintf(name, sizeof(name), "x25519 batch glue (%s row)", im->v.name);
		vg_checkasm_func(name);
		check_batch(im);
		vg_checkasm_func_done();
	}
	return vg_checkasm_finish();
}
