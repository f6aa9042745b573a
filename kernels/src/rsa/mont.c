/* mont.c: Montgomery multiplication, conversion and exponentiation (see
 * mont.h). Secret: the modulus when it is an RSA prime, its constants, the
 * operands and the exponent of vg_mont_exp_ct. Public: limb counts, the
 * exponent's bit length, and the exponent of vg_mont_exp_pub. */
#include "rsa/mont.h"

#include "ct.h"
#include "vg/wipe.h"

typedef unsigned __int128 u128;

void vg_mont_mul_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
		   uint64_t m0inv, size_t n)
{
	/* t < 2m after every round (t < 2m, a_i < 2^64, b < m, u < 2^64 give
	 * (t + a_i b + u m) / 2^64 < 2m), so n limbs plus one bit hold it. */
	uint64_t t[VG_BN_MAX_LIMBS + 1];

	for (size_t j = 0; j <= n; j++)
		t[j] = 0;
	for (size_t i = 0; i < n; i++) {
		/* One round: t = (t + a_i b + u m) / 2^64, where u = -(t_0 +
		 * a_i b_0) / m_0 mod 2^64 makes the low limb vanish. The two
		 * products run in one loop with separate carries (c1 for a_i b,
		 * c2 for u m), two independent chains the CPU can overlap. */
		uint64_t ai = a[i];
		u128 s1 = (u128)ai * b[0] + t[0];
		uint64_t u = (uint64_t)s1 * m0inv;
		u128 s2 = (u128)u * m[0] + (uint64_t)s1;
		uint64_t c1 = (uint64_t)(s1 >> 64), c2 = (uint64_t)(s2 >> 64);

		for (size_t j = 1; j < n; j++) {
			s1 = (u128)ai * b[j] + t[j] + c1;
			c1 = (uint64_t)(s1 >> 64);
			s2 = (u128)u * m[j] + (uint64_t)s1 + c2;
			c2 = (uint64_t)(s2 >> 64);
			t[j - 1] = (uint64_t)s2;
		}
		/* top: t_n + c1 + c2 < 2^65; t_n is 0 or 1 before and after */
		s1 = (u128)t[n] + c1 + c2;
		t[n - 1] = (uint64_t)s1;
		t[n] = (uint64_t)(s1 >> 64);
	}

	/* t < 2m: r = t - m unless that borrows past t's extra bit t[n]. Both
	 * are computed; the mask picks one. Written only now, so r may alias
	 * a or b. */
	uint64_t borrow = vg_bn_sub(r, t, m, n);
	vg_bn_ccopy(borrow & (t[n] ^ 1), r, t, n);
	vg_wipe(t, (n + 1) * sizeof(t[0]));
}

uint64_t vg_mont_m0inv(uint64_t m0)
{
	/* For odd m0, m0 * m0 = 1 mod 8: x = m0 is an inverse to 3 bits, and
	 * each step x = x (2 - m0 x) doubles the correct bits: 3, 6, 12, 24,
	 * 48, 96 >= 64. */
	uint64_t x = m0;

	for (int i = 0; i < 5; i++)
		x *= 2 - m0 * x;
	return (uint64_t)0 - x;
}

void vg_mont_rr(uint64_t *rr, const uint64_t *m, size_t n)
{
	/* R^2 = 2^(128 n). Doubling is slow (O(n^2) limb steps, ~64
	 * multiplications' worth) but constant time for a secret m, and runs
	 * once per key. */
	vg_bn_pow2_mod(rr, 128 * n, m, n);
}

void vg_mont_init(vg_mont *ctx, const uint64_t *m, const uint64_t *rr, uint64_t m0inv, size_t n)
{
	ctx->m = m;
	ctx->rr = rr;
	ctx->rrr = NULL;
	ctx->m0inv = m0inv;
	ctx->n = n;
	ctx->mul = vg_mont_mul_c;
	ctx->sqr = vg_mont_mul_c;
}

void vg_mont_add(const vg_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	/* a + b < 2m: subtract m once if the sum carried out or is >= m. */
	uint64_t carry = vg_bn_add(r, a, b, ctx->n);
	vg_bn_cond_sub(carry | (vg_bn_lt(r, ctx->m, ctx->n) ^ 1), r, ctx->m, ctx->n);
}

void vg_mont_sub(const vg_mont *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	/* a - b > -m: add m back once if it borrowed. */
	uint64_t borrow = vg_bn_sub(r, a, b, ctx->n);
	vg_bn_cond_add(borrow, r, ctx->m, ctx->n);
}

