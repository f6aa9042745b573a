/* vgctl_csr.c: `vgctl csr NAME --subject DN [--san LIST] [--out FILE]`:
 * a PKCS#10 certificate request (RFC 2986) for a key vgd holds. vgctl
 * builds the CertificationRequestInfo (the subject, the key's own
 * SubjectPublicKeyInfo from the protocol's vg_spki_encode, the
 * subjectAltName extension), vgd checks it and signs it with ALG csr,
 * and vgctl wraps both in a CertificationRequest printed as PEM.
 * Nothing here is secret: names, a public key and a signature. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "vgctl.h"

/* ---- a bounded DER writer: contents first, then their header ---- */

typedef struct {
	uint8_t *p;
	size_t len, cap;
	int full; /* sticky: something did not fit */
} der_buf;

static void put(der_buf *b, const void *v, size_t n)
{
	if (b->full || n > b->cap - b->len) {
		b->full = 1;
		return;
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void put_byte(der_buf *b, uint8_t v)
{
	put(b, &v, 1);
}

/* Turn the bytes written since start into one element with tag: move them
 * up by the header's length and write the header before them. Building
 * from the inside out keeps every length exact without a second pass. */
static void wrap(der_buf *b, size_t start, uint8_t tag)
{
	size_t n = b->len - start, h = vg_der_hdr(NULL, tag, n);
	if (b->full || h == 0 || h > b->cap - b->len) {
		b->full = 1;
		return;
	}
	memmove(b->p + start + h, b->p + start, n);
	vg_der_hdr(b->p + start, tag, n);
	b->len += h;
}

/* A primitive element: tag, length, value. */
static void put_tlv(der_buf *b, uint8_t tag, const void *v, size_t n)
{
	size_t start = b->len;
	put(b, v, n);
	wrap(b, start, tag);
}

enum {
	TAG_OCTET_STRING = 0x04,
	TAG_OID = 0x06,
	TAG_UTF8 = 0x0c,
	TAG_PRINTABLE = 0x13,
	TAG_SEQUENCE = 0x30,
	TAG_SET = 0x31,
	TAG_ATTRIBUTES = 0xa0, /* CertificationRequestInfo's [0] IMPLICIT SET OF */
	TAG_DNS_NAME = 0x82,   /* GeneralName dNSName [2] IMPLICIT IA5String */
	TAG_IP_ADDRESS = 0x87, /* GeneralName iPAddress [7] IMPLICIT OCTET STRING */
	TAG_BIT_STRING = 0x03,
};

/* ---- the subject: CN=..,O=..,C=.. (one attribute per RDN, in order) ---- */

/* The attributes --subject takes: their X.520 OIDs (2.5.4.n) and RFC 5280
 * upper bounds. C is an ISO 3166 code, a PrintableString; the others are
 * UTF8String, as RFC 5280 4.1.2.6 asks of new certificates. */
static const struct {
	const char *name;
	uint8_t arc; /* 2.5.4.arc */
	size_t max;  /* bytes */
} dn_attrs[] = {
	{"CN", 3, 64}, {"O", 10, 64}, {"OU", 11, 64}, {"L", 7, 128}, {"ST", 8, 128}, {"C", 6, 2},
};

/* 1 if s[0..n) is well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) without control characters: what a
 * UTF8String in a name may hold. */
static int utf8_ok(const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint8_t c = s[i];
		size_t k;
		uint32_t v;
		if (c < 0x80) {
			if (c < 0x20 || c == 0x7f)
				return 0;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			k = 1;
			v = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			k = 2;
			v = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3;
			v = c & 0x07;
		} else {
			return 0;
		}
		if (n - i - 1 < k)
			return 0;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			v = v << 6 | (s[i + j] & 0x3f);
		}
		if ((k == 2 && v < 0x800) || (k == 3 && v < 0x10000) || v > 0x10ffff ||
		    (v >= 0xd800 && v <= 0xdfff))
			return 0;
		i += k + 1;
	}
	return 1;
}

static int is_letter(uint8_t ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}

/* One NAME=VALUE of --subject (commas already unescaped) as an RDN. */
static int put_rdn(der_buf *b, const char *tok, size_t n)
{
	const char *eq = memchr(tok, '=', n);
	if (eq == NULL) {
		fprintf(stderr, "vgctl: --subject: '%.*s' is not NAME=VALUE\n", (int)n, tok);
		return -1;
	}
	size_t nl = (size_t)(eq - tok), vl = n - nl - 1;
	const uint8_t *v = (const uint8_t *)eq + 1;
	size_t i = 0;
	while (i < sizeof(dn_attrs) / sizeof(dn_attrs[0]) &&
	       (strlen(dn_attrs[i].name) != nl || memcmp(dn_attrs[i].name, tok, nl) != 0))
		i++;
	if (i == sizeof(dn_attrs) / sizeof(dn_attrs[0])) {
		fprintf(stderr,
			"vgctl: --subject: unknown attribute '%.*s' (CN, O, OU, L, ST, C)\n",
			(int)nl, tok);
		return -1;
	}
	int country = dn_attrs[i].arc == 6;
	if (country ? vl != 2 || !is_letter(v[0]) || !is_letter(v[1])
		    : vl == 0 || vl > dn_attrs[i].max || !utf8_ok(v, vl)) {
		if (country)
			fprintf(stderr, "vgctl: --subject: C must be two letters (ISO 3166)\n");
		else
			fprintf(stderr,
				"vgctl: --subject: %s must be 1 to %zu bytes of UTF-8 text, "
				"without control characters\n",
				dn_attrs[i].name, dn_attrs[i].max);
		return -1;
	}
	const uint8_t oid[3] = {0x55, 0x04, dn_attrs[i].arc}; /* 2.5.4.arc */
	size_t set = b->len;
	size_t atv = b->len;
	put_tlv(b, TAG_OID, oid, sizeof(oid));
	put_tlv(b, country ? TAG_PRINTABLE : TAG_UTF8, v, vl);
	wrap(b, atv, TAG_SEQUENCE); /* AttributeTypeAndValue */
	wrap(b, set, TAG_SET);      /* RelativeDistinguishedName */
	return 0;
}

