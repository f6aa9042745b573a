/* rsa_gen.c: RSA key generation by FIPS 186-5 appendix A.1.3 (random
 * probable primes), vg_rsa_generate (vg/keygen.h).
 *
 * Secret: every candidate, p, q, everything derived from them (p - 1,
 * q - 1, their gcd, lcm, d, dp, dq, qinv) and the key's scratch. Public:
 * the sizes, e, n once the key is finished, and the branch points listed
 * here, each passed through vg_keygen_declassify first:
 *  - a candidate failed trial division, the gcd(e, c - 1) = 1 condition,
 *    the |p - q| condition, or Miller-Rabin. It is then discarded and
 *    never used again: its rejection tells only that a random number
 *    nobody will see again was composite (or unfit), nothing about the
 *    prime that is finally kept, which passed every test with the same
 *    instruction sequence as every other kept prime;
 *  - a (p, q) pair was discarded because d came out too small (never
 *    seen: probability about 2^-1000), likewise;
 *  - the checks of the finished key (check()): key loading, which
 *    treats the factors' lengths and its verdict as public (rsa_key.c),
 *    and the pairwise signature's verdict (the return value). The
 *    valgrind test runs everything before them with the random bytes
 *    marked secret (vg_rsa_generate_raw_with).
 * Everything else is constant time: trial division computes all
 * residues for every candidate (rsa_sieve.c); gcd(e, p - 1) is a
 * constant-time inverse modulo e of (p - 1) mod e; Miller-Rabin is
 * rsa_prime.c's, on the RSA row's Montgomery multiply (the dispatched
 * tier); lcm, d, dp, dq and qinv come from the fixed-iteration gcd,
 * inverse and divisions of bn_gcd.c and bn_div.c.
 *
 * Cost: a 1536-bit prime takes about 530 candidates (ln 2^1536 / 2),
 * 1 in 7 of which survives trial division into a Miller-Rabin test. */
#include <stddef.h>
#include <stdint.h>

#include "ct.h"
#include "keygen/keygen_internal.h"
#include "rsa/bn.h"
#include "rsa/mont.h"
#include "rsa/rsa_exp.h"
#include "rsa/rsa_impl.h"
#include "rsa/rsa_key.h"
#include "rsa/rsa_prime.h"
#include "rsa/rsa_sieve.h"
#include "vg/keygen.h"
#include "vg/sha2.h"
#include "vg/wipe.h"

#define HALF_LIMBS (VG_BN_MAX_LIMBS / 2)

/* Whole attempts (a fresh p and q) before giving up: an attempt fails
 * when A.1.3's candidate budget for one prime runs out (probability about
 * e^-14 for 1536-bit primes) or d is too small; eight failures in a row
 * mean something is broken, not bad luck. */
#define GEN_ATTEMPTS 8

/* Miller-Rabin rounds for a prime of pbits bits: FIPS 186-5 Table B.1,
 * "M-R tests only" for p and q, at the error probability matching each
 * size's security strength: 2^-112 for 1024-bit primes (nlen 2048): 5;
 * 2^-128 for 1536 (nlen 3072): 4; 2^-144 for 2048 (nlen 4096): 4. The
 * bounds hold for random candidates (Damgard-Landrock-Pomerance), which
 * these are, unlike the 40 rounds of a key file's check (rsa_prime.h). */
static unsigned mr_rounds(size_t pbits)
{
	return pbits <= 1024 ? 5 : 4;
}

