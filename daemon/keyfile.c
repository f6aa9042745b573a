/* keyfile.c: the private-key file parser (see keyfile.h). Untrusted input
 * (an operator's file, possibly corrupt) parsed through a bounded DER
 * cursor. Secret: the file's bytes. The base64 decoder classifies
 * characters arithmetically, without a table indexed by secret bytes; DER
 * structure (tags, lengths) is treated as public. */
#include "keyfile.h"

#include <string.h>

#include "errcode.h"
#include "vg/proto.h"
#include "vg/wipe.h"

/* ---- DER cursor ---- */
typedef struct {
	const uint8_t *p;
	size_t left;
} der_cur;

/* Read one TLV with the expected tag; content in *out. Definite, minimal
 * lengths only (DER). */
static int der_get(der_cur *c, uint8_t tag, der_cur *out)
{
	if (c->left < 2 || c->p[0] != tag)
		return -1;
	size_t len = c->p[1], hdr = 2;
	if (len & 0x80) {
		size_t nb = len & 0x7f;
		if (nb == 0 || nb > 3 || c->left < 2 + nb)
			return -1;
		len = 0;
		for (size_t i = 0; i < nb; i++)
			len = len << 8 | c->p[2 + i];
		if (len < 0x80 || (nb > 1 && c->p[2] == 0))
			return -1; /* not minimal */
		hdr += nb;
	}
	if (len > c->left - hdr)
		return -1;
	out->p = c->p + hdr;
	out->left = len;
	c->p += hdr + len;
	c->left -= hdr + len;
	return 0;
}

static int der_peek(const der_cur *c, uint8_t tag) { return c->left > 0 && c->p[0] == tag; }

/* A non-negative INTEGER: strip the sign byte; reject negatives. */
static int der_uint(der_cur *c, const uint8_t **v, size_t *len)
{
	der_cur in;
	if (der_get(c, 0x02, &in) < 0 || in.left == 0 || (in.p[0] & 0x80))
		return -1;
	if (in.left > 1 && in.p[0] == 0) {
		if (!(in.p[1] & 0x80))
			return -1; /* not minimal */
		in.p++;
		in.left--;
	}
	*v = in.p;
	*len = in.left;
	return 0;
}

static int der_small_uint(der_cur *c, unsigned *v)
{
	const uint8_t *p;
	size_t n;
	if (der_uint(c, &p, &n) < 0 || n > 1)
		return -1;
	*v = p[0];
	return 0;
}

static const uint8_t oid_rsa[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};

static int oid_is(const der_cur *oid, const uint8_t *want, size_t n)
{
	return oid->left == n && memcmp(oid->p, want, n) == 0;
}

/* RSAPrivateKey ::= SEQUENCE { version 0, n, e, d, p, q, dp, dq, qinv } */
static int parse_pkcs1(der_cur *c, vgd_keyfile *kf, const char **why)
{
	der_cur seq;
	unsigned version;
	vg_rsa_key_parts *r = &kf->rsa;
	*why = "malformed RSAPrivateKey";
	if (der_get(c, 0x30, &seq) < 0 || c->left != 0)
		return VGD_E_DECODE;
	if (der_small_uint(&seq, &version) < 0)
		return VGD_E_DECODE;
	if (version != 0) {
		*why = "multi-prime RSA keys are not supported";
		return VGD_E_UNSUPPORTED;
	}
	if (der_uint(&seq, &r->n, &r->n_len) < 0 || der_uint(&seq, &r->e, &r->e_len) < 0 ||
	    der_uint(&seq, &r->d, &r->d_len) < 0 || der_uint(&seq, &r->p, &r->p_len) < 0 ||
	    der_uint(&seq, &r->q, &r->q_len) < 0 || der_uint(&seq, &r->dp, &r->dp_len) < 0 ||
	    der_uint(&seq, &r->dq, &r->dq_len) < 0 ||
	    der_uint(&seq, &r->qinv, &r->qinv_len) < 0 || seq.left != 0)
		return VGD_E_DECODE;
	kf->type = VG_KEY_RSA;
	return 0;
}

