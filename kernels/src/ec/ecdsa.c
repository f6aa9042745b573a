/* ecdsa.c: ECDSA keys, signing with the fault check, and verification
 * (FIPS 186-4 section 6; SEC 1 v2 sections 4.1.3 and 4.1.4), for P-256
 * and P-384, through one curve's implementation row.
 *
 * Secret: d and its Montgomery form, the nonce k, k^-1, the point k G
 * (its x becomes r, public only once the signature is released), s until
 * the check has passed, and every intermediate. The fault check is
 * check_cheap (its comment gives the argument and what it leaves out). They are handled by the
 * constant-time row operations only and wiped on every exit. Public: the
 * curve, lengths, the public key, the digest (treated with the same care
 * as the secrets while signing anyway), a released signature, and the
 * two rare events "r or s was zero, signing again" and "the check
 * failed". Verification is variable time. */
#include <string.h>

#include "ec/ecdsa_internal.h"
#include "random.h"
#include "vg/wipe.h"

size_t vg_ecdsa_scalar_len(vg_ecdsa_curve curve)
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(curve);
	return f ? f->curve->bytes : 0;
}

size_t vg_ecdsa_sig_len(vg_ecdsa_curve curve) { return 2 * vg_ecdsa_scalar_len(curve); }

size_t vg_ecdsa_public_len(vg_ecdsa_curve curve)
{
	size_t len = vg_ecdsa_scalar_len(curve);
	return len ? 1 + 2 * len : 0;
}

size_t vg_ecdsa_key_size(void) { return sizeof(vg_ecdsa_key); }

vg_ecdsa_curve vg_ecdsa_key_curve(const vg_ecdsa_key *key) { return key->curve; }

const uint8_t *vg_ecdsa_key_public(const vg_ecdsa_key *key, size_t *len)
{
	*len = vg_ecdsa_public_len(key->curve);
	return key->pub;
}

void vg_ecdsa_key_wipe(vg_ecdsa_key *key) { vg_wipe(key, sizeof(*key)); }

/* e = bits2int(digest) mod n (RFC 6979 2.3.2 and 2.3.4; SEC 1 4.1.3 step
 * 5): the leftmost 8 bytes-per-scalar bytes of the digest, or the whole
 * digest zero-extended on the left when it is shorter. qlen is a multiple
 * of 8 on both curves, so no bit shift is needed. e < 2^qlen < 2n, so one
 * masked subtraction reduces it. */
static void digest_to_e(const struct vg_ec_curve *c, uint64_t *e, const uint8_t *digest,
			size_t dlen)
{
	uint8_t buf[VG_ECDSA_MAX_SCALAR_LEN];
	size_t take = dlen < c->bytes ? dlen : c->bytes;

	memset(buf, 0, c->bytes);
	if (take)
		memcpy(buf + c->bytes - take, digest, take);
	vg_ec_from_bytes(e, buf, c->limbs);
	vg_ec_reduce_once(e, e, c->n.m, c->limbs);
	vg_wipe(buf, sizeof(buf));
}

int vg_ecdsa_verify_with(const struct vg_ec_impl *f, const uint64_t *qx, const uint64_t *qy,
			 const uint64_t *e, const uint64_t *r, const uint64_t *s)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	uint64_t w[VG_EC_MAX_LIMBS], u1[VG_EC_MAX_LIMBS], u2[VG_EC_MAX_LIMBS];
	uint64_t t[VG_EC_MAX_LIMBS + 1], rz[VG_EC_MAX_LIMBS];
	vg_ec_point Q, X;

	/* 1 <= r, s <= n - 1 */
	if (vg_ec_iszero(r, n) || vg_ec_iszero(s, n) || !vg_ec_lt(r, c->n.m, n) ||
	    !vg_ec_lt(s, c->n.m, n))
		return 0;

	/* w = s^-1; u1 = e w, u2 = r w (mod n). Montgomery: sc_inv maps s R to
	 * s^-1 R, and a product of a Montgomery and a plain operand is plain. */
	vg_ec_sc_to_mont(f, w, s);
	f->sc_inv(f, w, w);
	f->sc_mul(u1, e, w);
	f->sc_mul(u2, r, w);

	/* X = u1 G + u2 Q; the identity is rejected. */
	vg_ec_point_from_affine(f, &Q, qx, qy);
	f->dsm(f, &X, u1, u2, &Q);
	if (vg_ec_iszero(X.z, n))
		return 0;

	/* x(X) mod n == r without inverting Z: x(X) is one of r and r + n
	 * (the latter only if below p), and x(X) = v iff X = v Z. */
	vg_ec_fe_to_mont(f, t, r);
	f->fe_mul(rz, t, X.z);
	if (vg_ec_eq(rz, X.x, n))
		return 1;
	uint64_t carry = 0;
	for (size_t i = 0; i < n; i++) { /* t = r + n */
		vg_u128 z = (vg_u128)r[i] + c->n.m[i] + carry;
		t[i] = (uint64_t)z;
		carry = (uint64_t)(z >> 64);
	}
	if (carry || !vg_ec_lt(t, c->p.m, n))
		return 0;
	vg_ec_fe_to_mont(f, t, t);
	f->fe_mul(rz, t, X.z);
	return (int)vg_ec_eq(rz, X.x, n);
}

