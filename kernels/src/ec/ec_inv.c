/* ec_inv.c: constant-time modular inversion by Bernstein-Yang divsteps
 * ("Fast constant-time gcd computation and modular inversion", 2019), for
 * any odd modulus of 4 or 6 limbs: the field inversions and the inversion
 * of the nonce of the assembly tiers (the C row keeps its Fermat chain,
 * an independent oracle). Secret: the input and every intermediate; the
 * number of steps is fixed and every choice is a mask.
 *
 * Steps. 256-bit moduli: 590 "half-delta" divsteps (delta starts at 1/2),
 * the count that suffices for every 256-bit input (the bound computed for
 * libsecp256k1's safegcd and used by our Curve25519 inversion,
 * kernels/src/c25519/fe4_inv.c). 384-bit moduli: ordinary divsteps (delta
 * starts at 1) and the paper's Theorem 11.2 bound, (49 d + 57) / 17 =
 * 1111 steps for d = 384, rounded up to 18 batches of 62.
 *
 * Each batch runs its steps on the low 64 bits of f and g only, recording
 * them as a 2x2 matrix M (f_new 2^62 = u f + v g, g_new 2^62 = q f + r g),
 * then applies M to the full f, g (signed 62-bit limbs, exact division by
 * 2^62) and to d, e, the residues with f = d' x 2^-s, g = e' x 2^-s
 * (mod m) after s steps. d and e are kept canonical by a word of
 * Montgomery reduction in each application (d = d' 2^-64k after k
 * batches), which needs nothing of m but -m^-1 mod 2^64, so one code
 * serves p and n. At the end f = +-1, so x^-1 = +-d 2^(64 B - N): one
 * Montgomery multiplication by the curve's inv_k = 2^(64 B - N) R^3 also
 * takes x = a R to a^-1 R. */
#include "ec/ec.h"
#include "vg/wipe.h"

#define M62 ((uint64_t)0x3fffffffffffffff)
#define SLIMBS (VG_EC_MAX_LIMBS + 1) /* 62-bit limbs: 5 for 4 limbs, 7 for 6 */

typedef __int128 i128;

typedef struct {
	int64_t u, v, q, r;
} mat;

/* n <= 21 divsteps on the low bits of f (odd) and g; t = 2 delta. Per
 * step: when delta > 0 and g is odd, (delta, f, g) <- (1 - delta, g,
 * (g - f)/2), else (1 + delta, f, (g + (g & 1) f)/2). The rows of the
 * matrix follow f and g scaled by 2^steps (f's row doubles instead of g's
 * halving), which keeps them linear, so each row is packed in one word
 * as u + 2^32 v (|u|, |v| <= 2^21). */
static int64_t chunk(int64_t t, uint64_t f, uint64_t g, int n, mat *m)
{
	uint64_t rf = 1, rg = (uint64_t)1 << 32, ut = (uint64_t)t;
	for (int i = 0; i < n; i++) {
		uint64_t odd = vg_ct_barrier(0 - (g & 1));
		uint64_t c1 = (uint64_t)((int64_t)(0 - ut) >> 63) & odd; /* t > 0 and g odd */
		ut = 2 + ((ut ^ c1) - c1);
		uint64_t gn = g + (f & odd) - ((f << 1) & c1);
		uint64_t rgn = rg + (rf & odd) - ((rf << 1) & c1);
		f ^= (f ^ g) & c1;
		rf = (rf ^ ((rf ^ rg) & c1)) << 1;
		g = gn >> 1;
		rg = rgn;
	}
	m->u = (int32_t)(uint32_t)rf;
	m->v = (int64_t)(rf - (uint64_t)m->u) >> 32;
	m->q = (int32_t)(uint32_t)rg;
	m->r = (int64_t)(rg - (uint64_t)m->q) >> 32;
	return (int64_t)ut;
}

/* a = b a (the later steps' matrix after the earlier ones); rows of at
 * most 62 steps have |u| + |v| <= 2^62, so nothing overflows. */
