/* keymgmt.c: OSSL_OP_KEYMGMT for vgd-backed Ed25519 and RSA keys, and the
 * entry points every key type shares (EC keys: keymgmt_ec.c). Only
 * public parts cross this interface: export refuses any selection that
 * asks for the private key, so OpenSSL never moves the key to another
 * provider (it would get a key that cannot sign) and falls back to this
 * provider's signature and cipher; import accepts public keys only (a
 * certificate's key, imported to compare it with ours). */
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "vgdprov.h"

#define SEL_KEYPAIR (OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)

static void *ed_new(void *provctx)
{
	return vg_prov_key_new(provctx, VGC_KEY_ED25519);
}

static void *rsa_new(void *provctx)
{
	return vg_prov_key_new(provctx, VGC_KEY_RSA);
}

void vg_prov_km_free(void *key)
{
	vg_prov_key_free(key);
}

/* The reference is the address of a key made by our store or decoder:
 * take it over (the sender frees what is left in the reference). */
void *vg_prov_km_load(const void *reference, size_t reference_sz)
{
	if (reference_sz != sizeof(vg_prov_key *))
		return NULL;
	vg_prov_key *k = *(vg_prov_key *const *)reference;
	*(vg_prov_key **)reference = NULL;
	return k;
}

int vg_prov_km_has(const void *key, int selection)
{
	const vg_prov_key *k = key;
	if (!k)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && k->pub_len == 0)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !k->name[0])
		return 0;
	return 1;
}

static int km_match(const void *a, const void *b, int selection)
{
	const vg_prov_key *x = a, *y = b;
	if (x->type != y->type)
		return 0;
	if (!(selection & SEL_KEYPAIR))
		return 1; /* no domain parameters for these key types */
	if (x->pub_len == 0 || x->pub_len != y->pub_len || x->e_len != y->e_len)
		return 0;
	return memcmp(x->pub, y->pub, x->pub_len) == 0 && memcmp(x->e, y->e, x->e_len) == 0;
}

/* A big-endian integer from a BIGNUM parameter, without leading zeros. */
static int get_bn(const OSSL_PARAM *p, uint8_t *out, size_t cap, size_t *len)
{
	BIGNUM *bn = NULL;
	if (!OSSL_PARAM_get_BN(p, &bn))
		return 0;
	int n = BN_num_bytes(bn);
	int ok = n > 0 && (size_t)n <= cap && BN_bn2bin(bn, out) == n;
	BN_free(bn);
	*len = (size_t)n;
	return ok;
}

static int km_import(void *key, int selection, const OSSL_PARAM params[])
{
	vg_prov_key *k = key;
	if (!(selection & SEL_KEYPAIR))
		return 1;
	if (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY) ||
	    OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_D))
		return 0; /* a private key does not belong in vgd's provider */
	if (k->type == VGC_KEY_ED25519) {
		const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
		void *buf = k->pub;
		if (!p || !OSSL_PARAM_get_octet_string(p, &buf, sizeof(k->pub), &k->pub_len) ||
		    k->pub_len != 32) {
			k->pub_len = 0;
			return 0;
		}
		return 1;
	}
	const OSSL_PARAM *n = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_N);
	const OSSL_PARAM *e = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_E);
	if (!n || !e || !get_bn(n, k->pub, sizeof(k->pub), &k->pub_len) ||
	    !get_bn(e, k->e, sizeof(k->e), &k->e_len)) {
		k->pub_len = k->e_len = 0;
		return 0;
	}
	return 1;
}

static const OSSL_PARAM *ed_io_types(int selection)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_END,
	};
	return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) ? t : NULL;
}

static const OSSL_PARAM *rsa_io_types(int selection)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_END,
	};
	return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) ? t : NULL;
}

/* Push the public part into bld. */
static int push_public(const vg_prov_key *k, OSSL_PARAM_BLD *bld, BIGNUM **n, BIGNUM **e)
{
	if (k->type == VGC_KEY_ED25519)
		return OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, k->pub,
							k->pub_len);
	*n = BN_bin2bn(k->pub, (int)k->pub_len, NULL);
	*e = BN_bin2bn(k->e, (int)k->e_len, NULL);
	return *n && *e && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, *n) &&
	       OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, *e);
}

