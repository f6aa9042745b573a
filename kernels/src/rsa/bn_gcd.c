/* bn_gcd.c: constant-time binary gcd and modular inverse for key
 * generation (see bn.h): q^-1 mod p, the gcd of p - 1 and q - 1 behind
 * lcm(p - 1, q - 1), and inverses modulo e of secret residues. Secret: the
 * operands, every intermediate, the result. Public: the limb count, which
 * alone fixes the number of iterations (128 n: enough for any operands of
 * n limbs, see below), and the single verdict returned.
 *
 * The loop (Stein's binary gcd with Bezout tracking, as in the
 * constant-time inversions of the literature): with v odd, per iteration
 *   if u is odd: if u < v, swap (u, x1) with (v, x2); u -= v; x1 -= x2
 *   then u /= 2 and x1 /= 2 (mod m)
 * keeps gcd(u, v), v odd, and x1 a = u, x2 a = v (mod m). Each iteration
 * removes at least one bit from u (u - v <= u when u >= v, then the
 * halving) or u is already 0, so after bits(a) + bits(m) <= 128 n
 * iterations u = 0 and v = gcd. Every "if" above is a mask. */
#include "rsa/bn.h"

#include "ct.h"
#include "vg/wipe.h"

/* If ctl, swap a and b (n limbs). */
static void cswap(uint64_t ctl, uint64_t *a, uint64_t *b, size_t n)
{
	uint64_t m = vg_ct_barrier(vg_ct_mask(ctl));

	for (size_t i = 0; i < n; i++) {
		uint64_t t = m & (a[i] ^ b[i]);
		a[i] ^= t;
		b[i] ^= t;
	}
}

/* a >>= 1 over n limbs, top_in entering the top bit. */
static void shr1(uint64_t *a, size_t n, uint64_t top_in)
{
	for (size_t i = 0; i + 1 < n; i++)
		a[i] = (a[i] >> 1) | (a[i + 1] << 63);
	a[n - 1] = (a[n - 1] >> 1) | (top_in << 63);
}

struct gcd_state {
	uint64_t u[VG_BN_MAX_LIMBS], v[VG_BN_MAX_LIMBS];
	uint64_t x1[VG_BN_MAX_LIMBS], x2[VG_BN_MAX_LIMBS];
};

/* The loop of the file comment on s (v odd on entry); tracks x1, x2
 * modulo m when m is given (a public choice). */
static void binary_gcd(struct gcd_state *s, const uint64_t *m, size_t n)
{
	for (size_t it = 0; it < 128 * n; it++) {
		uint64_t odd = s->u[0] & 1;
		uint64_t sw = odd & vg_bn_lt(s->u, s->v, n);
		cswap(sw, s->u, s->v, n);
		(void)vg_bn_cond_sub(odd, s->u, s->v, n); /* u >= v now: no borrow */
		shr1(s->u, n, 0);
		if (m) {
			cswap(sw, s->x1, s->x2, n);
			/* x1 - x2 mod m, both < m: add m back on a borrow */
			uint64_t b = vg_bn_cond_sub(odd, s->x1, s->x2, n);
			(void)vg_bn_cond_add(b, s->x1, m, n);
			/* x1 / 2 mod m: (x1 + m) / 2 when x1 is odd (m odd makes
			 * the sum even); the sum's carry re-enters at the top */
			uint64_t c = vg_bn_cond_add(s->x1[0] & 1, s->x1, m, n);
			shr1(s->x1, n, c);
		}
	}
}

uint64_t vg_bn_modinv_odd(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
	struct gcd_state s;
	uint64_t one[VG_BN_MAX_LIMBS] = {1};

	for (size_t i = 0; i < n; i++) {
		s.u[i] = a[i];
		s.v[i] = m[i];
		s.x1[i] = 0;
		s.x2[i] = 0;
	}
	s.x1[0] = 1; /* 1 a = u; 0 a = m = v (mod m) */
	binary_gcd(&s, m, n);
	uint64_t ok = vg_bn_eq(s.v, one, n);
	uint64_t mask = vg_ct_barrier(vg_ct_mask(ok));
	for (size_t i = 0; i < n; i++)
		r[i] = s.x2[i] & mask;
	vg_wipe(&s, sizeof(s));
	return ok;
}

/* Bit j of x (public position). */
static uint64_t bit(const uint64_t *x, size_t j)
{
	return (x[j / 64] >> (j % 64)) & 1;
}

/* r = a >> k or a << k (left if left) for a public k < 64 n, n limbs,
 * zeros shifted in. */
static void shift(uint64_t *r, const uint64_t *a, size_t n, size_t k, int left)
{
	size_t w = k / 64, b = k % 64;

	for (size_t i = 0; i < n; i++) {
		uint64_t lo, hi;
		if (left) {
			lo = i >= w ? a[i - w] : 0;
			hi = i >= w + 1 ? a[i - w - 1] : 0;
			r[i] = b ? (lo << b) | (hi >> (64 - b)) : lo;
		} else {
			lo = i + w < n ? a[i + w] : 0;
			hi = i + w + 1 < n ? a[i + w + 1] : 0;
			r[i] = b ? (lo >> b) | (hi << (64 - b)) : lo;
		}
	}
}

/* x shifted by the secret k < 2^16 (left or right): one conditional
 * shift per bit of k, each by a public power of two, chosen by mask. */
static void shift_secret(uint64_t *x, size_t n, uint64_t k, int left)
{
	uint64_t t[VG_BN_MAX_LIMBS] = {0};

	for (unsigned j = 0; j < 16 && ((size_t)1 << j) < 64 * n; j++) {
		shift(t, x, n, (size_t)1 << j, left);
		vg_bn_ccopy((k >> j) & 1, x, t, n);
	}
	vg_wipe(t, sizeof(t));
}

uint64_t vg_bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t n)
{
	struct gcd_state s;
	uint64_t ok = (vg_bn_is_zero(a, n) | vg_bn_is_zero(b, n)) ^ 1;
	uint64_t k = 0, found = 0;

	/* k = the number of trailing zeros of a | b: the power of two both
	 * share, counted over every bit position (public range). */
	for (size_t j = 0; j < 64 * n; j++) {
		found |= bit(a, j) | bit(b, j);
		k += found ^ 1;
	}
	for (size_t i = 0; i < n; i++) {
		s.u[i] = a[i];
		s.v[i] = b[i];
	}
	shift_secret(s.u, n, k, 0);
	shift_secret(s.v, n, k, 0);
	/* Now one of them is odd (unless both were zero): make it v. */
	cswap((s.v[0] & 1) ^ 1, s.u, s.v, n);
	binary_gcd(&s, NULL, n);
	shift_secret(s.v, n, k, 1);
	uint64_t mask = vg_ct_barrier(vg_ct_mask(ok));
	for (size_t i = 0; i < n; i++)
		g[i] = s.v[i] & mask;
	vg_wipe(&s, sizeof(s));
	return ok;
}