void vg_mont_from(const vg_mont *ctx, uint64_t *r, const uint64_t *a)
{
	uint64_t one[VG_BN_MAX_LIMBS] = {1};

	vg_mont_mul(ctx, r, a, one);
}

/* chunk[0..n) = a[j n .. j n + n) zero-extended past an (lengths public). */
static void take_chunk(uint64_t *chunk, const uint64_t *a, size_t an, size_t j, size_t n)
{
	for (size_t i = 0; i < n; i++)
		chunk[i] = j * n + i < an ? a[j * n + i] : 0;
}

void vg_mont_reduce(const vg_mont *ctx, uint64_t *rM, const uint64_t *a, size_t an)
{
	size_t n = ctx->n;
	size_t chunks = (an + n - 1) / n; /* public lengths only */
	uint64_t chunk[VG_BN_MAX_LIMBS], t[VG_BN_MAX_LIMBS];

	if (chunks == 0) {
		for (size_t i = 0; i < n; i++)
			rM[i] = 0;
		return;
	}
	/* A chunk may exceed m: the multiply accepts any a < R when b < m. */
	take_chunk(chunk, a, an, chunks - 1, n);
	if (chunks == 2 && ctx->rrr) {
		/* a = hi R + lo: hi R^3 R^-1 + lo R^2 R^-1 */
		vg_mont_mul(ctx, t, chunk, ctx->rrr);
		vg_mont_mul(ctx, rM, a, ctx->rr);
		vg_mont_add(ctx, rM, rM, t);
	} else {
		/* Invariant: rM = (the chunks from j up) * R mod m. Multiplying
		 * by R^2 then R^-1 shifts that up by one chunk (times R); the
		 * next chunk enters as chunk * R^2 * R^-1. */
		vg_mont_mul(ctx, rM, chunk, ctx->rr);
		for (size_t j = chunks - 1; j-- > 0;) {
			take_chunk(chunk, a, an, j, n);
			vg_mont_mul(ctx, rM, rM, ctx->rr);
			vg_mont_mul(ctx, t, chunk, ctx->rr);
			vg_mont_add(ctx, rM, rM, t);
		}
	}
	vg_wipe(chunk, sizeof(chunk));
	vg_wipe(t, sizeof(t));
}

#define TABLE_SIZE (1u << VG_MONT_WINDOW)

/* r = table[idx], reading every entry and keeping one under a mask, so
 * neither the branch pattern nor the addresses touched depend on idx.
 * Two limbs as one value of GCC's generic vectors: an SSE2 register on
 * x86-64 (every tier has SSE2), two words elsewhere. Sixteen limbs of
 * every entry at once (eight accumulators), the mask of an entry made by
 * a vector compare of its number with idx (four 32-bit lanes: equal in
 * all or in none, as idx < 2^32): 0.58-0.64 of the time of eight limbs a
 * pass with the masks made in the integer unit (16 to 64 limbs, Zen 4);
 * that was about 4 % of an RSA-2048 private operation at adx. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) void
select_run(uint64_t *r, uint64_t table[TABLE_SIZE][VG_BN_MAX_LIMBS], u32x4 want, size_t j,
	   size_t k)
{
	u64x2 acc[8] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
	u32x4 cnt = {0, 0, 0, 0}, one = {1, 1, 1, 1};

	for (size_t i = 0; i < TABLE_SIZE; i++) {
		u64x2 m = (u64x2)(cnt == want);
#pragma GCC unroll 8
		for (size_t v = 0; v < k; v++) {
			u64x2 t;
			__builtin_memcpy(&t, &table[i][j + 2 * v], sizeof(t));
			acc[v] |= t & m;
		}
		cnt += one;
	}
#pragma GCC unroll 8
	for (size_t v = 0; v < k; v++)
		__builtin_memcpy(&r[j + 2 * v], &acc[v], sizeof(acc[v]));
}

static void table_select(uint64_t *r, uint64_t table[TABLE_SIZE][VG_BN_MAX_LIMBS], uint64_t idx,
			 size_t n)
{
	uint32_t i32 = (uint32_t)idx; /* idx < TABLE_SIZE */
	u32x4 want = {i32, i32, i32, i32};
	size_t j = 0;

	for (; j + 16 <= n; j += 16)
		select_run(r, table, want, j, 8);
	for (; j + 8 <= n; j += 8)
		select_run(r, table, want, j, 4);
	for (; j < n; j++) {
		uint64_t acc = 0;
		for (uint64_t i = 0; i < TABLE_SIZE; i++)
			acc |= table[i][j] & vg_ct_barrier(vg_ct_mask(vg_ct_eq(i, idx)));
		r[j] = acc;
	}
}