/* Name ::= SEQUENCE OF RDN, from "CN=a,O=b\,c,C=GB": "\," is a comma in
 * a value; any other backslash, an empty part or an unknown attribute is
 * a usage error. */
static int put_name(der_buf *b, const char *dn)
{
	char tok[512];
	size_t n = 0, start = b->len;
	for (const char *s = dn;; s++) {
		if (*s == '\\') {
			if (s[1] != ',') {
				fprintf(stderr, "vgctl: --subject: only \\, may be escaped\n");
				return -1;
			}
			s++;
		} else if (*s == ',' || *s == '\0') {
			if (n == 0) {
				fprintf(stderr, "vgctl: --subject: empty attribute in '%s'\n", dn);
				return -1;
			}
			if (put_rdn(b, tok, n) < 0)
				return -1;
			n = 0;
			if (*s == '\0')
				break;
			continue;
		}
		if (n == sizeof(tok)) {
			fprintf(stderr, "vgctl: --subject: attribute too long\n");
			return -1;
		}
		tok[n++] = *s;
	}
	wrap(b, start, TAG_SEQUENCE);
	return 0;
}

/* ---- subjectAltName: DNS:name,IP:address ---- */

/* A host name (RFC 1123 labels of letters, digits and hyphens, 1 to 63
 * bytes, not starting or ending with a hyphen), or a wildcard "*." in
 * front of one; at most 253 bytes. */
static int dns_ok(const char *s, size_t n)
{
	if (n > 2 && s[0] == '*' && s[1] == '.') {
		s += 2;
		n -= 2;
	}
	if (n == 0 || n > 253)
		return 0;
	size_t label = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			if (label == 0 || label > 63 || s[i - 1] == '-')
				return 0;
			label = 0;
			continue;
		}
		char ch = s[i];
		int alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9');
		if (!alnum && !(ch == '-' && label > 0))
			return 0;
		label++;
	}
	return 1;
}

/* One GeneralName from DNS:... or IP:... */
static int put_general_name(der_buf *b, const char *s, size_t n)
{
	char addr[64];
	uint8_t ip[16];
	if (n > 4 && memcmp(s, "DNS:", 4) == 0) {
		if (!dns_ok(s + 4, n - 4)) {
			fprintf(stderr, "vgctl: --san: '%.*s' is not a host name\n", (int)(n - 4),
				s + 4);
			return -1;
		}
		put_tlv(b, TAG_DNS_NAME, s + 4, n - 4);
		return 0;
	}
	if (n > 3 && memcmp(s, "IP:", 3) == 0 && n - 3 < sizeof(addr)) {
		memcpy(addr, s + 3, n - 3);
		addr[n - 3] = 0;
		if (inet_pton(AF_INET, addr, ip) == 1) {
			put_tlv(b, TAG_IP_ADDRESS, ip, 4);
			return 0;
		}
		if (inet_pton(AF_INET6, addr, ip) == 1) {
			put_tlv(b, TAG_IP_ADDRESS, ip, 16);
			return 0;
		}
	}
	fprintf(stderr, "vgctl: --san: '%.*s' is not DNS:NAME or IP:ADDRESS\n", (int)n, s);
	return -1;
}

/* attributes [0] { Attribute { extensionRequest (1.2.840.113549.1.9.14),
 * SET { Extensions { Extension { subjectAltName (2.5.29.17), OCTET
 * STRING { GeneralNames } } } } } }, or empty attributes without --san. */
