/* vgctl_fmt.c: vgctl's output encodings (hex, base64, PEM, JSON strings)
 * and the DER SubjectPublicKeyInfo of a vgd key (RFC 8410 for
 * Ed25519/X25519, RFC 8017 A.1.1 RSAPublicKey for RSA, RFC 5480 for EC).
 * Handles public values, and results the user asked to see. */
#include <string.h>

#include "vgctl.h"

int vgctl_fail(vg_client *c, int err)
{
	fprintf(stderr, "vgctl: %s\n", vg_client_errmsg(c));
	return err == VGC_E_CONNECT || err == VGC_E_CLOSED || err == VGC_E_TIMEOUT ||
			       err == VGC_E_IO
		       ? EX_CONNECT
		       : EX_DAEMON;
}

void vgctl_hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

void vgctl_base64(FILE *f, const uint8_t *p, size_t n, int wrap)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t col = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		char q[4] = {t[v >> 18 & 63], t[v >> 12 & 63], i + 1 < n ? t[v >> 6 & 63] : '=',
			     i + 2 < n ? t[v & 63] : '='};
		fwrite(q, 1, 4, f);
		col += 4;
		if (wrap && col == 64 && i + 3 < n) {
			fputc('\n', f);
			col = 0;
		}
	}
}

void vgctl_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

long vgctl_unhex(const char *s, size_t slen, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;
	for (size_t i = 0; i < slen; i++) {
		if (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			continue;
		int v = hexval(s[i]);
		if (v < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n == cap)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 && n == cap ? (long)n : -1;
}

/* DER tag + definite length (short form, or 0x81/0x82 long form). */
static size_t der_hdr(uint8_t *p, uint8_t tag, size_t len)
{
	p[0] = tag;
	if (len < 0x80) {
		p[1] = (uint8_t)len;
		return 2;
	}
	if (len < 0x100) {
		p[1] = 0x81;
		p[2] = (uint8_t)len;
		return 3;
	}
	p[1] = 0x82;
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
	return 4;
}

static size_t der_hdr_len(size_t len) { return len < 0x80 ? 2 : len < 0x100 ? 3 : 4; }

/* INTEGER from big-endian unsigned bytes: minimal, 0x00 prefix if the top
 * bit is set (DER integers are signed). */
static size_t der_uint(uint8_t *p, const uint8_t *v, size_t n)
{
	while (n > 1 && v[0] == 0) {
		v++;
		n--;
	}
	size_t pad = n && v[0] & 0x80 ? 1 : 0;
	size_t h = der_hdr(p, 0x02, n + pad);
	if (pad)
		p[h] = 0;
	memcpy(p + h + pad, v, n);
	return h + pad + n;
}

static size_t der_uint_len(const uint8_t *v, size_t n)
{
	while (n > 1 && v[0] == 0) {
		v++;
		n--;
	}
	size_t body = n + (n && v[0] & 0x80 ? 1 : 0);
	return der_hdr_len(body) + body;
}

/* The key types whose SubjectPublicKeyInfo is a fixed prefix and then the
 * public value KEYINFO carries: every length is below 128, so the DER
 * header bytes are constant. RFC 8410: SEQUENCE { SEQUENCE { OID
 * 1.3.101.112|110 }, BIT STRING { 0 unused bits, 32-byte key } }. RFC
 * 5480: SEQUENCE { SEQUENCE { OID id-ecPublicKey, OID namedCurve }, BIT
 * STRING { 0 unused bits, the uncompressed point } }. The client does not
 * link the daemon's key-type rows, and the protocol's carry no X.509:
 * vgctl keeps this one. RSA's is built from n and e below. */
static const struct {
	int type;
	uint8_t prefix[26];
	size_t prefix_len, pub_len;
	int point; /* 1: the value must be an uncompressed SEC 1 point (04||X||Y) */
} fixed_spki[] = {
	{VGC_KEY_ED25519, {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00},
	 12, 32, 0},
	{VGC_KEY_X25519, {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00},
	 12, 32, 0},
	{VGC_KEY_ECDSA_P256,
	 {0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	  0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00},
	 26, 65, 1},
	{VGC_KEY_ECDSA_P384,
	 {0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
	  0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00},
	 23, 97, 1},
};

size_t vgctl_spki(const vgc_key_info *k, uint8_t *out, size_t cap)
{
	for (size_t i = 0; i < sizeof(fixed_spki) / sizeof(fixed_spki[0]); i++) {
		size_t pl = fixed_spki[i].prefix_len, n = fixed_spki[i].pub_len;
		if (fixed_spki[i].type != k->type)
			continue;
		if (k->pub_len != n || (fixed_spki[i].point && k->pub[0] != 0x04) || cap < pl + n)
			return 0;
		memcpy(out, fixed_spki[i].prefix, pl);
		memcpy(out + pl, k->pub, n);
		return pl + n;
	}
	if (k->type != VGC_KEY_RSA || k->pub_len == 0 || k->rsa_e_len == 0)
		return 0;
	/* SEQUENCE { SEQUENCE { OID rsaEncryption, NULL }, BIT STRING { 0,
	 * RSAPublicKey ::= SEQUENCE { INTEGER n, INTEGER e } } } */
	static const uint8_t alg_id[15] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
					   0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
	size_t ints = der_uint_len(k->pub, k->pub_len) + der_uint_len(k->rsa_e, k->rsa_e_len);
	size_t rpk = der_hdr_len(ints) + ints;
	size_t bits = 1 + rpk;
	size_t body = sizeof(alg_id) + der_hdr_len(bits) + bits;
	size_t total = der_hdr_len(body) + body;
	if (total > cap)
		return 0;
	size_t o = der_hdr(out, 0x30, body);
	memcpy(out + o, alg_id, sizeof(alg_id));
	o += sizeof(alg_id);
	o += der_hdr(out + o, 0x03, bits);
	out[o++] = 0;
	o += der_hdr(out + o, 0x30, ints);
	o += der_uint(out + o, k->pub, k->pub_len);
	o += der_uint(out + o, k->rsa_e, k->rsa_e_len);
	return o;
}

void vgctl_emit(FILE *f, int enc, const uint8_t *p, size_t n, const char *pem_label)
{
	switch (enc) {
	case OUT_RAW:
		fwrite(p, 1, n, f);
		return;
	case OUT_HEX:
		vgctl_hex(f, p, n);
		fputc('\n', f);
		return;
	case OUT_BASE64:
		vgctl_base64(f, p, n, 0);
		fputc('\n', f);
		return;
	default:
		fprintf(f, "-----BEGIN %s-----\n", pem_label);
		vgctl_base64(f, p, n, 1);
		fprintf(f, "\n-----END %s-----\n", pem_label);
	}
}