/* ---- EC keys (RFC 5915 ECPrivateKey, RFC 5480 parameters) ---- */

static const uint8_t oid_ec_public_key[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};

/* The named curves vgd serves (RFC 5480): the key type each names and
 * the bytes of its scalars (and of a coordinate). The file's syntax is
 * this file's; what a type then does is its daemon row's (keytype.c),
 * which this parser does not link: the fuzz target builds it alone. */
static const struct {
	uint8_t oid[9];
	uint8_t len;
	int type;
	size_t scalar;
} named_curves[] = {
	{{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}, 8, VG_KEY_ECDSA_P256, 32},
	{{0x2b, 0x81, 0x04, 0x00, 0x22}, 5, VG_KEY_ECDSA_P384, 48},
};

#define EC_WANT "(vgd supports P-256 prime256v1 and P-384 secp384r1)"

/* Curves vgd does not serve, named so the refusal says which it saw. */
static const struct {
	uint8_t oid[9];
	uint8_t len;
	const char *why;
} other_curves[] = {
	{{0x2b, 0x81, 0x04, 0x00, 0x23}, 5, "unsupported EC curve secp521r1 " EC_WANT},
	{{0x2b, 0x81, 0x04, 0x00, 0x0a}, 5, "unsupported EC curve secp256k1 " EC_WANT},
	{{0x2b, 0x81, 0x04, 0x00, 0x21}, 5, "unsupported EC curve secp224r1 " EC_WANT},
	{{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x01}, 8,
	 "unsupported EC curve prime192v1 " EC_WANT},
	{{0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07}, 9,
	 "unsupported EC curve brainpoolP256r1 " EC_WANT},
	{{0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0b}, 9,
	 "unsupported EC curve brainpoolP384r1 " EC_WANT},
	{{0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0d}, 9,
	 "unsupported EC curve brainpoolP512r1 " EC_WANT},
};

/* Bytes of a scalar (and of a coordinate) on the curve of an EC key type,
 * 0 for another type. */
static size_t ec_scalar_len(int type)
{
	for (size_t i = 0; i < sizeof(named_curves) / sizeof(named_curves[0]); i++)
		if (named_curves[i].type == type)
			return named_curves[i].scalar;
	return 0;
}

/* ECParameters ::= CHOICE { namedCurve OID, implicitCurve NULL,
 * specifiedCurve SpecifiedECDomain }: only the two named curves vgd
 * serves. *type gets VG_KEY_ECDSA_P256 or _P384. */
static int parse_ec_params(der_cur *c, int *type, const char **why)
{
	der_cur oid;
	if (der_peek(c, 0x30)) {
		*why = "explicit EC curve parameters are not supported (re-encode the key with a "
		       "named curve: openssl ec -param_enc named_curve)";
		return VGD_E_UNSUPPORTED;
	}
	if (der_peek(c, 0x05)) {
		*why = "implicit EC curve parameters are not supported " EC_WANT;
		return VGD_E_UNSUPPORTED;
	}
	if (der_get(c, 0x06, &oid) < 0)
		return VGD_E_DECODE;
	for (size_t i = 0; i < sizeof(named_curves) / sizeof(named_curves[0]); i++)
		if (oid_is(&oid, named_curves[i].oid, named_curves[i].len)) {
			*type = named_curves[i].type;
			return 0;
		}
	*why = "unsupported EC curve " EC_WANT;
	for (size_t i = 0; i < sizeof(other_curves) / sizeof(other_curves[0]); i++)
		if (oid_is(&oid, other_curves[i].oid, other_curves[i].len))
			*why = other_curves[i].why;
	return VGD_E_UNSUPPORTED;
}

/* ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING,
 *   parameters [0] ECParameters OPTIONAL, publicKey [1] BIT STRING OPTIONAL }
 * (RFC 5915). type is the curve PKCS#8's AlgorithmIdentifier named, or 0
 * (a bare SEC 1 key must name it in [0]). */
