/* rsa_core.c: the RSA primitives: out = in^d mod n by the CRT with a fault
 * check, and out = in^e mod n. Secret: p, q, dp, dq, qinv, their Montgomery
 * constants and every intermediate of the private operation, including the
 * result until the fault check has passed. Public: n, e, the input (a
 * ciphertext or an encoded digest), all lengths, and the single bit "the
 * result verified". */
#include <stddef.h>
#include <stdint.h>

#include "cpu_internal.h"
#include "ct.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/mont_asm.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_key.h"
#include "vg/rsa.h"
#include "vg/wipe.h"

/* Stack scratch of one private operation, wiped as a whole on every exit.
 * m and m2 have room for p.limbs + q.limbs, which may exceed n's limbs by
 * one when the factors are unbalanced. */
struct priv_scratch {
	uint64_t c[VG_BN_MAX_LIMBS];      /* the input */
	uint64_t t[VG_BN_MAX_LIMBS];      /* c or m2 in the Montgomery domain */
	uint64_t m1[VG_BN_MAX_LIMBS];     /* c^dp mod p, Montgomery form */
	uint64_t h[VG_BN_MAX_LIMBS];      /* (m1 - m2) qinv mod p */
	uint64_t m2[2 * VG_BN_MAX_LIMBS]; /* c^dq mod q */
	uint64_t m[2 * VG_BN_MAX_LIMBS];  /* the result m2 + h q */
	uint64_t chk[VG_BN_MAX_LIMBS];    /* m^e mod n */
	vg_mont mp, mq, mn;
};

int vg_rsa_private(const vg_rsa_key *key, uint8_t *out, const uint8_t *in, size_t len)
{
	struct priv_scratch s;
	const struct vg_rsa_public_key *pub;
	size_t nl, lp, lq;
	uint64_t ok;
	const struct vg_rsa52_impl *f52;
	vg_amm52x2_fn *f1;

	if (!key || !out || !in)
		return VG_E_INVALID;
	pub = &key->pub;
	if (len != pub->bytes)
		return VG_E_INVALID;
	nl = pub->limbs;
	lp = key->p.limbs;
	lq = key->q.limbs;

	for (size_t i = 0; i < 2 * VG_BN_MAX_LIMBS; i++)
		s.m[i] = s.m2[i] = 0;
	/* len = k <= 8 nl bytes always fits. The input is public: the range
	 * check may branch. */
	(void)vg_bn_from_bytes(s.c, nl, in, len);
	if (!vg_bn_lt(s.c, pub->n, nl)) {
		vg_wipe(&s, sizeof(s));
		return VG_E_RANGE;
	}
	vg_mont_init(&s.mp, key->p.prime, key->p.rr, key->p.m0inv, lp);
	vg_mont_init(&s.mq, key->q.prime, key->q.rr, key->q.m0inv, lq);
	vg_mont_init(&s.mn, pub->n, pub->rr, pub->n0inv, nl);

	f52 = vg_rsa52_pick(key->r52.digits);
	if (f52) {
		/* ifma tier: both halves at once in radix 2^52, from c mod p and
		 * c mod q; m1 then enters the Montgomery domain for Garner. The
		 * choice depends on the CPU and the public limb counts only. */
		vg_mont_reduce(&s.mp, s.t, s.c, nl);
		vg_mont_from(&s.mp, s.t, s.t);
		vg_mont_reduce(&s.mq, s.h, s.c, nl);
		vg_mont_from(&s.mq, s.h, s.h);
		vg_rsa52_exp2(&key->r52, f52, s.m1, s.m2, s.t, s.h, key->p.exp, key->q.exp,
			      key->p.bits > key->q.bits ? key->p.bits : key->q.bits, key->p.prime,
			      key->q.prime, lp);
		vg_mont_mul(&s.mp, s.m1, s.m1, key->p.rr);
	} else {
		/* m1 = c^dp mod p, kept in the Montgomery domain for Garner. The
		 * exponent is used at the public length of p whatever dp's
		 * value. */
		vg_mont_reduce(&s.mp, s.t, s.c, nl);
		vg_mont_exp_ct(&s.mp, s.m1, s.t, key->p.exp, key->p.bits);

		/* m2 = c^dq mod q, as a plain integer. */
		vg_mont_reduce(&s.mq, s.t, s.c, nl);
		vg_mont_exp_ct(&s.mq, s.m2, s.t, key->q.exp, key->q.bits);
		vg_mont_from(&s.mq, s.m2, s.m2);
	}

	/* Garner: h = (m1 - m2) qinv mod p. m2 < q may exceed p (either order
	 * of the factors is allowed), so it is reduced mod p first; the
	 * Montgomery factor R of (m1 - m2) R cancels in the multiply by the
	 * plain qinv. */
	vg_mont_reduce(&s.mp, s.t, s.m2, lq);
	vg_mont_sub(&s.mp, s.t, s.m1, s.t);
	vg_mont_mul(&s.mp, s.h, s.t, key->qinv);

	/* m = m2 + h q <= (p - 1) q + q - 1 < n: no reduction needed. m2 is
	 * zero above lq limbs, so one full-width add takes the carry up. */
	vg_bn_mul(s.m, s.h, lp, key->q.prime, lq);
	(void)vg_bn_add(s.m, s.m, s.m2, lp + lq);

	/* Fault check (Bellcore): a wrong half would let the result reveal a
	 * factor of n, so m is released only if m^e == c. e is public, so the
	 * square-and-multiply may branch on it. */
	f1 = vg_amm52x1_pick(pub->r52.digits);
	if (f1) {
		vg_rsa52_exp_pub(&pub->r52, f1, s.chk, s.m, pub->n, nl, pub->e);
	} else {
		vg_mont_mul(&s.mn, s.t, s.m, pub->rr);
		vg_mont_exp_pub_plain(&s.mn, s.chk, s.t, s.m, pub->e);
	}
	ok = vg_bn_eq(s.chk, s.c, nl);

	/* Write m masked by ok (a zeroed output on a fault) without branching
	 * on ok: the caller learns it from the return value. */
	{
		uint64_t mask = vg_ct_barrier(vg_ct_mask(ok));
		for (size_t i = 0; i < nl; i++)
			s.m[i] &= mask;
	}
	vg_bn_to_bytes(out, len, s.m, nl);
	vg_wipe(&s, sizeof(s));
	/* 0 or VG_E_FAULT by multiplication, not by a branch. */
	return VG_E_FAULT * (int)(ok ^ 1);
}