int vg_ecdsa_verify(vg_ecdsa_curve curve, const uint8_t *pub, size_t pub_len, const uint8_t *digest,
		    size_t dlen, const uint8_t *sig, size_t sig_len)
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(curve);
	uint64_t qx[VG_EC_MAX_LIMBS], qy[VG_EC_MAX_LIMBS], e[VG_EC_MAX_LIMBS];
	uint64_t r[VG_EC_MAX_LIMBS], s[VG_EC_MAX_LIMBS];

	if (!f || !sig || (!digest && dlen))
		return VG_E_VERIFY;
	const struct vg_ec_curve *c = f->curve;
	if (sig_len != 2 * c->bytes || vg_ec_point_decode(f, qx, qy, pub, pub_len) != 0)
		return VG_E_VERIFY;
	vg_ec_from_bytes(r, sig, c->limbs);
	vg_ec_from_bytes(s, sig + c->bytes, c->limbs);
	digest_to_e(c, e, digest, dlen);
	return vg_ecdsa_verify_with(f, qx, qy, e, r, s) ? 0 : VG_E_VERIFY;
}

/* 1 if 0 < d < n, constant time. */
static uint64_t scalar_in_range(const struct vg_ec_curve *c, const uint64_t *d)
{
	return (vg_ec_iszero(d, c->limbs) ^ 1) & vg_ec_lt(d, c->n.m, c->limbs);
}

/* 1 if x(P) mod n = r for the projective P, without inverting Z: x(P) is
 * r or r + n (the latter only below p), and x(P) = v iff X = v Z.
 * Constant time (r is secret until the signature is released). */
static uint64_t x_is_r(const struct vg_ec_impl *f, const vg_ec_point *P, const uint64_t *r)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	uint64_t rn[VG_EC_MAX_LIMBS], rm[VG_EC_MAX_LIMBS], t[VG_EC_MAX_LIMBS], carry = 0;

	for (size_t i = 0; i < n; i++) { /* rn = r + n, usable only below p */
		vg_u128 z = (vg_u128)r[i] + c->n.m[i] + carry;
		rn[i] = (uint64_t)z;
		carry = (uint64_t)(z >> 64);
	}
	uint64_t rn_ok = (carry ^ 1) & vg_ec_lt(rn, c->p.m, n);
	vg_ec_fe_to_mont(f, rm, r);
	f->fe_mul(t, rm, P->z);
	uint64_t match = vg_ec_eq(t, P->x, n);
	vg_ec_fe_to_mont(f, rm, rn); /* any value < R is accepted */
	f->fe_mul(t, rm, P->z);
	match |= vg_ec_eq(t, P->x, n) & rn_ok;
	vg_wipe(rn, sizeof(rn));
	vg_wipe(rm, sizeof(rm));
	vg_wipe(t, sizeof(t));
	return match;
}

/* The full fault check (vg_ecdsa_sign_ex with full = 1): 1 if (r, s)
 * verifies for e under the key's Q, else 0, computed in constant time
 * because r and s derive from the secret nonce until they are released.
 * Same equation as vg_ecdsa_verify_with, other code: X = [e/s]G by the
 * comb plus [r/s]Q by the fixed-window multiplication, then x(X) = r or
 * r + n (< p) tested as X = c Z, all under masks. It catches every fault
 * before it, including one that gives a valid but wrong point k G (which
 * the cheap check does not, see check_cheap), at about ten times the
 * cost of a signature on the asm rows (its [r/s]Q term runs the C
 * fixed-window multiplication; four times on the C rows): key loading
 * uses it once, as the d <-> Q check. */
