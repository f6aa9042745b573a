/* checkasm_rsa.c: the RSA family table (vg_rsa_impls, rsa_impl.h): every
 * row the CPU can run, each slot against the same slot of row 0, the C
 * reference (a slot that is row 0's own function, or was checked in an
 * earlier row, is not checked again). The Montgomery multiplies on every
 * size, on random operands and the edge operands 0, 1, m-1, the largest
 * value below m with all lower limbs 2^64-1, and R-1 (a may be any value
 * below R); outputs in sentinel-guarded buffers, also written in place over
 * a or b; the squarings on a < m; callee-saved registers and the stack
 * checked by the harness's trampoline. The radix-2^52 "almost Montgomery"
 * multiplies (paired and single, also squaring in place) on operands below
 * 2m (their contract) including m, m+1 and 2m-1, and a < m with any b
 * below 2^(52 L) (the input's reduction), the paired windows
 * (squarings and a multiply in one call; the squarings also on radix-2^52
 * digit patterns: every digit 2^52-1, bit 51 set in every digit, 2m-1),
 * and the paired table reads on every index pair. Nothing secret: test data. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checkasm.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"

#define MAXN 64

/* A random odd modulus of n limbs. shape 0: top bit set (an RSA prime's
 * length); 1: a random non-zero top limb; 2: top limb 1 (the smallest,
 * leaving the most room above m); 3: all limbs 2^64-1 (the largest). */
static void rand_modulus(uint64_t *m, size_t n, int shape)
{
	vg_checkasm_rand_bytes(m, n * 8);
	if (shape == 0)
		m[n - 1] |= (uint64_t)1 << 63;
	else if (shape == 1)
		m[n - 1] |= (uint64_t)1 << (vg_checkasm_rand64() % 64);
	else if (shape == 2)
		m[n - 1] = 1;
	else
		memset(m, 0xff, n * 8);
	m[0] |= 1;
}

/* A random value below m (the top limb drawn below m's). */
static void rand_below(uint64_t *b, const uint64_t *m, size_t n)
{
	vg_checkasm_rand_bytes(b, n * 8);
	b[n - 1] = m[n - 1] > 1 ? b[n - 1] % m[n - 1] : 0;
}

/* Edge operand k (0..4) for m; returns 0 when it is not below m,
 * which is allowed for a only. */
static int edge(uint64_t *v, const uint64_t *m, size_t n, int k)
{
	memset(v, 0, n * 8);
	switch (k) {
	case 0: /* 0 */
		return 1;
	case 1: /* 1 */
		v[0] = 1;
		return 1;
	case 2: /* m - 1 */
		memcpy(v, m, n * 8);
		v[0] -= 1;
		return 1;
	case 3: /* all lower limbs 2^64-1, top limb m's minus one */
		memset(v, 0xff, n * 8);
		v[n - 1] = m[n - 1] - 1;
		return 1;
	default: /* R - 1 */
		memset(v, 0xff, n * 8);
		return 0;
	}
}

/* One call of fn checked three ways: into a guarded buffer, in place over
 * a, and in place over b. */
static int check_one(vg_mont_mul_fn *fn, vg_mont_mul_fn *ref, const uint64_t *a, const uint64_t *b,
		     const uint64_t *m, size_t n, const char *what, int i)
{
	uint64_t m0inv = vg_mont_m0inv(m[0]);
	uint64_t want[MAXN], x[MAXN];
	uint8_t raw[VG_CHECKASM_OUT(MAXN * 8)];
	uint8_t *out = vg_checkasm_guard(raw, n * 8);

	ref(want, a, b, m, m0inv, n);
	vg_checkasm_call(fn, (uint64_t *)(void *)out, a, b, m, m0inv, n);
	if (!vg_checkasm_eq(out, want, n * 8, "n=%zu %s i=%d", n, what, i) ||
	    !vg_checkasm_guard_ok(raw, n * 8))
		return 0;
	memcpy(x, a, n * 8);
	vg_checkasm_call(fn, x, x, b, m, m0inv, n);
	if (!vg_checkasm_eq(x, want, n * 8, "n=%zu %s i=%d (r = a)", n, what, i))
		return 0;
	memcpy(x, b, n * 8);
	vg_checkasm_call(fn, x, a, x, m, m0inv, n);
	return vg_checkasm_eq(x, want, n * 8, "n=%zu %s i=%d (r = b)", n, what, i);
}