static int km_export(void *key, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
	const vg_prov_key *k = key;
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
		return 0;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	BIGNUM *n = NULL, *e = NULL;
	OSSL_PARAM *params = NULL;
	int ok = 0;
	if (!bld)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) &&
	    (k->pub_len == 0 || !push_public(k, bld, &n, &e)))
		goto out;
	if (!(params = OSSL_PARAM_BLD_to_param(bld)))
		goto out;
	ok = cb(params, cbarg);
out:
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return ok;
}

static int set_bn_param(OSSL_PARAM *p, const uint8_t *be, size_t len)
{
	BIGNUM *bn = BN_bin2bn(be, (int)len, NULL);
	int ok = bn && OSSL_PARAM_set_BN(p, bn);
	BN_free(bn);
	return ok;
}

/* Security strength of an RSA modulus (NIST SP 800-57 Part 1, table 2). */
static int rsa_security_bits(int bits)
{
	if (bits >= 15360)
		return 256;
	if (bits >= 7680)
		return 192;
	if (bits >= 3072)
		return 128;
	if (bits >= 2048)
		return 112;
	return 80;
}

static int km_get_params(void *key, OSSL_PARAM params[])
{
	const vg_prov_key *k = key;
	int ed = k->type == VGC_KEY_ED25519;
	int bits = vg_prov_key_bits(k);
	OSSL_PARAM *p;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) && !OSSL_PARAM_set_int(p, bits))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) &&
	    !OSSL_PARAM_set_int(p, ed ? 128 : rsa_security_bits(bits)))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) &&
	    !OSSL_PARAM_set_int(p, ed ? 64 : (int)k->pub_len))
		return 0;
	if (ed) {
		/* Ed25519 is used without a separate digest. */
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST)) &&
		    !OSSL_PARAM_set_utf8_string(p, ""))
			return 0;
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) &&
		    !OSSL_PARAM_set_octet_string(p, k->pub, k->pub_len))
			return 0;
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) &&
		    !OSSL_PARAM_set_octet_string(p, k->pub, k->pub_len))
			return 0;
		return 1;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) &&
	    !OSSL_PARAM_set_utf8_string(p, "SHA256"))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_N)) &&
	    !set_bn_param(p, k->pub, k->pub_len))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_E)) &&
	    !set_bn_param(p, k->e, k->e_len))
		return 0;
	return 1;
}

static const OSSL_PARAM *ed_gettable(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
		OSSL_PARAM_END,
	};
	return t;
}

static const OSSL_PARAM *rsa_gettable(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_END,
	};
	return t;
}

static const char *ed_opname(int op)
{
	return op == OSSL_OP_SIGNATURE ? "ED25519" : NULL;
}

static const char *rsa_opname(int op)
{
	return (op == OSSL_OP_SIGNATURE || op == OSSL_OP_ASYM_CIPHER) ? "RSA" : NULL;
}

void *vg_prov_km_dup(const void *key, int selection)
{
	const vg_prov_key *k = key;
	vg_prov_key *d = vg_prov_key_new(k->prov, k->type);
	if (!d)
		return NULL;
	if (selection & SEL_KEYPAIR) {
		memcpy(d->pub, k->pub, sizeof(d->pub));
		d->pub_len = k->pub_len;
		memcpy(d->e, k->e, sizeof(d->e));
		d->e_len = k->e_len;
	}
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
		memcpy(d->name, k->name, sizeof(d->name));
		d->ops = k->ops;
		if (k->socket && !(d->socket = strdup(k->socket))) {
			vg_prov_key_free(d);
			return NULL;
		}
		/* A copy signs through the same connection (and its pipeline). */
		if (k->conn) {
			vg_prov_conn_ref(k->conn);
			d->conn = k->conn;
		}
	}
	return d;
}

#define COMMON_FUNCS                                                              \
	{OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))vg_prov_km_free},                \
	{OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))vg_prov_km_load},                \
	{OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))vg_prov_km_has},                  \
	{OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match},                      \
	{OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import},                    \
	{OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export},                    \
	{OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params},            \
	{OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))vg_prov_km_dup}

const OSSL_DISPATCH vg_prov_ed25519_keymgmt[] = {
	{OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))ed_new},
	COMMON_FUNCS,
	{OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))ed_io_types},
	{OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))ed_io_types},
	{OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))ed_gettable},
	{OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))ed_opname},
	{0, NULL},
};

const OSSL_DISPATCH vg_prov_rsa_keymgmt[] = {
	{OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsa_new},
	COMMON_FUNCS,
	{OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))rsa_io_types},
	{OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))rsa_io_types},
	{OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))rsa_gettable},
	{OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))rsa_opname},
	{0, NULL},
};