static uint64_t check_full(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			   const uint64_t *e, const uint64_t *r, const uint64_t *s)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	struct {
		uint64_t w[VG_EC_MAX_LIMBS], u1[VG_EC_MAX_LIMBS], u2[VG_EC_MAX_LIMBS];
		vg_ec_point Q, A, B;
	} v;
	uint64_t ok;

	/* 1 <= r, s <= n - 1 */
	ok = scalar_in_range(c, r) & scalar_in_range(c, s);

	vg_ec_sc_to_mont(f, v.w, s);
	f->sc_inv(f, v.w, v.w);  /* s^-1 R */
	f->sc_mul(v.u1, e, v.w); /* e / s */
	f->sc_mul(v.u2, r, v.w); /* r / s */
	f->base_mul(f, &v.A, v.u1);
	vg_ec_point_from_affine(f, &v.Q, key->qx, key->qy);
	f->point_mul(f, &v.B, v.u2, &v.Q);
	vg_ec_point_add(f, &v.A, &v.A, &v.B);
	ok &= vg_ec_iszero(v.A.z, n) ^ 1;
	ok &= x_is_r(f, &v.A, r);
	vg_wipe(&v, sizeof(v));
	return ok;
}

/* The cheap fault check, run on every signature before it is released:
 * 1 if all of these hold, else 0, in constant time (a faulted signature
 * leaks nothing through this check's timing either).
 *  (a) R = k G (projective, as base_mul gave it) satisfies the curve
 *      equation Y^2 Z = X^3 - 3 X Z^2 + b Z^3, and the released r is
 *      x(R) recomputed without the inversion: X = r Z or X = (r + n) Z
 *      (the latter only when r + n < p). This catches a fault in the comb
 *      that leaves the curve (a flipped bit of any coordinate, a torn
 *      table entry), and any fault in 1/Z, in x = X / Z or in x mod n.
 *  (b) s k = e + r d (mod n), with s k and r d recomputed from other
 *      representations than signing used (s in Montgomery form times the
 *      plain k, which base_mul used, against k R and k^-1 R in signing;
 *      r in Montgomery form times the plain d, against r times d R).
 *      This catches a fault in the inversion of k, in r d, in the sum, in
 *      s, in the Montgomery copy of d, and a k given to the inversion
 *      that is not the one base_mul used.
 *  (c) d and Q were checked against each other when the key was loaded
 *      (vg_ecdsa_key_init_with: Q on the curve, and a signature made with
 *      d verified under Q by check_full).
 * Why this is enough for the faults that reveal d: a released signature
 * satisfies s k = e + r d with the k of this signature, so it gives one
 * equation in two unknowns, d and a nonce that is fresh for every
 * signature (hedged: RFC 6979 with random additional data), like any
 * valid signature. The classic differential fault attack on deterministic
 * ECDSA needs a faulty and a correct signature with the same nonce (two
 * equations): the hedge removes that, and (b) rejects signatures whose s
 * was made with another k or another r d than the equation states.
 * What it does not catch: a fault that turns k G into another point on
 * the curve (a skipped or mis-selected comb row, a fault in the digits):
 * R' = k G + D with D = c 128^i G for a small c. The signature is then
 * invalid, and its verification point s^-1 (e G + r Q) = k G lets the
 * attacker find D by trying the ~2^13 possible (c, i), learning about 7
 * bits of that nonce at a known place. One such signature does not reveal
 * d; tens of them, all with the same well-placed fault, can (a lattice
 * attack on partly known nonces). check_full catches them (vg_ecdsa_sign_ex
 * full = 1), at ten times the cost of signing. Cost of this check: 12
 * field and 4 scalar multiplications, about 0.3 us for P-256 (~2 % of a
 * signature; below the run-to-run noise of a direct measurement). */