static void check_mul(vg_mont_mul_fn *fn, vg_mont_mul_fn *ref, size_t n)
{
	uint64_t m[MAXN], a[MAXN], b[MAXN];
	int iters = vg_checkasm_iters() / VG_RSA_MONT_SIZES;

	/* Edges: each a-edge (or random a) against each b-edge (or random
	 * b), for every modulus shape. */
	for (int shape = 0; shape < 4; shape++) {
		rand_modulus(m, n, shape);
		for (int ka = 0; ka <= 5; ka++) {
			for (int kb = 0; kb <= 4; kb++) {
				if (ka == 5)
					vg_checkasm_rand_bytes(a, n * 8);
				else
					(void)edge(a, m, n, ka);
				if (kb == 4)
					rand_below(b, m, n);
				else
					(void)edge(b, m, n, kb);
				if (!check_one(fn, ref, a, b, m, n, "edge", ka * 8 + kb + 64 * shape))
					return;
			}
		}
		/* squaring of the edges, r = a = b */
		for (int k = 0; k < 4; k++) {
			uint64_t want[MAXN];
			(void)edge(a, m, n, k);
			ref(want, a, a, m, vg_mont_m0inv(m[0]), n);
			vg_checkasm_call(fn, a, a, a, m, vg_mont_m0inv(m[0]), n);
			if (!vg_checkasm_eq(a, want, n * 8, "n=%zu square edge %d", n, k))
				return;
		}
	}
	/* Random: a new modulus every 16 operand pairs. */
	for (int i = 0; i < iters; i++) {
		if (i % 16 == 0)
			rand_modulus(m, n, (int)(vg_checkasm_rand64() % 3));
		vg_checkasm_rand_bytes(a, n * 8);
		rand_below(b, m, n);
		if (!check_one(fn, ref, a, b, m, n, "random", i))
			return;
	}
}

/* The squarings: a < m and b == a (their contract), edges 0, 1, m-1, all
 * lower limbs 2^64-1 below m under each modulus shape, and random; into a
 * guarded buffer and in place. */
static void check_sqr(vg_mont_mul_fn *fn, vg_mont_mul_fn *ref, size_t n)
{
	uint64_t m[MAXN], a[MAXN], want[MAXN], x[MAXN];
	uint8_t raw[VG_CHECKASM_OUT(MAXN * 8)];
	int iters = vg_checkasm_iters() / 3;

	for (int i = 0; i < iters + 16; i++) {
		int edges = i < 16;
		/* the edges under every modulus shape, the all-ones one too
		 * (a = m - 1 then has every limb but the lowest all ones: the
		 * largest carries of a squaring's cross products) */
		rand_modulus(m, n, edges ? i / 4 : (int)(vg_checkasm_rand64() % 3));
		if (edges)
			(void)edge(a, m, n, i % 4);
		else
			rand_below(a, m, n);
		uint64_t m0inv = vg_mont_m0inv(m[0]);
		ref(want, a, a, m, m0inv, n);
		uint8_t *out = vg_checkasm_guard(raw, n * 8);
		vg_checkasm_call(fn, (uint64_t *)(void *)out, a, a, m, m0inv, n);
		if (!vg_checkasm_eq(out, want, n * 8, "n=%zu i=%d", n, i) ||
		    !vg_checkasm_guard_ok(raw, n * 8))
			return;
		memcpy(x, a, n * 8);
		vg_checkasm_call(fn, x, x, x, m, m0inv, n);
		if (!vg_checkasm_eq(x, want, n * 8, "n=%zu i=%d (in place)", n, i))
			return;
	}
}

/* ---- radix 2^52 ---- */

#define M52 (((uint64_t)1 << 52) - 1)
#define S52 VG_RSA52_MAX_DIGITS

/* Operand kind k (0..8) below 2m, as n + 1 limbs: 0, 1, m-1, all lower
 * limbs 2^64-1 below m, m, m+1, 2m-1, random below m, random in [m, 2m). */
