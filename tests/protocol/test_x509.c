/* test_x509.c: cmocka unit tests of the protocol's X.509 pieces
 * (vg/proto_x509.h): DER headers and INTEGERs against X.690's rules, the
 * SubjectPublicKeyInfo encoder against RFC 8410's example, and
 * vg_csr_info_check, the keyholder's check before ALG csr signs, on
 * requests written out here byte by byte: one accepted for every key
 * type, and every way a DATA can be something else refused. Public data
 * only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vg/proto.h"
#include "vg/proto_tls13.h"
#include "vg/proto_x509.h"

/* ---- DER ---- */

static void test_der_hdr(void **state)
{
	static const struct {
		size_t len;
		uint8_t want[4];
		size_t n;
	} cases[] = {
		{ 0, { 0x30, 0x00 }, 2 },
		{ 127, { 0x30, 0x7f }, 2 },
		{ 128, { 0x30, 0x81, 0x80 }, 3 },
		{ 255, { 0x30, 0x81, 0xff }, 3 },
		{ 256, { 0x30, 0x82, 0x01, 0x00 }, 4 },
		{ 65535, { 0x30, 0x82, 0xff, 0xff }, 4 },
	};
	uint8_t b[VG_DER_HDR_MAX];
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(vg_der_hdr(NULL, 0x30, cases[i].len), cases[i].n);
		assert_int_equal(vg_der_hdr(b, 0x30, cases[i].len), cases[i].n);
		assert_memory_equal(b, cases[i].want, cases[i].n);
		/* and read back, given room for the contents */
		static uint8_t elem[4 + 65535];
		memcpy(elem, b, cases[i].n);
		assert_int_equal(vg_der_read(elem, cases[i].n + cases[i].len, 0x30, &len),
				 cases[i].n);
		assert_int_equal(len, cases[i].len);
		/* one content byte short: an overrun */
		assert_int_equal(vg_der_read(elem, cases[i].n + cases[i].len - (cases[i].len > 0),
					     0x30, &len),
				 cases[i].len > 0 ? 0 : cases[i].n);
		/* another tag */
		assert_int_equal(vg_der_read(elem, cases[i].n + cases[i].len, 0x31, &len), 0);
	}
	assert_int_equal(vg_der_hdr(NULL, 0x30, 65536), 0);
}

static void test_der_read_rejects(void **state)
{
	static uint8_t buf[300];
	size_t len;

	(void)state;
	/* long forms that the short or a shorter form could have said */
	static const uint8_t nonmin1[] = { 0x30, 0x81, 0x7f };
	static const uint8_t nonmin2[] = { 0x30, 0x82, 0x00, 0xff };
	/* indefinite (BER), and more length bytes than a request holds */
	static const uint8_t indef[] = { 0x30, 0x80 };
	static const uint8_t three[] = { 0x30, 0x83, 0x00, 0x01, 0x00 };
	const struct {
		const uint8_t *h;
		size_t n;
	} bad[] = { { nonmin1, 3 }, { nonmin2, 4 }, { indef, 2 }, { three, 5 } };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(buf, 0, sizeof buf);
		memcpy(buf, bad[i].h, bad[i].n);
		assert_int_equal(vg_der_read(buf, sizeof buf, 0x30, &len), 0);
	}
	assert_int_equal(vg_der_read(buf, 1, 0x30, &len), 0);
	assert_int_equal(vg_der_read(NULL, 10, 0x30, &len), 0);
}

static void test_der_uint(void **state)
{
	static const uint8_t v1[] = { 0x00, 0x00, 0x7f };
	static const uint8_t w1[] = { 0x02, 0x01, 0x7f };
	static const uint8_t v2[] = { 0x80 };
	static const uint8_t w2[] = { 0x02, 0x02, 0x00, 0x80 };
	static const uint8_t v3[] = { 0x00, 0x00 };
	static const uint8_t w3[] = { 0x02, 0x01, 0x00 };
	uint8_t b[8];

	(void)state;
	assert_int_equal(vg_der_uint(NULL, v1, sizeof v1), sizeof w1);
	assert_int_equal(vg_der_uint(b, v1, sizeof v1), sizeof w1);
	assert_memory_equal(b, w1, sizeof w1);
	assert_int_equal(vg_der_uint(b, v2, sizeof v2), sizeof w2);
	assert_memory_equal(b, w2, sizeof w2);
	assert_int_equal(vg_der_uint(b, v3, sizeof v3), sizeof w3);
	assert_memory_equal(b, w3, sizeof w3);
	assert_int_equal(vg_der_uint(b, v3, 0), 0);
}

/* ---- SubjectPublicKeyInfo ---- */

