/* rsa_key.c: loading and validating RSA keys, and their accessors.
 * Secret: d, p, q, dp, dq, qinv and everything derived from them. Public:
 * n, e, every length (including the bit lengths of p and q), and the
 * verdict "the key is valid".
 *
 * What is constant time at load: all arithmetic on the secret values
 * (products, reductions, comparisons, R^2 mod p and mod q) runs in time
 * set by the lengths; the individual checks are folded into one mask and
 * only the final verdict is branched on. Not constant time: parsing n and
 * e (public), and the byte/bit lengths of p and q, which decide the limb
 * counts. */
#include <stddef.h>
#include <stdint.h>

#include "ct.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_prime.h"
#include "vg/rsa.h"
#include "vg/wipe.h"

size_t vg_rsa_key_size(void) { return sizeof(struct vg_rsa_key); }
size_t vg_rsa_public_key_size(void) { return sizeof(struct vg_rsa_public_key); }

/* Load n and e (public: ordinary branches). *why, if why is given, names
 * the check that failed. */
static int load_public(struct vg_rsa_public_key *pub, const uint8_t *n, size_t n_len,
		       const uint8_t *e, size_t e_len, size_t min_bits, const char **why)
{
	uint64_t ev = 0;
	size_t bits;

	vg_wipe(pub, sizeof(*pub));
	if ((!n && n_len) || (!e && e_len))
		return VG_E_INVALID;
	while (n_len > 0 && n[0] == 0) {
		n++;
		n_len--;
	}
	while (e_len > 0 && e[0] == 0) {
		e++;
		e_len--;
	}
	*why = "the modulus size is not supported";
	if (n_len > VG_RSA_MAX_BYTES)
		return VG_E_UNSUPPORTED;
	(void)vg_bn_from_bytes(pub->n, VG_BN_MAX_LIMBS, n, n_len);
	bits = vg_bn_bits(pub->n, VG_BN_MAX_LIMBS);
	if (bits < min_bits || bits > VG_RSA_MAX_BITS)
		return VG_E_UNSUPPORTED;
	*why = "";
	if ((pub->n[0] & 1) == 0) {
		*why = "the modulus n is even";
		return VG_E_KEY;
	}
	/* e is kept in one limb: every exponent in use (3, 65537) fits, and a
	 * bounded e bounds the cost of the public operation. */
	if (e_len > 8) {
		*why = "the public exponent e is longer than 64 bits";
		return VG_E_UNSUPPORTED;
	}
	for (size_t i = 0; i < e_len; i++)
		ev = (ev << 8) | e[i];
	if ((ev & 1) == 0 || ev < 3) {
		*why = "the public exponent e is even or below 3";
		return VG_E_KEY;
	}

	pub->bits = bits;
	pub->bytes = (bits + 7) / 8;
	pub->limbs = (bits + 63) / 64;
	pub->e = ev;
	pub->n0inv = vg_mont_m0inv(pub->n[0]);
	vg_mont_rr(pub->rr, pub->n, pub->limbs);
	vg_rsa52_pub_init(&pub->r52, pub->n, pub->rr, pub->limbs);
	return 0;
}

int vg_rsa_public_key_init(vg_rsa_public_key *pub, const uint8_t *n, size_t n_len,
			   const uint8_t *e, size_t e_len)
{
	const char *why = "";
	int rc;

	if (!pub)
		return VG_E_INVALID;
	/* 1024-bit keys are accepted for verification only. */
	rc = load_public(pub, n, n_len, e, e_len, 1024, &why);
	if (rc != 0)
		vg_wipe(pub, sizeof(*pub));
	return rc;
}

size_t vg_rsa_public_key_bytes(const vg_rsa_public_key *pub) { return pub->bytes; }
size_t vg_rsa_key_bytes(const vg_rsa_key *key) { return key->pub.bytes; }
size_t vg_rsa_key_bits(const vg_rsa_key *key) { return key->pub.bits; }
const vg_rsa_public_key *vg_rsa_key_public(const vg_rsa_key *key) { return &key->pub; }

int vg_rsa_public_export(const vg_rsa_public_key *pub, uint8_t *n, size_t n_cap, size_t *n_len,
			 uint8_t *e, size_t e_cap, size_t *e_len)
{
	size_t el = 0;

	if (!pub || !n || !n_len || !e || !e_len)
		return VG_E_INVALID;
	for (uint64_t x = pub->e; x != 0; x >>= 8)
		el++;
	if (n_cap < pub->bytes || e_cap < el)
		return VG_E_INVALID;
	vg_bn_to_bytes(n, pub->bytes, pub->n, pub->limbs);
	for (size_t i = 0; i < el; i++)
		e[i] = (uint8_t)(pub->e >> (8 * (el - 1 - i)));
	*n_len = pub->bytes;
	*e_len = el;
	return 0;
}