int vg_rsa_public(const vg_rsa_public_key *pub, uint8_t *out, const uint8_t *in, size_t len)
{
	uint64_t c[VG_BN_MAX_LIMBS], t[VG_BN_MAX_LIMBS], r[VG_BN_MAX_LIMBS];
	vg_mont mn;
	vg_amm52x2_fn *f1;

	if (!pub || !out || !in)
		return VG_E_INVALID;
	if (len != pub->bytes)
		return VG_E_INVALID;
	(void)vg_bn_from_bytes(c, pub->limbs, in, len);
	if (!vg_bn_lt(c, pub->n, pub->limbs))
		return VG_E_RANGE;
	f1 = vg_amm52x1_pick(pub->r52.digits);
	if (f1) {
		/* ifma tier: radix 2^52, one multiply at a time */
		vg_rsa52_exp_pub(&pub->r52, f1, r, c, pub->n, pub->limbs, pub->e);
	} else {
		vg_mont_init(&mn, pub->n, pub->rr, pub->n0inv, pub->limbs);
		vg_mont_mul(&mn, t, c, pub->rr);
		vg_mont_exp_pub_plain(&mn, r, t, c, pub->e);
	}
	vg_bn_to_bytes(out, len, r, pub->limbs);
	/* Nothing here is secret (a signature being checked, or a plaintext
	 * the caller chose), but wiping is cheap and keeps the rule simple. */
	vg_wipe(c, sizeof(c));
	vg_wipe(t, sizeof(t));
	vg_wipe(r, sizeof(r));
	return 0;
}

const char *vg_rsa_variant(void) { return vg_mont_tier_name(); }
