/* ossl.c: the same operations done in-process with OpenSSL 3 (libcrypto),
 * as a TLS server does without vgd: a fresh EVP_PKEY_CTX per operation,
 * like libssl's CertificateVerify. Secret: the loaded test keys. Built
 * only when libcrypto is found (ossl_none.c otherwise). */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vg/proto.h"
#include "vgload.h"

#define NKEYS 6

static const char *const key_files[NKEYS] = {"ed25519.pem", "x25519.pem",     "rsa2048.pem",
					     "rsa3072.pem", "ecdsa-p256.pem", "ecdsa-p384.pem"};

struct vgl_ossl {
	EVP_PKEY *key[NKEYS];
	EVP_PKEY *peer; /* x25519 peer, built from the op's input */
};

const char *vgl_ossl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

void vgl_ossl_free(vgl_ossl *o)
{
	if (!o)
		return;
	for (int i = 0; i < NKEYS; i++)
		EVP_PKEY_free(o->key[i]);
	EVP_PKEY_free(o->peer);
	free(o);
}

vgl_ossl *vgl_ossl_new(const char *dir, char *why, size_t whylen)
{
	vgl_ossl *o = calloc(1, sizeof(*o));
	if (!o) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	for (int i = 0; i < NKEYS; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, key_files[i]);
		FILE *f = fopen(path, "r");
		if (f) {
			o->key[i] = PEM_read_PrivateKey(f, NULL, NULL, NULL);
			fclose(f);
		}
		if (!o->key[i]) {
			snprintf(why, whylen, "OpenSSL cannot load %s", path);
			vgl_ossl_free(o);
			return NULL;
		}
	}
	return o;
}

static EVP_PKEY *key_for(const vgl_ossl *o, const vgl_op *op)
{
	if (!op->key_file)
		return NULL; /* ping: nothing to compare with */
	for (int i = 0; i < NKEYS; i++)
		if (strcmp(key_files[i], op->key_file) == 0)
			return o->key[i];
	return NULL;
}

static int sign_ed25519(EVP_PKEY *k, const uint8_t *data, size_t len, uint8_t *out)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	size_t olen = 64;
	int ok = m && EVP_DigestSignInit(m, NULL, NULL, NULL, k) == 1 &&
		 EVP_DigestSign(m, out, &olen, data, len) == 1;
	EVP_MD_CTX_free(m);
	return ok ? 0 : -1;
}

static int rsa_op(EVP_PKEY *k, const vgl_op *op, const uint8_t *data, uint8_t *out)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	size_t olen = op->result_len;
	int ok;
	if (op->op == VG_OP_RSA_PRIVATE) {
		/* Raw m^d mod n: decryption without padding. */
		ok = c && EVP_PKEY_decrypt_init(c) == 1 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING) == 1 &&
		     EVP_PKEY_decrypt(c, out, &olen, data, op->data_len) == 1;
	} else {
		int pss = op->alg == VG_ALG_RSA_PSS_SHA256;
		ok = c && EVP_PKEY_sign_init(c) == 1 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) ==
			     1 &&
		     EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) == 1 &&
		     (!pss || EVP_PKEY_CTX_set_rsa_pss_saltlen(c, RSA_PSS_SALTLEN_DIGEST) == 1) &&
		     EVP_PKEY_sign(c, out, &olen, data, op->data_len) == 1;
	}
	EVP_PKEY_CTX_free(c);
	return ok ? 0 : -1;
}

/* ECDSA over the digest, DER, as libssl signs: a fresh context per call. */
static int ecdsa_sign(EVP_PKEY *k, const vgl_op *op, const uint8_t *data, uint8_t *out)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	size_t olen = VGL_OUT_MAX;
	const EVP_MD *md = op->data_len == 48 ? EVP_sha384() : EVP_sha256();
	int ok = c && EVP_PKEY_sign_init(c) == 1 && EVP_PKEY_CTX_set_signature_md(c, md) == 1 &&
		 EVP_PKEY_sign(c, out, &olen, data, op->data_len) == 1;
	EVP_PKEY_CTX_free(c);
	return ok ? 0 : -1;
}

static int derive_x25519(EVP_PKEY *k, EVP_PKEY *peer, uint8_t *out)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	size_t olen = 32;
	int ok = c && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive_set_peer(c, peer) == 1 &&
		 EVP_PKEY_derive(c, out, &olen) == 1;
	EVP_PKEY_CTX_free(c);
	return ok ? 0 : -1;
}

static int run_once(vgl_ossl *o, EVP_PKEY *k, const vgl_op *op, const uint8_t *data, uint8_t *out)
{
	if (op->op == VG_OP_X25519)
		return derive_x25519(k, o->peer, out);
	if (op->op == VG_OP_SIGN && op->alg == VG_ALG_ED25519)
		return sign_ed25519(k, data, op->data_len, out);
	if (op->op == VG_OP_SIGN && op->result_len == 0)
		return ecdsa_sign(k, op, data, out);
	return rsa_op(k, op, data, out);
}

typedef struct {
	vgl_ossl *o;
	EVP_PKEY *k;
	const vgl_op *op;
	const uint8_t *data;
	uint8_t out[512];
} timed;

static int timed_once(void *arg)
{
	timed *t = arg;
	return run_once(t->o, t->k, t->op, t->data, t->out);
}

int vgl_ossl_sample(vgl_ossl *o, const vgl_op *op, const uint8_t *data, vgl_sampler *s,
		    uint64_t deadline_ns)
{
	timed t = {.o = o, .k = key_for(o, op), .op = op, .data = data};
	if (!t.k)
		return -1;
	if (op->op == VG_OP_X25519) {
		EVP_PKEY_free(o->peer);
		o->peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, data, 32);
		if (!o->peer)
			return -1;
	}
	int r = vgl_sample(s, timed_once, &t, deadline_ns);
	OPENSSL_cleanse(t.out, sizeof(t.out));
	return r;
}
