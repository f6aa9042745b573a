/* sig_rsa.c: OSSL_OP_SIGNATURE for RSA keys in vgd: PKCS#1 v1.5 and PSS
 * (MGF1 with the same hash, salt = hash length, as vgd implements) over
 * SHA-256/384/512. The digest is computed here and vgd signs it; a TLS 1.3
 * CertificateVerify content seen whole (one-shot or short update/final)
 * goes through vgd's TLS 1.3 mode instead. Public data only. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "md.h"
#include "vgdprov.h"

typedef struct {
	vg_prov *prov;
	vg_prov_key *key;
	int pad;      /* RSA_PKCS1_PADDING or RSA_PKCS1_PSS_PADDING */
	int md;       /* digest length, 0: not set */
	int mgf1;     /* MGF1 digest length, 0: same as md */
	int saltlen;  /* RSA_PSS_SALTLEN_* or a byte count */
	vg_prov_msg msg; /* digest_sign_update/final state */
} rsa_ctx;

static void *rsa_newctx(void *provctx, const char *propq)
{
	rsa_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->prov = provctx;
	c->pad = RSA_PKCS1_PADDING;
	c->saltlen = RSA_PSS_SALTLEN_DIGEST;
	return c;
}

static void rsa_freectx(void *vctx)
{
	rsa_ctx *c = vctx;
	if (!c)
		return;
	vg_prov_key_free(c->key);
	free(c);
}

static void *rsa_dupctx(void *vctx)
{
	const rsa_ctx *c = vctx;
	rsa_ctx *d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d = *c;
	if (d->key)
		vg_prov_key_up(d->key);
	return d;
}

static int set_pad(rsa_ctx *c, const OSSL_PARAM *p)
{
	int pad = 0;
	if (p->data_type == OSSL_PARAM_UTF8_STRING) {
		const char *s = p->data;
		if (strcmp(s, OSSL_PKEY_RSA_PAD_MODE_PKCSV15) == 0)
			pad = RSA_PKCS1_PADDING;
		else if (strcmp(s, OSSL_PKEY_RSA_PAD_MODE_PSS) == 0)
			pad = RSA_PKCS1_PSS_PADDING;
	} else if (!OSSL_PARAM_get_int(p, &pad)) {
		return 0;
	}
	if (pad != RSA_PKCS1_PADDING && pad != RSA_PKCS1_PSS_PADDING) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "RSA padding mode %d", pad);
		return 0;
	}
	c->pad = pad;
	return 1;
}

static int set_saltlen(rsa_ctx *c, const OSSL_PARAM *p)
{
	int s;
	if (p->data_type == OSSL_PARAM_UTF8_STRING) {
		const char *v = p->data;
		if (strcmp(v, OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST) == 0)
			s = RSA_PSS_SALTLEN_DIGEST;
		else if (strcmp(v, OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO) == 0)
			s = RSA_PSS_SALTLEN_AUTO;
		else if (strcmp(v, OSSL_PKEY_RSA_PSS_SALT_LEN_MAX) == 0)
			s = RSA_PSS_SALTLEN_MAX;
		else
			s = atoi(v);
	} else if (!OSSL_PARAM_get_int(p, &s)) {
		return 0;
	}
	c->saltlen = s;
	return 1;
}

static int set_md(rsa_ctx *c, const OSSL_PARAM *p, int *out)
{
	const char *name;
	if (!OSSL_PARAM_get_utf8_string_ptr(p, &name))
		return 0;
	int len = vg_prov_md_len(name);
	if (!len) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "digest %s (vgd: SHA-256/384/512)", name);
		return 0;
	}
	*out = len;
	return 1;
}

static int rsa_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	rsa_ctx *c = vctx;
	const OSSL_PARAM *p;
	if (!params)
		return 1;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) && !set_pad(c, p))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) &&
	    !set_saltlen(c, p))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) &&
	    !set_md(c, p, &c->md))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) &&
	    !set_md(c, p, &c->mgf1))
		return 0;
	return 1;
}

static const OSSL_PARAM *rsa_settable_ctx_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
		OSSL_PARAM_END,
	};
	return t;
}

static int rsa_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	rsa_ctx *c = vctx;
	OSSL_PARAM *p;
	if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE))) {
		int ok = p->data_type == OSSL_PARAM_UTF8_STRING
				 ? OSSL_PARAM_set_utf8_string(p, c->pad == RSA_PKCS1_PSS_PADDING
									 ? OSSL_PKEY_RSA_PAD_MODE_PSS
									 : OSSL_PKEY_RSA_PAD_MODE_PKCSV15)
				 : OSSL_PARAM_set_int(p, c->pad);
		if (!ok)
			return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) && c->md &&
	    !OSSL_PARAM_set_utf8_string(p, vg_prov_md_name(c->md)))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) &&
	    p->data_type != OSSL_PARAM_UTF8_STRING && !OSSL_PARAM_set_int(p, c->saltlen))
		return 0;
	return 1;
}

static const OSSL_PARAM *rsa_gettable_ctx_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
		OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL),
		OSSL_PARAM_END,
	};
	return t;
}

static int rsa_init(rsa_ctx *c, vg_prov_key *k, const OSSL_PARAM params[])
{
	if (k) {
		if (k->type != VGC_KEY_RSA || !k->name[0]) {
			vg_prov_err(c->prov, VG_PROV_R_NO_KEY, "not a vgd RSA key");
			return 0;
		}
		vg_prov_key_up(k);
		vg_prov_key_free(c->key);
		c->key = k;
	}
	return c->key && rsa_set_ctx_params(c, params);
}