static uint64_t check_cheap(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			    const vg_ec_point *R, const uint64_t *k, const uint64_t *e,
			    const uint64_t *r, const uint64_t *s)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	struct {
		uint64_t z2[VG_EC_MAX_LIMBS], z3[VG_EC_MAX_LIMBS], lhs[VG_EC_MAX_LIMBS];
		uint64_t rhs[VG_EC_MAX_LIMBS], t[VG_EC_MAX_LIMBS];
		uint64_t sm[VG_EC_MAX_LIMBS], rm[VG_EC_MAX_LIMBS];
	} v;
	uint64_t ok;

	ok = scalar_in_range(c, r) & scalar_in_range(c, s);

	/* (a) Y^2 Z = X (X^2 - 3 Z^2) + b Z^3, and R is not the identity */
	f->fe_sqr(v.z2, R->z);
	f->fe_mul(v.z3, v.z2, R->z);
	f->fe_sqr(v.lhs, R->y);
	f->fe_mul(v.lhs, v.lhs, R->z);
	f->fe_add(v.t, v.z2, v.z2);
	f->fe_add(v.t, v.t, v.z2); /* 3 Z^2 */
	f->fe_sqr(v.rhs, R->x);
	f->fe_sub(v.rhs, v.rhs, v.t);
	f->fe_mul(v.rhs, v.rhs, R->x);
	f->fe_mul(v.t, c->b, v.z3);
	f->fe_add(v.rhs, v.rhs, v.t);
	ok &= vg_ec_eq(v.lhs, v.rhs, n) & (vg_ec_iszero(R->z, n) ^ 1);
	ok &= x_is_r(f, R, r);

	/* (b) s k = e + r d */
	vg_ec_sc_to_mont(f, v.sm, s);
	f->sc_mul(v.sm, v.sm, k); /* s k */
	vg_ec_sc_to_mont(f, v.rm, r);
	f->sc_mul(v.rm, v.rm, key->d); /* r d */
	vg_ec_sc_add(f, v.rm, v.rm, e);
	ok &= vg_ec_eq(v.sm, v.rm, n);
	vg_wipe(&v, sizeof(v));
	return ok;
}

int vg_ecdsa_sign_with(const struct vg_ec_impl *f, const vg_ecdsa_key *key, const uint8_t *digest,
		       size_t dlen, const uint8_t *extra, size_t extra_len, uint8_t *sig,
		       size_t sig_len)
{
	return vg_ecdsa_sign_ex(f, key, digest, dlen, extra, extra_len, sig, sig_len, 0);
}

int vg_ecdsa_sign_args_ok(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			  const uint8_t *digest, size_t dlen, const uint8_t *extra,
			  size_t extra_len, const uint8_t *sig, size_t sig_len)
{
	if (!f || !key || !sig || (!digest && dlen) || (!extra && extra_len) ||
	    vg_ecdsa_impl(key->curve) == NULL || vg_ecdsa_impl(key->curve)->curve != f->curve)
		return 0;
	return sig_len == 2 * f->curve->bytes;
}

void vg_ecdsa_sign_begin(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			 struct vg_ecdsa_sign_state *s, const uint8_t *digest, size_t dlen,
			 const uint8_t *extra, size_t extra_len)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;

	memset(s, 0, sizeof(*s));
	digest_to_e(c, s->e, digest, dlen);
	vg_ec_to_bytes(s->xo, key->d, n);
	vg_ec_to_bytes(s->ho, s->e, n); /* bits2octets(h) = int2octets(bits2int(h) mod q) */
	vg_ecdsa_nonce_init(&s->nonce, f, s->xo, s->ho, vg_ecdsa_nonce_hlen(c, dlen), extra,
			    extra_len);
}

uint64_t vg_ecdsa_sign_rs(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			  struct vg_ecdsa_sign_state *s)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;

	/* r = x(R) mod n (x < p < 2n: one masked subtraction) */
	f->fe_mul(s->x, s->R.x, s->zi);
	vg_ec_fe_from_mont(f, s->x, s->x);
	vg_ec_reduce_once(s->r, s->x, c->n.m, n);

	/* s = k^-1 (e + r d) mod n: t = r (d R) R^-1 + e = e + r d (plain),
	 * s = km t R^-1. */
	f->sc_mul(s->t, s->r, key->dm);
	vg_ec_sc_add(f, s->t, s->t, s->e);
	f->sc_mul(s->s, s->km, s->t);

	/* RFC 6979 3.4: r = 0 or s = 0 takes the next nonce. Only that
	 * (public, and practically impossible) event is branched on. */
	uint64_t zero = vg_ec_iszero(s->r, n) | vg_ec_iszero(s->s, n);
	vg_ec_declassify(&zero, sizeof(zero));
	return zero ^ 1;
}