static void operand52(uint64_t *v, const uint64_t *m, size_t n, int k)
{
	uint64_t x[MAXN + 1] = {0};

	if (k < 4) {
		(void)edge(x, m, n, k);
	} else if (k < 7) {
		memcpy(x, m, n * 8);
		if (k == 5)
			x[0] += 1; /* m odd: no carry */
		if (k == 6) {
			x[n] = vg_bn_add(x, x, m, n);
			x[0] -= 1; /* m odd: 2m's low limb is 2 mod 4, no borrow */
		}
	} else {
		rand_below(x, m, n);
		if (k == 8)
			x[n] = vg_bn_add(x, x, m, n);
	}
	memcpy(v, x, (n + 1) * 8);
}

/* fn: the paired multiply (halves = 2) or a single one (halves = 1), also
 * called with r = a = b as a squaring. */
static void check_amm52(vg_amm52x2_fn *fn, vg_amm52x2_fn *ref, size_t L, int halves)
{
	size_t n = L / 5 * 4, S = VG_RSA52_STRIDE(L), W = halves * S;
	uint64_t m64[2][MAXN], m[2 * S52], a[2 * S52], b[2 * S52], k0[2], want[2 * S52];
	uint64_t x[2 * S52], v[MAXN + 1];
	int H = halves;
	uint8_t raw[VG_CHECKASM_OUT(2 * S52 * 8)];
	int iters = vg_checkasm_iters() / 3;

	for (int i = 0; i < iters + 81 * 4; i++) {
		/* the first 324 iterations: every pair of operand kinds, under
		 * four modulus shapes (the all-ones one is too big: 4m < R) */
		int edges = i < 81 * 4;
		if (i % 81 == 0 || !edges) {
			for (int h = 0; h < H; h++) {
				rand_modulus(m64[h], n, edges ? (i / 81) % 3 : (int)(vg_checkasm_rand64() % 3));
				memset(m + h * S, 0, S * 8);
				vg_rsa52_to52(m + h * S, L, m64[h], n);
				k0[h] = vg_mont_m0inv(m64[h][0]) & M52;
			}
		}
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		for (int h = 0; h < H; h++) {
			operand52(v, m64[h], n, edges ? (i % 81) / 9 : 7 + (int)(vg_checkasm_rand64() % 2));
			vg_rsa52_to52(a + h * S, L, v, n + 1);
			operand52(v, m64[h], n, edges ? (i % 81) % 9 : 7 + (int)(vg_checkasm_rand64() % 2));
			vg_rsa52_to52(b + h * S, L, v, n + 1);
		}
		memset(want, 0, sizeof(want));
		ref(want, a, b, m, k0);

		uint8_t *out = vg_checkasm_guard(raw, W * 8);
		vg_checkasm_call(fn, (uint64_t *)(void *)out, a, b, m, k0);
		if (!vg_checkasm_eq(out, want, W * 8, "L=%zu i=%d", L, i) ||
		    !vg_checkasm_guard_ok(raw, W * 8))
			return;
		memcpy(x, a, sizeof(x));
		vg_checkasm_call(fn, x, x, b, m, k0);
		if (!vg_checkasm_eq(x, want, W * 8, "L=%zu i=%d (r = a)", L, i))
			return;
		memcpy(x, b, sizeof(x));
		vg_checkasm_call(fn, x, a, x, m, k0);
		if (!vg_checkasm_eq(x, want, W * 8, "L=%zu i=%d (r = b)", L, i))
			return;
		/* squaring in place, as the exponentiation does */
		memset(want, 0, sizeof(want));
		ref(want, a, a, m, k0);
		memcpy(x, a, sizeof(x));
		vg_checkasm_call(fn, x, x, x, m, k0);
		if (!vg_checkasm_eq(x, want, W * 8, "L=%zu i=%d (square)", L, i))
			return;
	}
}

/* fn as the input's reduction calls it (vg_rsa52_exp2): a < m (edge
 * operands 0, 1, m-1, the largest below m with lower limbs 2^64-1, or
 * random) and b any L-digit value below 2^(52 L): every digit 2^52-1,
 * random digits, or random digits with long runs of 2^52-1 and 0. */
