/* sig_ecdsa.c: OSSL_OP_SIGNATURE "ECDSA" for ECDSA keys in vgd (P-256,
 * P-384) over SHA-256/384/512. The digest is computed here and vgd signs
 * it, answering with the DER ECDSA-Sig-Value OpenSSL expects (vgd's
 * default encoding). A TLS 1.3 CertificateVerify content seen whole
 * (one-shot or short update/final) whose digest is the key's TLS 1.3
 * scheme's (RFC 8446 4.2.3: SHA-256 for P-256, SHA-384 for P-384) goes
 * through vgd's TLS 1.3 mode instead, so `allow = tls13` keys work; TLS
 * 1.2 ServerKeyExchange signatures (any of the three hashes, with either
 * curve) need `allow = sign`. Public data only. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "md.h"
#include "vgdprov.h"

typedef struct {
	vg_prov *prov;
	vg_prov_key *key;
	int md; /* digest length, 0: not set */
	vg_prov_msg msg; /* digest_sign_update/final state */
} ec_ctx;

static void *ec_newctx(void *provctx, const char *propq)
{
	ec_ctx *c = calloc(1, sizeof(*c));
	if (c)
		c->prov = provctx;
	return c;
}

static void ec_freectx(void *vctx)
{
	ec_ctx *c = vctx;
	if (!c)
		return;
	vg_prov_key_free(c->key);
	free(c);
}

static void *ec_dupctx(void *vctx)
{
	const ec_ctx *c = vctx;
	ec_ctx *d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d = *c;
	if (d->key)
		vg_prov_key_up(d->key);
	return d;
}

static int set_md(ec_ctx *c, const char *name)
{
	int len = vg_prov_md_len(name);
	if (!len) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "digest %s (vgd: SHA-256/384/512)", name);
		return 0;
	}
	c->md = len;
	return 1;
}

static int ec_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	ec_ctx *c = vctx;
	const OSSL_PARAM *p;
	const char *name;
	if (!params)
		return 1;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) &&
	    (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || !set_md(c, name)))
		return 0;
	return 1;
}

static const OSSL_PARAM *ec_settable_ctx_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
		OSSL_PARAM_END,
	};
	return t;
}

static int ec_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	ec_ctx *c = vctx;
	OSSL_PARAM *p;
	if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) && c->md &&
	    !OSSL_PARAM_set_utf8_string(p, vg_prov_md_name(c->md)))
		return 0;
	return 1;
}

static const OSSL_PARAM *ec_gettable_ctx_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
		OSSL_PARAM_END,
	};
	return t;
}

static int ec_init(ec_ctx *c, vg_prov_key *k, const OSSL_PARAM params[])
{
	if (k) {
		if (!vg_prov_is_ec(k->type) || !k->name[0]) {
			vg_prov_err(c->prov, VG_PROV_R_NO_KEY, "not a vgd ECDSA key");
			return 0;
		}
		vg_prov_key_up(k);
		vg_prov_key_free(c->key);
		c->key = k;
	}
	return c->key && ec_set_ctx_params(c, params);
}

static int ec_sign_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
	ec_ctx *c = vctx;
	c->md = 0; /* EVP_PKEY_sign: a digest of any of the three lengths */
	return ec_init(c, vkey, params);
}

static int ec_digest_sign_init(void *vctx, const char *mdname, void *vkey,
			       const OSSL_PARAM params[])
{
	ec_ctx *c = vctx;
	if (!ec_init(c, vkey, params))
		return 0;
	/* The key's default digest: the curve's own (TLS 1.3's pairing). */
	c->md = c->key->type == VGC_KEY_ECDSA_P256 ? 32 : 48;
	if (mdname && mdname[0] && !set_md(c, mdname))
		return 0;
	vg_prov_msg_init(&c->msg, c->md);
	return 1;
}

/* 1 with *siglen the largest signature when sig is NULL (a size query), 0
 * with an error when sigsize is too small, 2 when the caller may sign. */