static int put_attributes(der_buf *b, const char *san)
{
	static const uint8_t ext_req[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x0e};
	static const uint8_t san_oid[] = {0x55, 0x1d, 0x11};
	size_t attrs = b->len;
	if (san != NULL) {
		size_t attr = b->len;
		put_tlv(b, TAG_OID, ext_req, sizeof(ext_req));
		size_t set = b->len, exts = b->len, ext = b->len;
		put_tlv(b, TAG_OID, san_oid, sizeof(san_oid));
		size_t octets = b->len, names = b->len;
		for (const char *s = san;;) {
			const char *end = strchr(s, ',');
			size_t n = end ? (size_t)(end - s) : strlen(s);
			if (put_general_name(b, s, n) < 0)
				return -1;
			if (end == NULL)
				break;
			s = end + 1;
		}
		wrap(b, names, TAG_SEQUENCE); /* GeneralNames */
		wrap(b, octets, TAG_OCTET_STRING);
		wrap(b, ext, TAG_SEQUENCE);  /* Extension */
		wrap(b, exts, TAG_SEQUENCE); /* Extensions */
		wrap(b, set, TAG_SET);
		wrap(b, attr, TAG_SEQUENCE); /* Attribute */
	}
	wrap(b, attrs, TAG_ATTRIBUTES);
	return 0;
}

/* ---- the request ---- */

static void csr_usage(void)
{
	fprintf(stderr,
		"usage: vgctl csr NAME --subject DN [--san LIST] [--out FILE]\n"
		"  DN:   CN=example.org,O=Example Ltd,C=GB\n"
		"        (CN, O, OU, L, ST, C; \\, for a comma)\n"
		"  LIST: DNS:example.org,DNS:www.example.org,IP:192.0.2.1,IP:2001:db8::1\n");
}

int vgctl_csr(vg_client *c, int argc, char **argv)
{
	static const struct option lo[] = {{"subject", required_argument, NULL, 's'},
					   {"san", required_argument, NULL, 'n'},
					   {"out", required_argument, NULL, 'o'},
					   {NULL, 0, NULL, 0}};
	const char *subject = NULL, *san = NULL, *out = NULL;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 's':
			subject = optarg;
			break;
		case 'n':
			san = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			csr_usage();
			return EX_USAGE;
		}
	}
	if (argc - optind != 1 || subject == NULL) {
		csr_usage();
		return EX_USAGE;
	}
	const char *key = argv[optind];

	/* The request's parts are checked before vgd is asked anything. */
	static uint8_t name[VG_CSR_INFO_MAX], attrs[VG_CSR_INFO_MAX];
	der_buf nb = {name, 0, sizeof(name), 0}, ab = {attrs, 0, sizeof(attrs), 0};
	if (put_name(&nb, subject) < 0 || put_attributes(&ab, san) < 0)
		return EX_USAGE;
	if (nb.full || ab.full) {
		fprintf(stderr, "vgctl: the subject and names do not fit a request\n");
		return EX_USAGE;
	}

	vgc_key_info k;
	int r = vg_client_public_key(c, key, &k);
	if (r < 0)
		return vgctl_fail(c, r);
	uint8_t spki[VG_SPKI_MAX];
	size_t sl = vgctl_spki(&k, spki);
	if (sl == 0) {
		fprintf(stderr, "vgctl: cannot encode a %s key\n", vg_key_type_name(k.type));
		return EX_DAEMON;
	}

	/* CertificationRequestInfo ::= SEQUENCE { version 0, subject,
	 * subjectPKInfo, attributes }, then CertificationRequest ::=
	 * SEQUENCE { it, signatureAlgorithm, signature BIT STRING }, built
	 * in place. */
	static uint8_t req[VG_CSR_INFO_MAX + 1024];
	der_buf b = {req, 0, sizeof(req), 0};
	static const uint8_t version[] = {0x02, 0x01, 0x00};
	put(&b, version, sizeof(version));
	put(&b, name, nb.len);
	put(&b, spki, sl);
	put(&b, attrs, ab.len);
	wrap(&b, 0, TAG_SEQUENCE);
	size_t cri_len = b.len;
	if (b.full || cri_len > VG_CSR_INFO_MAX) {
		fprintf(stderr, "vgctl: the request is over %u bytes\n", VG_CSR_INFO_MAX);
		return EX_USAGE;
	}
	uint8_t sig[VGC_RESULT_MAX];
	size_t sig_len = 0;
	r = vg_client_sign(c, key, VGC_ALG_CSR, req, cri_len, sig, sizeof(sig), &sig_len);
	if (r < 0)
		return vgctl_fail(c, r);
	size_t id_len;
	const uint8_t *id = vg_alg_csr_id(k.type, &id_len);
	if (id == NULL) {
		fprintf(stderr, "vgctl: no X.509 signature algorithm for a %s key\n",
			vg_key_type_name(k.type));
		return EX_DAEMON;
	}
	put(&b, id, id_len);
	size_t bits = b.len;
	put_byte(&b, 0); /* no unused bits */
	put(&b, sig, sig_len);
	wrap(&b, bits, TAG_BIT_STRING);
	wrap(&b, 0, TAG_SEQUENCE);
	if (b.full) {
		fprintf(stderr, "vgctl: the signed request does not fit\n");
		return EX_DAEMON;
	}
	FILE *f = out ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "vgctl: %s: %s\n", out, strerror(errno));
		return EX_INPUT;
	}
	vgctl_emit(f, OUT_PEM, req, b.len, "CERTIFICATE REQUEST");
	if ((out ? fclose(f) : fflush(f)) != 0) {
		fprintf(stderr, "vgctl: cannot write the request\n");
		return EX_INPUT;
	}
	return EX_OK;
}
