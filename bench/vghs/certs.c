/* certs.c: the keys vghs can serve and a self-signed certificate for
 * each, made with OpenSSL from the test key (the same certificate whether
 * the server holds the key or vgd does). Secret: the test key while it is
 * loaded here (a published test key). */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "vghs.h"

const vgh_key vgh_keys[] = {
	{"rsa2048", "rsa2048.pem", "RSA-2048"},    {"rsa3072", "rsa3072.pem", "RSA-3072"},
	{"rsa4096", "rsa4096.pem", "RSA-4096"},    {"ed25519", "ed25519.pem", "Ed25519"},
	{"ecdsa-p256", "ecdsa-p256.pem", "P-256"}, {"ecdsa-p384", "ecdsa-p384.pem", "P-384"},
};
const size_t vgh_nkeys = sizeof(vgh_keys) / sizeof(vgh_keys[0]);

static int add_san(X509 *x, const char *host)
{
	char v[128];
	snprintf(v, sizeof(v), "DNS:%s", host);
	X509V3_CTX ctx;
	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, x, x, NULL, NULL, 0);
	X509_EXTENSION *e = X509V3_EXT_conf_nid(NULL, &ctx, NID_subject_alt_name, v);
	int ok = e && X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	return ok;
}

int vgh_make_cert(const char *key_pem, const char *host, const char *cert_out, char *why,
		  size_t whylen)
{
	FILE *f = fopen(key_pem, "r");
	if (!f) {
		snprintf(why, whylen, "cannot read %s", key_pem);
		return -1;
	}
	EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	X509 *x = X509_new();
	X509_NAME *n = X509_NAME_new();
	int ok = k && x && n && X509_set_version(x, 2) &&
		 ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
		 X509_gmtime_adj(X509_getm_notBefore(x), -3600) &&
		 X509_gmtime_adj(X509_getm_notAfter(x), 7 * 86400) &&
		 X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)host, -1,
					    -1, 0) &&
		 X509_set_subject_name(x, n) && X509_set_issuer_name(x, n) &&
		 X509_set_pubkey(x, k) && add_san(x, host);
	/* Ed25519 signs without a separate digest. */
	const EVP_MD *md = k && EVP_PKEY_is_a(k, "ED25519") ? NULL : EVP_sha256();
	ok = ok && X509_sign(x, k, md) > 0;
	FILE *o = ok ? fopen(cert_out, "w") : NULL;
	ok = o && PEM_write_X509(o, x);
	if (o && fclose(o) != 0)
		ok = 0;
	if (!ok)
		snprintf(why, whylen, "cannot make a certificate for %s", key_pem);
	X509_NAME_free(n);
	X509_free(x);
	EVP_PKEY_free(k);
	return ok ? 0 : -1;
}
