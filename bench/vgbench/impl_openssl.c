/* impl_openssl.c: the same operations through OpenSSL 3's EVP API, the
 * in-run reference. RSA private is EVP_PKEY_decrypt with RSA_NO_PADDING:
 * CRT, with OpenSSL's default base blinding (and its own check of the
 * result). ECDSA signs and verifies a digest with EVP_PKEY_sign/verify
 * (DER, converted from and to raw r||s). Nothing here is secret (public
 * test keys). */
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "bench.h"

/* Owned by this file: set by init, used by run/once, released by fini. */
static const vg_bench_fixture *fx;
static EVP_PKEY *ed_key, *x_key, *x_peer;
static EVP_PKEY_CTX *x_ctx; /* derive context: the peer is set once */
static EVP_MD_CTX *md;
static EVP_PKEY *rsa[VG_BENCH_RSA_SIZES];
static EVP_PKEY_CTX *rsa_dec[VG_BENCH_RSA_SIZES], *rsa_enc[VG_BENCH_RSA_SIZES];
static EVP_PKEY *ec[VG_BENCH_EC_CURVES];
static EVP_PKEY_CTX *ec_sign[VG_BENCH_EC_CURVES], *ec_verify[VG_BENCH_EC_CURVES];

static int fail(char *why, size_t whylen, const char *what)
{
	char e[256];
	ERR_error_string_n(ERR_get_error(), e, sizeof(e));
	snprintf(why, whylen, "OpenSSL %s: %s", what, e);
	return -1;
}

static int load_rsa(size_t s, char *why, size_t whylen)
{
	BIO *b = BIO_new_mem_buf(fx->rsa[s].file, (int)fx->rsa[s].file_len);
	if (!b)
		return fail(why, whylen, "BIO_new_mem_buf");
	rsa[s] = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
	BIO_free(b);
	if (!rsa[s])
		return fail(why, whylen, "reading the RSA key");
	rsa_dec[s] = EVP_PKEY_CTX_new(rsa[s], NULL);
	rsa_enc[s] = EVP_PKEY_CTX_new(rsa[s], NULL);
	if (!rsa_dec[s] || !rsa_enc[s] || EVP_PKEY_decrypt_init(rsa_dec[s]) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(rsa_dec[s], RSA_NO_PADDING) <= 0 ||
	    EVP_PKEY_encrypt_init(rsa_enc[s]) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(rsa_enc[s], RSA_NO_PADDING) <= 0)
		return fail(why, whylen, "RSA context");
	return 0;
}

static int load_ec(size_t c, char *why, size_t whylen)
{
	BIO *b = BIO_new_mem_buf(fx->ec[c].file, (int)fx->ec[c].file_len);
	if (!b)
		return fail(why, whylen, "BIO_new_mem_buf");
	ec[c] = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
	BIO_free(b);
	if (!ec[c])
		return fail(why, whylen, "reading the ECDSA key");
	if (!EVP_PKEY_is_a(ec[c], "EC") || EVP_PKEY_get_bits(ec[c]) != (int)fx->ec[c].bits) {
		snprintf(why, whylen, "the %s key file holds another kind of key", fx->ec[c].name);
		return -1;
	}
	/* No digest set: the input is taken as the digest, as TLS stacks do. */
	ec_sign[c] = EVP_PKEY_CTX_new(ec[c], NULL);
	ec_verify[c] = EVP_PKEY_CTX_new(ec[c], NULL);
	if (!ec_sign[c] || !ec_verify[c] || EVP_PKEY_sign_init(ec_sign[c]) <= 0 ||
	    EVP_PKEY_verify_init(ec_verify[c]) <= 0)
		return fail(why, whylen, "ECDSA context");
	return 0;
}

