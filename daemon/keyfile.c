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

static const uint8_t oid_ed25519[] = {0x2b, 0x65, 0x70};
static const uint8_t oid_x25519[] = {0x2b, 0x65, 0x6e};
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
	int type = oid_is(&oid, oid_ed25519, sizeof(oid_ed25519))  ? VG_KEY_ED25519
		   : oid_is(&oid, oid_x25519, sizeof(oid_x25519)) ? VG_KEY_X25519
								   : 0;
	if (!type) {
		*why = "unsupported key algorithm (want Ed25519, X25519 or RSA)";
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
 * the dashes. */
static int pem_decode(const uint8_t *in, size_t len, uint8_t *out, size_t cap, size_t *outlen,
		      char *label, size_t label_cap, const char **why)
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
	int pkcs1 = 0;
	if (len - skip >= 5 && memcmp(in + skip, "-----", 5) == 0) {
		char label[64];
		size_t n;
		int r = pem_decode(in, len, der, cap, &n, label, sizeof(label), why);
		if (r < 0)
			return r;
		if (strcmp(label, "RSA PRIVATE KEY") == 0)
			pkcs1 = 1;
		else if (strcmp(label, "ENCRYPTED PRIVATE KEY") == 0) {
			*why = "encrypted PKCS#8 keys are not supported (decrypt with openssl pkey first)";
			return VGD_E_UNSUPPORTED;
		} else if (strcmp(label, "PRIVATE KEY") != 0) {
			*why = "PEM block is not a private key (want PRIVATE KEY or RSA PRIVATE KEY)";
			return VGD_E_DECODE;
		}
		c.p = der;
		c.left = n;
	} else {
		/* DER: PKCS#1 has INTEGER, INTEGER; PKCS#8 has INTEGER, SEQUENCE. */
		der_cur probe = c, seq;
		const uint8_t *v;
		size_t vl;
		if (der_get(&probe, 0x30, &seq) == 0 && der_uint(&seq, &v, &vl) == 0 &&
		    der_peek(&seq, 0x02))
			pkcs1 = 1;
	}
	int r = pkcs1 ? parse_pkcs1(&c, kf, why) : parse_pkcs8(&c, kf, why);
	if (r < 0)
		vg_wipe(kf, sizeof(*kf));
	return r;
}