static int parse_sec1(der_cur *c, int type, vgd_keyfile *kf, const char **why)
{
	der_cur seq, priv, pub = {NULL, 0};
	unsigned version;
	*why = "malformed EC private key (RFC 5915 ECPrivateKey)";
	if (der_get(c, 0x30, &seq) < 0 || c->left != 0)
		return VGD_E_DECODE;
	if (der_small_uint(&seq, &version) < 0 || version != 1 || der_get(&seq, 0x04, &priv) < 0)
		return VGD_E_DECODE;
	if (der_peek(&seq, 0xa0)) {
		der_cur params;
		int named = 0;
		if (der_get(&seq, 0xa0, &params) < 0)
			return VGD_E_DECODE;
		int r = parse_ec_params(&params, &named, why);
		if (r < 0)
			return r;
		if (params.left != 0)
			return VGD_E_DECODE;
		if (type != 0 && named != type) {
			*why = "the EC private key's curve differs from its PKCS#8 algorithm's";
			return VGD_E_DECODE;
		}
		type = named;
	}
	if (der_peek(&seq, 0xa1)) {
		der_cur wrap, bits;
		/* BIT STRING: one byte of unused bits (0), then the point. */
		if (der_get(&seq, 0xa1, &wrap) < 0 || der_get(&wrap, 0x03, &bits) < 0 ||
		    wrap.left != 0 || bits.left < 2 || bits.p[0] != 0)
			return VGD_E_DECODE;
		pub.p = bits.p + 1;
		pub.left = bits.left - 1;
	}
	if (seq.left != 0)
		return VGD_E_DECODE;
	size_t n = ec_scalar_len(type);
	if (n == 0) {
		*why = "the EC private key names no curve " EC_WANT;
		return VGD_E_UNSUPPORTED;
	}
	/* RFC 5915 wants exactly the order's length; some writers drop
	 * leading zero bytes: pad them back. */
	if (priv.left == 0 || priv.left > n) {
		*why = "EC private key of the wrong length for its curve";
		return VGD_E_DECODE;
	}
	if (pub.p != NULL) {
		int full = pub.p[0] == 0x04 && pub.left == 1 + 2 * n;
		int compressed = (pub.p[0] == 0x02 || pub.p[0] == 0x03) && pub.left == 1 + n;
		if (!full && !compressed) {
			*why = "malformed EC public key in the file (want a SEC 1 point on the "
			       "key's curve)";
			return VGD_E_DECODE;
		}
		memcpy(kf->ec_pub, pub.p, pub.left);
		kf->ec_pub_len = pub.left;
	}
	memset(kf->ec_d, 0, n);
	memcpy(kf->ec_d + n - priv.left, priv.p, priv.left);
	kf->ec_d_len = n;
	kf->type = type;
	return 0;
}

/* The RFC 8410 algorithms vgd serves: the key type each OID names. Their
 * private key is a 32-byte CurvePrivateKey. */
static const struct {
	uint8_t oid[3];
	int type;
} rfc8410_algs[] = {
	{{0x2b, 0x65, 0x70}, VG_KEY_ED25519},
	{{0x2b, 0x65, 0x6e}, VG_KEY_X25519},
};

/* OneAsymmetricKey ::= SEQUENCE { version 0|1, AlgorithmIdentifier,
 *   privateKey OCTET STRING, [0] attributes OPTIONAL, [1] publicKey OPTIONAL } */