static int ossl_init(const vg_bench_fixture *f, const char *arg, char *why, size_t whylen)
{
	uint8_t pub[32];
	size_t len = sizeof(pub);
	fx = f;
	if (arg) {
		snprintf(why, whylen, "takes no '=%s'", arg);
		return -1;
	}
	md = EVP_MD_CTX_new();
	ed_key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, fx->ed_seed, 32);
	x_key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, fx->x_scalar, 32);
	x_peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, fx->x_peer, 32);
	if (!md || !ed_key || !x_key || !x_peer)
		return fail(why, whylen, "key setup");
	x_ctx = EVP_PKEY_CTX_new(x_key, NULL);
	if (!x_ctx || EVP_PKEY_derive_init(x_ctx) <= 0 || EVP_PKEY_derive_set_peer(x_ctx, x_peer) <= 0)
		return fail(why, whylen, "X25519 derive setup");
	if (EVP_PKEY_get_raw_public_key(ed_key, pub, &len) <= 0)
		return fail(why, whylen, "Ed25519 public key");
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++)
		if (fx->rsa[s].file && fx->rsa[s].k && load_rsa(s, why, whylen) < 0)
			return -1;
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++)
		if (fx->ec[c].file && load_ec(c, why, whylen) < 0)
			return -1;
	return 0;
}

static int ossl_has(int op)
{
	int s = vg_bench_op_rsa_index(op), c = vg_bench_op_ec_index(op);
	if (s >= 0)
		return rsa[s] != NULL;
	if (c >= 0)
		return ec[c] != NULL;
	return 1;
}

/* 1 if sig (raw r||s) is a valid signature of curve c's digest, else 0. */
static int ec_check(size_t c, const uint8_t *sig, size_t len)
{
	uint8_t der[VG_BENCH_DER_MAX];
	if (len != 2 * fx->ec[c].n_len)
		return 0;
	int n = vg_bench_sig_to_der(der, sizeof(der), sig, fx->ec[c].n_len);
	if (n < 0)
		return -1;
	return EVP_PKEY_verify(ec_verify[c], der, (size_t)n, fx->ec[c].digest,
			       fx->ec[c].digest_len) == 1;
}

static int ossl_check(int op, const uint8_t *sig, size_t len)
{
	int c = vg_bench_op_ec_index(op);
	return c < 0 || !ec[c] ? -1 : ec_check((size_t)c, sig, len);
}

static int ec_sign_raw(size_t c, uint8_t *out)
{
	uint8_t der[VG_BENCH_DER_MAX];
	size_t len = sizeof(der);
	if (EVP_PKEY_sign(ec_sign[c], der, &len, fx->ec[c].digest, fx->ec[c].digest_len) <= 0)
		return -1;
	return vg_bench_sig_to_raw(out, fx->ec[c].n_len, der, len);
}

/* Key pair from a raw seed: OpenSSL derives the public key when the
 * private key is imported, so import plus export is the operation. */
static int from_seed(int type, const uint8_t seed[32], uint8_t *out)
{
	size_t len = 32;
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(type, NULL, seed, 32);
	int ok = k && EVP_PKEY_get_raw_public_key(k, out, &len) > 0 && len == 32;
	EVP_PKEY_free(k);
	return ok ? 32 : -1;
}

static int sign(size_t mlen, uint8_t *out)
{
	size_t len = 64;
	if (EVP_DigestSignInit(md, NULL, NULL, NULL, ed_key) <= 0 ||
	    EVP_DigestSign(md, out, &len, fx->msg, mlen) <= 0 || len != 64)
		return -1;
	return 64;
}

/* A new key the way `openssl genpkey` makes one (EVP_PKEY_Q_keygen: a
 * fresh context, the default e = 65537 for RSA); its public key into out. */
static int keygen(int op, uint8_t *out)
{
	int k = vg_bench_op_keygen(op);
	size_t len = vg_bench_keygen_len(op), got = 0;
	EVP_PKEY *key;
	BIGNUM *n = NULL;
	int r = -1;

	if (k > 2)
		key = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)k);
	else if (k > 0)
		key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", k == 1 ? "P-256" : "P-384");
	else
		key = EVP_PKEY_Q_keygen(NULL, NULL, k == -1 ? "ED25519" : "X25519");
	if (!key)
		return -1;
	if (k > 2) {
		if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) == 1 &&
		    BN_bn2binpad(n, out, (int)len) == (int)len)
			r = (int)len;
		BN_free(n);
	} else if (k > 0) {
		if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out,
						    VG_BENCH_OUT_MAX, &got) == 1 &&
		    got == len)
			r = (int)len;
	} else {
		got = len;
		if (EVP_PKEY_get_raw_public_key(key, out, &got) == 1 && got == len)
			r = (int)len;
	}
	EVP_PKEY_free(key);
	return r;
}