static void check_amm52_wide(vg_amm52x2_fn *fn, vg_amm52x2_fn *ref, size_t L, int halves)
{
	size_t n = L / 5 * 4, S = VG_RSA52_STRIDE(L), W = halves * S;
	uint64_t m64[2][MAXN], m[2 * S52], a[2 * S52], b[2 * S52], k0[2], want[2 * S52];
	uint64_t v[MAXN + 1];
	uint8_t raw[VG_CHECKASM_OUT(2 * S52 * 8)];
	int iters = vg_checkasm_iters() / 3 + 60;

	for (int i = 0; i < iters; i++) {
		memset(m, 0, sizeof(m));
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		for (int h = 0; h < halves; h++) {
			rand_modulus(m64[h], n, i < 45 ? i % 3 : (int)(vg_checkasm_rand64() % 3));
			vg_rsa52_to52(m + h * S, L, m64[h], n);
			k0[h] = vg_mont_m0inv(m64[h][0]) & M52;
			int ka = i < 45 ? (i / 3) % 5 : 4;
			if (ka < 4)
				(void)edge(v, m64[h], n, ka);
			else
				rand_below(v, m64[h], n);
			vg_rsa52_to52(a + h * S, L, v, n);
			int kb = (i + h) % 3;
			for (size_t j = 0; j < L; j++) {
				uint64_t d = vg_checkasm_rand64() & M52;
				if (kb == 0 || (kb == 2 && (j / 5) % 3 == 0))
					d = M52;
				else if (kb == 2 && (j / 5) % 3 == 1)
					d = 0;
				b[h * S + j] = d;
			}
		}
		memset(want, 0, sizeof(want));
		ref(want, a, b, m, k0);
		uint8_t *out = vg_checkasm_guard(raw, W * 8);
		vg_checkasm_call(fn, (uint64_t *)(void *)out, a, b, m, k0);
		if (!vg_checkasm_eq(out, want, W * 8, "L=%zu i=%d (b < 2^(52 L))", L, i) ||
		    !vg_checkasm_guard_ok(raw, W * 8))
			return;
	}
}

/* The paired window (acc^(2^nsq) sel, vg_amm52x2w_fn) against row 0's, in
 * place over acc as the exponentiation calls it, for nsq = 0..6, on the
 * operand kinds of check_amm52 for acc and sel (each half its own) and
 * random ones; the result is the same as nsq + 1 calls of the multiply,
 * which row 0's window is made of. */
static void check_win(vg_amm52x2w_fn *fn, vg_amm52x2w_fn *ref, size_t L)
{
	size_t n = L / 5 * 4, S = VG_RSA52_STRIDE(L), W = 2 * S;
	uint64_t m64[2][MAXN], m[2 * S52], acc[2 * S52], sel[2 * S52], k0[2], want[2 * S52];
	uint64_t v[MAXN + 1];
	uint8_t raw[VG_CHECKASM_OUT(2 * S52 * 8)];
	int iters = vg_checkasm_iters() / 8;

	for (int i = 0; i < iters + 81 * 3; i++) {
		int edges = i < 81 * 3;
		size_t nsq = (size_t)i % 7;
		if (i % 81 == 0 || !edges) {
			for (int h = 0; h < 2; h++) {
				rand_modulus(m64[h], n, edges ? (i / 81) % 3 : (int)(vg_checkasm_rand64() % 3));
				memset(m + h * S, 0, S * 8);
				vg_rsa52_to52(m + h * S, L, m64[h], n);
				k0[h] = vg_mont_m0inv(m64[h][0]) & M52;
			}
		}
		memset(acc, 0, sizeof(acc));
		memset(sel, 0, sizeof(sel));
		for (int h = 0; h < 2; h++) {
			int ka = edges ? (i % 81) / 9 : 7 + (int)(vg_checkasm_rand64() % 2);
			int ks = edges ? (i % 81) % 9 : 7 + (int)(vg_checkasm_rand64() % 2);
			operand52(v, m64[h], n, h ? ks : ka);
			vg_rsa52_to52(acc + h * S, L, v, n + 1);
			operand52(v, m64[h], n, h ? ka : ks);
			vg_rsa52_to52(sel + h * S, L, v, n + 1);
		}
		memcpy(want, acc, sizeof(want));
		ref(want, sel, m, k0, nsq);

		uint8_t *out = vg_checkasm_guard(raw, W * 8);
		memcpy(out, acc, W * 8);
		vg_checkasm_call(fn, (uint64_t *)(void *)out, sel, m, k0, nsq);
		if (!vg_checkasm_eq(out, want, W * 8, "L=%zu i=%d nsq=%zu", L, i, nsq) ||
		    !vg_checkasm_guard_ok(raw, W * 8))
			return;
	}
}

