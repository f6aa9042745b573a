/* vgctl_fmt.c: vgctl's output encodings (hex, base64, PEM, JSON strings).
 * (A key's DER SubjectPublicKeyInfo is the protocol's vg_spki_encode,
 * shared with the keyholder's check of certificate requests.) Handles
 * public values, and results the user asked to see. */
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

size_t vgctl_spki(const vgc_key_info *k, uint8_t out[VG_SPKI_MAX])
{
	return vg_spki_encode(k->type, k->pub, k->pub_len, k->rsa_e, k->rsa_e_len, out,
			      VG_SPKI_MAX);
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