/* RFC 8410 10.1: an Ed25519 public key and its SubjectPublicKeyInfo
 * (MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=). */
static const uint8_t rfc8410_pub[32] = { 0x19, 0xbf, 0x44, 0x09, 0x69, 0x84, 0xcd, 0xfe,
					 0x85, 0x41, 0xba, 0xc1, 0x67, 0xdc, 0x3b, 0x96,
					 0xc8, 0x50, 0x86, 0xaa, 0x30, 0xb6, 0xb6, 0xcb,
					 0x0c, 0x5c, 0x38, 0xad, 0x70, 0x31, 0x66, 0xe1 };
static const uint8_t rfc8410_spki[44] = {
	0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00, 0x19, 0xbf, 0x44,
	0x09, 0x69, 0x84, 0xcd, 0xfe, 0x85, 0x41, 0xba, 0xc1, 0x67, 0xdc, 0x3b, 0x96, 0xc8, 0x50,
	0x86, 0xaa, 0x30, 0xb6, 0xb6, 0xcb, 0x0c, 0x5c, 0x38, 0xad, 0x70, 0x31, 0x66, 0xe1
};

static void test_spki(void **state)
{
	uint8_t out[VG_SPKI_MAX], pub[VG_PROTO_MAX_PUBKEY];
	static const uint8_t e[] = { 0x01, 0x00, 0x01 }, e8[8] = { 0xff, 1, 2, 3, 4, 5, 6, 7 };

	(void)state;
	assert_int_equal(vg_spki_encode(VG_KEY_ED25519, rfc8410_pub, 32, NULL, 0, out, sizeof out),
			 sizeof rfc8410_spki);
	assert_memory_equal(out, rfc8410_spki, sizeof rfc8410_spki);
	/* wrong lengths and forms, unknown types, no room */
	assert_int_equal(vg_spki_encode(VG_KEY_ED25519, rfc8410_pub, 31, NULL, 0, out, sizeof out),
			 0);
	assert_int_equal(vg_spki_encode(VG_KEY_ED25519, rfc8410_pub, 32, NULL, 0, out, 43), 0);
	memset(pub, 0x04, sizeof pub);
	assert_int_equal(vg_spki_encode(VG_KEY_ECDSA_P256, pub, 65, NULL, 0, out, sizeof out), 91);
	pub[0] = 0x02; /* compressed: not what KEYINFO carries */
	assert_int_equal(vg_spki_encode(VG_KEY_ECDSA_P256, pub, 65, NULL, 0, out, sizeof out), 0);
	assert_int_equal(vg_spki_encode(0, pub, 32, NULL, 0, out, sizeof out), 0);
	assert_int_equal(vg_spki_encode(VG_KEY_MAX + 1, pub, 32, NULL, 0, out, sizeof out), 0);
	/* RSA-4096 with the longest exponent fits VG_SPKI_MAX */
	memset(pub, 0xff, sizeof pub);
	size_t n = vg_spki_encode(VG_KEY_RSA, pub, 512, e8, sizeof e8, out, sizeof out);
	assert_int_equal(n, 556);
	assert_int_equal(vg_spki_encode(VG_KEY_RSA, pub, 512, e, sizeof e, out, sizeof out), 550);
	assert_int_equal(vg_spki_encode(VG_KEY_RSA, pub, 512, NULL, 0, out, sizeof out), 0);
}

/* ---- CertificationRequestInfo ---- */

/* A DER length, written out here (not with vg_der_hdr). */
static size_t hdr(uint8_t *p, uint8_t tag, size_t len)
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

/* Name CN=example.org */
static const uint8_t name_cn[] = { 0x30, 0x16, 0x31, 0x14, 0x30, 0x12, 0x06, 0x03,
				   0x55, 0x04, 0x03, 0x0c, 0x0b, 'e',  'x',  'a',
				   'm',  'p',  'l',  'e',  '.',  'o',  'r',  'g' };
/* attributes [0] holding one extensionRequest with subjectAltName
 * DNS:example.org */
static const uint8_t attrs_san[] = { 0xa0, 0x29, 0x30, 0x27, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
				     0xf7, 0x0d, 0x01, 0x09, 0x0e, 0x31, 0x1a, 0x30, 0x18, 0x30,
				     0x16, 0x06, 0x03, 0x55, 0x1d, 0x11, 0x04, 0x0f, 0x30, 0x0d,
				     0x82, 0x0b, 'e',  'x',  'a',  'm',  'p',  'l',  'e',  '.',
				     'o',  'r',  'g' };
static const uint8_t attrs_empty[] = { 0xa0, 0x00 };
static const uint8_t version0[] = { 0x02, 0x01, 0x00 };

static uint8_t cri[VG_CSR_INFO_MAX + 64];

