/* keyref.c: parse a PEM "VGD KEY REFERENCE" (the base64 of a vgd: URI),
 * the file a server names where it would name a private key file. Not
 * secret: it holds only the key's name and socket. */
#include <string.h>

#include "vgdprov.h"

static const char begin[] = "-----BEGIN VGD KEY REFERENCE-----";
static const char end[] = "-----END VGD KEY REFERENCE-----";

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static const char *find(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

int vg_prov_keyref_parse(const char *text, size_t len, char *uri, size_t cap)
{
	const char *b = find(text, len, begin);
	if (!b)
		return 0;
	const char *body = b + strlen(begin);
	const char *e = find(body, len - (size_t)(body - text), end);
	if (!e)
		return -1;
	/* Strict base64: whitespace skipped, '=' only at the end. */
	unsigned acc = 0;
	int bits = 0, pad = 0;
	size_t n = 0;
	for (const char *p = body; p < e; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			continue;
		if (*p == '=') {
			pad++;
			continue;
		}
		int v = b64_value(*p);
		if (v < 0 || pad)
			return -1;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n + 1 >= cap)
				return -1;
			uri[n++] = (char)((acc >> bits) & 0xff);
		}
	}
	if (pad > 2 || (acc & ((1u << bits) - 1)) != 0)
		return -1;
	uri[n] = 0;
	return n > 0 && !memchr(uri, 0, n) ? 1 : -1;
}
