/* rsa_mb_private.c: vg_rsa_private_mb (vg/rsa_mb.h): the CRT halves of
 * several private operations through the batched exponentiation
 * (rsa_mb_exp.c), then each operation's Garner step and fault check alone,
 * as vg_rsa_private (rsa_core.c) does for one. Secret: every key's primes,
 * exponents, constants, qinv and every intermediate, including each
 * result until its check has passed. Public: n, e, the inputs, the number
 * of operations, each key's limb and bit lengths (which batch a half goes
 * to), and each operation's status bit. */
#include <stddef.h>
#include <stdint.h>

#include "ct.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_mb_impl.h"
#include "vg/rsa_mb.h"
#include "vg/wipe.h"

#define LANES VG_RSA_MB_LANES

/* The fewest operations (of one size) worth a batch of their own, by
 * size (vg_rsa_mb_digits): a batch of eight lanes costs the same with 2
 * or 8 halves in it, about 1.8 single operations at RSA-2048, 3.1 at
 * 3072 and 3.6 at 4096 (AMD EPYC Zen 5, vg_rsa_private's ifma row, thread
 * CPU time), so 2 operations pay at 2048 and only a full batch of 4 at the
 * larger sizes. Public policy, not secret. */
static const size_t min_ops[VG_RSA_MB_SIZES] = {2, 4, 4};

/* Stack scratch of one call, wiped as a whole. */
struct mb_priv {
	uint64_t c[VG_RSA_MB_MAX][VG_BN_MAX_LIMBS];   /* each input */
	uint64_t m1q[VG_RSA_MB_MAX][VG_BN_MAX_LIMBS]; /* c^dp qinv mod p */
	uint64_t m2[VG_RSA_MB_MAX][VG_BN_MAX_LIMBS];  /* c^dq mod q */
	uint64_t t[VG_BN_MAX_LIMBS], h[VG_BN_MAX_LIMBS];
	uint64_t m[2 * VG_BN_MAX_LIMBS]; /* the result m2 + h q */
	uint64_t chk[VG_BN_MAX_LIMBS];   /* m^e mod n */
	struct vg_rsa_mb_lane lane[2 * VG_RSA_MB_MAX];
	size_t bits[2 * VG_RSA_MB_MAX]; /* public: each lane's prime length */
	vg_mont mp;
};

/* The lane of half h (0: p, 1: q) of operation i, from the key's radix-2^52
 * constants (vg_rsa52, the pair's layout: half h at h * stride). */
static void set_lane(struct vg_rsa_mb_lane *ln, const vg_rsa_key *key, size_t h, uint64_t *x,
		     uint64_t *r)
{
	size_t off = h * VG_RSA52_STRIDE(key->r52.digits);
	const struct vg_rsa_crt *half = h ? &key->q : &key->p;

	ln->m52 = key->r52.m + off;
	ln->rr52 = key->r52.rr + off;
	ln->hi52 = key->r52.hi + off;
	ln->out52 = key->r52.out + off; /* qinv for p, 1 for q */
	ln->k0 = key->r52.k0[h];
	ln->m64 = half->prime;
	ln->e = half->exp;
	ln->x = x;
	ln->r = r;
}

/* Garner and the check of operation i, whose halves are done: h = m1 qinv
 * - m2 qinv mod p (vg_rsa_crt_52's step), m = m2 + h q, released only if
 * m^e == c (Bellcore), else zeroed. Returns 0 or VG_E_FAULT without a
 * branch on the check. */
static int finish(struct mb_priv *s, const struct vg_rsa_impl *im, const vg_rsa_key *key, size_t i,
		  uint8_t *out, size_t len)
{
	const struct vg_rsa_public_key *pub = &key->pub;
	size_t nl = pub->limbs, lp = key->p.limbs, lq = key->q.limbs;
	uint64_t ok, mask;

	vg_rsa_mont_init(im, &s->mp, key->p.prime, key->p.rr, key->p.m0inv, lp);
	/* m2 qinv = m2 (qinv R) R^-1 mod p (m2 < q < R: lp == lq here) */
	vg_mont_mul(&s->mp, s->t, s->m2[i], key->qinv_r);
	vg_mont_sub(&s->mp, s->h, s->m1q[i], s->t);
	vg_bn_mul(s->m, s->h, lp, key->q.prime, lq);
	/* m2 + h q <= (p - 1) q + q - 1 < n: no reduction. m2[i] is zero above
	 * lq limbs (lp + lq <= VG_BN_MAX_LIMBS here), so one add carries up. */
	(void)vg_bn_add(s->m, s->m, s->m2[i], lp + lq);
	im->pub(im, pub, s->chk, s->m);
	ok = vg_bn_eq(s->chk, s->c[i], nl);
	mask = vg_ct_barrier(vg_ct_mask(ok));
	for (size_t j = 0; j < nl; j++)
		s->m[j] &= mask;
	vg_bn_to_bytes(out, len, s->m, nl);
	return VG_E_FAULT * (int)(ok ^ 1);
}