/* SEQUENCE { version, name, spki, attrs } from its parts. */
static size_t build(const uint8_t *ver, size_t vl, const uint8_t *name, size_t nl,
		    const uint8_t *spki, size_t sl, const uint8_t *attrs, size_t al)
{
	size_t body = vl + nl + sl + al;
	size_t o = hdr(cri, 0x30, body);
	memcpy(cri + o, ver, vl);
	o += vl;
	memcpy(cri + o, name, nl);
	o += nl;
	memcpy(cri + o, spki, sl);
	o += sl;
	memcpy(cri + o, attrs, al);
	return o + al;
}

/* SubjectPublicKeyInfos of every key type (the public values need not be
 * real keys: the check compares bytes). */
static size_t spki_of(int type, uint8_t seed, uint8_t out[VG_SPKI_MAX])
{
	static const uint8_t e[] = { 0x01, 0x00, 0x01 };
	uint8_t pub[VG_PROTO_MAX_PUBKEY];
	size_t len = type == VG_KEY_ECDSA_P256	 ? 65
		     : type == VG_KEY_ECDSA_P384 ? 97
		     : type == VG_KEY_RSA	 ? (size_t)(seed & 1 ? 512 : 256)
						 : 32;
	memset(pub, seed, sizeof pub);
	pub[0] = type == VG_KEY_ECDSA_P256 || type == VG_KEY_ECDSA_P384 ? 0x04 : 0xc0;
	size_t n = vg_spki_encode(type, pub, len, e, sizeof e, out, VG_SPKI_MAX);
	assert_int_not_equal(n, 0);
	return n;
}

static void test_csr_info_accepts(void **state)
{
	static const int types[] = { VG_KEY_ED25519, VG_KEY_ECDSA_P256, VG_KEY_ECDSA_P384,
				     VG_KEY_RSA };
	uint8_t spki[VG_SPKI_MAX];

	(void)state;
	for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
		for (uint8_t seed = 1; seed <= 2; seed++) { /* RSA: 2048 and 4096 bits */
			size_t sl = spki_of(types[t], seed, spki);
			size_t n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs_san,
					 sizeof attrs_san);
			assert_int_equal(vg_csr_info_check(cri, n, spki, sl), 0);
			n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs_empty, 2);
			assert_int_equal(vg_csr_info_check(cri, n, spki, sl), 0);
		}
	}
	/* the shortest: an empty Name, Ed25519, empty attributes */
	size_t sl = spki_of(VG_KEY_ED25519, 1, spki);
	static const uint8_t empty_name[] = { 0x30, 0x00 };
	size_t n = build(version0, 3, empty_name, 2, spki, sl, attrs_empty, 2);
	assert_int_equal(n, VG_CSR_INFO_MIN);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), 0);
}