struct gen_scratch {
	struct vg_sieve sieve;
	uint64_t e_recip;
	uint64_t p[HALF_LIMBS], q[HALF_LIMBS];
	uint64_t c[HALF_LIMBS], cm1[HALF_LIMBS]; /* a candidate, minus one */
	uint64_t rr[HALF_LIMBS];
	uint64_t pm1[HALF_LIMBS], qm1[HALF_LIMBS], g[HALF_LIMBS];
	uint64_t t[HALF_LIMBS], u[HALF_LIMBS];
	uint64_t lam[VG_BN_MAX_LIMBS];
	uint64_t num[VG_BN_MAX_LIMBS + 1], d[VG_BN_MAX_LIMBS + 1];
	uint64_t bound[VG_BN_MAX_LIMBS + 1];
	uint64_t dp[HALF_LIMBS], dq[HALF_LIMBS], qinv[HALF_LIMBS];
	uint64_t n[VG_BN_MAX_LIMBS];
	uint8_t rnd[8 * HALF_LIMBS];
	vg_mont mc;
};

/* 1 if |a - b| > 2^k (nh limbs, k public), constant time. */
static uint64_t far_apart(struct gen_scratch *s, const uint64_t *a, const uint64_t *b, size_t nh,
			  size_t k)
{
	uint64_t borrow = vg_bn_sub(s->t, a, b, nh);
	/* a < b: negate the wrapped difference (two's complement) */
	for (size_t i = 0; i < nh; i++)
		s->u[i] = 0;
	(void)vg_bn_sub(s->u, s->u, s->t, nh);
	vg_bn_ccopy(borrow, s->t, s->u, nh);
	for (size_t i = 0; i < nh; i++)
		s->u[i] = 0;
	s->u[k / 64] = (uint64_t)1 << (k % 64);
	return vg_bn_lt(s->u, s->t, nh);
}

/* ctx->rr = R^2 mod m for the candidate m of ctx (top bit set), into rr
 * (ctx->rr's storage). vg_mont_rr's 128 n modular doublings cost a fifth
 * of a Miller-Rabin round here; instead: R mod m = R - m (m > R / 2, so
 * R - m < m), which is 1 in Montgomery form; j doublings of it give 2^j
 * in Montgomery form; s Montgomery squarings give 2^(j 2^s) in
 * Montgomery form, that is 2^(j 2^s) R. With j 2^s = 64 n that is R^2. j
 * and s depend on n only (1024 = 2^10; 1536 = 3 2^9; 2048 = 2^11), and
 * each step is constant time in m. */
static void fast_rr(const vg_mont *ctx, uint64_t *rr)
{
	size_t n = ctx->n, j = 64 * n, sq = 0;

	while (j % 2 == 0) { /* public */
		j /= 2;
		sq++;
	}
	for (size_t i = 0; i < n; i++)
		rr[i] = 0;
	(void)vg_bn_sub(rr, rr, ctx->m, n); /* 2^(64 n) - m */
	for (size_t i = 0; i < j; i++)      /* times 2^j */
		vg_mont_add(ctx, rr, rr, rr);
	for (size_t i = 0; i < sq; i++)
		vg_mont_sqr(ctx, rr, rr);
}

/* The candidate checks before Miller-Rabin (A.1.3 steps 4.4-4.5 and
 * 5.4-5.5, plus trial division): 1 if s->c (odd, top two bits set) has
 * no small factor, gcd(c - 1, e) = 1 and, when other is given, |c -
 * other| > 2^(pbits - 100). Constant time; the caller declassifies the
 * verdict. */
static uint64_t candidate_ok(struct gen_scratch *s, const uint64_t *other, size_t nh, size_t pbits,
			     uint32_t e)
{
	uint64_t ok = vg_sieve_coprime(&s->sieve, s->c, nh);

	for (size_t i = 0; i < nh; i++)
		s->cm1[i] = s->c[i];
	s->cm1[0] ^= 1; /* c is odd */
	uint64_t r = vg_bn_mod_small(s->cm1, nh, e, s->e_recip), ev = e, inv;
	ok &= vg_bn_modinv_odd(&inv, &r, &ev, 1); /* gcd(c - 1 mod e, e) = 1 */
	if (other)                                /* public: which prime this is */
		ok &= far_apart(s, s->c, other, nh, pbits - 100);
	VG_WIPE_VAR(r);
	VG_WIPE_VAR(inv);
	return ok;
}

