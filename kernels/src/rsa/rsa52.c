/* rsa52.c: radix-2^52 constants, conversions and the paired CRT
 * exponentiation of the ifma tier (see rsa52.h). Secret: the primes,
 * exponents, constants and every operand. Loops and branches depend only
 * on digit and limb counts and bit positions; the table is read by a
 * masked scan. */
#include "rsa/rsa52.h"

#include <stddef.h>

#include "ct.h"
#include "rsa/bn.h"
#include "vg/wipe.h"

typedef unsigned __int128 u128;

#define M52 (((uint64_t)1 << 52) - 1)
/* 5-bit windows: against 4-bit ones, one multiply per 5 exponent bits
 * instead of per 4 (about 3 % fewer multiplies at every size) for a table
 * of 32 entries (30 multiplies to fill it, and twice the scan per
 * window); measured faster at 20, 30 and 40 digits. */
#define WBITS VG_RSA52_WINDOW
#define TABLE VG_RSA52_TABLE

void vg_rsa52_to52(uint64_t *d, size_t L, const uint64_t *a, size_t n)
{
	for (size_t j = 0; j < L; j++) {
		size_t pos = 52 * j, w = pos / 64, off = pos % 64;
		uint64_t v = w < n ? a[w] >> off : 0;
		if (off > 12 && w + 1 < n)
			v |= a[w + 1] << (64 - off);
		d[j] = v & M52;
	}
}

void vg_rsa52_from52(uint64_t *a, size_t n, const uint64_t *d, size_t L)
{
	for (size_t i = 0; i < n; i++)
		a[i] = 0;
	for (size_t j = 0; j < L; j++) {
		size_t pos = 52 * j, w = pos / 64, off = pos % 64;
		if (w < n)
			a[w] |= d[j] << off;
		if (off > 12 && w + 1 < n)
			a[w + 1] |= d[j] >> (64 - off);
	}
}

void vg_amm52_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0,
		size_t L)
{
	/* Digit-serial Montgomery in radix 2^52, t kept normalised; t < 2m
	 * after each row as in mont.c, so t[L] holds the excess. */
	uint64_t t[VG_RSA52_PUB_MAX_DIGITS + 2] = {0};

	for (size_t i = 0; i < L; i++) {
		u128 c = 0;
		for (size_t j = 0; j < L; j++) {
			c += (u128)a[j] * b[i] + t[j];
			t[j] = (uint64_t)c & M52;
			c >>= 52;
		}
		c += t[L];
		t[L] = (uint64_t)c & M52;
		t[L + 1] = (uint64_t)(c >> 52);

		uint64_t y = (t[0] * k0) & M52;
		c = ((u128)y * m[0] + t[0]) >> 52;
		for (size_t j = 1; j < L; j++) {
			c += (u128)y * m[j] + t[j];
			t[j - 1] = (uint64_t)c & M52;
			c >>= 52;
		}
		c += t[L];
		t[L - 1] = (uint64_t)c & M52;
		t[L] = t[L + 1] + (uint64_t)(c >> 52);
	}
	for (size_t j = 0; j < L; j++)
		r[j] = t[j];
	vg_wipe(t, sizeof(t));
}

void vg_amm52x2w_c(uint64_t *acc, const uint64_t *sel, const uint64_t *m, const uint64_t *k0,
		   size_t nsq, size_t L)
{
	size_t S = VG_RSA52_STRIDE(L);

	for (size_t k = 0; k <= nsq; k++) {
		const uint64_t *b = k < nsq ? acc : sel; /* nsq is public */
		vg_amm52_c(acc, acc, b, m, k0[0], L);
		vg_amm52_c(acc + S, acc + S, b + S, m + S, k0[1], L);
	}
}

/* -m^-1 mod 2^52 from -m^-1 mod 2^64 (mont.c's Newton iteration). */
static uint64_t k0_52(uint64_t m0)
{
	uint64_t x = m0;

	for (int i = 0; i < 5; i++)
		x *= 2 - m0 * x;
	return ((uint64_t)0 - x) & M52;
}

