/* cipher_rsa.c: OSSL_OP_ASYM_CIPHER RSA decryption with keys in vgd: vgd
 * does the raw private operation (`allow = rsa-private`), the padding is
 * removed here (no padding, PKCS#1 v1.5, or the TLS premaster form).
 * Secret: the decrypted block (wiped; unpadded in constant time). */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include <vg/wipe.h>

#include "vgdprov.h"

typedef struct {
	vg_prov *prov;
	vg_prov_key *key;
	int pad;
	unsigned client_version, alt_version;
} dec_ctx;

static void *dec_newctx(void *provctx)
{
	dec_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->prov = provctx;
	c->pad = RSA_PKCS1_PADDING;
	return c;
}

static void dec_freectx(void *vctx)
{
	dec_ctx *c = vctx;
	if (!c)
		return;
	vg_prov_key_free(c->key);
	free(c);
}

static void *dec_dupctx(void *vctx)
{
	const dec_ctx *c = vctx;
	dec_ctx *d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d = *c;
	if (d->key)
		vg_prov_key_up(d->key);
	return d;
}

static int dec_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	dec_ctx *c = vctx;
	const OSSL_PARAM *p;
	if (!params)
		return 1;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE))) {
		int pad = 0;
		if (p->data_type == OSSL_PARAM_UTF8_STRING) {
			const char *s = p->data;
			if (strcmp(s, OSSL_PKEY_RSA_PAD_MODE_NONE) == 0)
				pad = RSA_NO_PADDING;
			else if (strcmp(s, OSSL_PKEY_RSA_PAD_MODE_PKCSV15) == 0)
				pad = RSA_PKCS1_PADDING;
		} else if (!OSSL_PARAM_get_int(p, &pad)) {
			return 0;
		}
		if (pad != RSA_NO_PADDING && pad != RSA_PKCS1_PADDING &&
		    pad != RSA_PKCS1_WITH_TLS_PADDING) {
			vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "RSA decryption padding %d", pad);
			return 0;
		}
		c->pad = pad;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION)) &&
	    !OSSL_PARAM_get_uint(p, &c->client_version))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION)) &&
	    !OSSL_PARAM_get_uint(p, &c->alt_version))
		return 0;
	return 1;
}

static const OSSL_PARAM *dec_settable(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
		OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
		OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
		OSSL_PARAM_END,
	};
	return t;
}

static int dec_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	dec_ctx *c = vctx;
	OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE);
	if (p && p->data_type != OSSL_PARAM_UTF8_STRING && !OSSL_PARAM_set_int(p, c->pad))
		return 0;
	return 1;
}

static const OSSL_PARAM *dec_gettable(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL),
		OSSL_PARAM_END,
	};
	return t;
}

static int dec_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
	dec_ctx *c = vctx;
	vg_prov_key *k = vkey;
	if (k) {
		if (k->type != VGC_KEY_RSA || !k->name[0]) {
			vg_prov_err(c->prov, VG_PROV_R_NO_KEY, "not a vgd RSA key");
			return 0;
		}
		vg_prov_key_up(k);
		vg_prov_key_free(c->key);
		c->key = k;
	}
	return c->key && dec_set_ctx_params(c, params);
}

static int dec_decrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize,
		       const unsigned char *in, size_t inlen)
{
	dec_ctx *c = vctx;
	size_t k = c->key->pub_len;
	size_t need = c->pad == RSA_PKCS1_WITH_TLS_PADDING ? 48 : k;
	if (!out) {
		*outlen = need;
		return 1;
	}
	if (inlen > k || k > 512 || (c->pad == RSA_PKCS1_WITH_TLS_PADDING && !c->client_version)) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "RSA decryption input");
		return 0;
	}
	if (c->pad != RSA_PKCS1_PADDING && outsize < need) {
		vg_prov_err(c->prov, VG_PROV_R_BUFFER, "output buffer of %zu bytes", outsize);
		return 0;
	}
	uint8_t ct[512], em[512];
	size_t em_len = 0;
	memset(ct, 0, k - inlen); /* vgd takes exactly the modulus length */
	memcpy(ct + (k - inlen), in, inlen);
	if (!vg_prov_key_rsa_private(c->key, ct, k, em, sizeof(em), &em_len) || em_len != k)
		return 0;
	int r;
	if (c->pad == RSA_NO_PADDING) {
		memcpy(out, em, k);
		r = (int)k;
	} else if (c->pad == RSA_PKCS1_WITH_TLS_PADDING) {
		r = vg_prov_unpad_tls(out, em, k, c->client_version, c->alt_version);
	} else {
		r = vg_prov_unpad_pkcs1(out, outsize, em, k);
	}
	vg_wipe(em, sizeof(em));
	if (r < 0) {
		vg_prov_err(c->prov, VG_PROV_R_DECRYPT, "decryption failed");
		return 0;
	}
	*outlen = (size_t)r;
	return 1;
}

const OSSL_DISPATCH vg_prov_rsa_asym_cipher[] = {
	{OSSL_FUNC_ASYM_CIPHER_NEWCTX, (void (*)(void))dec_newctx},
	{OSSL_FUNC_ASYM_CIPHER_FREECTX, (void (*)(void))dec_freectx},
	{OSSL_FUNC_ASYM_CIPHER_DUPCTX, (void (*)(void))dec_dupctx},
	{OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT, (void (*)(void))dec_init},
	{OSSL_FUNC_ASYM_CIPHER_DECRYPT, (void (*)(void))dec_decrypt},
	{OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS, (void (*)(void))dec_set_ctx_params},
	{OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))dec_settable},
	{OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS, (void (*)(void))dec_get_ctx_params},
	{OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))dec_gettable},
	{0, NULL},
};