void vg_rsa_key_wipe(vg_rsa_key *key)
{
	if (key)
		vg_wipe(key, sizeof(*key));
}

/* Stack scratch of key loading, wiped as a whole. */
struct load_scratch {
	uint64_t d[VG_BN_MAX_LIMBS];
	uint64_t pm1[VG_BN_MAX_LIMBS];  /* prime - 1 */
	uint64_t r[VG_BN_MAX_LIMBS];    /* d mod (prime - 1); q R mod p; ... */
	uint64_t t[VG_BN_MAX_LIMBS];
	uint64_t one[VG_BN_MAX_LIMBS];
	uint64_t prod[2 * VG_BN_MAX_LIMBS]; /* p q */
	uint64_t n[2 * VG_BN_MAX_LIMBS];    /* n, zero-extended */
	uint8_t x[VG_RSA_MAX_BYTES], y[VG_RSA_MAX_BYTES];
	vg_mont mp;
};

/* Load one prime; returns 1 if it fits and is odd, else 0 (folded by the
 * caller, not branched on). Its bit length is public: it is declassified
 * here, as it decides the limb count. */
static uint64_t load_prime(struct vg_rsa_crt *h, const uint8_t *src, size_t len)
{
	uint64_t ok = vg_bn_from_bytes(h->prime, VG_BN_MAX_LIMBS, src, len);

	ok &= h->prime[0] & 1;
	h->bits = vg_bn_bits(h->prime, VG_BN_MAX_LIMBS);
	h->limbs = (h->bits + 63) / 64;
	h->m0inv = vg_mont_m0inv(h->prime[0]);
	return ok;
}

/* 1 if exp (as given) == d mod (prime - 1). h->exp is loaded here; the
 * comparison spans all limbs, so it also proves exp < prime - 1 < 2^bits,
 * the length at which the exponentiation reads it. */
static uint64_t check_crt_exp(struct vg_rsa_crt *h, struct load_scratch *s, size_t dl,
			      const uint8_t *src, size_t len)
{
	uint64_t ok = vg_bn_from_bytes(h->exp, VG_BN_MAX_LIMBS, src, len);

	for (size_t i = 0; i < VG_BN_MAX_LIMBS; i++) {
		s->pm1[i] = h->prime[i];
		s->r[i] = 0;
	}
	s->pm1[0] &= ~(uint64_t)1; /* the prime is odd (checked apart) */
	vg_bn_mod(s->r, s->d, dl, s->pm1, h->limbs);
	return ok & vg_bn_eq(s->r, h->exp, VG_BN_MAX_LIMBS);
}

int vg_rsa_key_init(vg_rsa_key *key, const vg_rsa_key_parts *parts)
{
	const char *why;
	return vg_rsa_key_init_why(key, parts, &why);
}

int vg_rsa_key_init_why(vg_rsa_key *key, const vg_rsa_key_parts *parts, const char **why)
{
	return vg_rsa_key_load(key, parts, VG_RSA_MR_ROUNDS, why);
}

