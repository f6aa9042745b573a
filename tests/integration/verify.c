/* verify.c: see verify.h. Uses only OpenSSL, never vgd's kernels, so a
 * bug shared by the daemon and the test cannot hide itself. */
#include "verify.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <string.h>

#include "vgclient.h"

static const struct {
	const char *name, *file;
} files[] = {
	{"ed", "ed25519.pem"},         {"ed-tls", "ed25519-b.pem"}, {"ed-der", "ed25519-b.pem"},
	{"x", "x25519.pem"},           {"rsa2048", "rsa2048.pem"},  {"rsa3072", "rsa3072.pem"},
	{"rsa4096", "rsa4096.pem"},    {"rsa-pkcs1", "rsa2048.pem"}, {"rsa-der", "rsa3072.pem"},
};

const char *vt_key_file(const char *name)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (strcmp(files[i].name, name) == 0)
			return files[i].file;
	return NULL;
}

void *vt_load(const vgt_daemon *d, const char *name)
{
	const char *file = vt_key_file(name);
	return file ? vt_load_file(d, file) : NULL;
}

void *vt_load_file(const vgt_daemon *d, const char *file)
{
	char p[512];
	vgt_key(d, file, p, sizeof(p));
	FILE *f = fopen(p, "r");
	if (!f)
		return NULL;
	EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	return k;
}

void vt_free(void *pkey) { EVP_PKEY_free(pkey); }

static const EVP_MD *md_for_len(size_t len)
{
	return len == 32 ? EVP_sha256() : len == 48 ? EVP_sha384() : len == 64 ? EVP_sha512() : NULL;
}

static int verify_digest(EVP_PKEY *k, int pss, const uint8_t *dg, size_t dl, const uint8_t *sig,
			 size_t sl)
{
	const EVP_MD *md = md_for_len(dl);
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	int ok = md && pc && EVP_PKEY_verify_init(pc) == 1 &&
		 EVP_PKEY_CTX_set_rsa_padding(pc, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) == 1 &&
		 EVP_PKEY_CTX_set_signature_md(pc, md) == 1 &&
		 (!pss || EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, (int)dl) == 1) &&
		 EVP_PKEY_verify(pc, sig, sl, dg, dl) == 1;
	EVP_PKEY_CTX_free(pc);
	return ok;
}

static int verify_message(EVP_PKEY *k, const EVP_MD *md, int pss_salt, const uint8_t *m,
			  size_t len, const uint8_t *sig, size_t sl)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	int ok = c && EVP_DigestVerifyInit(c, &pc, md, NULL, k) == 1;
	if (ok && pss_salt)
		ok = EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, pss_salt) == 1;
	ok = ok && EVP_DigestVerify(c, sig, sl, m, len) == 1;
	EVP_MD_CTX_free(c);
	return ok;
}

/* The curve of an EC key ("prime256v1", "secp384r1"), or "" */
static const char *ec_group(EVP_PKEY *k)
{
	static char name[64];
	size_t n = 0;
	if (EVP_PKEY_get_base_id(k) != EVP_PKEY_EC ||
	    EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof(name), &n) !=
		    1)
		return "";
	return name;
}

/* ECDSA: the key's curve is the algorithm's, the digest has the
 * algorithm's hash length (set as the signature digest, OpenSSL checks
 * it), the DER signature verifies. */
static int verify_ecdsa(EVP_PKEY *k, const char *curve, const EVP_MD *md, const uint8_t *dg,
			size_t dl, const uint8_t *sig, size_t sl)
{
	if (strcmp(ec_group(k), curve) != 0 || (size_t)EVP_MD_get_size(md) != dl)
		return 0;
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	int ok = pc && EVP_PKEY_verify_init(pc) == 1 &&
		 EVP_PKEY_CTX_set_signature_md(pc, md) == 1 &&
		 EVP_PKEY_verify(pc, sig, sl, dg, dl) == 1;
	EVP_PKEY_CTX_free(pc);
	return ok;
}

/* A message signed with an Ed25519 key, or with an ECDSA key and its
 * curve's own hash (SHA-256 for P-256, SHA-384 for P-384), as TLS 1.3 and
 * X.509 sign with them: 1 or 0, or -1 for a key of another type. */