static int parse_pkcs8(der_cur *c, vgd_keyfile *kf, const char **why)
{
	der_cur seq, alg, oid, priv;
	unsigned version;
	*why = "malformed PKCS#8 PrivateKeyInfo";
	if (der_get(c, 0x30, &seq) < 0 || c->left != 0)
		return VGD_E_DECODE;
	if (der_small_uint(&seq, &version) < 0 || version > 1)
		return VGD_E_DECODE;
	if (der_get(&seq, 0x30, &alg) < 0 || der_get(&alg, 0x06, &oid) < 0)
		return VGD_E_DECODE;
	if (der_get(&seq, 0x04, &priv) < 0)
		return VGD_E_DECODE;
	if (der_peek(&seq, 0xa0)) {
		der_cur attrs;
		if (der_get(&seq, 0xa0, &attrs) < 0)
			return VGD_E_DECODE;
	}
	if (der_peek(&seq, 0x81) || der_peek(&seq, 0xa1)) {
		der_cur pub;
		if (version != 1 || der_get(&seq, seq.p[0], &pub) < 0)
			return VGD_E_DECODE;
	}
	if (seq.left != 0)
		return VGD_E_DECODE;

	if (oid_is(&oid, oid_rsa, sizeof(oid_rsa))) {
		/* parameters: NULL */
		der_cur null;
		if (der_get(&alg, 0x05, &null) < 0 || null.left != 0 || alg.left != 0)
			return VGD_E_DECODE;
		return parse_pkcs1(&priv, kf, why);
	}
	if (oid_is(&oid, oid_ec_public_key, sizeof(oid_ec_public_key))) {
		/* parameters: the curve (RFC 5480); the key: an ECPrivateKey */
		int curve = 0, r = parse_ec_params(&alg, &curve, why);
		if (r < 0)
			return r;
		if (alg.left != 0)
			return VGD_E_DECODE;
		return parse_sec1(&priv, curve, kf, why);
	}
	int type = 0;
	for (size_t i = 0; i < sizeof(rfc8410_algs) / sizeof(rfc8410_algs[0]); i++)
		if (oid_is(&oid, rfc8410_algs[i].oid, sizeof(rfc8410_algs[i].oid)))
			type = rfc8410_algs[i].type;
	if (!type) {
		*why = "unsupported key algorithm (want Ed25519, X25519, RSA or EC)";
		return VGD_E_UNSUPPORTED;
	}
	der_cur sk;
	/* RFC 8410: no parameters; CurvePrivateKey ::= OCTET STRING (32 bytes). */
	if (alg.left != 0 || der_get(&priv, 0x04, &sk) < 0 || priv.left != 0 || sk.left != 32) {
		*why = "malformed RFC 8410 private key";
		return VGD_E_DECODE;
	}
	memcpy(kf->seed, sk.p, 32);
	kf->type = type;
	return 0;
}

/* ---- PEM ---- */

/* Value of a base64 character or -1, without a table lookup on it. */
static int b64_value(uint8_t ch)
{
	int c = ch;
	/* Each term is (in range) & value; ranges are computed with shifts of
	 * the sign bit of differences, so the code has no branch on c. */
#define IN(lo, hi) ((((lo) - 1 - c) & (c - (hi) - 1)) >> 8 & 1)
	int v = -1;
	v += IN('A', 'Z') * (c - 'A' + 1);
	v += IN('a', 'z') * (c - 'a' + 27);
	v += IN('0', '9') * (c - '0' + 53);
	v += IN('+', '+') * (62 + 1);
	v += IN('/', '/') * (63 + 1);
#undef IN
	return v;
}

static const char *find(const uint8_t *hay, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; m <= n && i <= n - m; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return (const char *)hay + i;
	return NULL;
}

/* Decode the first PEM block; *label gets the text between BEGIN and
 * the dashes, *used the bytes of in up to the end of its END line's
 * "-----END " marker (where to look for the next block). */