static int size_ok(ec_ctx *c, unsigned char *sig, size_t *siglen, size_t sigsize)
{
	size_t max = vg_prov_ec_sig_max(c->key->type);
	if (!sig) {
		*siglen = max;
		return 1;
	}
	if (sigsize < max) {
		vg_prov_err(c->prov, VG_PROV_R_BUFFER, "signature buffer of %zu bytes", sigsize);
		return 0;
	}
	return 2;
}

/* Sign a digest of len bytes with the table's ECDSA row for the key's
 * curve and that digest; vgd answers DER. */
static int sign_digest(ec_ctx *c, const uint8_t *dg, size_t len, unsigned char *sig, size_t *siglen,
		       size_t sigsize)
{
	const vg_alg_info *a = vg_alg_find(c->key->type, VG_PAD_NONE, vg_digest_from_len(len));
	if (a == NULL) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG,
			    "digest of %zu bytes (vgd: SHA-256/384/512 digests)", len);
		return 0;
	}
	return vg_prov_key_sign(c->key, a->alg, dg, len, sig, sigsize, siglen);
}

static int ec_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
		   const unsigned char *tbs, size_t tbslen)
{
	ec_ctx *c = vctx;
	int r = size_ok(c, sig, siglen, sigsize);
	if (r != 2)
		return r;
	if (c->md && tbslen != (size_t)c->md) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "digest of %zu bytes, expected %d", tbslen,
			    c->md);
		return 0;
	}
	return sign_digest(c, tbs, tbslen, sig, siglen, sigsize);
}

/* vgd's TLS 1.3 mode signs with the key's TLS 1.3 row: use it when the
 * message is a CertificateVerify content and OpenSSL asked for that row's
 * digest (it does: the scheme fixes it). Returns -1 when not applicable. */
static int try_tls13(ec_ctx *c, const uint8_t *msg, size_t len, unsigned char *sig, size_t *siglen,
		     size_t sigsize)
{
	const uint8_t *hash;
	size_t hash_len;
	int role = vg_tls13_parse(msg, len, &hash, &hash_len);
	const vg_alg_info *a = role ? vg_alg_tls13(c->key->type, hash_len) : NULL;
	if (a == NULL || vg_digest_len(a->digest) != (size_t)c->md)
		return -1;
	return vg_prov_key_sign_tls13(c->key, role, hash, hash_len, sig, sigsize, siglen);
}

static int ec_digest_sign_update(void *vctx, const unsigned char *data, size_t len)
{
	vg_prov_msg_update(&((ec_ctx *)vctx)->msg, data, len);
	return 1;
}

static int ec_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize)
{
	ec_ctx *c = vctx;
	int r = size_ok(c, sig, siglen, sigsize);
	if (r != 2)
		return r;
	size_t len;
	const uint8_t *whole = vg_prov_msg_whole(&c->msg, &len);
	if (whole) {
		r = try_tls13(c, whole, len, sig, siglen, sigsize);
		if (r >= 0)
			return r;
	}
	uint8_t d[64];
	vg_prov_hash_final(&c->msg.hash, d);
	return sign_digest(c, d, (size_t)c->md, sig, siglen, sigsize);
}

static int ec_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
			  const unsigned char *tbs, size_t tbslen)
{
	ec_ctx *c = vctx;
	int r = size_ok(c, sig, siglen, sigsize);
	if (r != 2)
		return r;
	r = try_tls13(c, tbs, tbslen, sig, siglen, sigsize);
	if (r >= 0)
		return r;
	uint8_t d[64];
	vg_prov_digest(c->md, tbs, tbslen, d);
	return sign_digest(c, d, (size_t)c->md, sig, siglen, sigsize);
}

const OSSL_DISPATCH vg_prov_ecdsa_signature[] = {
	{OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))ec_newctx},
	{OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))ec_freectx},
	{OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))ec_dupctx},
	{OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))ec_sign_init},
	{OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))ec_sign},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))ec_digest_sign_init},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))ec_digest_sign_update},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))ec_digest_sign_final},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))ec_digest_sign},
	{OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))ec_set_ctx_params},
	{OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))ec_settable_ctx_params},
	{OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))ec_get_ctx_params},
	{OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))ec_gettable_ctx_params},
	{0, NULL},
};
