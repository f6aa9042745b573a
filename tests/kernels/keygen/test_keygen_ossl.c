/* test_keygen_ossl.c: the key generators of vg/keygen.h checked against
 * OpenSSL 3 (libcrypto) as an independent reference. Every generated key
 * must be what its standard says, recomputed outside the kernels:
 *  - RSA (FIPS 186-5 A.1.3): OpenSSL builds the key from the eight values
 *    (EVP_PKEY_fromdata) and accepts it (EVP_PKEY_check); its big numbers
 *    recheck n = p q with exactly `bits` bits, p and q of bits/2 bits with
 *    the top two set, both prime (BN_check_prime), |p - q| > 2^(bits/2 -
 *    100), gcd(e, p - 1) = gcd(e, q - 1) = 1, d e = 1 mod lcm(p - 1,
 *    q - 1) with 2^(bits/2) < d < lcm, dp, dq, qinv; then OpenSSL's
 *    signature verifies under the kernels and the kernels' (after a full
 *    vg_rsa_key_init, 40 Miller-Rabin rounds) under OpenSSL;
 *  - ECDSA: 0 < d < n and OpenSSL's d G is the returned point; a kernel
 *    signature verifies under OpenSSL;
 *  - Ed25519, X25519: OpenSSL derives the same public key from the
 *    private bytes;
 *  - argument checks, and two keys in a row differ.
 * argv[1] = "--quick" generates RSA-2048 only (the C-row run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "ecdsa_testutil.h"
#include "vg/keygen.h"

static int quick;

static BIGNUM *bn(const uint8_t *b, size_t len)
{
	BIGNUM *r = BN_bin2bn(b, (int)len, NULL);
	assert_non_null(r);
	return r;
}

/* The FIPS 186-5 A.1.3 conditions, recomputed with OpenSSL's BIGNUMs. */
static void check_rsa_math(const vg_rsa_keypair *kp, size_t bits, uint32_t e)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *n = bn(kp->n, kp->n_len), *ev = bn(kp->e, kp->e_len), *d = bn(kp->d, kp->d_len);
	BIGNUM *p = bn(kp->p, kp->p_len), *q = bn(kp->q, kp->q_len);
	BIGNUM *dp = bn(kp->dp, kp->dp_len), *dq = bn(kp->dq, kp->dq_len);
	BIGNUM *qinv = bn(kp->qinv, kp->qinv_len);
	BIGNUM *t = BN_new(), *u = BN_new(), *pm1 = BN_new(), *qm1 = BN_new(), *g = BN_new();
	BIGNUM *lam = BN_new();

	assert_non_null(ctx);
	assert_int_equal(kp->bits, bits);
	assert_int_equal(kp->n_len, bits / 8);
	assert_int_equal(kp->d_len, bits / 8);
	assert_int_equal(kp->p_len, bits / 16);
	assert_int_equal(BN_get_word(ev), e);
	/* n = p q, exactly bits bits; p, q of bits/2 bits, top two set */
	assert_int_equal(BN_mul(t, p, q, ctx), 1);
	assert_int_equal(BN_cmp(t, n), 0);
	assert_int_equal(BN_num_bits(n), (int)bits);
	assert_int_equal(BN_num_bits(p), (int)bits / 2);
	assert_int_equal(BN_num_bits(q), (int)bits / 2);
	assert_true(BN_is_bit_set(p, (int)bits / 2 - 2) && BN_is_bit_set(q, (int)bits / 2 - 2));
	assert_int_equal(BN_check_prime(p, ctx, NULL), 1);
	assert_int_equal(BN_check_prime(q, ctx, NULL), 1);
	/* |p - q| > 2^(bits/2 - 100) */
	assert_int_equal(BN_sub(t, p, q), 1);
	BN_set_negative(t, 0);
	assert_true(BN_num_bits(t) > (int)bits / 2 - 100);
	/* gcd(e, p - 1) = gcd(e, q - 1) = 1 */
	assert_int_equal(BN_sub(pm1, p, BN_value_one()), 1);
	assert_int_equal(BN_sub(qm1, q, BN_value_one()), 1);
	assert_int_equal(BN_gcd(t, ev, pm1, ctx), 1);
	assert_true(BN_is_one(t));
	assert_int_equal(BN_gcd(t, ev, qm1, ctx), 1);
	assert_true(BN_is_one(t));
	/* lam = lcm(p - 1, q - 1); d e = 1 mod lam; 2^(bits/2) < d < lam */
	assert_int_equal(BN_gcd(g, pm1, qm1, ctx), 1);
	assert_int_equal(BN_mul(t, pm1, qm1, ctx), 1);
	assert_int_equal(BN_div(lam, u, t, g, ctx), 1);
	assert_true(BN_is_zero(u));
	assert_int_equal(BN_mod_mul(t, d, ev, lam, ctx), 1);
	assert_true(BN_is_one(t));
	assert_true(BN_cmp(d, lam) < 0);
	assert_true(BN_num_bits(d) > (int)bits / 2);
	/* dp, dq, qinv */
	assert_int_equal(BN_mod(t, d, pm1, ctx), 1);
	assert_int_equal(BN_cmp(t, dp), 0);
	assert_int_equal(BN_mod(t, d, qm1, ctx), 1);
	assert_int_equal(BN_cmp(t, dq), 0);
	assert_int_equal(BN_mod_mul(t, q, qinv, p, ctx), 1);
	assert_true(BN_is_one(t));
	assert_true(BN_cmp(qinv, p) < 0);

	BN_free(n), BN_free(ev), BN_free(d), BN_free(p), BN_free(q), BN_free(dp);
	BN_free(dq), BN_free(qinv), BN_free(t), BN_free(u), BN_free(pm1), BN_free(qm1);
	BN_free(g), BN_free(lam);
	BN_CTX_free(ctx);
}

