/* spki.c: a vgd key's DER SubjectPublicKeyInfo (vg/proto_x509.h), the
 * one copy vgctl prints (pubkey), puts in a certificate request (csr),
 * and the keyholder compares a request's key with. Public keys only. */
#include "vg/proto_x509.h"

#include <string.h>

#include "vg/proto.h"

/* The key types whose SubjectPublicKeyInfo is a fixed prefix and then the
 * public value KEYINFO carries: every length is below 128, so the DER
 * header bytes are constant. RFC 8410: SEQUENCE { SEQUENCE { OID
 * 1.3.101.112|110 }, BIT STRING { 0 unused bits, 32-byte key } }. RFC
 * 5480: SEQUENCE { SEQUENCE { OID id-ecPublicKey, OID namedCurve }, BIT
 * STRING { 0 unused bits, the uncompressed point } }. RSA's is built from
 * n and e below. */
/* clang-format off */
static const struct {
	int type;
	uint8_t prefix[26];
	size_t prefix_len, pub_len;
	int point; /* 1: the value must be an uncompressed SEC 1 point (04||X||Y) */
} fixed_spki[] = {
	{ VG_KEY_ED25519, { 0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00 },
	  12, 32, 0 },
	{ VG_KEY_X25519, { 0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00 },
	  12, 32, 0 },
	{ VG_KEY_ECDSA_P256,
	  { 0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	    0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00 },
	  26, 65, 1 },
	{ VG_KEY_ECDSA_P384,
	  { 0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
	    0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00 },
	  23, 97, 1 },
};
/* clang-format on */

/* SEQUENCE { SEQUENCE { OID rsaEncryption, NULL }, BIT STRING { 0,
 * RSAPublicKey ::= SEQUENCE { INTEGER n, INTEGER e } } } */
static size_t rsa_spki(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, uint8_t *out,
		       size_t cap)
{
	static const uint8_t alg_id[15] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
					   0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
	size_t in = vg_der_uint(NULL, n, n_len), ie = vg_der_uint(NULL, e, e_len);
	if (in == 0 || ie == 0)
		return 0;
	size_t ints = in + ie;
	size_t rpk = vg_der_hdr(NULL, 0x30, ints) + ints;
	size_t bits = 1 + rpk;
	size_t body = sizeof(alg_id) + vg_der_hdr(NULL, 0x03, bits) + bits;
	size_t total = vg_der_hdr(NULL, 0x30, body) + body;
	if (total > cap)
		return 0;
	size_t o = vg_der_hdr(out, 0x30, body);
	memcpy(out + o, alg_id, sizeof(alg_id));
	o += sizeof(alg_id);
	o += vg_der_hdr(out + o, 0x03, bits);
	out[o++] = 0; /* no unused bits */
	o += vg_der_hdr(out + o, 0x30, ints);
	o += vg_der_uint(out + o, n, n_len);
	o += vg_der_uint(out + o, e, e_len);
	return o;
}

size_t vg_spki_encode(int type, const uint8_t *pub, size_t pub_len, const uint8_t *rsa_e,
		      size_t rsa_e_len, uint8_t *out, size_t cap)
{
	if (pub == NULL || out == NULL)
		return 0;
	for (size_t i = 0; i < sizeof(fixed_spki) / sizeof(fixed_spki[0]); i++) {
		size_t pl = fixed_spki[i].prefix_len, n = fixed_spki[i].pub_len;
		if (fixed_spki[i].type != type)
			continue;
		if (pub_len != n || (fixed_spki[i].point && pub[0] != 0x04) || cap < pl + n)
			return 0;
		memcpy(out, fixed_spki[i].prefix, pl);
		memcpy(out + pl, pub, n);
		return pl + n;
	}
	if (type != VG_KEY_RSA || pub_len == 0 || rsa_e == NULL || rsa_e_len == 0)
		return 0;
	return rsa_spki(pub, pub_len, rsa_e, rsa_e_len, out, cap);
}
