/* store.c: OSSL_OP_STORE loader for "vgd:NAME[?socket=/path]" URIs: one
 * object, the vgd-backed private key (its public part fetched from vgd).
 * Nothing secret: the key stays in vgd. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/params.h>
#include <openssl/store.h>

#include "vgdprov.h"

typedef struct {
	vg_prov *prov;
	char name[VGC_KEY_NAME_MAX + 1];
	char *socket;
	int expect; /* OSSL_STORE_INFO_* or 0 */
	int done;
} store_ctx;

static void *st_open(void *provctx, const char *uri)
{
	store_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->prov = provctx;
	if (vg_prov_parse_uri(uri, strlen(uri), c->name, &c->socket) < 0) {
		vg_prov_err(c->prov, VG_PROV_R_BAD_URI, "%s (want vgd:NAME[?socket=/path])", uri);
		free(c);
		return NULL;
	}
	return c;
}

static const OSSL_PARAM *st_settable(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_STORE_PARAM_EXPECT, NULL),
		OSSL_PARAM_END,
	};
	return t;
}

/* Other parameters (input type, properties ...) do not apply: ignored. */
static int st_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	store_ctx *c = vctx;
	const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_STORE_PARAM_EXPECT);
	return !p || OSSL_PARAM_get_int(p, &c->expect);
}

int vg_prov_emit_key(vg_prov_key *k, OSSL_CALLBACK *cb, void *cbarg)
{
	int type = OSSL_OBJECT_PKEY;
	char *data_type = k->type == VGC_KEY_ED25519 ? "ED25519"
			  : vg_prov_is_ec(k->type)   ? "EC"
						     : "RSA";
	OSSL_PARAM params[] = {
		OSSL_PARAM_int(OSSL_OBJECT_PARAM_TYPE, &type),
		OSSL_PARAM_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, data_type, strlen(data_type)),
		OSSL_PARAM_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof(k)),
		OSSL_PARAM_END,
	};
	int r = cb(params, cbarg);
	vg_prov_key_free(k); /* NULL when load() took it */
	return r;
}

static int st_load(void *vctx, OSSL_CALLBACK *object_cb, void *object_cbarg,
		   OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
	store_ctx *c = vctx;
	c->done = 1;
	if (c->expect != 0 && c->expect != OSSL_STORE_INFO_PKEY)
		return 1;
	vg_prov_key *k = vg_prov_key_new(c->prov, 0);
	if (!k)
		return 0;
	if (!vg_prov_key_fetch(k, c->name, c->socket)) {
		vg_prov_key_free(k);
		return 0;
	}
	return vg_prov_emit_key(k, object_cb, object_cbarg);
}

static int st_eof(void *vctx)
{
	return ((store_ctx *)vctx)->done;
}

static int st_close(void *vctx)
{
	store_ctx *c = vctx;
	free(c->socket);
	free(c);
	return 1;
}

const OSSL_DISPATCH vg_prov_store[] = {
	{OSSL_FUNC_STORE_OPEN, (void (*)(void))st_open},
	{OSSL_FUNC_STORE_SETTABLE_CTX_PARAMS, (void (*)(void))st_settable},
	{OSSL_FUNC_STORE_SET_CTX_PARAMS, (void (*)(void))st_set_ctx_params},
	{OSSL_FUNC_STORE_LOAD, (void (*)(void))st_load},
	{OSSL_FUNC_STORE_EOF, (void (*)(void))st_eof},
	{OSSL_FUNC_STORE_CLOSE, (void (*)(void))st_close},
	{0, NULL},
};