static EVP_PKEY *ossl_rsa(const vg_rsa_keypair *kp)
{
	const uint8_t *v[8] = {kp->n, kp->e, kp->d, kp->p, kp->q, kp->dp, kp->dq, kp->qinv};
	const size_t l[8] = {kp->n_len, kp->e_len,  kp->d_len,  kp->p_len,
			     kp->q_len, kp->dp_len, kp->dq_len, kp->qinv_len};
	static const char *names[8] = {
		OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
		OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
		OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
		OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
	BIGNUM *b[8];
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	EVP_PKEY *k = NULL;

	assert_non_null(bld);
	assert_non_null(pc);
	for (int i = 0; i < 8; i++) {
		b[i] = bn(v[i], l[i]);
		assert_int_equal(OSSL_PARAM_BLD_push_BN(bld, names[i], b[i]), 1);
	}
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	assert_non_null(params);
	assert_int_equal(EVP_PKEY_fromdata_init(pc), 1);
	assert_int_equal(EVP_PKEY_fromdata(pc, &k, EVP_PKEY_KEYPAIR, params), 1);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(pc);
	for (int i = 0; i < 8; i++)
		BN_clear_free(b[i]);
	return k;
}

static void check_rsa_ossl(const vg_rsa_keypair *kp)
{
	EVP_PKEY *k = ossl_rsa(kp);
	EVP_PKEY_CTX *cc = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
	static const uint8_t msg[] = "issue 38: keys born in vgd";
	uint8_t dig[32], sig[VG_RSA_MAX_BYTES];
	size_t slen = sizeof(sig), k_len = kp->n_len;
	unsigned dl = 0;
	vg_rsa_public_key *pub = malloc(vg_rsa_public_key_size());
	vg_rsa_key *key = malloc(vg_rsa_key_size());
	vg_rsa_key_parts parts;

	assert_non_null(cc);
	assert_non_null(pub);
	assert_non_null(key);
	assert_int_equal(EVP_PKEY_check(cc), 1);
	EVP_PKEY_CTX_free(cc);
	assert_int_equal(EVP_Digest(msg, sizeof(msg), dig, &dl, EVP_sha256(), NULL), 1);

	/* OpenSSL signs (PKCS#1 v1.5, SHA-256), the kernels verify. */
	EVP_MD_CTX *mc = EVP_MD_CTX_new();
	assert_int_equal(EVP_DigestSignInit(mc, NULL, EVP_sha256(), NULL, k), 1);
	assert_int_equal(EVP_DigestSign(mc, sig, &slen, msg, sizeof(msg)), 1);
	EVP_MD_CTX_free(mc);
	assert_int_equal(slen, k_len);
	assert_int_equal(vg_rsa_public_key_init(pub, kp->n, kp->n_len, kp->e, kp->e_len), 0);
	assert_int_equal(vg_rsa_verify_pkcs1(pub, VG_HASH_SHA256, dig, 32, sig, k_len), 0);

	/* The kernels load it as a key file (every check, 40 rounds) and
	 * sign; OpenSSL verifies. */
	vg_rsa_keypair_parts(kp, &parts);
	assert_int_equal(vg_rsa_key_init(key, &parts), 0);
	assert_int_equal(vg_rsa_sign_pkcs1(key, VG_HASH_SHA256, dig, 32, sig, k_len), 0);
	mc = EVP_MD_CTX_new();
	assert_int_equal(EVP_DigestVerifyInit(mc, NULL, EVP_sha256(), NULL, k), 1);
	assert_int_equal(EVP_DigestVerify(mc, sig, k_len, msg, sizeof(msg)), 1);
	EVP_MD_CTX_free(mc);

	vg_rsa_key_wipe(key);
	free(key);
	free(pub);
	EVP_PKEY_free(k);
}

static void rsa_case(size_t bits, uint32_t e)
{
	vg_rsa_keypair *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(vg_rsa_generate(bits, e, a), 0);
	check_rsa_math(a, bits, e);
	check_rsa_ossl(a);
	/* a second key shares nothing with the first */
	if (bits == 2048) {
		assert_int_equal(vg_rsa_generate(bits, e, b), 0);
		assert_memory_not_equal(a->p, b->p, a->p_len);
		assert_memory_not_equal(a->q, b->q, a->q_len);
		assert_memory_not_equal(a->p, b->q, a->p_len);
		vg_rsa_keypair_wipe(b);
	}
	vg_rsa_keypair_wipe(a);
	free(a);
	free(b);
}

static void test_rsa_2048(void **state)
{
	(void)state;
	rsa_case(2048, VG_RSA_GEN_E);
}

/* Other exponents: a prime (65539) and a composite (65541 = 3 21847),
 * whose gcd with p - 1 is not a primality question. */
static void test_rsa_other_e(void **state)
{
	(void)state;
	rsa_case(2048, 65539);
	rsa_case(2048, 65541);
}

static void test_rsa_3072(void **state)
{
	(void)state;
	rsa_case(3072, VG_RSA_GEN_E);
}

static void test_rsa_4096(void **state)
{
	(void)state;
	rsa_case(4096, VG_RSA_GEN_E);
}

static void test_rsa_args(void **state)
{
	vg_rsa_keypair kp;

	(void)state;
	memset(&kp, 0xa5, sizeof(kp));
	assert_int_equal(vg_rsa_generate(1024, VG_RSA_GEN_E, &kp), VG_E_UNSUPPORTED);
	assert_int_equal(kp.n_len, 0); /* wiped */
	assert_int_equal(vg_rsa_generate(2047, VG_RSA_GEN_E, &kp), VG_E_UNSUPPORTED);
	assert_int_equal(vg_rsa_generate(2048, 3, &kp), VG_E_INVALID);
	assert_int_equal(vg_rsa_generate(2048, 65536, &kp), VG_E_INVALID);
	assert_int_equal(vg_rsa_generate(2048, 65538, &kp), VG_E_INVALID);
	assert_int_equal(vg_rsa_generate(2048, VG_RSA_GEN_E, NULL), VG_E_INVALID);
}

static void ec_case(vg_ecdsa_curve c)
{
	const struct tec_curve *tc = tec_curve(c);
	size_t len = vg_ecdsa_scalar_len(c), plen = vg_ecdsa_public_len(c), ol;
	uint8_t d[48], pub[97], ref[97], prev[48] = {0}, dig[48], sig[96];
	tbn dv;

	for (int i = 0; i < 20; i++) {
		assert_int_equal(vg_ecdsa_generate(c, d, len, pub, plen), 0);
		tbn_from_be(&dv, d, len);
		assert_false(tbn_is_zero(&dv));
		assert_true(tbn_cmp(&dv, &tc->n) < 0);
		tos_mul(c, ref, &ol, d, len, NULL);
		assert_int_equal(ol, plen);
		assert_memory_equal(pub, ref, plen);
		assert_memory_not_equal(d, prev, len);
		memcpy(prev, d, len);
		/* the key signs for OpenSSL */
		vg_ecdsa_key *key = malloc(vg_ecdsa_key_size());
		assert_non_null(key);
		memset(dig, i, sizeof(dig));
		assert_int_equal(vg_ecdsa_key_init(key, c, d, len), 0);
		assert_int_equal(vg_ecdsa_sign(key, dig, len, sig, 2 * len), 0);
		assert_int_equal(tos_verify(c, pub, dig, len, sig), 1);
		vg_ecdsa_key_wipe(key);
		free(key);
	}
	assert_int_equal(vg_ecdsa_generate(c, d, len - 1, pub, plen), VG_E_INVALID);
	assert_int_equal(vg_ecdsa_generate(c, d, len, pub, plen + 1), VG_E_INVALID);
}

static void test_ecdsa_p256(void **state)
{
	(void)state;
	ec_case(VG_ECDSA_P256);
}

static void test_ecdsa_p384(void **state)
{
	(void)state;
	ec_case(VG_ECDSA_P384);
}

static void test_ecdsa_args(void **state)
{
	uint8_t d[48], pub[97];

	(void)state;
	assert_int_equal(vg_ecdsa_generate((vg_ecdsa_curve)7, d, 32, pub, 65), VG_E_INVALID);
	assert_int_equal(vg_ecdsa_generate(VG_ECDSA_P256, NULL, 32, pub, 65), VG_E_INVALID);
}

/* OpenSSL's public key for raw private bytes of type (ED25519, X25519). */
static void ossl_raw_public(int type, const uint8_t *priv, uint8_t *pub)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(type, NULL, priv, 32);
	size_t len = 32;

	assert_non_null(k);
	assert_int_equal(EVP_PKEY_get_raw_public_key(k, pub, &len), 1);
	assert_int_equal(len, 32);
	EVP_PKEY_free(k);
}

