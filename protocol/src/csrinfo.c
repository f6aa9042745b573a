/* csrinfo.c: the keyholder's check of a CertificationRequestInfo before
 * it signs one with ALG csr (vg/proto_x509.h, PROTOCOL.md 6.5.2). This
 * check is what lets a key whose policy allows only TLS 1.3 sign a
 * certificate request without signing anything else: the bytes signed
 * begin with a SEQUENCE tag (0x30, where TLS 1.3 content begins with
 * 0x20) and carry the key's own public key, so they are a request for a
 * certificate of this key and nothing another protocol would take. A
 * strict walk: DER's rules for tags and lengths, nothing left over.
 * Public data only. */
#include "vg/proto_x509.h"

#include <string.h>

/* CertificationRequestInfo ::= SEQUENCE { version INTEGER { v1(0) },
 * subject Name, subjectPKInfo SubjectPublicKeyInfo, attributes [0]
 * IMPLICIT SET OF Attribute } (RFC 2986 4.1) */
#define TAG_SEQUENCE 0x30u
#define TAG_ATTRIBUTES 0xa0u /* context-specific, constructed, [0] */
static const uint8_t version_v1[] = {0x02, 0x01, 0x00};

int vg_csr_info_check(const uint8_t *data, size_t len, const uint8_t *spki, size_t spki_len)
{
	size_t h, n;

	if (data == NULL || spki == NULL || spki_len == 0 || len < VG_CSR_INFO_MIN ||
	    len > VG_CSR_INFO_MAX)
		return -1;
	/* One SEQUENCE covering exactly DATA. */
	h = vg_der_read(data, len, TAG_SEQUENCE, &n);
	if (h == 0 || h + n != len)
		return -1;
	const uint8_t *p = data + h, *end = data + len;
	/* version 0 */
	if ((size_t)(end - p) < sizeof(version_v1) || memcmp(p, version_v1, sizeof(version_v1)))
		return -1;
	p += sizeof(version_v1);
	/* subject: one SEQUENCE, skipped by its length */
	h = vg_der_read(p, (size_t)(end - p), TAG_SEQUENCE, &n);
	if (h == 0)
		return -1;
	p += h + n;
	/* the key's own SubjectPublicKeyInfo, byte for byte */
	if ((size_t)(end - p) < spki_len || memcmp(p, spki, spki_len) != 0)
		return -1;
	p += spki_len;
	/* attributes, to the end and no further */
	h = vg_der_read(p, (size_t)(end - p), TAG_ATTRIBUTES, &n);
	if (h == 0 || h + n != (size_t)(end - p))
		return -1;
	return 0;
}
