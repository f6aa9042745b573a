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
 * takes x = a R to a^-1 R.
 *
 * The two parts of a batch are the functions of ec.h's "divsteps" block:
 * the steps of one or two inversions at once (vg_ec_divsteps1/2) and the
 * application of a matrix (vg_ec_inv_apply4/6). The assembly tiers run
 * them in assembly (kernels/x86_64/ec/ec_inv.asm, every tier: they need
 * no mulx); the C versions here are its reference (checkasm) and the
 * code of a build without assembly. */
#include <string.h>

#include "ec/ec.h"
#include "ec/ec_asm.h"
#include "vg/wipe.h"
#include "vg_config.h"

#define M62 ((uint64_t)0x3fffffffffffffff)
#define SLIMBS (VG_EC_MAX_LIMBS + 1) /* 62-bit limbs: 5 for 4 limbs, 7 for 6 */

typedef __int128 i128;

typedef struct {
	int64_t u, v, q, r;
} mat;

/* Chunks of at most CHUNK divsteps run on two packed words, each holding
 * the low bits of f (resp. g) and that value's row of the chunk's matrix:
 *   F = f + 2^22 U + 2^43 V,  G = g + 2^22 Q + 2^43 R  (signed fields),
 * scaled so the halving of g halves the rows exactly: they start at
 * (2^n, 0) and (0, 2^n) for an n-step chunk and after j steps are
 * multiples of 2^(n - j), so after n steps f_n 2^n = U f + V g and
 * g_n 2^n = Q f + R g, the matrix. One add, subtract or shift of a word
 * updates f and its row together: about fifteen operations a step. The
 * fields stay exact: f and g start below 2^20 and never grow in
 * magnitude, |U|, |V| <= 2^n <= 2^19 fit their 21 bits, and every
 * operation is exact integer arithmetic on the words. */
#define CHUNK 19
#define FIELD_U 22
#define FIELD_V 43

/* Step n times on F, G; t = 2 delta. Per step: when delta > 0 and g is
 * odd, (delta, f, g) <- (1 - delta, g, (g - f)/2), else (1 + delta, f,
 * (g + (g & 1) f)/2). */
#define DIVSTEP(F, G, t)                                                                           \
	do {                                                                                       \
		uint64_t c2 = vg_ct_barrier(0 - (G & 1));         /* g odd */                      \
		uint64_t c1 = (uint64_t)((int64_t)(0 - t) >> 63); /* delta > 0 */                  \
		G += ((F ^ c1) - c1) & c2;                        /* g - f, g + f or g */          \
		c1 &= c2;                                         /* swap */                       \
		t = ((t ^ c1) - c1) + 2;                                                           \
		F += G & c1; /* swap: f + (g - f) = g */                                           \
		G = (uint64_t)((int64_t)G >> 1);                                                   \
	} while (0)

/* The matrix of a finished chunk from its words. */
static void unpack(mat *m, uint64_t F, uint64_t G)
{
	int64_t v = (int64_t)(F + ((uint64_t)1 << (FIELD_V - 1))) >> FIELD_V;
	int64_t u =
		(int64_t)(F - ((uint64_t)v << FIELD_V) + ((uint64_t)1 << (FIELD_U - 1))) >> FIELD_U;
	int64_t r = (int64_t)(G + ((uint64_t)1 << (FIELD_V - 1))) >> FIELD_V;
	int64_t q =
		(int64_t)(G - ((uint64_t)r << FIELD_V) + ((uint64_t)1 << (FIELD_U - 1))) >> FIELD_U;
	*m = (mat){u, v, q, r};
}

#define LOW20(x) ((x) & (((uint64_t)1 << 20) - 1))

/* n <= CHUNK divsteps on the low bits of f (odd) and g of k independent
 * inversions (k = 1 or 2, interleaved: the step's dependency chain is
 * several operations long, so two chains cost less than two in a row). */
