/* prov.c: the provider's entry point (OSSL_provider_init), its algorithm
 * tables, configuration from openssl.cnf and error reporting. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "vg_config.h"
#include "vgdprov.h"
#include "vgdprov_stats.h"

#define PROPS "provider=vgd"

static const OSSL_ALGORITHM keymgmt_algs[] = {
	{VG_PROV_NAMES_ED25519, PROPS, vg_prov_ed25519_keymgmt, "vgd Ed25519 key"},
	{VG_PROV_NAMES_RSA, PROPS, vg_prov_rsa_keymgmt, "vgd RSA key"},
	{VG_PROV_NAMES_EC, PROPS, vg_prov_ec_keymgmt, "vgd ECDSA P-256/P-384 key"},
	{NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM signature_algs[] = {
	{VG_PROV_NAMES_ED25519, PROPS, vg_prov_ed25519_signature, "Ed25519 in vgd"},
	{VG_PROV_NAMES_RSA, PROPS, vg_prov_rsa_signature, "RSA PKCS#1 v1.5 / PSS in vgd"},
	{VG_PROV_NAMES_ECDSA, PROPS, vg_prov_ecdsa_signature, "ECDSA P-256/P-384 in vgd"},
	{NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM asym_cipher_algs[] = {
	{VG_PROV_NAMES_RSA, PROPS, vg_prov_rsa_asym_cipher, "RSA decryption in vgd"},
	{NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM store_algs[] = {
	{"vgd", PROPS, vg_prov_store, "vgd:NAME key URIs"},
	{NULL, NULL, NULL, NULL},
};

/* "input=pem": the decoders read the PEM key reference themselves. */
static const OSSL_ALGORITHM decoder_algs[] = {
	{VG_PROV_NAMES_ED25519, PROPS ",input=pem", vg_prov_ed25519_decoder,
	 "VGD KEY REFERENCE to Ed25519"},
	{VG_PROV_NAMES_RSA, PROPS ",input=pem", vg_prov_rsa_decoder, "VGD KEY REFERENCE to RSA"},
	{VG_PROV_NAMES_EC, PROPS ",input=pem", vg_prov_ec_decoder, "VGD KEY REFERENCE to EC"},
	{NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *prov_query(void *provctx, int op, int *no_cache)
{
	*no_cache = 0;
	switch (op) {
	case OSSL_OP_KEYMGMT:
		return keymgmt_algs;
	case OSSL_OP_SIGNATURE:
		return signature_algs;
	case OSSL_OP_ASYM_CIPHER:
		return asym_cipher_algs;
	case OSSL_OP_STORE:
		return store_algs;
	case OSSL_OP_DECODER:
		return decoder_algs;
	default:
		return NULL;
	}
}

static const OSSL_ITEM reason_strings[] = {
	{VG_PROV_R_VGD, "vgd request failed"},
	{VG_PROV_R_NO_KEY, "key has no vgd name (public key only)"},
	{VG_PROV_R_BAD_ARG, "unsupported parameter"},
	{VG_PROV_R_BAD_URI, "malformed vgd key URI or key reference"},
	{VG_PROV_R_BUFFER, "output buffer too small"},
	{VG_PROV_R_DECRYPT, "RSA decryption failed"},
	{0, NULL},
};

static const OSSL_ITEM *prov_reasons(void *provctx)
{
	return reason_strings;
}

static const OSSL_PARAM *prov_gettable(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
		OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
		OSSL_PARAM_uint64("vgd-sync-requests", NULL),
		OSSL_PARAM_uint64("vgd-async-requests", NULL),
		OSSL_PARAM_uint64("vgd-async-pauses", NULL),
		OSSL_PARAM_uint64("vgd-async-inflight-max", NULL),
		OSSL_PARAM_uint64("vgd-async-seen-pauses", NULL),
		OSSL_PARAM_END,
	};
	return t;
}

/* The counters a program can read with OSSL_PROVIDER_get_params (the
 * same as the $VGD_PROVIDER_STATS file's). */
static const struct {
	const char *name;
	int which;
} counter_params[] = {
	{"vgd-sync-requests", VG_PROV_ST_SYNC},
	{"vgd-async-requests", VG_PROV_ST_ASYNC},
	{"vgd-async-pauses", VG_PROV_ST_PAUSES},
	{"vgd-async-inflight-max", VG_PROV_ST_INFLIGHT_MAX},
	{"vgd-async-seen-pauses", VG_PROV_ST_SEEN_PAUSES},
};

static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
	OSSL_PARAM *q;
	if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) &&
	    !OSSL_PARAM_set_utf8_ptr(q, "vgd provider"))
		return 0;
	if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) &&
	    !OSSL_PARAM_set_utf8_ptr(q, VG_VERSION))
		return 0;
	if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) &&
	    !OSSL_PARAM_set_utf8_ptr(q, "vgd " VG_VERSION))
		return 0;
	if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) && !OSSL_PARAM_set_int(q, 1))
		return 0;
	for (size_t i = 0; i < sizeof(counter_params) / sizeof(counter_params[0]); i++)
		if ((q = OSSL_PARAM_locate(params, counter_params[i].name)) &&
		    !OSSL_PARAM_set_uint64(q, vg_prov_stat_get(counter_params[i].which)))
			return 0;
	return 1;
}