static void mat_mul(mat *a, const mat *b)
{
	uint64_t u = (uint64_t)b->u * (uint64_t)a->u + (uint64_t)b->v * (uint64_t)a->q;
	uint64_t v = (uint64_t)b->u * (uint64_t)a->v + (uint64_t)b->v * (uint64_t)a->r;
	uint64_t q = (uint64_t)b->q * (uint64_t)a->u + (uint64_t)b->r * (uint64_t)a->q;
	uint64_t r = (uint64_t)b->q * (uint64_t)a->v + (uint64_t)b->r * (uint64_t)a->r;
	*a = (mat){(int64_t)u, (int64_t)v, (int64_t)q, (int64_t)r};
}

/* n <= 62 divsteps as chunks of at most 21; each later chunk starts from
 * the low bits of (u f + v g) / 2^s, still exact in 64 - s bits. */
static int64_t batch(int64_t t, uint64_t f, uint64_t g, int n, mat *m)
{
	mat mk;
	int s = n < 21 ? n : 21;
	t = chunk(t, f, g, s, m);
	while (s < n) { /* public counts */
		int c = n - s < 21 ? n - s : 21;
		uint64_t fk = ((uint64_t)m->u * f + (uint64_t)m->v * g) >> s;
		uint64_t gk = ((uint64_t)m->q * f + (uint64_t)m->r * g) >> s;
		t = chunk(t, fk, gk, c, &mk);
		mat_mul(m, &mk);
		s += c;
	}
	vg_wipe(&mk, sizeof(mk));
	return t;
}

/* (f, g) <- M (f, g) / 2^62 on sl signed 62-bit limbs (the top one
 * signed); exact for a full batch. For a shorter last batch only the
 * sign of the floor is used, which is that of M (f, g). */
static void apply_fg(int64_t *f, int64_t *g, size_t sl, const mat *m)
{
	i128 cf = (i128)m->u * f[0] + (i128)m->v * g[0];
	i128 cg = (i128)m->q * f[0] + (i128)m->r * g[0];
	cf >>= 62;
	cg >>= 62;
	for (size_t i = 1; i < sl; i++) {
		cf += (i128)m->u * f[i] + (i128)m->v * g[i];
		cg += (i128)m->q * f[i] + (i128)m->r * g[i];
		f[i - 1] = (int64_t)((uint64_t)cf & M62);
		g[i - 1] = (int64_t)((uint64_t)cg & M62);
		cf >>= 62;
		cg >>= 62;
	}
	f[sl - 1] = (int64_t)cf;
	g[sl - 1] = (int64_t)cg;
}

/* h = (a d + b e) 2^-64 mod m, canonical, for |a| + |b| <= 2^62 and
 * d, e < m. S = a d + b e has |S| < 2^62 m; with w = S_0 (-m^-1) mod 2^64,
 * V = (S + w m) / 2^64 is exact and in (-m/4, 5m/4): add m if negative,
 * then subtract m if not below it (both masked). */
static void lin(const struct vg_ec_mod *mod, size_t n, uint64_t *h, int64_t a, const uint64_t *d,
		int64_t b, const uint64_t *e)
{
	const uint64_t *m = mod->m;
	uint64_t s[VG_EC_MAX_LIMBS + 1] = {0}, t[VG_EC_MAX_LIMBS + 1] = {0}; /* = {0}: quiets -Wmaybe-uninitialized */
	i128 c = 0;
	VG_EC_ASSUME_LIMBS(n);

	for (size_t i = 0; i < n; i++) {
		c += (i128)a * (i128)d[i] + (i128)b * (i128)e[i];
		s[i] = (uint64_t)c;
		c >>= 64;
	}
	int64_t top = (int64_t)c; /* |S| < 2^(64 n + 62): the top word is small */

	uint64_t w = s[0] * mod->m0inv;
	vg_u128 z = (vg_u128)w * m[0] + s[0]; /* low word zero by the choice of w */
	uint64_t carry = (uint64_t)(z >> 64);
	for (size_t i = 1; i < n; i++) {
		z = (vg_u128)w * m[i] + s[i] + carry;
		t[i - 1] = (uint64_t)z;
		carry = (uint64_t)(z >> 64);
	}
	c = (i128)top + (i128)carry;
	t[n - 1] = (uint64_t)c;
	int64_t hi = (int64_t)(c >> 64); /* -1, 0 or 1 */

	/* negative: add m (the sum is then in [0, m), the carry cancels hi) */
	uint64_t neg = vg_ct_barrier(0 - ((uint64_t)hi >> 63));
	carry = 0;
	for (size_t i = 0; i < n; i++) {
		z = (vg_u128)t[i] + (m[i] & neg) + carry;
		t[i] = (uint64_t)z;
		carry = (uint64_t)(z >> 64);
	}
	t[n] = (uint64_t)hi + carry; /* 0 or 1 */
	vg_ec_mont_csub(h, t, m, n);
	vg_wipe(s, sizeof(s));
	vg_wipe(t, sizeof(t));
}