void vg_rsa52_init(struct vg_rsa52 *c, const uint64_t *p, size_t lp, const uint64_t *q,
		   size_t lq, const uint64_t *qinv)
{
	uint64_t t[VG_BN_MAX_LIMBS];
	size_t L, S;

	vg_wipe(c, sizeof(*c));
	/* Public: the limb counts pick the digit count (52 L >= 64 lp + 2). */
	if (lp != lq || (lp != 16 && lp != 24 && lp != 32))
		return;
	L = lp == 16 ? 20 : lp == 24 ? 30 : 40;
	S = VG_RSA52_STRIDE(L);
	c->digits = L;
	c->k0[0] = k0_52(p[0]);
	c->k0[1] = k0_52(q[0]);
	vg_rsa52_to52(c->m, L, p, lp);
	vg_rsa52_to52(c->m + S, L, q, lq);
	/* 2^(104 L) and 2^(64 lp + 52 L) mod p and q by constant-time
	 * doublings: once per key. */
	vg_bn_pow2_mod(t, 104 * L, p, lp);
	vg_rsa52_to52(c->rr, L, t, lp);
	vg_bn_pow2_mod(t, 104 * L, q, lq);
	vg_rsa52_to52(c->rr + S, L, t, lq);
	vg_bn_pow2_mod(t, 64 * lp + 52 * L, p, lp);
	vg_rsa52_to52(c->hi, L, t, lp);
	vg_bn_pow2_mod(t, 64 * lq + 52 * L, q, lq);
	vg_rsa52_to52(c->hi + S, L, t, lq);
	vg_rsa52_to52(c->out, L, qinv, lp);
	c->out[S] = 1;
	vg_wipe(t, sizeof(t));
}

/* Stack scratch of one paired exponentiation, wiped as a whole. Every
 * number the multiply reads as vectors is 64-byte aligned (whole cache
 * lines: a zmm load across two lines costs about a third more time in the
 * whole exponentiation); m is copied here from the key for that reason. */
struct exp2_scratch {
	_Alignas(64) uint64_t table[TABLE][2 * VG_RSA52_MAX_DIGITS];
	_Alignas(64) uint64_t acc[2 * VG_RSA52_MAX_DIGITS];
	_Alignas(64) uint64_t sel[2 * VG_RSA52_MAX_DIGITS];
	_Alignas(64) uint64_t one[2 * VG_RSA52_MAX_DIGITS];
	_Alignas(64) uint64_t m[2 * VG_RSA52_MAX_DIGITS];
	_Alignas(64) uint64_t out[2 * VG_RSA52_MAX_DIGITS];
	uint64_t t[VG_BN_MAX_LIMBS + 1];
};

void vg_rsa52_select2_c(uint64_t *sel, const uint64_t *table, uint64_t ip, uint64_t iq, size_t S)
{
	/* Every entry read, one kept per half under a mask. */
	for (size_t j = 0; j < 2 * S; j++)
		sel[j] = 0;
	for (uint64_t i = 0; i < TABLE; i++) {
		const uint64_t *e = table + i * 2 * VG_RSA52_MAX_DIGITS;
		uint64_t mp = vg_ct_barrier(vg_ct_mask(vg_ct_eq(i, ip)));
		uint64_t mq = vg_ct_barrier(vg_ct_mask(vg_ct_eq(i, iq)));
		for (size_t j = 0; j < S; j++) {
			sel[j] |= e[j] & mp;
			sel[S + j] |= e[S + j] & mq;
		}
	}
}

/* r (n limbs) = d - m if d >= m else d, for d < 2m (a multiply by 1 or
 * by a number below m: at most m + 2m^2 2^(-52 L)). */
static void leave52(uint64_t *r, const uint64_t *d, size_t L, const uint64_t *m, size_t n,
		    uint64_t *t)
{
	vg_rsa52_from52(r, n, d, L);
	uint64_t borrow = vg_bn_sub(t, r, m, n);
	vg_bn_ccopy(borrow ^ 1, r, t, n);
}

