/* checkasm_c25519.c: every c25519 assembly function, on every tier this
 * CPU has, against the portable C reference (fe.c, x25519.c, ge_base.c):
 * >= 10,000 random inputs plus edge values (0, 1, p-1, p, p+1, 2^255-1,
 * 2^256-1 and neighbours: the asm accepts any value below 2^256), with
 * sentinel-guarded outputs and the harness's register/stack checks.
 * Nothing here is secret. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c25519/c25519_impl.h"
#include "c25519/fe.h"
#include "c25519/fe4.h"
#include "c25519/ge.h"
#include "checkasm.h"
#include "cpu_internal.h"
#include "vg/ed25519.h"
#include "vg/x25519.h"

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

/* The whole operations of a tier (C glue + asm) against the C reference,
 * selected with VG_KERNELS=c. Fewer iterations: they are slow in C. */
static void check_ops(const struct vg_c25519_impl *im)
{
	char name[64];
	int n = vg_checkasm_iters() / 10;

	snprintf(name, sizeof(name), "x25519 (%s glue)", im->name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t s[32], u[32], got[32], want[32];
		vg_checkasm_rand_bytes(s, 32);
		vg_checkasm_rand_bytes(u, 32);
		if (i < NEDGE)
			memcpy(u, &edge[i], 32);
		int z = im->x25519(got, s, u);
		int rc = vg_x25519(want, s, u); /* C: VG_KERNELS=c */
		vg_checkasm_eq(got, want, 32, "i=%d", i);
		if ((z != 0) != (rc != 0))
			vg_checkasm_fail("zero flag %d vs status %d, i=%d", z, rc, i);
	}
	vg_checkasm_func_done();

	snprintf(name, sizeof(name), "x25519_base (%s glue)", im->name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t s[32], got[32], want[32];
		vg_checkasm_rand_bytes(s, 32);
		im->x25519_base(got, s);
		vg_x25519_base(want, s);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
	}
	vg_checkasm_func_done();

	snprintf(name, sizeof(name), "[a]B encoded (%s glue)", im->name);
	vg_checkasm_func(name);
	for (int i = 0; i < n && vg_checkasm_ok(); i++) {
		uint8_t a[32], got[32], want[32];
		vg_ge_p3 P;
		vg_checkasm_rand_bytes(a, 32);
		a[31] &= 127; /* any a < 2^255 */
		if (i == 0)
			memset(a, 0, 32); /* the identity */
		im->base_encode(got, a);
		vg_ge_scalarmult_base(&P, a);
		vg_ge_p3_tobytes(want, &P);
		vg_checkasm_eq(got, want, 32, "i=%d", i);
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
		check_ladder("vg_x25519_ladder_base", vg_x25519_ladder_base);
	}
	if (vg_checkasm_tier("adx", VG_TIER_ADX)) {
		check_binary("vg_fe4_mul_adx", vg_fe4_mul_adx, vg_fe_mul);
		check_unary("vg_fe4_sqr_adx", vg_fe4_sqr_adx, vg_fe_sq);
		check_sqrn("vg_fe4_sqrn_adx", vg_fe4_sqrn_adx);
		check_ladder("vg_x25519_ladder_adx", vg_x25519_ladder_adx);
	}
	/* The tiers' C glue around the asm, against the C path. */
	setenv("VG_KERNELS", "c", 1);
	vg_cpu_force_for_tests(vg_cpu_features()); /* re-dispatch: now C */
	if (vg_c25519_impl() != NULL)
		vg_checkasm_fail("VG_KERNELS=c did not select the C reference");
	if (vg_checkasm_tier("base", VG_TIER_BASE))
		check_ops(&vg_c25519_impl_base);
	if (vg_checkasm_tier("adx", VG_TIER_ADX))
		check_ops(&vg_c25519_impl_adx);
	return vg_checkasm_finish();
}