static int verify_curve_own(EVP_PKEY *k, const uint8_t *m, size_t len, const uint8_t *sig,
			    size_t sl)
{
	if (EVP_PKEY_get_base_id(k) == EVP_PKEY_ED25519)
		return sl == 64 && verify_message(k, NULL, 0, m, len, sig, sl);
	if (strcmp(ec_group(k), "prime256v1") == 0)
		return verify_message(k, EVP_sha256(), 0, m, len, sig, sl);
	if (strcmp(ec_group(k), "secp384r1") == 0)
		return verify_message(k, EVP_sha384(), 0, m, len, sig, sl);
	return -1;
}

int vt_verify(void *pkey, int alg, const uint8_t *data, size_t len, const uint8_t *sig,
	      size_t sig_len)
{
	EVP_PKEY *k = pkey;
	/* Its own list, not the protocol's table: an oracle apart from the
	 * code under test. An algorithm it does not know fails. */
	int pss;
	switch (alg) {
	case VGC_ALG_ECDSA_P256_SHA256:
		return verify_ecdsa(k, "prime256v1", EVP_sha256(), data, len, sig, sig_len);
	case VGC_ALG_ECDSA_P256_SHA384:
		return verify_ecdsa(k, "prime256v1", EVP_sha384(), data, len, sig, sig_len);
	case VGC_ALG_ECDSA_P256_SHA512:
		return verify_ecdsa(k, "prime256v1", EVP_sha512(), data, len, sig, sig_len);
	case VGC_ALG_ECDSA_P384_SHA384:
		return verify_ecdsa(k, "secp384r1", EVP_sha384(), data, len, sig, sig_len);
	case VGC_ALG_ECDSA_P384_SHA256:
		return verify_ecdsa(k, "secp384r1", EVP_sha256(), data, len, sig, sig_len);
	case VGC_ALG_ECDSA_P384_SHA512:
		return verify_ecdsa(k, "secp384r1", EVP_sha512(), data, len, sig, sig_len);
	case VGC_ALG_ED25519:
		return sig_len == 64 && verify_message(k, NULL, 0, data, len, sig, sig_len);
	case VGC_ALG_CSR: {
		/* data is the CertificationRequestInfo, signed as X.509 signs
		 * with the key: Ed25519 (RFC 8410), ecdsa-with-SHA256/SHA384 by
		 * the curve (RFC 5758), sha256WithRSAEncryption (RFC 4055). */
		int r = verify_curve_own(k, data, len, sig, sig_len);
		if (r >= 0)
			return r;
		return EVP_PKEY_get_base_id(k) == EVP_PKEY_RSA &&
		       sig_len == (size_t)EVP_PKEY_get_size(k) &&
		       verify_message(k, EVP_sha256(), 0, data, len, sig, sig_len);
	}
	case VGC_ALG_RSA_PKCS1_SHA256:
	case VGC_ALG_RSA_PKCS1_SHA384:
	case VGC_ALG_RSA_PKCS1_SHA512:
		pss = 0;
		break;
	case VGC_ALG_RSA_PSS_SHA256:
	case VGC_ALG_RSA_PSS_SHA384:
	case VGC_ALG_RSA_PSS_SHA512:
		pss = 1;
		break;
	default:
		return 0;
	}
	if (sig_len != (size_t)EVP_PKEY_get_size(k))
		return 0;
	return verify_digest(k, pss, data, len, sig, sig_len);
}

int vt_verify_ecdsa_raw(void *pkey, int alg, const uint8_t *digest, size_t len, const uint8_t *sig,
			size_t sig_len)
{
	size_t half = strcmp(ec_group(pkey), "secp384r1") == 0 ? 48 : 32;
	ECDSA_SIG *es = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(sig, (int)half, NULL), *s = BN_bin2bn(sig + half, (int)half, NULL);
	unsigned char *der = NULL;
	int dl = -1;
	if (sig_len == 2 * half && es && r && s && ECDSA_SIG_set0(es, r, s) == 1) {
		r = s = NULL; /* owned by es now */
		dl = i2d_ECDSA_SIG(es, &der);
	}
	int ok = dl > 0 && vt_verify(pkey, alg, digest, len, der, (size_t)dl);
	OPENSSL_free(der);
	BN_free(r);
	BN_free(s);
	ECDSA_SIG_free(es);
	return ok;
}