/* tab1 = x 2^(52 L) mod m_h "almost" (< 2 m_h) for both halves, x of xn
 * <= 2 limbs limbs: x = hi 2^(64 limbs) + lo, and y = hi 2^(64 limbs)
 * mod m_h (almost) by one multiply of hi (< 2^(64 limbs) <= 2^(52 L)) by
 * the constant c->hi; then lo + y < 2^(64 limbs) + 2 m_h < 2^(52 L), a
 * valid b for the multiply by c->rr that enters the domain. t and u are
 * scratch of 2 * VG_RSA52_MAX_DIGITS qwords, w of limbs + 1. */
static void enter52(const struct vg_rsa52 *c, vg_amm52x2_fn *f, uint64_t *tab1, const uint64_t *x,
		    size_t xn, const uint64_t *m, size_t limbs, uint64_t *t, uint64_t *u,
		    uint64_t *w)
{
	size_t L = c->digits, S = VG_RSA52_STRIDE(L);

	vg_rsa52_to52(t, L, x + limbs, xn - limbs);
	for (size_t j = 0; j < L; j++)
		t[S + j] = t[j];
	f(u, c->hi, t, m, c->k0);
	for (size_t h = 0; h < 2; h++) {
		vg_rsa52_from52(w, limbs + 1, u + h * S, L);
		w[limbs] += vg_bn_add(w, w, x, limbs);
		vg_rsa52_to52(t + h * S, L, w, limbs + 1);
	}
	f(tab1, c->rr, t, m, c->k0);
}

void vg_rsa52_exp2(const struct vg_rsa52 *c, const struct vg_rsa52_impl *impl, uint64_t *rp,
		   uint64_t *rq, const uint64_t *x, size_t xn, const uint64_t *ep, const uint64_t *eq,
		   size_t ebits, const uint64_t *p, const uint64_t *q, size_t limbs)
{
	struct exp2_scratch s;
	size_t L = c->digits, S = VG_RSA52_STRIDE(L);
	size_t windows = (ebits + WBITS - 1) / WBITS;
	uint64_t(*tab)[2 * VG_RSA52_MAX_DIGITS] = s.table;
	vg_amm52x2_fn *f = impl->mul;
	const uint64_t *m = s.m;

	/* The table's entries are written before they are read, except
	 * their digits L.. of each half, which must be zero (rsa52.h); only
	 * the part of each entry in use is wiped at the end. */
	vg_wipe(&s.acc, sizeof(s) - offsetof(struct exp2_scratch, acc));
	for (size_t i = 0; i < TABLE; i++)
		for (size_t j = L; j < S; j++)
			tab[i][j] = tab[i][S + j] = 0;
	s.one[0] = s.one[S] = 1;
	for (size_t j = 0; j < 2 * S; j++) {
		s.m[j] = c->m[j];
		s.out[j] = c->out[j];
	}
	/* table[1] = x R (almost), table[0] = R, table[i] = x^i R */
	enter52(c, f, tab[1], x, xn, m, limbs, s.acc, s.sel, s.t);
	f(tab[0], c->rr, s.one, m, c->k0);
	for (size_t i = 2; i < TABLE; i++)
		f(tab[i], tab[i - 1], tab[1], m, c->k0);

	/* windows >= 1: ebits >= 512 (key load checks the prime lengths). */
	impl->select(s.acc, &tab[0][0], vg_bn_window(ep, WBITS * (windows - 1), ebits, WBITS),
		     vg_bn_window(eq, WBITS * (windows - 1), ebits, WBITS));
	for (size_t w = windows - 1; w-- > 0;) {
		impl->select(s.sel, &tab[0][0], vg_bn_window(ep, WBITS * w, ebits, WBITS),
			     vg_bn_window(eq, WBITS * w, ebits, WBITS));
		impl->win(s.acc, s.sel, m, c->k0, WBITS);
	}
	/* Leave the domain, times qinv for p (Garner's m1 qinv) and 1 for q:
	 * acc out 2^(-52 L) < 2 m_h, then one subtraction. */
	f(s.acc, s.acc, s.out, m, c->k0);
	leave52(rp, s.acc, L, p, limbs, s.t);
	leave52(rq, s.acc + S, L, q, limbs, s.t);
	for (size_t i = 0; i < TABLE; i++)
		vg_wipe(tab[i], 2 * S * sizeof(tab[i][0]));
	vg_wipe(&s.acc, sizeof(s) - offsetof(struct exp2_scratch, acc));
}