static void test_csr_info_rejects(void **state)
{
	uint8_t spki[VG_SPKI_MAX], other[VG_SPKI_MAX], tls[VG_TLS13_CONTENT_MAX], hash[64];
	size_t sl = spki_of(VG_KEY_ECDSA_P256, 1, spki);
	size_t ol = spki_of(VG_KEY_ECDSA_P256, 2, other);
	size_t n;

	(void)state;
	/* another key's request (same type, another point) */
	n = build(version0, 3, name_cn, sizeof name_cn, other, ol, attrs_san, sizeof attrs_san);
	assert_int_equal(vg_csr_info_check(cri, n, other, ol), 0);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	/* another key type's */
	ol = spki_of(VG_KEY_ED25519, 1, other);
	n = build(version0, 3, name_cn, sizeof name_cn, other, ol, attrs_san, sizeof attrs_san);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);

	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs_san, sizeof attrs_san);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), 0);
	/* a byte after the SEQUENCE */
	cri[n] = 0;
	assert_int_equal(vg_csr_info_check(cri, n + 1, spki, sl), -1);
	/* truncated: the last element's contents cut short */
	assert_int_equal(vg_csr_info_check(cri, n - 1, spki, sl), -1);
	/* a byte after the attributes, inside the SEQUENCE */
	uint8_t more[sizeof attrs_san + 1];
	memcpy(more, attrs_san, sizeof attrs_san);
	more[sizeof attrs_san] = 0;
	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, more, sizeof more);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	/* two attribute elements */
	uint8_t twice[4] = { 0xa0, 0x00, 0xa0, 0x00 };
	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, twice, sizeof twice);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	/* attributes missing, or with another tag (a SET, not [0]) */
	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, NULL, 0);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	static const uint8_t set_attrs[] = { 0x31, 0x00 };
	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, set_attrs, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	/* version 1 (and a version written with a longer INTEGER) */
	static const uint8_t version1[] = { 0x02, 0x01, 0x01 };
	static const uint8_t version0_long[] = { 0x02, 0x02, 0x00, 0x00 };
	n = build(version1, 3, name_cn, sizeof name_cn, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	n = build(version0_long, 4, name_cn, sizeof name_cn, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	/* no Name, a Name that is a SET, a Name longer than what follows */
	n = build(version0, 3, NULL, 0, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	uint8_t name[sizeof name_cn];
	memcpy(name, name_cn, sizeof name);
	name[0] = 0x31;
	n = build(version0, 3, name, sizeof name, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	memcpy(name, name_cn, sizeof name);
	name[1] = 0x7f;
	n = build(version0, 3, name, sizeof name, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	/* non-minimal lengths: the Name's (0x81 0x16), the outer one (0x82 00 xx) */
	static uint8_t name_long[sizeof name_cn + 1];
	name_long[0] = 0x30;
	name_long[1] = 0x81;
	memcpy(name_long + 2, name_cn + 1, sizeof name_cn - 1);
	n = build(version0, 3, name_long, sizeof name_long, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, spki, sl), -1);
	for (size_t extra = 1; extra <= 2; extra++) {
		/* 30 LL -> 30 81 LL, and 30 82 00 LL */
		n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs_empty, 2);
		uint8_t body = cri[1];
		assert_true(body < 0x80 && (size_t)body + 2 == n);
		memmove(cri + 2 + extra, cri + 2, n - 2);
		cri[1] = (uint8_t)(0x80 + extra);
		cri[2] = extra == 1 ? body : 0;
		cri[1 + extra] = body;
		assert_int_equal(vg_csr_info_check(cri, n + extra, spki, sl), -1);
	}
	/* indefinite length (BER): 30 80 ... 00 00 */
	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs_empty, 2);
	cri[1] = 0x80;
	cri[n] = 0;
	cri[n + 1] = 0;
	assert_int_equal(vg_csr_info_check(cri, n + 2, spki, sl), -1);
	/* TLS 1.3 CertificateVerify content, both roles and every hash size */
	memset(hash, 0x30, sizeof hash);
	for (int role = VG_TLS_SERVER; role <= VG_TLS_CLIENT; role++)
		for (size_t hl = 32; hl <= 64; hl += 16) {
			n = vg_tls13_content(tls, role, hash, hl);
			assert_int_not_equal(n, 0);
			assert_int_equal(vg_csr_info_check(tls, n, spki, sl), -1);
		}
	/* 64 bytes of 0x20 followed by the key itself */
	memset(cri, 0x20, 64);
	memcpy(cri + 64, spki, sl);
	assert_int_equal(vg_csr_info_check(cri, 64 + sl, spki, sl), -1);
	/* empty and absent input, no key, and the size bounds */
	assert_int_equal(vg_csr_info_check(cri, 0, spki, sl), -1);
	assert_int_equal(vg_csr_info_check(NULL, 100, spki, sl), -1);
	n = build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs_empty, 2);
	assert_int_equal(vg_csr_info_check(cri, n, NULL, sl), -1);
	assert_int_equal(vg_csr_info_check(cri, n, spki, 0), -1);
}

/* The size bounds: a request of exactly VG_CSR_INFO_MAX bytes passes, one
 * byte more does not, whatever it holds. */
static void test_csr_info_bounds(void **state)
{
	uint8_t spki[VG_SPKI_MAX];
	static uint8_t attrs[VG_CSR_INFO_MAX];
	size_t sl = spki_of(VG_KEY_ED25519, 3, spki);

	(void)state;
	/* attributes padded so the whole is VG_CSR_INFO_MAX, then + 1 */
	for (size_t extra = 0; extra <= 1; extra++) {
		size_t want = VG_CSR_INFO_MAX + extra;
		/* outer header 4, version 3, name, spki, attrs header 4 */
		size_t content = want - 4 - 3 - sizeof name_cn - sl - 4;
		size_t h = hdr(attrs, 0xa0, content);
		memset(attrs + h, 0, content);
		size_t n =
			build(version0, 3, name_cn, sizeof name_cn, spki, sl, attrs, h + content);
		assert_int_equal(n, want);
		assert_int_equal(vg_csr_info_check(cri, n, spki, sl), extra ? -1 : 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_der_hdr),
		cmocka_unit_test(test_der_read_rejects),
		cmocka_unit_test(test_der_uint),
		cmocka_unit_test(test_spki),
		cmocka_unit_test(test_csr_info_accepts),
		cmocka_unit_test(test_csr_info_rejects),
		cmocka_unit_test(test_csr_info_bounds),
	};

	return cmocka_run_group_tests_name("protocol-x509", tests, NULL, NULL);
}