static void chunk(int k, int64_t *t, const uint64_t *f, const uint64_t *g, int n, mat *m)
{
	uint64_t F[2], G[2], ut[2];
	for (int j = 0; j < k; j++) {
		F[j] = LOW20(f[j]) + ((uint64_t)1 << (FIELD_U + n));
		G[j] = LOW20(g[j]) + ((uint64_t)1 << (FIELD_V + n));
		ut[j] = (uint64_t)t[j];
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < k; j++)
			DIVSTEP(F[j], G[j], ut[j]);
	for (int j = 0; j < k; j++) {
		unpack(&m[j], F[j], G[j]);
		t[j] = (int64_t)ut[j];
	}
	vg_wipe(F, sizeof(F));
	vg_wipe(G, sizeof(G));
	vg_wipe(ut, sizeof(ut));
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

/* n <= 62 divsteps of k inversions as chunks of at most CHUNK; each
 * later chunk starts from the low bits of (u f + v g) / 2^s, still exact
 * in 64 - s bits (at least the chunk's length plus one). fg holds f then
 * g of each inversion; m gets k matrices (u, v, q, r). */
static void divsteps(int k, int64_t *m, int64_t *t, const uint64_t *fg, unsigned n)
{
	mat acc[2], mk[2];
	uint64_t f[2], g[2];
	for (int j = 0; j < k; j++) {
		acc[j] = (mat){1, 0, 0, 1};
		f[j] = fg[2 * j];
		g[j] = fg[2 * j + 1];
	}
	for (unsigned s = 0; s < n;) { /* public counts */
		int c = n - s < CHUNK ? (int)(n - s) : CHUNK;
		uint64_t fk[2], gk[2];
		for (int j = 0; j < k; j++) {
			fk[j] = ((uint64_t)acc[j].u * f[j] + (uint64_t)acc[j].v * g[j]) >> s;
			gk[j] = ((uint64_t)acc[j].q * f[j] + (uint64_t)acc[j].r * g[j]) >> s;
		}
		chunk(k, t, fk, gk, c, mk);
		for (int j = 0; j < k; j++)
			mat_mul(&acc[j], &mk[j]);
		s += (unsigned)c;
		vg_wipe(fk, sizeof(fk));
		vg_wipe(gk, sizeof(gk));
	}
	for (int j = 0; j < k; j++) {
		m[4 * j] = acc[j].u;
		m[4 * j + 1] = acc[j].v;
		m[4 * j + 2] = acc[j].q;
		m[4 * j + 3] = acc[j].r;
	}
	vg_wipe(acc, sizeof(acc));
	vg_wipe(mk, sizeof(mk));
	vg_wipe(f, sizeof(f));
	vg_wipe(g, sizeof(g));
}

void vg_ec_divsteps1_c(int64_t m[4], int64_t t[1], const uint64_t fg[2], unsigned n)
{
	divsteps(1, m, t, fg, n);
}

void vg_ec_divsteps2_c(int64_t m[8], int64_t t[2], const uint64_t fg[4], unsigned n)
{
	divsteps(2, m, t, fg, n);
}

/* (f, g) <- M (f, g) / 2^62 on sl signed 62-bit limbs (the top one
 * signed); exact for a full batch. For a shorter last batch only the
 * sign of the floor is used, which is that of M (f, g). */
VG_EC_INLINE void apply_fg(int64_t *f, int64_t *g, size_t sl, const mat *m)
{
	i128 cf = (i128)m->u * f[0] + (i128)m->v * g[0];
	i128 cg = (i128)m->q * f[0] + (i128)m->r * g[0];
	cf >>= 62;
	cg >>= 62;
	VG_EC_UNROLL
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
VG_EC_INLINE void lin(const uint64_t *m, uint64_t m0inv, size_t n, uint64_t *h, int64_t a,
		      const uint64_t *d, int64_t b, const uint64_t *e)
{
	uint64_t s[VG_EC_MAX_LIMBS + 1] = {0}, t[VG_EC_MAX_LIMBS + 1] = {
						       0}; /* = {0}: quiets -Wmaybe-uninitialized */
	i128 c = 0;
	VG_EC_ASSUME_LIMBS(n);

	VG_EC_UNROLL
	for (size_t i = 0; i < n; i++) {
		c += (i128)a * (i128)d[i] + (i128)b * (i128)e[i];
		s[i] = (uint64_t)c;
		c >>= 64;
	}
	int64_t top = (int64_t)c; /* |S| < 2^(64 n + 62): the top word is small */

	uint64_t w = s[0] * m0inv;
	vg_u128 z = (vg_u128)w * m[0] + s[0]; /* low word zero by the choice of w */
	uint64_t carry = (uint64_t)(z >> 64);
	VG_EC_UNROLL
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
	VG_EC_UNROLL
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

/* The matrix m applied to f, g (fg: sl limbs each) and d, e (de: n limbs
 * each); instantiated for 4 and 6 limbs so the limb loops unroll. */
VG_EC_INLINE void apply_n(int64_t *fg, uint64_t *de, const int64_t *m, const uint64_t *mod,
			  uint64_t m0inv, size_t n, size_t sl)
{
	mat M = {m[0], m[1], m[2], m[3]};
	uint64_t nd[VG_EC_MAX_LIMBS];
	apply_fg(fg, fg + sl, sl, &M);
	lin(mod, m0inv, n, nd, M.u, de, M.v, de + n);
	lin(mod, m0inv, n, de + n, M.q, de, M.r, de + n);
	for (size_t i = 0; i < n; i++)
		de[i] = nd[i];
	vg_wipe(nd, sizeof(nd));
	vg_wipe(&M, sizeof(M));
}

void vg_ec_inv_apply4_c(int64_t fg[10], uint64_t de[8], const int64_t m[4], const uint64_t *mod,
			uint64_t m0inv)
{
	apply_n(fg, de, m, mod, m0inv, 4, 5);
}

void vg_ec_inv_apply6_c(int64_t fg[14], uint64_t de[12], const int64_t m[4], const uint64_t *mod,
			uint64_t m0inv)
{
	apply_n(fg, de, m, mod, m0inv, 6, 7);
}

/* The parts this build runs: the assembly when there is some. */
#if VG_HAVE_ASM
#define DIVSTEPS1 vg_ec_divsteps1
#define DIVSTEPS2 vg_ec_divsteps2
#define APPLY4 vg_ec_inv_apply4
#define APPLY6 vg_ec_inv_apply6
#else
#define DIVSTEPS1 vg_ec_divsteps1_c
#define DIVSTEPS2 vg_ec_divsteps2_c
#define APPLY4 vg_ec_inv_apply4_c
#define APPLY6 vg_ec_inv_apply6_c
#endif

/* The state of one inversion: f then g (sl limbs each), d then e. */
struct inv {
	const struct vg_ec_mod *mod;
	int64_t fg[2 * SLIMBS];
	uint64_t de[2 * VG_EC_MAX_LIMBS], nd[VG_EC_MAX_LIMBS];
	int64_t t;
};

/* f = m, g = a as 62-bit limbs (the last one takes the top bits); d = 0,
 * e = 1; t = 2 delta: half-delta for 256 bits, else delta = 1. */
static void inv_init(struct inv *v, const struct vg_ec_mod *mod, size_t n, size_t sl,
		     const uint64_t *a)
{
	v->mod = mod;
	for (size_t i = 0; i < sl; i++) {
		size_t bit = 62 * i, w = bit / 64, sh = bit % 64;
		uint64_t fw = w < n ? mod->m[w] >> sh : 0, gw = w < n ? a[w] >> sh : 0;
		if (sh > 2 && w + 1 < n) {
			fw |= mod->m[w + 1] << (64 - sh);
			gw |= a[w + 1] << (64 - sh);
		}
		v->fg[i] = (int64_t)(fw & M62);
		v->fg[sl + i] = (int64_t)(gw & M62);
	}
	for (size_t i = 0; i < 2 * n; i++)
		v->de[i] = 0;
	v->de[n] = 1;
	v->t = n == 4 ? 1 : 2;
}

/* The low 64 bits of a value in 62-bit limbs. */
static uint64_t low64(const int64_t *x)
{
	return (uint64_t)x[0] | (uint64_t)x[1] << 62;
}

static void inv_apply(struct inv *v, const int64_t *m, size_t n)
{
	if (n == 4) /* public */
		APPLY4(v->fg, v->de, m, v->mod->m, v->mod->m0inv);
	else
		APPLY6(v->fg, v->de, m, v->mod->m, v->mod->m0inv);
}

/* f = +-1 (or +-m for a = 0, where d = 0): x^-1 = sign(f) d 2^(64 B - N);
 * -d = m - d, kept only for a non-zero d so the result stays canonical.
 * Then r = that inv_k R^-1. */
static void inv_finish(struct inv *v, size_t n, size_t sl, uint64_t *r)
{
	uint64_t borrow = 0;
	for (size_t i = 0; i < n; i++) {
		vg_u128 z = (vg_u128)v->mod->m[i] - v->de[i] - borrow;
		v->nd[i] = (uint64_t)z;
		borrow = (uint64_t)(z >> 64) & 1;
	}
	vg_ec_cmov(v->de, v->nd, n, ((uint64_t)v->fg[sl - 1] >> 63) & (vg_ec_iszero(v->de, n) ^ 1));
	vg_ec_mont_mul(r, v->de, v->mod->inv_k, v->mod->m, v->mod->m0inv, n);
}

/* Steps of batch k of B (the last one of a 256-bit inversion is short). */
static unsigned batch_steps(size_t n, size_t k, size_t batches)
{
	return (n == 4 && k == batches - 1) ? 32 : 62; /* public */
}

void vg_ec_modinv(const struct vg_ec_mod *mod, size_t n, uint64_t *r, const uint64_t *a)
{
	struct inv v;
	int64_t m[4];
	uint64_t fg[2];
	size_t sl = n == 4 ? 5 : 7; /* 62-bit limbs holding 64 n + 1 bits */
	size_t batches = VG_EC_INV_BATCHES(n);
	VG_EC_ASSUME_LIMBS(n);

	inv_init(&v, mod, n, sl, a);
	for (size_t k = 0; k < batches; k++) {
		fg[0] = low64(v.fg);
		fg[1] = low64(v.fg + sl);
		DIVSTEPS1(m, &v.t, fg, batch_steps(n, k, batches));
		inv_apply(&v, m, n);
	}
	inv_finish(&v, n, sl, r);
	vg_wipe(&v, sizeof(v));
	vg_wipe(m, sizeof(m));
	vg_wipe(fg, sizeof(fg));
}

void vg_ec_modinv2(const struct vg_ec_mod *m1, uint64_t *r1, const uint64_t *a1,
		   const struct vg_ec_mod *m2, uint64_t *r2, const uint64_t *a2, size_t n)
{
	struct inv v[2];
	int64_t m[8], t[2];
	uint64_t fg[4];
	size_t sl = n == 4 ? 5 : 7;
	size_t batches = VG_EC_INV_BATCHES(n);
	VG_EC_ASSUME_LIMBS(n);

	inv_init(&v[0], m1, n, sl, a1);
	inv_init(&v[1], m2, n, sl, a2);
	for (size_t k = 0; k < batches; k++) {
		for (int j = 0; j < 2; j++) {
			fg[2 * j] = low64(v[j].fg);
			fg[2 * j + 1] = low64(v[j].fg + sl);
			t[j] = v[j].t;
		}
		DIVSTEPS2(m, t, fg, batch_steps(n, k, batches));
		v[0].t = t[0];
		v[1].t = t[1];
		inv_apply(&v[0], m, n);
		inv_apply(&v[1], m + 4, n);
	}
	inv_finish(&v[0], n, sl, r1);
	inv_finish(&v[1], n, sl, r2);
	vg_wipe(v, sizeof(v));
	vg_wipe(m, sizeof(m));
	vg_wipe(t, sizeof(t));
	vg_wipe(fg, sizeof(fg));
}

/* ---- the ifma rows' fused batches ---- */

void vg_ec_inv2_batch_c(struct vg_ec_inv2_state *st, unsigned n, unsigned lins,
			const uint64_t *m0, const uint64_t *m1, size_t limbs)
{
	const uint64_t *mod[2] = {m0, m1};
	size_t sl = limbs + 1;

	if (lins) {
		for (int j = 0; j < 2; j++) {
			uint64_t nd[VG_EC_MAX_LIMBS];
			const int64_t *m = st->m[j];
			uint64_t *d = st->de[j], *e = st->de[j] + limbs;
			if (limbs == 4) {
				lin(mod[j], st->m0inv[j], 4, nd, m[0], d, m[1], e);
				lin(mod[j], st->m0inv[j], 4, e, m[2], d, m[3], e);
			} else {
				lin(mod[j], st->m0inv[j], 6, nd, m[0], d, m[1], e);
				lin(mod[j], st->m0inv[j], 6, e, m[2], d, m[3], e);
			}
			for (size_t i = 0; i < limbs; i++)
				d[i] = nd[i];
			vg_wipe(nd, sizeof(nd));
		}
	}
	if (n == 0) /* public */
		return;
	uint64_t fg[4];
	int64_t m[8];
	for (int j = 0; j < 2; j++) {
		fg[2 * j] = low64(st->fg[j]);
		fg[2 * j + 1] = low64(st->fg[j] + sl);
	}
	vg_ec_divsteps2_c(m, st->t, fg, n);
	for (int j = 0; j < 2; j++) {
		mat M = {m[4 * j], m[4 * j + 1], m[4 * j + 2], m[4 * j + 3]};
		for (int i = 0; i < 4; i++)
			st->m[j][i] = m[4 * j + i];
		apply_fg(st->fg[j], st->fg[j] + sl, sl, &M);
		vg_wipe(&M, sizeof(M));
	}
	vg_wipe(fg, sizeof(fg));
	vg_wipe(m, sizeof(m));
}

#if VG_HAVE_ASM
void vg_ec_modinv2_ifma(const struct vg_ec_mod *m1, uint64_t *r1, const uint64_t *a1,
			const struct vg_ec_mod *m2, uint64_t *r2, const uint64_t *a2, size_t n)
{
	struct inv v[2];
	struct vg_ec_inv2_state st;
	size_t sl = n == 4 ? 5 : 7;
	size_t batches = VG_EC_INV_BATCHES(n);
	void (*batch)(struct vg_ec_inv2_state *, unsigned, unsigned, const uint64_t *,
		      const uint64_t *) = n == 4 ? vg_ec_inv2_batch4_avx512 : vg_ec_inv2_batch6_avx512;
	VG_EC_ASSUME_LIMBS(n);

	inv_init(&v[0], m1, n, sl, a1);
	inv_init(&v[1], m2, n, sl, a2);
	memset(&st, 0, sizeof(st));
	for (int j = 0; j < 2; j++) {
		memcpy(st.fg[j], v[j].fg, 2 * sl * 8);
		memcpy(st.de[j], v[j].de, 2 * n * 8);
		st.t[j] = v[j].t;
	}
	st.m0inv[0] = m1->m0inv;
	st.m0inv[1] = m2->m0inv;
	for (size_t k = 0; k < batches; k++) /* the first batch has no pending d, e update */
		batch(&st, batch_steps(n, k, batches), k > 0, m1->m, m2->m);
	batch(&st, 0, 1, m1->m, m2->m); /* the last batch's d, e */
	for (int j = 0; j < 2; j++) {
		memcpy(v[j].fg, st.fg[j], 2 * sl * 8);
		memcpy(v[j].de, st.de[j], 2 * n * 8);
	}
	inv_finish(&v[0], n, sl, r1);
	inv_finish(&v[1], n, sl, r2);
	vg_wipe(v, sizeof(v));
	vg_wipe(&st, sizeof(st));
}
#endif