static void prov_teardown(void *provctx)
{
	vg_prov *p = provctx;
	if (!p)
		return;
	free(p->socket);
	free(p);
}

static const OSSL_DISPATCH prov_dispatch[] = {
	{OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query},
	{OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reasons},
	{OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable},
	{OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params},
	{OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown},
	{0, NULL},
};

void vg_prov_err(const vg_prov *p, int reason, const char *fmt, ...)
{
	if (!p || !p->new_error || !p->set_error_debug || !p->vset_error)
		return;
	va_list ap;
	va_start(ap, fmt);
	p->new_error(p->handle);
	p->set_error_debug(p->handle, "vgd provider", 0, "vgd");
	p->vset_error(p->handle, reason, fmt, ap);
	va_end(ap);
}

/* Read `socket` and `timeout` from the provider's openssl.cnf section. */
static int read_config(vg_prov *p, OSSL_FUNC_core_get_params_fn *get_params)
{
	char *sock = NULL, *timeout = NULL;
	OSSL_PARAM q[] = {
		OSSL_PARAM_utf8_ptr("socket", &sock, 0),
		OSSL_PARAM_utf8_ptr("timeout", &timeout, 0),
		OSSL_PARAM_END,
	};
	if (!get_params || !get_params(p->handle, q))
		return 1; /* no configuration: defaults */
	if (sock && *sock && !(p->socket = strdup(sock)))
		return 0;
	if (timeout && *timeout) {
		char *end;
		long ms = strtol(timeout, &end, 10);
		if (*end || ms < 0 || ms > 600000)
			return 0;
		p->timeout_ms = (int)ms;
	}
	return 1;
}

__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
							       const OSSL_DISPATCH *in,
							       const OSSL_DISPATCH **out,
							       void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
		       const OSSL_DISPATCH **out, void **provctx)
{
	vg_prov *p = calloc(1, sizeof(*p));
	if (!p)
		return 0;
	p->handle = handle;
	p->timeout_ms = 5000;
	OSSL_FUNC_core_get_params_fn *get_params = NULL;
	for (; in && in->function_id; in++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_GET_PARAMS:
			get_params = OSSL_FUNC_core_get_params(in);
			break;
		case OSSL_FUNC_CORE_NEW_ERROR:
			p->new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			p->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			p->vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		case OSSL_FUNC_BIO_READ_EX:
			p->bio_read_ex = OSSL_FUNC_BIO_read_ex(in);
			break;
		default:
			break;
		}
	}
	vg_prov_stats_init();
	if (!read_config(p, get_params)) {
		prov_teardown(p);
		return 0;
	}
	*out = prov_dispatch;
	*provctx = p;
	return 1;
}
