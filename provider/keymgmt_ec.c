/* keymgmt_ec.c: OSSL_OP_KEYMGMT "EC" for vgd-backed ECDSA keys (P-256,
 * P-384). It reports what libssl and X509_check_private_key ask an EC key
 * for: the group name (the curve), the uncompressed public point, the
 * point format, bits, security bits and the largest signature. As for the
 * other key types only public parts cross this interface: export refuses
 * the private key, import takes a certificate's public key (to compare it
 * with ours). Nothing here is secret. */
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "vgdprov.h"

#define SEL_KEYPAIR (OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)

/* The curves vgd serves, by OpenSSL's names (the first is what OpenSSL
 * itself reports; the others are accepted on import). */
static const struct {
	int type;
	const char *names[3];
	int bits, security_bits;
	const char *digest; /* the curve's own hash: TLS 1.3 binds them */
} curves[] = {
	{VGC_KEY_ECDSA_P256, {"prime256v1", "P-256", "secp256r1"}, 256, 128, "SHA256"},
	{VGC_KEY_ECDSA_P384, {"secp384r1", "P-384", NULL}, 384, 192, "SHA384"},
};

static int curve_index(int type)
{
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		if (curves[i].type == type)
			return (int)i;
	return -1;
}

static int type_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		for (size_t j = 0; j < 3 && curves[i].names[j]; j++)
			if (strcasecmp(name, curves[i].names[j]) == 0)
				return curves[i].type;
	return 0;
}

/* Bytes of an uncompressed point of the curve (65, 97). */
static size_t point_len(int type)
{
	return type == VGC_KEY_ECDSA_P256 ? 65 : type == VGC_KEY_ECDSA_P384 ? 97 : 0;
}

static void *ec_new(void *provctx)
{
	return vg_prov_key_new(provctx, 0); /* the curve comes with import or fetch */
}

static int ec_has(const void *key, int selection)
{
	const vg_prov_key *k = key;
	if (k && (selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) && k->type == 0)
		return 0;
	return vg_prov_km_has(key, selection);
}

static int ec_match(const void *a, const void *b, int selection)
{
	const vg_prov_key *x = a, *y = b;
	if (x->type == 0 || x->type != y->type)
		return 0; /* the same curve, whatever the selection */
	if (!(selection & SEL_KEYPAIR))
		return 1;
	return x->pub_len != 0 && x->pub_len == y->pub_len &&
	       memcmp(x->pub, y->pub, x->pub_len) == 0;
}

static int ec_import(void *key, int selection, const OSSL_PARAM params[])
{
	vg_prov_key *k = key;
	const OSSL_PARAM *p;
	const char *group;
	if (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY))
		return 0; /* a private key does not belong in vgd's provider */
	if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME))) {
		int type = OSSL_PARAM_get_utf8_string_ptr(p, &group) ? type_from_name(group) : 0;
		if (type == 0)
			return 0; /* not a curve vgd serves: not one of our keys */
		k->type = type;
	}
	if (!(selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
		return k->type != 0 || !(selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS);
	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
	void *buf = k->pub;
	/* Only the uncompressed form vgd reports can compare equal. */
	if (!p || k->type == 0 ||
	    !OSSL_PARAM_get_octet_string(p, &buf, sizeof(k->pub), &k->pub_len) ||
	    k->pub_len != point_len(k->type) || k->pub[0] != 0x04) {
		k->pub_len = 0;
		return 0;
	}
	return 1;
}

static const OSSL_PARAM *ec_io_types(int selection)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_END,
	};
	return (selection &
		(OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS))
		       ? t
		       : NULL;
}

static int ec_export(void *key, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
	const vg_prov_key *k = key;
	int c = curve_index(k->type);
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) || c < 0)
		return 0;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	int ok = 0;
	if (!bld)
		return 0;
	if ((selection & (OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | SEL_KEYPAIR)) &&
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, curves[c].names[0],
					     0))
		goto out;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) &&
	    (k->pub_len == 0 ||
	     !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, k->pub, k->pub_len)))
		goto out;
	if (!(params = OSSL_PARAM_BLD_to_param(bld)))
		goto out;
	ok = cb(params, cbarg);
out:
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return ok;
}

static int ec_get_params(void *key, OSSL_PARAM params[])
{
	const vg_prov_key *k = key;
	int c = curve_index(k->type);
	OSSL_PARAM *p;
	if (c < 0)
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) &&
	    !OSSL_PARAM_set_int(p, curves[c].bits))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) &&
	    !OSSL_PARAM_set_int(p, curves[c].security_bits))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) &&
	    !OSSL_PARAM_set_int(p, (int)vg_prov_ec_sig_max(k->type)))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) &&
	    !OSSL_PARAM_set_utf8_string(p, curves[c].digest))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_GROUP_NAME)) &&
	    !OSSL_PARAM_set_utf8_string(p, curves[c].names[0]))
		return 0;
	/* libssl refuses an EC key whose point format it cannot learn. */
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT)) &&
	    !OSSL_PARAM_set_utf8_string(p, OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED))
		return 0;
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_ENCODING)) &&
	    !OSSL_PARAM_set_utf8_string(p, OSSL_PKEY_EC_ENCODING_GROUP))
		return 0;
	if (k->pub_len != 0) {
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) &&
		    !OSSL_PARAM_set_octet_string(p, k->pub, k->pub_len))
			return 0;
		if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) &&
		    !OSSL_PARAM_set_octet_string(p, k->pub, k->pub_len))
			return 0;
	}
	return 1;
}

static const OSSL_PARAM *ec_gettable(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_ENCODING, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
		OSSL_PARAM_END,
	};
	return t;
}

static const char *ec_opname(int op)
{
	return op == OSSL_OP_SIGNATURE ? VG_PROV_NAMES_ECDSA : NULL;
}

const OSSL_DISPATCH vg_prov_ec_keymgmt[] = {
	{OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))ec_new},
	{OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))vg_prov_km_free},
	{OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))vg_prov_km_load},
	{OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))ec_has},
	{OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))ec_match},
	{OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))ec_import},
	{OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))ec_io_types},
	{OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))ec_export},
	{OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))ec_io_types},
	{OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))ec_get_params},
	{OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))ec_gettable},
	{OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))ec_opname},
	{OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))vg_prov_km_dup},
	{0, NULL},
};