/* acc digit pattern k (0..4) below 2 m for the window's squarings, on the
 * radix-2^52 digits of m (t its top non-zero digit): 0; every digit
 * 2^52-1 up to m's bit length (2^b - 1 < 2m); bit 51 set in every digit
 * below t, random below it, digit t m's minus one (< m); digit t m's and
 * every digit below 2^52-1 (in [m, 2m)); and 2m - 1 in radix 2^52. The
 * squaring doubles each cross product through digit i of 2 acc, which
 * carries bit 51 of the digit below: these reach every carry. */
static void digits52(uint64_t *a, const uint64_t *m, size_t L, int k)
{
	size_t t = L - 1;

	while (t > 0 && m[t] == 0)
		t--;
	memset(a, 0, L * 8);
	if (k == 1) {
		size_t b = 52 * t + (size_t)(64 - __builtin_clzll(m[t]));
		for (size_t j = 0; j < L && 52 * j < b; j++)
			a[j] = b - 52 * j >= 52 ? M52 : ((uint64_t)1 << (b - 52 * j)) - 1;
	} else if (k == 2 || k == 3) {
		for (size_t j = 0; j < t; j++)
			a[j] = k == 3 ? M52 : ((uint64_t)1 << 51) | (vg_checkasm_rand64() & (M52 >> 1));
		a[t] = k == 3 ? m[t] : m[t] - 1;
	} else if (k == 4) {
		uint64_t c = 0;
		for (size_t j = 0; j < L; j++) {
			c += 2 * m[j];
			a[j] = c & M52;
			c >>= 52;
		}
		for (size_t j = 0; j < L; j++) { /* minus 1: m odd, 2m even */
			if (a[j] != 0) {
				a[j] -= 1;
				break;
			}
			a[j] = M52;
		}
	}
}

/* The window's squarings (nsq = 1, 2, 5) on the digit patterns of
 * digits52 for acc, each half its own, sel random below m or a pattern,
 * under the three modulus shapes. */
static void check_win_digits(vg_amm52x2w_fn *fn, vg_amm52x2w_fn *ref, size_t L)
{
	size_t n = L / 5 * 4, S = VG_RSA52_STRIDE(L), W = 2 * S;
	uint64_t m64[2][MAXN], m[2 * S52], acc[2 * S52], sel[2 * S52], k0[2], want[2 * S52];
	uint64_t v[MAXN + 1];
	uint8_t raw[VG_CHECKASM_OUT(2 * S52 * 8)];
	static const size_t nsqs[3] = {1, 2, 5};

	for (int i = 0; i < 3 * 25 * 3; i++) {
		int shape = i / 75, ka = (i / 3) % 5, ks = ((i / 3) / 5) % 5;
		size_t nsq = nsqs[i % 3];
		memset(m, 0, sizeof(m));
		memset(acc, 0, sizeof(acc));
		memset(sel, 0, sizeof(sel));
		for (int h = 0; h < 2; h++) {
			rand_modulus(m64[h], n, shape);
			vg_rsa52_to52(m + h * S, L, m64[h], n);
			k0[h] = vg_mont_m0inv(m64[h][0]) & M52;
			digits52(acc + h * S, m + h * S, L, h ? ks : ka);
			if (ks == 0 || ks == 2) {
				rand_below(v, m64[h], n);
				vg_rsa52_to52(sel + h * S, L, v, n);
			} else {
				digits52(sel + h * S, m + h * S, L, h ? ka : ks);
			}
		}
		memcpy(want, acc, sizeof(want));
		ref(want, sel, m, k0, nsq);
		uint8_t *out = vg_checkasm_guard(raw, W * 8);
		memcpy(out, acc, W * 8);
		vg_checkasm_call(fn, (uint64_t *)(void *)out, sel, m, k0, nsq);
		if (!vg_checkasm_eq(out, want, W * 8, "L=%zu i=%d nsq=%zu (digit patterns)", L, i,
				    nsq) ||
		    !vg_checkasm_guard_ok(raw, W * 8))
			return;
	}
}

/* The paired table read, halves S qwords apart: every (ip, iq) pair, on
 * random tables. */
