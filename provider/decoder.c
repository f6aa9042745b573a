/* decoder.c: OSSL_OP_DECODER from a PEM key reference file to a
 * vgd-backed key, so programs that only read PEM private keys
 * (PEM_read_bio_PrivateKey, SSL_CTX_use_PrivateKey_file) use vgd keys.
 * One decoder per key type; each emits only keys of its type. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/core_object.h>

#include "vgdprov.h"

/* A key reference is tiny; anything larger is some other PEM file. */
#define KEYREF_MAX 16384

typedef struct {
	vg_prov *prov;
	int type;
} dec_ctx;

static void *dec_new(void *provctx, int type)
{
	dec_ctx *c = calloc(1, sizeof(*c));
	if (c) {
		c->prov = provctx;
		c->type = type;
	}
	return c;
}

static void *ed_newctx(void *provctx)
{
	return dec_new(provctx, VGC_KEY_ED25519);
}

static void *rsa_newctx(void *provctx)
{
	return dec_new(provctx, VGC_KEY_RSA);
}

/* One decoder for both curves (OpenSSL's key type is "EC"). */
static void *ec_newctx(void *provctx)
{
	return dec_new(provctx, VGC_KEY_ECDSA_P256);
}

/* The decoder's key type: P-384 goes with P-256, both are "EC". */
static int family(int type)
{
	return vg_prov_is_ec(type) ? VGC_KEY_ECDSA_P256 : type;
}

static void dec_freectx(void *vctx)
{
	free(vctx);
}

static int dec_does_selection(void *provctx, int selection)
{
	return selection == 0 || (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

/* Returns 1 without calling data_cb for input that is not a key
 * reference: OpenSSL then tries its other decoders. */
static int dec_decode(void *vctx, OSSL_CORE_BIO *cin, int selection, OSSL_CALLBACK *data_cb,
		      void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
	dec_ctx *c = vctx;
	if (!c->prov->bio_read_ex)
		return 1;
	char *buf = malloc(KEYREF_MAX + 1);
	if (!buf)
		return 0;
	size_t len = 0, got = 0;
	while (len < KEYREF_MAX + 1 &&
	       c->prov->bio_read_ex(cin, buf + len, KEYREF_MAX + 1 - len, &got) && got > 0)
		len += got;
	char uri[256];
	int r = len <= KEYREF_MAX ? vg_prov_keyref_parse(buf, len, uri, sizeof(uri)) : 0;
	free(buf);
	if (r == 0)
		return 1;
	char name[VGC_KEY_NAME_MAX + 1], *socket = NULL;
	if (r < 0 || vg_prov_parse_uri(uri, strlen(uri), name, &socket) < 0) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_URI, "malformed VGD KEY REFERENCE");
		return 0;
	}
	vg_prov_key *k = vg_prov_key_new(c->prov, 0);
	int ok = k && vg_prov_key_fetch(k, name, socket);
	free(socket);
	if (!ok) {
		vg_prov_key_free(k);
		return 0;
	}
	if (family(k->type) != c->type) {
		vg_prov_key_free(k);
		return 1; /* the other key type's decoder takes it */
	}
	return vg_prov_emit_key(k, data_cb, data_cbarg);
}

static int dec_export_object(void *vctx, const void *reference, size_t reference_sz,
			     OSSL_CALLBACK *export_cb, void *export_cbarg)
{
	return 0; /* the key cannot leave this provider */
}

#define COMMON_FUNCS                                                             \
	{OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx},                \
	{OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_does_selection},  \
	{OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_decode},                  \
	{OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object}

const OSSL_DISPATCH vg_prov_ed25519_decoder[] = {
	{OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))ed_newctx},
	COMMON_FUNCS,
	{0, NULL},
};

const OSSL_DISPATCH vg_prov_rsa_decoder[] = {
	{OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))rsa_newctx},
	COMMON_FUNCS,
	{0, NULL},
};

const OSSL_DISPATCH vg_prov_ec_decoder[] = {
	{OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))ec_newctx},
	COMMON_FUNCS,
	{0, NULL},
};