void vg_mont_exp_ct(const vg_mont *ctx, uint64_t *rM, const uint64_t *aM, const uint64_t *e,
		    size_t ebits)
{
	size_t n = ctx->n;
	size_t windows = (ebits + VG_MONT_WINDOW - 1) / VG_MONT_WINDOW;
	uint64_t table[TABLE_SIZE][VG_BN_MAX_LIMBS];
	uint64_t acc[VG_BN_MAX_LIMBS], sel[VG_BN_MAX_LIMBS];
	uint64_t one[VG_BN_MAX_LIMBS] = {1};

	/* table[i] = a^i in Montgomery form; table[0] = R mod m. */
	vg_mont_mul(ctx, table[0], ctx->rr, one);
	/* table[1] = aM reduced below m (times R R^-1), as the squarings
	 * of the accumulator need. The even entries are squares (a squaring
	 * costs ~0.85 of a multiply at adx and base). */
	vg_mont_mul(ctx, table[1], aM, table[0]);
	for (size_t i = 2; i < TABLE_SIZE; i++) {
		if (i % 2 == 0) /* public */
			vg_mont_sqr(ctx, table[i], table[i / 2]);
		else
			vg_mont_mul(ctx, table[i], table[i - 1], table[1]);
	}

	/* The top window seeds the accumulator; then, per window, square
	 * VG_MONT_WINDOW times and multiply by the selected entry (always,
	 * even by table[0]). Only the public window count shapes the loop. */
	if (windows == 0) {
		for (size_t j = 0; j < n; j++)
			acc[j] = table[0][j];
	} else {
		table_select(acc, table,
			     vg_bn_window(e, VG_MONT_WINDOW * (windows - 1), ebits, VG_MONT_WINDOW),
			     n);
		for (size_t w = windows - 1; w-- > 0;) {
			for (int s = 0; s < VG_MONT_WINDOW; s++)
				vg_mont_sqr(ctx, acc, acc); /* acc < m: a product */
			table_select(sel, table,
				     vg_bn_window(e, VG_MONT_WINDOW * w, ebits, VG_MONT_WINDOW), n);
			vg_mont_mul(ctx, acc, acc, sel);
		}
	}
	for (size_t j = 0; j < n; j++)
		rM[j] = acc[j];
	/* only the n limbs of each entry were written */
	for (size_t i = 0; i < TABLE_SIZE; i++)
		vg_wipe(table[i], n * sizeof(table[i][0]));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(sel, sizeof(sel));
}

void vg_mont_exp_pub_plain(const vg_mont *ctx, uint64_t *r, const uint64_t *aM, const uint64_t *a,
			   uint64_t e)
{
	size_t n = ctx->n;
	int top = 63 - __builtin_clzll(e | 1); /* >= 1: e >= 3 */

	for (size_t j = 0; j < n; j++)
		r[j] = aM[j];
	/* r = a^(e >> i) R after the step for bit i, down to i = 1 */
	for (int i = top; i-- > 1;) {
		vg_mont_sqr(ctx, r, r);
		if ((e >> i) & 1) /* e is public */
			vg_mont_mul(ctx, r, r, aM);
	}
	/* bit 0 is set: a^(e-1) R a R^-1 = a^e */
	vg_mont_sqr(ctx, r, r);
	vg_mont_mul(ctx, r, r, a);
}

void vg_mont_exp_pub(const vg_mont *ctx, uint64_t *rM, const uint64_t *aM, uint64_t e)
{
	size_t n = ctx->n;
	uint64_t base[VG_BN_MAX_LIMBS], acc[VG_BN_MAX_LIMBS];
	int top = 63 - __builtin_clzll(e | 1);

	for (size_t j = 0; j < n; j++)
		base[j] = acc[j] = aM[j];
	for (int i = top; i-- > 0;) {
		vg_mont_mul(ctx, acc, acc, acc);
		if ((e >> i) & 1) /* e is public */
			vg_mont_mul(ctx, acc, acc, base);
	}
	for (size_t j = 0; j < n; j++)
		rM[j] = acc[j];
	/* The base may be a secret result under test (the fault check). */
	vg_wipe(base, sizeof(base));
	vg_wipe(acc, sizeof(acc));
}
