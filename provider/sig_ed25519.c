/* sig_ed25519.c: OSSL_OP_SIGNATURE for Ed25519 keys in vgd (one-shot
 * digest_sign, as OpenSSL uses pure Ed25519). A TLS 1.3 CertificateVerify
 * content is signed through vgd's TLS 1.3 mode, so `allow = tls13` keys
 * work; anything else needs `allow = sign`. Public data only. */
#include <stdlib.h>
#include <string.h>

#include "vgdprov.h"

typedef struct {
	vg_prov *prov;
	vg_prov_key *key;
} ed_ctx;

static void *ed_newctx(void *provctx, const char *propq)
{
	ed_ctx *c = calloc(1, sizeof(*c));
	if (c)
		c->prov = provctx;
	return c;
}

static void ed_freectx(void *vctx)
{
	ed_ctx *c = vctx;
	if (!c)
		return;
	vg_prov_key_free(c->key);
	free(c);
}

static void *ed_dupctx(void *vctx)
{
	const ed_ctx *c = vctx;
	ed_ctx *d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d = *c;
	if (d->key)
		vg_prov_key_up(d->key);
	return d;
}

static int ed_digest_sign_init(void *vctx, const char *mdname, void *vkey,
			       const OSSL_PARAM params[])
{
	ed_ctx *c = vctx;
	vg_prov_key *k = vkey;
	if (mdname && mdname[0]) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_ARG, "Ed25519 takes no digest (got %s)", mdname);
		return 0;
	}
	if (k) {
		if (k->type != VGC_KEY_ED25519 || !k->name[0]) {
			vg_prov_err(c->prov, VG_PROV_R_NO_KEY, "not a vgd Ed25519 key");
			return 0;
		}
		vg_prov_key_up(k);
		vg_prov_key_free(c->key);
		c->key = k;
	}
	return c->key != NULL;
}

static int ed_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
			  const unsigned char *tbs, size_t tbslen)
{
	ed_ctx *c = vctx;
	if (!sig) {
		*siglen = 64;
		return 1;
	}
	if (sigsize < 64) {
		vg_prov_err(c->prov, VG_PROV_R_BUFFER, "signature buffer of %zu bytes", sigsize);
		return 0;
	}
	const uint8_t *hash;
	size_t hash_len;
	int role = vg_tls13_parse(tbs, tbslen, &hash, &hash_len);
	if (role)
		return vg_prov_key_sign_tls13(c->key, role, hash, hash_len, sig, sigsize, siglen);
	return vg_prov_key_sign(c->key, VGC_ALG_ED25519, tbs, tbslen, sig, sigsize, siglen);
}

const OSSL_DISPATCH vg_prov_ed25519_signature[] = {
	{OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))ed_newctx},
	{OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))ed_freectx},
	{OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))ed_dupctx},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))ed_digest_sign_init},
	{OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))ed_digest_sign},
	{0, NULL},
};