uint64_t vg_ecdsa_sign_attempts(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
				struct vg_ecdsa_sign_state *s, int from)
{
	for (int attempt = from; attempt < VG_ECDSA_MAX_ATTEMPTS; attempt++) {
		vg_ecdsa_nonce_next(&s->nonce, s->k);

		/* R = k G. k is in [1, n - 1], so R is never the identity. */
		f->base_mul(f, &s->R, s->k);
		/* 1/Z and k^-1 together: km = (k R)^-1 R^2 R^-1 = k^-1 R */
		vg_ec_sc_to_mont(f, s->km, s->k);
		f->inv2(f, s->zi, s->R.z, s->km, s->km);
		if (vg_ecdsa_sign_rs(f, key, s))
			return 1;
	}
	return 0;
}

int vg_ecdsa_sign_release(const struct vg_ec_impl *f, const vg_ecdsa_key *key,
			  struct vg_ecdsa_sign_state *s, uint64_t ok, int full, uint8_t *sig)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs, len = c->bytes;

	vg_ec_to_bytes(s->out, s->r, n);
	vg_ec_to_bytes(s->out + len, s->s, n);

	/* The fault check: the signature is released only if it passes. */
	if (full) /* public: the caller's choice */
		ok &= check_full(f, key, s->e, s->r, s->s);
	else
		ok &= check_cheap(f, key, &s->R, s->k, s->e, s->r, s->s);
	vg_ec_declassify(&ok, sizeof(ok)); /* the verdict is the return value */

	/* Release by mask: a zeroed output on a fault. */
	uint64_t mask = vg_ct_barrier(vg_ct_mask(ok));
	for (size_t i = 0; i < 2 * len; i++)
		sig[i] = s->out[i] & (uint8_t)mask;
	vg_wipe(s, sizeof(*s));
	vg_ec_scrub_stack();
	/* 0 or VG_E_FAULT by multiplication, not by a branch. */
	return VG_E_FAULT * (int)(ok ^ 1);
}

int vg_ecdsa_sign_ex(const struct vg_ec_impl *f, const vg_ecdsa_key *key, const uint8_t *digest,
		     size_t dlen, const uint8_t *extra, size_t extra_len, uint8_t *sig,
		     size_t sig_len, int full)
{
	struct vg_ecdsa_sign_state s;

	if (!vg_ecdsa_sign_args_ok(f, key, digest, dlen, extra, extra_len, sig, sig_len))
		return VG_E_INVALID;
	vg_ecdsa_sign_begin(f, key, &s, digest, dlen, extra, extra_len);
	uint64_t ok = vg_ecdsa_sign_attempts(f, key, &s, 0);
	return vg_ecdsa_sign_release(f, key, &s, ok, full, sig);
}

int vg_ecdsa_sign(const vg_ecdsa_key *key, const uint8_t *digest, size_t dlen, uint8_t *sig,
		  size_t sig_len)
{
	uint8_t extra[VG_ECDSA_MAX_SCALAR_LEN];
	const struct vg_ec_impl *f;
	int rc;

	if (!key || !sig)
		return VG_E_INVALID;
	f = vg_ecdsa_impl(key->curve);
	if (!f || sig_len != 2 * f->curve->bytes)
		return VG_E_INVALID;
	/* The hedge: as many fresh bytes as the curve's security level needs
	 * (RFC 6979 section 3.6 additional data). */
	rc = vg_random_bytes(extra, f->curve->bytes);
	if (rc != 0) {
		memset(sig, 0, sig_len);
		vg_wipe(extra, sizeof(extra));
		return rc;
	}
	rc = vg_ecdsa_sign_with(f, key, digest, dlen, extra, f->curve->bytes, sig, sig_len);
	vg_wipe(extra, sizeof(extra));
	return rc;
}