/* One prime of pbits bits into out (A.1.3 step 4, or step 5 with other =
 * p): 0, 1 when the candidate budget of step 4.7 ran out, or a negative
 * error from the random source. */
static int gen_prime(struct gen_scratch *s, vg_keygen_rand_fn *rnd, void *ctx, uint64_t *out,
		     const uint64_t *other, size_t pbits, uint32_t e)
{
	size_t nh = pbits / 64; /* 1024, 1536, 2048: whole limbs */

	/* Step 4.7: at most 5 (nlen / 2) candidates. */
	for (size_t i = 0; i < 5 * pbits; i++) {
		int rc = rnd(ctx, s->rnd, 8 * nh);
		if (rc != 0)
			return rc;
		(void)vg_bn_from_bytes(s->c, nh, s->rnd, 8 * nh);
		/* Odd, and the top two bits set: c >= 1.5 2^(pbits-1) >
		 * sqrt(2) 2^(pbits-1) as step 4.4 requires, and a product of
		 * two such numbers has exactly 2 pbits bits. */
		s->c[0] |= 1;
		s->c[nh - 1] |= (uint64_t)3 << 62;

		uint64_t ok = candidate_ok(s, other, nh, pbits, e);
		vg_keygen_declassify(&ok, sizeof(ok));
		if (!ok)
			continue; /* discarded: see the file comment */

		/* Step 4.5's primality test: Miller-Rabin with random bases
		 * on the dispatched RSA row's Montgomery multiply. */
		uint64_t m0inv = vg_mont_m0inv(s->c[0]);
		vg_rsa_mont_init(vg_rsa_impl(), &s->mc, s->c, s->rr, m0inv, nh);
		fast_rr(&s->mc, s->rr);
		/* One round first: nearly every candidate that gets here is
		 * composite and fails it, and stopping there spares the other
		 * rounds. That reveals only that a discarded candidate failed
		 * one round; a kept prime always runs all of them. */
		uint64_t prime = vg_rsa_prime_check(&s->mc, pbits, 1);
		vg_keygen_declassify(&prime, sizeof(prime));
		if (prime) {
			prime = vg_rsa_prime_check(&s->mc, pbits, mr_rounds(pbits) - 1);
			vg_keygen_declassify(&prime, sizeof(prime));
		}
		VG_WIPE_VAR(m0inv);
		if (!prime)
			continue; /* a composite (or no random bases): discarded */
		for (size_t j = 0; j < nh; j++)
			out[j] = s->c[j];
		return 0;
	}
	return 1;
}

/* d = e^-1 mod lcm(p - 1, q - 1), dp, dq, qinv and n from s->p and s->q:
 * 1 if everything holds (in particular d > 2^(pbits), A.1.3 step 7's
 * condition), else 0. Constant time.
 *
 * lcm = (p - 1) ((q - 1) / g) with g = gcd(p - 1, q - 1). With e small
 * and public the inverse needs no big modular inverse: for t = lcm^-1
 * mod e, d = (lcm (e - t) + 1) / e is an integer (lcm (e - t) + 1 = 0 mod
 * e), d e = 1 mod lcm, and 0 < d < lcm. */