static int rsa_sign_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
	return rsa_init(vctx, vkey, params);
}

static int rsa_digest_sign_init(void *vctx, const char *mdname, void *vkey,
				const OSSL_PARAM params[])
{
	rsa_ctx *c = vctx;
	if (!rsa_init(c, vkey, params))
		return 0;
	c->md = 32; /* the key's default digest */
	if (mdname && mdname[0]) {
		c->md = vg_prov_md_len(mdname);
		if (!c->md) {
			vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "digest %s (vgd: SHA-256/384/512)",
				    mdname);
			return 0;
		}
	}
	vg_prov_msg_init(&c->msg, c->md);
	return 1;
}

/* OpenSSL's padding mode as the algorithm table's. */
static int table_pad(int pad)
{
	return pad == RSA_PKCS1_PSS_PADDING ? VG_PAD_PSS : VG_PAD_PKCS1;
}

/* The vgd algorithm for the context's padding and digest (the table's RSA
 * row with both), or 0. */
static int vgd_alg(rsa_ctx *c)
{
	const vg_alg_info *a =
		vg_alg_find(VG_KEY_RSA, table_pad(c->pad), vg_digest_from_len((size_t)c->md));
	if (a == NULL) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "no digest set");
		return 0;
	}
	if (a->pad == VG_PAD_PSS &&
	    ((c->mgf1 && c->mgf1 != c->md) ||
	     (c->saltlen != RSA_PSS_SALTLEN_DIGEST && c->saltlen != RSA_PSS_SALTLEN_AUTO &&
	      c->saltlen != c->md))) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG,
			    "vgd's PSS uses MGF1 with the same digest and salt = digest length");
		return 0;
	}
	return a->alg;
}

static int size_ok(rsa_ctx *c, unsigned char *sig, size_t *siglen, size_t sigsize)
{
	if (!sig) {
		*siglen = c->key->pub_len;
		return 1;
	}
	if (sigsize < c->key->pub_len) {
		vg_prov_err(c->prov, VG_PROV_R_BUFFER, "signature buffer of %zu bytes", sigsize);
		return 0;
	}
	return 2;
}

static int rsa_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
		    const unsigned char *tbs, size_t tbslen)
{
	rsa_ctx *c = vctx;
	int r = size_ok(c, sig, siglen, sigsize);
	if (r != 2)
		return r;
	int alg = vgd_alg(c);
	if (!alg)
		return 0;
	if (tbslen != (size_t)c->md) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "digest of %zu bytes, expected %d", tbslen,
			    c->md);
		return 0;
	}
	return vg_prov_key_sign(c->key, alg, tbs, tbslen, sig, sigsize, siglen);
}

/* vgd's TLS 1.3 mode signs with the key type's TLS 1.3 row for the
 * transcript hash (for RSA: PSS with the transcript hash's digest, MGF1
 * with it and salt = its length): use it when that is what OpenSSL asked
 * for. Returns -1 when not applicable. */
static int try_tls13(rsa_ctx *c, const uint8_t *msg, size_t len, unsigned char *sig,
		     size_t *siglen, size_t sigsize)
{
	const uint8_t *hash;
	size_t hash_len;
	int role = vg_tls13_parse(msg, len, &hash, &hash_len);
	const vg_alg_info *a = role ? vg_alg_tls13(VG_KEY_RSA, hash_len) : NULL;
	if (a == NULL || a->pad != table_pad(c->pad) || vg_digest_len(a->digest) != (size_t)c->md ||
	    (c->mgf1 && c->mgf1 != c->md) ||
	    (c->saltlen != RSA_PSS_SALTLEN_DIGEST && c->saltlen != c->md))
		return -1;
	return vg_prov_key_sign_tls13(c->key, role, hash, hash_len, sig, sigsize, siglen);
}

static int rsa_digest_sign_update(void *vctx, const unsigned char *data, size_t len)
{
	vg_prov_msg_update(&((rsa_ctx *)vctx)->msg, data, len);
	return 1;
}

static int rsa_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize)
{
	rsa_ctx *c = vctx;
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
	int alg = vgd_alg(c);
	if (!alg)
		return 0;
	uint8_t d[64];
	vg_prov_hash_final(&c->msg.hash, d);
	return vg_prov_key_sign(c->key, alg, d, (size_t)c->md, sig, sigsize, siglen);
}

static int rsa_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
			   const unsigned char *tbs, size_t tbslen)
{
	rsa_ctx *c = vctx;
	int r = size_ok(c, sig, siglen, sigsize);
	if (r != 2)
		return r;
	r = try_tls13(c, tbs, tbslen, sig, siglen, sigsize);
	if (r >= 0)
		return r;
	int alg = vgd_alg(c);
	if (!alg)
		return 0;
	uint8_t d[64];
	vg_prov_digest(c->md, tbs, tbslen, d);
	return vg_prov_key_sign(c->key, alg, d, (size_t)c->md, sig, sigsize, siglen);
}

const OSSL_DISPATCH vg_prov_rsa_signature[] = {
	{OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))rsa_newctx},
	{OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))rsa_freectx},
	{OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))rsa_dupctx},
	{OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))rsa_sign_init},
	{OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))rsa_sign},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))rsa_digest_sign_init},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))rsa_digest_sign_update},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))rsa_digest_sign_final},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))rsa_digest_sign},
	{OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))rsa_set_ctx_params},
	{OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))rsa_settable_ctx_params},
	{OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))rsa_get_ctx_params},
	{OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))rsa_gettable_ctx_params},
	{0, NULL},
};