/* Run the halves of the operations marked in todo whose keys have L
 * digits, in batches of LANES: first every p half, then every q half, so
 * that with 4 operations one batch holds them all and with 8 the p halves
 * and the q halves fill one batch each. A batch's exponent length is the
 * largest prime length in it (public). */
static void run_size(struct mb_priv *s, const struct vg_rsa_mb_impl *mb,
		     const vg_rsa_key *const keys[], const uint8_t *todo, size_t n, size_t L)
{
	size_t nlanes = 0, limbs = 0;

	for (size_t h = 0; h < 2; h++)
		for (size_t i = 0; i < n; i++) {
			if (!todo[i] || keys[i]->r52.digits != L)
				continue;
			set_lane(&s->lane[nlanes], keys[i], h, s->c[i], h ? s->m2[i] : s->m1q[i]);
			s->bits[nlanes++] = h ? keys[i]->q.bits : keys[i]->p.bits;
			limbs = keys[i]->p.limbs; /* the same for every key of L digits */
		}
	for (size_t b = 0; b < nlanes; b += LANES) {
		size_t nl = nlanes - b < LANES ? nlanes - b : LANES, ebits = 0;
		for (size_t l = 0; l < nl; l++)
			ebits = s->bits[b + l] > ebits ? s->bits[b + l] : ebits;
		vg_rsa_mb_exp(mb, L, limbs, &s->lane[b], nl, ebits);
	}
}

int vg_rsa_private_mb(const vg_rsa_key *const keys[], uint8_t *const out[],
		      const uint8_t *const in[], const size_t len[], size_t n, int rc[])
{
	struct mb_priv s;
	uint8_t todo[VG_RSA_MB_MAX] = {0};
	const struct vg_rsa_impl *im = vg_rsa_impl();
	const struct vg_rsa_mb_impl *mb = vg_rsa_mb_impl();

	if (!keys || !out || !in || !len || !rc || n == 0 || n > VG_RSA_MB_MAX)
		return VG_E_INVALID;
	for (size_t i = 0; i < n; i++)
		if (!keys[i] || !out[i] || !in[i])
			return VG_E_INVALID;

	vg_wipe(&s, sizeof(s));
	/* The inputs and their range (public: may branch). A key whose halves
	 * the batches do not cover (unbalanced primes: r52.digits == 0) goes
	 * alone through vg_rsa_private. */
	for (size_t i = 0; i < n; i++) {
		const struct vg_rsa_public_key *pub = &keys[i]->pub;
		rc[i] = 0;
		if (len[i] != pub->bytes) {
			rc[i] = VG_E_INVALID;
			continue;
		}
		(void)vg_bn_from_bytes(s.c[i], pub->limbs, in[i], len[i]);
		if (!vg_bn_lt(s.c[i], pub->n, pub->limbs)) {
			rc[i] = VG_E_RANGE;
			continue;
		}
		if (keys[i]->r52.digits == 0) {
			rc[i] = vg_rsa_private(keys[i], out[i], in[i], len[i]);
			continue;
		}
		todo[i] = 1;
	}
	for (size_t k = 0; k < VG_RSA_MB_SIZES; k++) {
		size_t L = vg_rsa_mb_digits[k], nL = 0, single = 0;
		for (size_t i = 0; i < n; i++)
			nL += todo[i] && keys[i]->r52.digits == L;
		/* An asm row without its own multiply for L digits holds the C
		 * one there, eight lanes of which are slower than the single
		 * operations: all of them run alone. Otherwise the operations
		 * past the last full batch (4 operations fill one) run alone
		 * when fewer than min_ops: a batch costs the same however many
		 * lanes are idle. The C row batches everything (the reference,
		 * and the tests' --c runs). */
		if (mb != &vg_rsa_mb_impls[0]) {
			single = nL % 4 < min_ops[k] ? nL % 4 : 0;
			if (mb->mul[k] == vg_rsa_mb_impls[0].mul[k])
				single = nL;
		}
		for (size_t i = n; i-- > 0 && single > 0;)
			if (todo[i] && keys[i]->r52.digits == L) {
				todo[i] = 0;
				single--;
				rc[i] = vg_rsa_private(keys[i], out[i], in[i], len[i]);
			}
		run_size(&s, mb, keys, todo, n, L);
	}
	for (size_t i = 0; i < n; i++)
		if (todo[i])
			rc[i] = finish(&s, im, keys[i], i, out[i], len[i]);
	vg_wipe(&s, sizeof(s));
	return 0;
}