static uint64_t derive(struct gen_scratch *s, size_t pbits, uint32_t e)
{
	size_t nh = pbits / 64, nl = 2 * nh;
	uint64_t ok, ev = e, r, inv, k;

	for (size_t i = 0; i < nh; i++) {
		s->pm1[i] = s->p[i];
		s->qm1[i] = s->q[i];
	}
	s->pm1[0] ^= 1; /* p, q odd */
	s->qm1[0] ^= 1;
	ok = vg_bn_gcd(s->g, s->pm1, s->qm1, nh);
	vg_bn_divmod(s->t, s->u, s->qm1, nh, s->g, nh);
	ok &= vg_bn_is_zero(s->u, nh);
	vg_bn_mul(s->lam, s->pm1, nh, s->t, nh);

	r = vg_bn_mod_small(s->lam, nl, e, s->e_recip);
	ok &= vg_bn_modinv_odd(&inv, &r, &ev, 1);
	k = ev - inv; /* in [1, e - 1] when inv exists */
	vg_bn_mul(s->num, s->lam, nl, &k, 1);
	for (size_t i = 0; i <= nl; i++)
		s->bound[i] = 0;
	s->bound[0] = 1;
	(void)vg_bn_add(s->num, s->num, s->bound, nl + 1);
	ok &= vg_ct_iszero(vg_bn_div_small(s->d, s->num, nl + 1, e, s->e_recip));
	ok &= vg_ct_iszero(s->d[nl]); /* d < lcm < 2^nlen */

	/* d > 2^(nlen / 2) */
	s->bound[0] = 0;
	s->bound[pbits / 64] = (uint64_t)1 << (pbits % 64);
	ok &= vg_bn_lt(s->bound, s->d, nl + 1);

	vg_bn_mod(s->dp, s->d, nl, s->pm1, nh);
	vg_bn_mod(s->dq, s->d, nl, s->qm1, nh);
	ok &= vg_bn_modinv_odd(s->qinv, s->q, s->p, nh);
	vg_bn_mul(s->n, s->p, nh, s->q, nh);
	VG_WIPE_VAR(r);
	VG_WIPE_VAR(inv);
	VG_WIPE_VAR(k);
	return ok;
}

/* The key's eight values into out, big-endian at their fixed lengths. */
static void encode(const struct gen_scratch *s, size_t bits, uint32_t e, vg_rsa_keypair *out)
{
	size_t nh = bits / 128, nl = 2 * nh, hb = bits / 16, kb = bits / 8;

	out->bits = bits;
	out->n_len = out->d_len = kb;
	out->p_len = out->q_len = out->dp_len = out->dq_len = out->qinv_len = hb;
	vg_bn_to_bytes(out->n, kb, s->n, nl);
	vg_bn_to_bytes(out->d, kb, s->d, nl);
	vg_bn_to_bytes(out->p, hb, s->p, nh);
	vg_bn_to_bytes(out->q, hb, s->q, nh);
	vg_bn_to_bytes(out->dp, hb, s->dp, nh);
	vg_bn_to_bytes(out->dq, hb, s->dq, nh);
	vg_bn_to_bytes(out->qinv, hb, s->qinv, nh);
	out->e_len = e >> 24 ? 4 : 3; /* e > 2^16 */
	for (size_t i = 0; i < out->e_len; i++)
		out->e[i] = (uint8_t)(e >> (8 * (out->e_len - 1 - i)));
}

int vg_rsa_generate_raw_with(vg_keygen_rand_fn *rnd, void *ctx, size_t bits, uint32_t e,
			     vg_rsa_keypair *out)
{
	struct gen_scratch s;
	size_t pbits = bits / 2;
	int rc = VG_E_FAULT;

	if (!out || !rnd)
		return VG_E_INVALID;
	vg_wipe(out, sizeof(*out));
	if (bits != 2048 && bits != 3072 && bits != 4096)
		return VG_E_UNSUPPORTED;
	if ((e & 1) == 0 || e <= 65536) /* FIPS 186-5 5.4 (b): 2^16 < e */
		return VG_E_INVALID;

	vg_wipe(&s, sizeof(s));
	vg_sieve_init(&s.sieve);
	s.e_recip = vg_bn_small_recip(e);
	for (int attempt = 0; attempt < GEN_ATTEMPTS; attempt++) {
		rc = gen_prime(&s, rnd, ctx, s.p, NULL, pbits, e);
		if (rc == 0)
			rc = gen_prime(&s, rnd, ctx, s.q, s.p, pbits, e);
		if (rc < 0)
			break; /* the random source failed */
		if (rc > 0) {
			rc = VG_E_FAULT;
			continue;
		}
		uint64_t ok = derive(&s, pbits, e);
		vg_keygen_declassify(&ok, sizeof(ok));
		if (!ok) { /* d too small: A.1.3 step 7 starts over */
			rc = VG_E_FAULT;
			continue;
		}
		encode(&s, bits, e, out);
		break;
	}
	vg_wipe(&s, sizeof(s));
	if (rc != 0)
		vg_wipe(out, sizeof(*out));
	return rc;
}