static void test_ed25519(void **state)
{
	uint8_t seed[32], pk[32], ref[32], prev[32] = {0}, sig[64];
	static const uint8_t msg[] = "hello";

	(void)state;
	for (int i = 0; i < 50; i++) {
		assert_int_equal(vg_ed25519_generate(seed, pk), 0);
		ossl_raw_public(EVP_PKEY_ED25519, seed, ref);
		assert_memory_equal(pk, ref, 32);
		assert_memory_not_equal(seed, prev, 32);
		memcpy(prev, seed, 32);
		vg_ed25519_sign(sig, msg, sizeof(msg), seed, pk);
		assert_int_equal(vg_ed25519_verify(sig, msg, sizeof(msg), pk), 0);
	}
}

static void test_x25519(void **state)
{
	uint8_t priv[32], pub[32], ref[32], prev[32] = {0};

	(void)state;
	for (int i = 0; i < 50; i++) {
		assert_int_equal(vg_x25519_generate(priv, pub), 0);
		ossl_raw_public(EVP_PKEY_X25519, priv, ref);
		assert_memory_equal(pub, ref, 32);
		assert_memory_not_equal(priv, prev, 32);
		memcpy(prev, priv, 32);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest all[] = {
		cmocka_unit_test(test_rsa_2048),   cmocka_unit_test(test_rsa_other_e),
		cmocka_unit_test(test_rsa_3072),   cmocka_unit_test(test_rsa_4096),
		cmocka_unit_test(test_rsa_args),   cmocka_unit_test(test_ecdsa_p256),
		cmocka_unit_test(test_ecdsa_p384), cmocka_unit_test(test_ecdsa_args),
		cmocka_unit_test(test_ed25519),    cmocka_unit_test(test_x25519),
	};
	const struct CMUnitTest few[] = {
		cmocka_unit_test(test_rsa_2048),   cmocka_unit_test(test_rsa_args),
		cmocka_unit_test(test_ecdsa_p256), cmocka_unit_test(test_ecdsa_p384),
		cmocka_unit_test(test_ed25519),    cmocka_unit_test(test_x25519),
	};

	quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	tec_expect_variant(argv[0]);
	if (quick)
		return cmocka_run_group_tests_name("keygen-openssl-quick", few, NULL, NULL) != 0;
	return cmocka_run_group_tests_name("keygen-openssl", all, NULL, NULL) != 0;
}