int vg_rsa_key_load(vg_rsa_key *key, const vg_rsa_key_parts *parts, unsigned mr_rounds,
		    const char **why)
{
	struct load_scratch s;
	size_t nbits, nl, lp, lq;
	/* One mask per check, all computed whatever the others say; only
	 * their AND is branched on, and only a key already refused is asked
	 * which one failed (the answer concerns a key vgd will not hold). */
	uint64_t ok_odd, ok_n, ok_d, ok_dp, ok_dq, ok_qinv, ok_pp, ok_qp;
	int rc;

	*why = "";
	if (!key)
		return VG_E_INVALID;
	vg_wipe(key, sizeof(*key));
	if (!parts)
		return VG_E_INVALID;
	/* PKCS#1 keys carry all eight values; all are required. */
	if (!parts->n || !parts->e || !parts->d || !parts->p || !parts->q || !parts->dp ||
	    !parts->dq || !parts->qinv || !parts->d_len || !parts->p_len || !parts->q_len ||
	    !parts->dp_len || !parts->dq_len || !parts->qinv_len) {
		*why = "a value of the private key is missing or empty";
		return VG_E_KEY;
	}
	rc = load_public(&key->pub, parts->n, parts->n_len, parts->e, parts->e_len, VG_RSA_MIN_BITS,
			 why);
	if (rc != 0)
		goto fail_key;
	nbits = key->pub.bits;
	nl = key->pub.limbs;

	vg_wipe(&s, sizeof(s));
	ok_odd = load_prime(&key->p, parts->p, parts->p_len);
	ok_odd &= load_prime(&key->q, parts->q, parts->q_len);
	lp = key->p.limbs;
	lq = key->q.limbs;
	/* Lengths (public): a p-bit times a q-bit number has p+q-1 or p+q
	 * bits. Each factor must have at least a quarter of n's bits (>= 512):
	 * FIPS 186 keys split n in halves; Wycheproof's e = 3 keys split it
	 * about 1:2, and far smaller factors would invite ECM. */
	if (key->p.bits < nbits / 4 || key->q.bits < nbits / 4 ||
	    key->p.bits + key->q.bits < nbits || key->p.bits + key->q.bits > nbits + 1) {
		*why = "the primes' sizes do not fit n (each needs a quarter of n's bits, "
		       "together all of them)";
		rc = VG_E_KEY;
		goto fail;
	}

	/* n == p q, compared over all limbs of the product. */
	vg_bn_mul(s.prod, key->p.prime, lp, key->q.prime, lq);
	for (size_t i = 0; i < nl; i++)
		s.n[i] = key->pub.n[i];
	ok_n = vg_bn_eq(s.prod, s.n, lp + lq);

	/* dp == d mod (p - 1), dq == d mod (q - 1). */
	ok_d = vg_bn_from_bytes(s.d, nl, parts->d, parts->d_len);
	ok_dp = check_crt_exp(&key->p, &s, nl, parts->dp, parts->dp_len);
	ok_dq = check_crt_exp(&key->q, &s, nl, parts->dq, parts->dq_len);

	/* Montgomery constants of p and q: R^2 by doublings, R^3 = R^2 R^2 R^-1. */
	vg_mont_rr(key->p.rr, key->p.prime, lp);
	vg_mont_rr(key->q.rr, key->q.prime, lq);
	vg_rsa_mont_init(vg_rsa_impl(), &s.mp, key->q.prime, key->q.rr, key->q.m0inv, lq);
	vg_mont_mul(&s.mp, key->q.rrr, key->q.rr, key->q.rr);
	vg_rsa_mont_init(vg_rsa_impl(), &s.mp, key->p.prime, key->p.rr, key->p.m0inv, lp);
	vg_mont_mul(&s.mp, key->p.rrr, key->p.rr, key->p.rr);

	/* qinv < p and qinv q == 1 mod p: (q R mod p) qinv R^-1 = q qinv. */
	ok_qinv = vg_bn_from_bytes(key->qinv, VG_BN_MAX_LIMBS, parts->qinv, parts->qinv_len);
	ok_qinv &= vg_bn_lt(key->qinv, key->p.prime, VG_BN_MAX_LIMBS);
	vg_mont_reduce(&s.mp, s.r, key->q.prime, lq);
	vg_mont_mul(&s.mp, s.t, s.r, key->qinv);
	s.one[0] = 1;
	ok_qinv &= vg_bn_eq(s.t, s.one, lp);
	/* qinv R mod p = qinv R^2 R^-1 (qinv < p < R once checked). */
	vg_mont_mul(&s.mp, key->qinv_r, key->qinv, key->p.rr);
	vg_rsa52_init(&key->r52, key->p.prime, lp, key->q.prime, lq, key->qinv);

	/* p and q are (probably) prime: Miller-Rabin, constant time in them. */
	ok_pp = vg_rsa_prime_check(&s.mp, key->p.bits, mr_rounds);
	vg_rsa_mont_init(vg_rsa_impl(), &s.mp, key->q.prime, key->q.rr, key->q.m0inv, lq);
	ok_qp = vg_rsa_prime_check(&s.mp, key->q.bits, mr_rounds);

	/* The verdict is public; so, for a refused key, is its first failed
	 * check, in the order a reader would look. */
	if (!(ok_odd & ok_n & ok_d & ok_dp & ok_dq & ok_qinv & ok_pp & ok_qp)) {
		*why = !ok_odd    ? "p or q is even"
		       : !ok_n    ? "n is not p*q"
		       : !ok_d    ? "the private exponent d is longer than n"
		       : !ok_dp   ? "dp is not d mod (p-1)"
		       : !ok_dq   ? "dq is not d mod (q-1)"
		       : !ok_qinv ? "qinv is not the inverse of q mod p"
		       : !ok_pp   ? "p is not prime"
				  : "q is not prime";
		rc = VG_E_KEY;
		goto fail;
	}

	/* End to end: sign a fixed value and let the private operation's own
	 * check (x^(d e) == x) catch an e that does not match d. The value is
	 * below n (top byte zero). */
	for (size_t i = 1; i < key->pub.bytes; i++)
		s.x[i] = (uint8_t)(0x5a ^ i);
	if (vg_rsa_private(key, s.y, s.x, key->pub.bytes) != 0) {
		*why = "e does not match d (a test signature did not verify)";
		rc = VG_E_KEY;
		goto fail;
	}
	vg_wipe(&s, sizeof(s));
	return 0;

fail:
	vg_wipe(&s, sizeof(s));
fail_key: /* the scratch is untouched before this point */
	vg_wipe(key, sizeof(*key));
	return rc;
}
