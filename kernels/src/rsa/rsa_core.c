/* rsa_core.c: the RSA primitives: out = in^d mod n by the CRT with a fault
 * check, and out = in^e mod n, on the chosen RSA variant (rsa_impl.h:
 * its multiplies and exponentiation method). Secret: p, q, dp, dq, qinv, their Montgomery
 * constants and every intermediate of the private operation, including the
 * result until the fault check has passed. Public: n, e, the input (a
 * ciphertext or an encoded digest), all lengths, and the single bit "the
 * result verified". */
#include <stddef.h>
#include <stdint.h>

#include "ct.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "vg/rsa.h"
#include "vg/wipe.h"

/* Stack scratch of one private operation, wiped as a whole on every exit.
 * m and m2 have room for p.limbs + q.limbs, which may exceed n's limbs by
 * one when the factors are unbalanced. */
struct priv_scratch {
	uint64_t c[VG_BN_MAX_LIMBS];      /* the input */
	uint64_t h[VG_BN_MAX_LIMBS];      /* (m1 - m2) qinv mod p */
	uint64_t m2[2 * VG_BN_MAX_LIMBS]; /* c^dq mod q */
	uint64_t m[2 * VG_BN_MAX_LIMBS];  /* the result m2 + h q */
	uint64_t chk[VG_BN_MAX_LIMBS];    /* m^e mod n */
	vg_mont mp, mq;
};

int vg_rsa_private(const vg_rsa_key *key, uint8_t *out, const uint8_t *in, size_t len)
{
	struct priv_scratch s;
	const struct vg_rsa_public_key *pub;
	size_t nl, lp, lq;
	uint64_t ok;
	const struct vg_rsa_impl *im = vg_rsa_impl();

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
	vg_rsa_mont_init(im, &s.mp, key->p.prime, key->p.rr, key->p.m0inv, lp);
	vg_rsa_mont_init(im, &s.mq, key->q.prime, key->q.rr, key->q.m0inv, lq);
	s.mp.rrr = key->p.rrr;
	s.mq.rrr = key->q.rrr;

	/* h = (m1 - m2) qinv mod p with m1 = c^dp mod p and m2 = c^dq mod q
	 * (Garner), by the variant's method; which one depends on the CPU and
	 * the public limb counts only. */
	im->crt(im, key, &s.mp, &s.mq, s.h, s.m2, s.c);

	/* m = m2 + h q <= (p - 1) q + q - 1 < n: no reduction needed. m2 is
	 * zero above lq limbs, so one full-width add takes the carry up. */
	vg_bn_mul(s.m, s.h, lp, key->q.prime, lq);
	(void)vg_bn_add(s.m, s.m, s.m2, lp + lq);

	/* Fault check (Bellcore): a wrong half would let the result reveal a
	 * factor of n, so m is released only if m^e == c. e is public, so the
	 * square-and-multiply may branch on it. */
	im->pub(im, pub, s.chk, s.m);
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
	uint64_t c[VG_BN_MAX_LIMBS], r[VG_BN_MAX_LIMBS];
	const struct vg_rsa_impl *im;

	if (!pub || !out || !in)
		return VG_E_INVALID;
	if (len != pub->bytes)
		return VG_E_INVALID;
	(void)vg_bn_from_bytes(c, pub->limbs, in, len);
	if (!vg_bn_lt(c, pub->n, pub->limbs))
		return VG_E_RANGE;
	im = vg_rsa_impl();
	im->pub(im, pub, r, c);
	vg_bn_to_bytes(out, len, r, pub->limbs);
	/* Nothing here is secret (a signature being checked, or a plaintext
	 * the caller chose), but wiping is cheap and keeps the rule simple. */
	vg_wipe(c, sizeof(c));
	vg_wipe(r, sizeof(r));
	return 0;
}