static void check_select(vg_rsa52_select2_fn *fn, vg_rsa52_select2_fn *ref, size_t L)
{
	size_t S = VG_RSA52_STRIDE(L);
	static uint64_t table[VG_RSA52_TABLE][2 * S52];
	uint64_t want[2 * S52];
	uint8_t raw[VG_CHECKASM_OUT(2 * S52 * 8)];
	int rounds = vg_checkasm_iters() / (VG_RSA52_TABLE * VG_RSA52_TABLE) + 1;

	for (int r = 0; r < rounds; r++) {
		vg_checkasm_rand_bytes(table, sizeof(table));
		/* the digits above L are zero in every entry, as the multiplies
		 * write them (the 20-digit read skips them) */
		for (size_t i = 0; i < VG_RSA52_TABLE; i++)
			for (size_t j = L; j < S; j++)
				table[i][j] = table[i][S + j] = 0;
		for (uint64_t ip = 0; ip < VG_RSA52_TABLE; ip++) {
			for (uint64_t iq = 0; iq < VG_RSA52_TABLE; iq++) {
				ref(want, &table[0][0], ip, iq);
				uint8_t *out = vg_checkasm_guard(raw, 2 * S * 8);
				vg_checkasm_call(fn, (uint64_t *)(void *)out, &table[0][0], ip, iq);
				if (!vg_checkasm_eq(out, want, 2 * S * 8, "S=%zu ip=%d iq=%d", S, (int)ip,
						    (int)iq) ||
				    !vg_checkasm_guard_ok(raw, 2 * S * 8))
					return;
			}
		}
	}
}

/* Function pointers already checked (or row 0's own): each is checked
 * once, in the first row that has it. */
static const void *done[256];
static size_t ndone;

static int fresh(const void *fn, const void *ref)
{
	if (fn == ref)
		return 0;
	for (size_t i = 0; i < ndone; i++)
		if (done[i] == fn)
			return 0;
	if (ndone < sizeof(done) / sizeof(done[0]))
		done[ndone++] = fn;
	return 1;
}

/* Every slot of row im against the same slot of row c (row 0). */
static void check_row(const struct vg_rsa_impl *im, const struct vg_rsa_impl *c)
{
	char name[96];

	for (size_t k = 0; k < VG_RSA_MONT_SIZES; k++) {
		size_t n = vg_rsa_mont_limbs[k];
		if (fresh((const void *)im->mul[k], (const void *)c->mul[k])) {
			snprintf(name, sizeof(name), "mont mul %zu limbs (%s row)", n, im->v.name);
			vg_checkasm_func(name);
			check_mul(im->mul[k], c->mul[k], n);
			vg_checkasm_func_done();
		}
		if (fresh((const void *)im->sqr[k], (const void *)c->sqr[k])) {
			snprintf(name, sizeof(name), "mont sqr %zu limbs (%s row)", n, im->v.name);
			vg_checkasm_func(name);
			check_sqr(im->sqr[k], c->sqr[k], n);
			vg_checkasm_func_done();
		}
	}
	for (size_t k = 0; k < VG_RSA52_SIZES; k++) {
		size_t L = vg_rsa52_digits[k], Lp = vg_rsa52_pub_digits[k];
		const struct vg_rsa52_impl *f = &im->r52[k], *r = &c->r52[k];
		if (fresh((const void *)f->mul, (const void *)r->mul)) {
			snprintf(name, sizeof(name), "amm52x2 %zu digits (%s row)", L, im->v.name);
			vg_checkasm_func(name);
			check_amm52(f->mul, r->mul, L, 2);
			check_amm52_wide(f->mul, r->mul, L, 2);
			vg_checkasm_func_done();
		}
		if (fresh((const void *)f->win, (const void *)r->win)) {
			snprintf(name, sizeof(name), "amm52x2w %zu digits (%s row)", L, im->v.name);
			vg_checkasm_func(name);
			check_win(f->win, r->win, L);
			check_win_digits(f->win, r->win, L);
			vg_checkasm_func_done();
		}
		if (fresh((const void *)f->select, (const void *)r->select)) {
			snprintf(name, sizeof(name), "select2 %zu digits (%s row)", L, im->v.name);
			vg_checkasm_func(name);
			check_select(f->select, r->select, L);
			vg_checkasm_func_done();
		}
		if (fresh((const void *)im->amm52x1[k], (const void *)c->amm52x1[k])) {
			snprintf(name, sizeof(name), "amm52x1 %zu digits (%s row)", Lp, im->v.name);
			vg_checkasm_func(name);
			check_amm52(im->amm52x1[k], c->amm52x1[k], Lp, 1);
			vg_checkasm_func_done();
		}
	}
}