void vg_rsa52_pub_init(struct vg_rsa52_pub *c, const uint64_t *n, const uint64_t *rr64,
		       size_t limbs)
{
	uint64_t t[VG_BN_MAX_LIMBS];
	size_t L;

	vg_wipe(c, sizeof(*c));
	if (limbs != 32 && limbs != 48 && limbs != 64)
		return;
	L = limbs / 4 * 5; /* 52 L = 65 limbs' worth of bits >= 64 limbs + 2 */
	c->digits = L;
	c->k0[0] = k0_52(n[0]);
	vg_rsa52_to52(c->m, L, n, limbs);
	/* 2^(104 L) = 2^(128 limbs) 2^(104 L - 128 limbs): a few modular
	 * doublings of R^2 (n is public; constant time anyway). */
	for (size_t i = 0; i < limbs; i++)
		t[i] = rr64[i];
	for (size_t k = 0; k < 104 * L - 128 * limbs; k++) {
		uint64_t carry = vg_bn_add(t, t, t, limbs);
		vg_bn_cond_sub(carry | (vg_bn_lt(t, n, limbs) ^ 1), t, n, limbs);
	}
	vg_rsa52_to52(c->rr, L, t, limbs);
}

/* Scratch of the public exponentiation; vector operands 64-byte aligned. */
struct pub_scratch {
	_Alignas(64) uint64_t m[VG_RSA52_PUB_MAX_DIGITS];
	_Alignas(64) uint64_t x[VG_RSA52_PUB_MAX_DIGITS];
	_Alignas(64) uint64_t xM[VG_RSA52_PUB_MAX_DIGITS];
	_Alignas(64) uint64_t acc[VG_RSA52_PUB_MAX_DIGITS];
	uint64_t t[VG_BN_MAX_LIMBS + 1], u[VG_BN_MAX_LIMBS + 1], n1[VG_BN_MAX_LIMBS + 1];
};

void vg_rsa52_exp_pub(const struct vg_rsa52_pub *c, vg_amm52x2_fn *f, uint64_t *r,
		      const uint64_t *a, const uint64_t *n, size_t limbs, uint64_t e)
{
	struct pub_scratch s;
	size_t L = c->digits;
	int top = 63 - __builtin_clzll(e | 1); /* >= 1: e >= 3 */

	vg_wipe(&s, sizeof(s));
	for (size_t j = 0; j < L; j++)
		s.m[j] = c->m[j];
	vg_rsa52_to52(s.x, L, a, limbs);
	f(s.xM, s.x, c->rr, s.m, c->k0); /* a R */
	for (size_t j = 0; j < L; j++)
		s.acc[j] = s.xM[j];
	for (int i = top; i-- > 1;) {
		f(s.acc, s.acc, s.acc, s.m, c->k0);
		if ((e >> i) & 1) /* e is public */
			f(s.acc, s.acc, s.xM, s.m, c->k0);
	}
	/* bit 0 is set: the plain a removes R; the result is below 2n */
	f(s.acc, s.acc, s.acc, s.m, c->k0);
	f(s.acc, s.acc, s.x, s.m, c->k0);
	vg_rsa52_from52(s.t, limbs + 1, s.acc, L);
	for (size_t i = 0; i < limbs; i++)
		s.n1[i] = n[i];
	s.n1[limbs] = 0;
	uint64_t borrow = vg_bn_sub(s.u, s.t, s.n1, limbs + 1);
	vg_bn_ccopy(borrow ^ 1, s.t, s.u, limbs);
	for (size_t i = 0; i < limbs; i++)
		r[i] = s.t[i];
	vg_wipe(&s, sizeof(s));
}