/* Stack scratch of the checks of a finished key. */
struct check_scratch {
	vg_rsa_key key;
	vg_rsa_key_parts parts;
	uint64_t n[VG_BN_MAX_LIMBS];
	uint8_t digest[VG_SHA256_LEN];
	uint8_t sig[VG_RSA_MAX_BYTES];
};

/* The finished key in out loaded as a key file would be (every check but
 * Miller-Rabin, done already: n = p q, dp, dq, qinv, a test signature
 * checked with e), then the pairwise consistency test: a PKCS#1 v1.5
 * signature of a random digest verifies under (n, e). 0 or VG_E_FAULT
 * (VG_E_RANDOM if the digest could not be drawn). */
static int check(struct check_scratch *s, vg_keygen_rand_fn *rnd, void *ctx,
		 const vg_rsa_keypair *out)
{
	size_t kb = out->n_len;
	const char *why;
	int rc;

	/* n is public; its length is the first check. */
	(void)vg_bn_from_bytes(s->n, VG_BN_MAX_LIMBS, out->n, kb);
	if (vg_bn_bits(s->n, VG_BN_MAX_LIMBS) != out->bits)
		return VG_E_FAULT;
	vg_rsa_keypair_parts(out, &s->parts);
	rc = vg_rsa_key_load(&s->key, &s->parts, 0, &why);
	if (rc != 0)
		return VG_E_FAULT;

	rc = rnd(ctx, s->digest, sizeof(s->digest));
	if (rc != 0)
		return rc;
	rc = vg_rsa_sign_pkcs1(&s->key, VG_HASH_SHA256, s->digest, sizeof(s->digest), s->sig, kb);
	if (rc != 0)
		return VG_E_FAULT;
	rc = vg_rsa_verify_pkcs1(vg_rsa_key_public(&s->key), VG_HASH_SHA256, s->digest,
				 sizeof(s->digest), s->sig, kb);
	return rc == 0 ? 0 : VG_E_FAULT;
}

int vg_rsa_generate_with(vg_keygen_rand_fn *rnd, void *ctx, size_t bits, uint32_t e,
			 vg_rsa_keypair *out)
{
	struct check_scratch s;
	int rc = vg_rsa_generate_raw_with(rnd, ctx, bits, e, out);

	if (rc != 0)
		return rc;
	vg_wipe(&s, sizeof(s));
	rc = check(&s, rnd, ctx, out);
	vg_rsa_key_wipe(&s.key);
	vg_wipe(&s, sizeof(s));
	if (rc != 0)
		vg_wipe(out, sizeof(*out));
	return rc;
}

int vg_rsa_generate(size_t bits, uint32_t e, vg_rsa_keypair *out)
{
	return vg_rsa_generate_with(vg_keygen_getrandom, NULL, bits, e, out);
}

void vg_rsa_keypair_parts(const vg_rsa_keypair *kp, vg_rsa_key_parts *parts)
{
	parts->n = kp->n;
	parts->n_len = kp->n_len;
	parts->e = kp->e;
	parts->e_len = kp->e_len;
	parts->d = kp->d;
	parts->d_len = kp->d_len;
	parts->p = kp->p;
	parts->p_len = kp->p_len;
	parts->q = kp->q;
	parts->q_len = kp->q_len;
	parts->dp = kp->dp;
	parts->dp_len = kp->dp_len;
	parts->dq = kp->dq;
	parts->dq_len = kp->dq_len;
	parts->qinv = kp->qinv;
	parts->qinv_len = kp->qinv_len;
}

void vg_rsa_keypair_wipe(vg_rsa_keypair *kp)
{
	if (kp)
		vg_wipe(kp, sizeof(*kp));
}