/* The low 64 bits of a value in 62-bit limbs. */
static uint64_t low64(const int64_t *x) { return (uint64_t)x[0] | (uint64_t)x[1] << 62; }

void vg_ec_modinv(const struct vg_ec_mod *mod, size_t n, uint64_t *r, const uint64_t *a)
{
	struct {
		int64_t f[SLIMBS], g[SLIMBS];
		uint64_t d[VG_EC_MAX_LIMBS], e[VG_EC_MAX_LIMBS], nd[VG_EC_MAX_LIMBS];
		mat m;
	} v;
	size_t sl = n == 4 ? 5 : 7; /* 62-bit limbs holding 64 n + 1 bits */
	size_t batches = VG_EC_INV_BATCHES(n);
	VG_EC_ASSUME_LIMBS(n);

	/* f = m, g = a, as 62-bit limbs (the last one takes the top bits) */
	for (size_t i = 0; i < sl; i++) {
		size_t bit = 62 * i, w = bit / 64, sh = bit % 64;
		uint64_t fw = w < n ? mod->m[w] >> sh : 0, gw = w < n ? a[w] >> sh : 0;
		if (sh > 2 && w + 1 < n) {
			fw |= mod->m[w + 1] << (64 - sh);
			gw |= a[w + 1] << (64 - sh);
		}
		v.f[i] = (int64_t)(fw & M62);
		v.g[i] = (int64_t)(gw & M62);
	}
	for (size_t i = 0; i < n; i++)
		v.d[i] = v.e[i] = 0;
	v.e[0] = 1;

	int64_t t = n == 4 ? 1 : 2; /* 2 delta: half-delta for 256 bits, else delta = 1 */
	for (size_t k = 0; k < batches; k++) {
		int steps = (n == 4 && k == batches - 1) ? 32 : 62; /* public */
		t = batch(t, low64(v.f), low64(v.g), steps, &v.m);
		apply_fg(v.f, v.g, sl, &v.m);
		lin(mod, n, v.nd, v.m.u, v.d, v.m.v, v.e);
		lin(mod, n, v.e, v.m.q, v.d, v.m.r, v.e);
		vg_ec_copy(v.d, v.nd, n);
	}
	/* f = +-1 (or +-m for a = 0, where d = 0): x^-1 = sign(f) d 2^(64 B - N);
	 * -d = m - d, kept only for a non-zero d so the result stays canonical */
	uint64_t borrow = 0;
	for (size_t i = 0; i < n; i++) {
		vg_u128 z = (vg_u128)mod->m[i] - v.d[i] - borrow;
		v.nd[i] = (uint64_t)z;
		borrow = (uint64_t)(z >> 64) & 1;
	}
	vg_ec_cmov(v.d, v.nd, n, ((uint64_t)v.f[sl - 1] >> 63) & (vg_ec_iszero(v.d, n) ^ 1));
	vg_ec_mont_mul(r, v.d, mod->inv_k, mod->m, mod->m0inv, n);
	vg_wipe(&v, sizeof(v));
}