int vt_verify_tls13(void *pkey, int role, const uint8_t *hash, size_t hash_len,
		    const uint8_t *sig, size_t sig_len)
{
	uint8_t content[64 + 33 + 1 + 64];
	memset(content, 0x20, 64);
	memcpy(content + 64, role == VGC_TLS_SERVER ? "TLS 1.3, server CertificateVerify"
						    : "TLS 1.3, client CertificateVerify", 33);
	content[97] = 0;
	memcpy(content + 98, hash, hash_len);
	size_t n = 98 + hash_len;
	EVP_PKEY *k = pkey;
	/* ed25519; ecdsa_secp256r1_sha256, ecdsa_secp384r1_sha384: the
	 * curve's hash, whatever the transcript hash's length */
	int r = verify_curve_own(k, content, n, sig, sig_len);
	if (r >= 0)
		return r;
	return verify_message(k, md_for_len(hash_len), (int)hash_len, content, n, sig, sig_len);
}

int vt_check_x25519(void *pkey, const uint8_t peer[32], const uint8_t shared[32])
{
	EVP_PKEY *p = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer, 32);
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pkey, NULL);
	uint8_t want[32];
	size_t wl = sizeof(want);
	int ok = p && pc && EVP_PKEY_derive_init(pc) == 1 && EVP_PKEY_derive_set_peer(pc, p) == 1 &&
		 EVP_PKEY_derive(pc, want, &wl) == 1 && wl == 32 && memcmp(want, shared, 32) == 0;
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(p);
	return ok;
}

void vt_x25519_peer(uint8_t peer[32])
{
	EVP_PKEY *k = NULL;
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
	size_t l = 32;
	if (!pc || EVP_PKEY_keygen_init(pc) != 1 || EVP_PKEY_keygen(pc, &k) != 1 ||
	    EVP_PKEY_get_raw_public_key(k, peer, &l) != 1)
		memset(peer, 9, 32); /* makes the caller's check fail visibly */
	EVP_PKEY_free(k);
	EVP_PKEY_CTX_free(pc);
}

int vt_check_rsa_private(void *pkey, const uint8_t *in, size_t len, const uint8_t *out,
			 size_t out_len)
{
	uint8_t back[512];
	size_t bl = sizeof(back);
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pkey, NULL);
	int ok = pc && out_len == len && EVP_PKEY_encrypt_init(pc) == 1 &&
		 EVP_PKEY_CTX_set_rsa_padding(pc, RSA_NO_PADDING) == 1 &&
		 EVP_PKEY_encrypt(pc, back, &bl, out, out_len) == 1 && bl == len &&
		 memcmp(back, in, len) == 0;
	EVP_PKEY_CTX_free(pc);
	return ok;
}

int vt_check_public(void *pkey, const uint8_t *pub, size_t len)
{
	EVP_PKEY *k = pkey;
	uint8_t raw[512];
	size_t rl = sizeof(raw);
	if (EVP_PKEY_get_base_id(k) == EVP_PKEY_EC) /* uncompressed, whatever the file had */
		return EVP_PKEY_set_utf8_string_param(k, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
						      "uncompressed") == 1 &&
		       EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, raw,
						       sizeof(raw), &rl) == 1 &&
		       rl == len && memcmp(raw, pub, len) == 0;
	if (EVP_PKEY_get_base_id(k) != EVP_PKEY_RSA)
		return EVP_PKEY_get_raw_public_key(k, raw, &rl) == 1 && rl == len &&
		       memcmp(raw, pub, len) == 0;
	BIGNUM *n = NULL;
	int ok = EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n) == 1 &&
		 (size_t)BN_num_bytes(n) == len && BN_bn2bin(n, raw) == (int)len &&
		 memcmp(raw, pub, len) == 0;
	BN_free(n);
	return ok;
}