static int pem_decode(const uint8_t *in, size_t len, uint8_t *out, size_t cap, size_t *outlen,
		      char *label, size_t label_cap, size_t *used, const char **why)
{
	*why = "malformed PEM";
	const char *b = find(in, len, "-----BEGIN ");
	if (!b)
		return VGD_E_DECODE;
	const char *lab = b + 11, *end = (const char *)in + len;
	const char *dash = find((const uint8_t *)lab, (size_t)(end - lab), "-----");
	if (!dash || (size_t)(dash - lab) >= label_cap)
		return VGD_E_DECODE;
	memcpy(label, lab, (size_t)(dash - lab));
	label[dash - lab] = 0;
	const char *body = dash + 5;
	const char *fin = find((const uint8_t *)body, (size_t)(end - body), "-----END ");
	if (!fin)
		return VGD_E_DECODE;
	if (find((const uint8_t *)body, (size_t)(fin - body), ":")) {
		*why = "encrypted PEM keys are not supported (decrypt with openssl pkey first)";
		return VGD_E_UNSUPPORTED;
	}
	uint32_t acc = 0;
	int bits = 0, pad = 0;
	size_t n = 0;
	for (const char *p = body; p < fin; p++) {
		uint8_t ch = (uint8_t)*p;
		if (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t')
			continue;
		if (ch == '=') {
			pad++;
			continue;
		}
		int v = b64_value(ch);
		if (v < 0 || pad)
			return VGD_E_DECODE;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n == cap) {
				*why = "key file too large";
				return VGD_E_TOOBIG;
			}
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	acc = 0;
	if (pad > 2 || bits >= 6)
		return VGD_E_DECODE;
	*outlen = n;
	*used = (size_t)(fin - (const char *)in) + 9;
	return 0;
}

int vgd_keyfile_parse(const uint8_t *in, size_t len, uint8_t *der, size_t cap,
		      vgd_keyfile *kf, const char **why)
{
	memset(kf, 0, sizeof(*kf));
	size_t skip = 0;
	while (skip < len && (in[skip] == ' ' || in[skip] == '\n' || in[skip] == '\r' ||
			      in[skip] == '\t'))
		skip++;
	der_cur c = {in, len};
	enum { PKCS8, PKCS1, SEC1 } form = PKCS8;
	if (len - skip >= 5 && memcmp(in + skip, "-----", 5) == 0) {
		char label[64];
		size_t n, off = 0, used;
		int r;
		/* `openssl ecparam -genkey` writes an EC PARAMETERS block (the
		 * curve) before the key: skip it. */
		while ((r = pem_decode(in + off, len - off, der, cap, &n, label, sizeof(label),
				       &used, why)) == 0 &&
		       strcmp(label, "EC PARAMETERS") == 0)
			off += used;
		if (r < 0 && off != 0 && !find(in + off, len - off, "-----BEGIN ")) {
			*why = "the file holds EC PARAMETERS but no private key";
			return VGD_E_DECODE;
		}
		if (r < 0)
			return r;
		if (strcmp(label, "RSA PRIVATE KEY") == 0)
			form = PKCS1;
		else if (strcmp(label, "EC PRIVATE KEY") == 0)
			form = SEC1;
		else if (strcmp(label, "ENCRYPTED PRIVATE KEY") == 0) {
			*why = "encrypted PKCS#8 keys are not supported (decrypt with openssl pkey first)";
			return VGD_E_UNSUPPORTED;
		} else if (strcmp(label, "PRIVATE KEY") != 0) {
			*why = "PEM block is not a private key "
			       "(want PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)";
			return VGD_E_DECODE;
		}
		c.p = der;
		c.left = n;
	} else {
		/* DER: after SEQUENCE { INTEGER, PKCS#1 has an INTEGER, SEC 1
		 * an OCTET STRING, PKCS#8 a SEQUENCE. */
		der_cur probe = c, seq;
		const uint8_t *v;
		size_t vl;
		if (der_get(&probe, 0x30, &seq) == 0 && der_uint(&seq, &v, &vl) == 0)
			form = der_peek(&seq, 0x02) ? PKCS1 : der_peek(&seq, 0x04) ? SEC1 : PKCS8;
	}
	int r = form == PKCS1  ? parse_pkcs1(&c, kf, why)
		: form == SEC1 ? parse_sec1(&c, 0, kf, why)
			       : parse_pkcs8(&c, kf, why);
	if (r < 0)
		vg_wipe(kf, sizeof(*kf));
	return r;
}