int vg_ecdsa_private_check(vg_ecdsa_curve curve, const uint8_t *d, size_t d_len)
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(curve);
	uint64_t v[VG_EC_MAX_LIMBS];

	if (!f || !d || d_len != f->curve->bytes)
		return VG_E_INVALID;
	vg_ec_from_bytes(v, d, f->curve->limbs);
	uint64_t ok = scalar_in_range(f->curve, v);
	vg_wipe(v, sizeof(v));
	return VG_E_KEY * (int)(ok ^ 1); /* no branch: the caller gets the verdict */
}

int vg_ecdsa_key_init(vg_ecdsa_key *key, vg_ecdsa_curve curve, const uint8_t *d, size_t d_len)
{
	return vg_ecdsa_key_init_with(vg_ecdsa_impl(curve), key, curve, d, d_len);
}

int vg_ecdsa_key_init_with(const struct vg_ec_impl *f, vg_ecdsa_key *key, vg_ecdsa_curve curve,
			   const uint8_t *d, size_t d_len)
{
	vg_ec_point Q;
	uint8_t sig[VG_ECDSA_MAX_SIG_LEN];
	/* Any fixed digest: the self-test signature below only exercises the
	 * key. */
	static const uint8_t probe[VG_ECDSA_MAX_SCALAR_LEN] = {0x76, 0x67, 0x64};

	if (!key)
		return VG_E_INVALID;
	memset(key, 0, sizeof(*key));
	if (!f || !d || d_len != f->curve->bytes || vg_ecdsa_impl(curve) == NULL ||
	    vg_ecdsa_impl(curve)->curve != f->curve)
		return VG_E_INVALID;
	const struct vg_ec_curve *c = f->curve;

	key->curve = curve;
	vg_ec_from_bytes(key->d, d, c->limbs);
	uint64_t valid = scalar_in_range(c, key->d);
	vg_ec_declassify(&valid, sizeof(valid)); /* the caller learns it anyway */
	if (!valid) {
		vg_ecdsa_key_wipe(key);
		return VG_E_KEY;
	}
	vg_ec_sc_to_mont(f, key->dm, key->d);

	/* Q = d G, checked twice before it is trusted: on the curve and not
	 * the identity, then a signature made with d must verify under it
	 * (check_full: it also catches a fault giving a valid but wrong
	 * point). This is the d <-> Q check the signing check relies on. */
	f->base_mul(f, &Q, key->d);
	uint64_t inf = vg_ec_point_to_affine(f, key->qx, key->qy, &Q);
	vg_wipe(&Q, sizeof(Q));
	/* Q is the public key: public from here on */
	vg_ec_declassify(key->qx, sizeof(key->qx));
	vg_ec_declassify(key->qy, sizeof(key->qy));
	vg_ec_declassify(&inf, sizeof(inf));
	vg_ec_scrub_stack(); /* what computing Q left below this frame */
	if (inf || !vg_ec_on_curve(f, key->qx, key->qy)) {
		vg_ecdsa_key_wipe(key);
		return VG_E_FAULT;
	}
	vg_ec_point_encode(f, key->pub, key->qx, key->qy);
	int rc = vg_ecdsa_sign_ex(f, key, probe, c->bytes, NULL, 0, sig, 2 * c->bytes, 1);
	vg_wipe(sig, sizeof(sig)); /* sign_with scrubs the stack it used */
	if (rc != 0) {
		vg_ecdsa_key_wipe(key);
		return VG_E_FAULT;
	}
	return 0;
}

int vg_ecdsa_public_from_private(vg_ecdsa_curve curve, uint8_t *pub, size_t pub_len,
				 const uint8_t *d, size_t d_len)
{
	vg_ecdsa_key key;
	size_t len = vg_ecdsa_public_len(curve);

	if (!pub || len == 0 || pub_len != len)
		return VG_E_INVALID;
	int rc = vg_ecdsa_key_init(&key, curve, d, d_len);
	if (rc == 0)
		memcpy(pub, key.pub, len);
	else
		memset(pub, 0, pub_len);
	vg_ecdsa_key_wipe(&key);
	return rc;
}

int vg_ecdsa_public_check(vg_ecdsa_curve curve, const uint8_t *pub, size_t len)
{
	const struct vg_ec_impl *f = vg_ecdsa_impl(curve);
	uint64_t x[VG_EC_MAX_LIMBS], y[VG_EC_MAX_LIMBS];

	if (!f)
		return VG_E_INVALID;
	return vg_ec_point_decode(f, x, y, pub, len);
}