static int ossl_one(int op, uint8_t *out)
{
	if (vg_bench_op_keygen(op))
		return keygen(op, out);
	size_t len;
	int s, c;
	switch (op) {
	case VG_BENCH_ED_KEYPAIR:
		return from_seed(EVP_PKEY_ED25519, fx->ed_seed, out);
	case VG_BENCH_ED_SIGN64:
		return sign(64, out);
	case VG_BENCH_ED_SIGN1K:
		return sign(1024, out);
	case VG_BENCH_ED_VERIFY:
		if (EVP_DigestVerifyInit(md, NULL, NULL, NULL, ed_key) <= 0)
			return -1;
		out[0] = EVP_DigestVerify(md, fx->ed_sig, 64, fx->msg, VG_BENCH_VERIFY_LEN) == 1;
		return 1;
	case VG_BENCH_X_BASE:
		return from_seed(EVP_PKEY_X25519, fx->x_scalar, out);
	case VG_BENCH_X_VAR:
		len = 32;
		return EVP_PKEY_derive(x_ctx, out, &len) > 0 && len == 32 ? 32 : -1;
	case VG_BENCH_P256_SIGN:
	case VG_BENCH_P384_SIGN:
		return ec_sign_raw((size_t)vg_bench_op_ec_index(op), out);
	case VG_BENCH_P256_VERIFY:
	case VG_BENCH_P384_VERIFY:
		c = vg_bench_op_ec_index(op);
		s = ec_check((size_t)c, fx->ec[c].sig, fx->ec[c].sig_len);
		if (s < 0)
			return -1;
		out[0] = (uint8_t)s;
		return 1;
	default:
		s = vg_bench_op_rsa_index(op);
		len = fx->rsa[s].k;
		if (op == VG_BENCH_RSA2048_PRIV || op == VG_BENCH_RSA3072_PRIV ||
		    op == VG_BENCH_RSA4096_PRIV) {
			if (EVP_PKEY_decrypt(rsa_dec[s], out, &len, fx->rsa[s].priv_in, fx->rsa[s].k) <= 0)
				return -1;
		} else if (EVP_PKEY_encrypt(rsa_enc[s], out, &len, fx->rsa[s].pub_in, fx->rsa[s].k) <= 0) {
			return -1;
		}
		return len == fx->rsa[s].k ? (int)len : -1;
	}
}

static void ossl_fini(void)
{
	for (size_t c = 0; c < VG_BENCH_EC_CURVES; c++) {
		EVP_PKEY_CTX_free(ec_sign[c]);
		EVP_PKEY_CTX_free(ec_verify[c]);
		EVP_PKEY_free(ec[c]);
		ec_sign[c] = ec_verify[c] = NULL;
		ec[c] = NULL;
	}
	for (size_t s = 0; s < VG_BENCH_RSA_SIZES; s++) {
		EVP_PKEY_CTX_free(rsa_dec[s]);
		EVP_PKEY_CTX_free(rsa_enc[s]);
		EVP_PKEY_free(rsa[s]);
		rsa_dec[s] = rsa_enc[s] = NULL;
		rsa[s] = NULL;
	}
	EVP_PKEY_CTX_free(x_ctx);
	EVP_PKEY_free(x_peer);
	EVP_PKEY_free(x_key);
	EVP_PKEY_free(ed_key);
	EVP_MD_CTX_free(md);
	x_ctx = NULL;
	x_peer = x_key = ed_key = NULL;
	md = NULL;
}

static const char *ossl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

const vg_bench_impl vg_bench_openssl = {
	.name = "openssl",
	.init = ossl_init,
	.has = ossl_has,
	.one = ossl_one,
	.fini = ossl_fini,
	.version = ossl_version,
	.check = ossl_check,
};