/* The normalisation the ifma multiplies inline (VNORM, rsa52_macros.asm),
 * wrapped for Z = 3, 4, 5, 8 registers (vnorm_test.asm): lanes 2.. and the
 * exact digits 0 and 1 (s, n) to digits below 2^52. Its carry-lookahead
 * step is exercised by construction: every digit, after the macro's first
 * pass (each lane's bits above 52 added to the next), is chosen to be
 * 2^52 - 1 (propagates a carry), above it (generates one), 0 or random, in
 * long runs; a multiply's outputs almost never need it (2^-40 a digit). */
typedef void vnorm_fn(uint64_t *r, const uint64_t *lanes, uint64_t s, uint64_t n);
vnorm_fn vg_test_vnorm52_z3, vg_test_vnorm52_z4, vg_test_vnorm52_z5, vg_test_vnorm52_z8;

static void check_vnorm(vnorm_fn *fn, int Z)
{
	int D = 8 * Z;
	uint64_t x[64], c[64], lanes[64], want[64], got[64];
	int iters = vg_checkasm_iters() / 3;

	for (int it = 0; it < iters; it++) {
		uint64_t cin = 0;
		int kind = 0;
		for (int j = 0; j < D; j++) {
			uint64_t p, r = vg_checkasm_rand64();
			/* the carry this lane passes up in the first pass */
			c[j] = j == D - 1 ? 0 : (it % 4 == 0 ? 4095 : (r >> 40) % 4096);
			if (j == D - 1) {
				kind = 3;
			} else if (r % 4 == 0) { /* runs: a new kind one time in four */
				kind = (int)((r >> 8) % 4);
			}
			if (kind == 1 && cin == 0)
				kind = 0;
			switch (kind) {
			case 0: /* propagates */
				p = M52;
				break;
			case 1: /* generates: above 2^52 - 1 after the first pass */
				p = (M52 + 1) + (r >> 20) % cin;
				break;
			case 2: /* zero after the first pass */
				p = cin;
				break;
			default: /* random; the top digit leaves room for a carry */
				p = cin + (r >> 12) % (M52 - cin);
				if (j == D - 1)
					p = (r >> 13) & (M52 >> 1);
				break;
			}
			x[j] = (p - cin) + (c[j] << 52);
			cin = c[j];
		}
		unsigned __int128 acc = 0;
		for (int j = 0; j < D; j++) {
			acc += x[j];
			want[j] = (uint64_t)acc & M52;
			acc >>= 52;
		}
		memcpy(lanes, x, (size_t)D * 8);
		lanes[0] = vg_checkasm_rand64(); /* ignored: s and n are exact */
		lanes[1] = vg_checkasm_rand64();
		memset(got, 0xa5, sizeof(got));
		vg_checkasm_call(fn, got, lanes, x[0], x[1]);
		if (acc != 0) {
			vg_checkasm_fail("test input out of range (Z=%d it=%d)", Z, it);
			return;
		}
		if (!vg_checkasm_eq(got, want, (size_t)D * 8, "Z=%d it=%d", Z, it))
			return;
	}
}

int main(int argc, char **argv)
{
	vg_checkasm_init("rsa", argc, argv);
	for (size_t i = 1; i < vg_rsa_nimpls; i++)
		if (vg_checkasm_row(&vg_rsa_impls[i].v))
			check_row(&vg_rsa_impls[i], &vg_rsa_impls[0]);
	if (vg_checkasm_tier("ifma", VG_TIER_IFMA)) {
		static const struct {
			vnorm_fn *fn;
			int Z;
		} vn[] = {{vg_test_vnorm52_z3, 3},
			  {vg_test_vnorm52_z4, 4},
			  {vg_test_vnorm52_z5, 5},
			  {vg_test_vnorm52_z8, 8}};
		char name[64];
		for (size_t i = 0; i < sizeof(vn) / sizeof(vn[0]); i++) {
			snprintf(name, sizeof(name), "vnorm52 %d registers (ifma macro)", vn[i].Z);
			vg_checkasm_func(name);
			check_vnorm(vn[i].fn, vn[i].Z);
			vg_checkasm_func_done();
		}
	}
	return vg_checkasm_finish();
}
