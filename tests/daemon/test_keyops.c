/* test_keyops.c: unit tests of daemon/keyops.c without a daemon: the key
 * type and policy checks (each case's status and reason as PROTOCOL.md 6
 * and the wire have them), the two boundaries from kernel codes (to wire
 * statuses, to daemon codes), and each operation on the test keys, with
 * results checked by the kernels' verifiers against content built here
 * (not by the code under test). Test keys only: nothing secret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "errcode.h"
#include "keyops.h"
#include "keytype.h"
#include "khbatch.h"
#include "keystore.h"
#include "record.h"
#include "vg/ecdsa.h"
#include "vg/ed25519.h"
#include "vg/error.h"
#include "vg/proto.h"
#include "vg/proto_reason.h"
#include "vg/proto_tls13.h"
#include "vg/proto_x509.h"
#include "vg/rsa.h"
#include "vg/rsa_mb.h"
#include "vg/sha2.h"
#include "vg/x25519.h"

/* ---- helpers ---- */

typedef struct {
	vgd_keyinfo info;
	void *secret;
} key;

static key load(const char *file)
{
	char path[1024], why[256] = "";
	static uint8_t buf[16384];
	key k;

	memset(&k, 0, sizeof k);
	snprintf(path, sizeof path, "%s/%s", VG_TEST_KEYDIR, file);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	size_t cap = (vgd_key_secret_size() + 63) & ~(size_t)63;
	k.secret = aligned_alloc(64, cap);
	assert_non_null(k.secret);
	if (vgd_key_from_bytes(buf, n, &k.info, k.secret, cap, why, sizeof why) != 0)
		fail_msg("%s: %s", file, why);
	return k;
}

static void unload(key *k)
{
	vgd_keytype_get(k->info.type)->wipe(k->secret);
	free(k->secret);
}

static vgd_keyinfo info_of(int type, uint32_t allow)
{
	vgd_keyinfo i;

	memset(&i, 0, sizeof i);
	i.type = (uint8_t)type;
	i.allow = allow;
	i.pub_len = 256;
	return i;
}

/* policy check of (op, alg) on a key of type with allow: status and reason */
static void expect_policy(int type, uint32_t allow, int op, int alg, int status,
			  const char *reason)
{
	vgd_keyinfo i = info_of(type, allow);
	vgd_reason why = { .text = "(unset)" };

	assert_int_equal(vgd_policy_check(&i, (uint8_t)op, (uint8_t)alg, &why), status);
	if (reason != NULL)
		assert_string_equal(why.text, reason);
}

/* RFC 8446 4.4.3, written out. */
static size_t tls13_content(uint8_t *out, int role, const uint8_t *h, size_t hl)
{
	memset(out, ' ', 64);
	memcpy(out + 64, role == VG_TLS_SERVER ? "TLS 1.3, server CertificateVerify"
					       : "TLS 1.3, client CertificateVerify", 33);
	out[97] = 0;
	memcpy(out + 98, h, hl);
	return 98 + hl;
}

static const uint32_t ALL = VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13 | VG_ALLOW_X25519 |
			    VG_ALLOW_RSA_PRIVATE;

/* ---- checks without a key ---- */

static void test_policy_ed25519(void **state)
{
	(void)state;
	expect_policy(VG_KEY_ED25519, ALL, VG_OP_SIGN, VG_ALG_ED25519, VG_ST_OK, NULL);
	expect_policy(VG_KEY_ED25519, ALL, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_OK, NULL);
	expect_policy(VG_KEY_ED25519, ALL, VG_OP_SIGN, VG_ALG_RSA_PSS_SHA256, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_ED25519, ALL, VG_OP_X25519, 0, VG_ST_BAD_INPUT, "not an X25519 key");
	expect_policy(VG_KEY_ED25519, ALL, VG_OP_RSA_PRIVATE, 0, VG_ST_BAD_INPUT,
		      "not an RSA key");
	/* allow = tls13 */
	expect_policy(VG_KEY_ED25519, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_ED25519,
		      VG_ST_NOT_ALLOWED, "key policy does not allow sign; it allows only tls13");
	expect_policy(VG_KEY_ED25519, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_OK,
		      NULL);
	/* (the config's "sign" sets both bits: a SIGN bit alone only here) */
	expect_policy(VG_KEY_ED25519, VG_ALLOW_SIGN, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_NOT_ALLOWED,
		      "key policy does not allow tls13 signing; it allows only sign");
}

static void test_policy_x25519(void **state)
{
	(void)state;
	expect_policy(VG_KEY_X25519, ALL, VG_OP_X25519, 0, VG_ST_OK, NULL);
	expect_policy(VG_KEY_X25519, ALL, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_BAD_INPUT,
		      "key cannot sign (X25519)");
	expect_policy(VG_KEY_X25519, ALL, VG_OP_SIGN, VG_ALG_ED25519, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_X25519, ALL, VG_OP_SIGN, VG_ALG_RSA_PKCS1_SHA512, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_X25519, 0, VG_OP_X25519, 0, VG_ST_NOT_ALLOWED,
		      "key policy does not allow x25519; it allows only nothing");
}

static void test_policy_rsa(void **state)
{
	(void)state;
	for (int a = VG_ALG_RSA_PKCS1_SHA256; a <= VG_ALG_RSA_PSS_SHA512; a++) {
		expect_policy(VG_KEY_RSA, VG_ALLOW_SIGN, VG_OP_SIGN, a, VG_ST_OK, NULL);
		expect_policy(VG_KEY_RSA, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, a, VG_ST_NOT_ALLOWED,
			      "key policy does not allow sign; it allows only tls13");
		/* the case that named TLS 1.3 although the key allows rsa-private */
		expect_policy(VG_KEY_RSA, VG_ALLOW_RSA_PRIVATE, VG_OP_SIGN, a, VG_ST_NOT_ALLOWED,
			      "key policy does not allow sign; it allows only rsa-private");
	}
	expect_policy(VG_KEY_RSA, ALL, VG_OP_SIGN, VG_ALG_ED25519, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_RSA, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_OK, NULL);
	expect_policy(VG_KEY_RSA, VG_ALLOW_RSA_PRIVATE, VG_OP_SIGN, VG_ALG_TLS13,
		      VG_ST_NOT_ALLOWED,
		      "key policy does not allow tls13 signing; it allows only rsa-private");
	expect_policy(VG_KEY_RSA, VG_ALLOW_RSA_PRIVATE, VG_OP_RSA_PRIVATE, 0, VG_ST_OK, NULL);
	expect_policy(VG_KEY_RSA, VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13, VG_OP_RSA_PRIVATE, 0,
		      VG_ST_NOT_ALLOWED,
		      "key policy does not allow rsa-private; it allows only sign");
	/* bits that mean nothing for the key type are not named */
	expect_policy(VG_KEY_RSA, VG_ALLOW_SIGN_TLS13 | VG_ALLOW_X25519, VG_OP_RSA_PRIVATE, 0,
		      VG_ST_NOT_ALLOWED, "key policy does not allow rsa-private; it allows only tls13");
	expect_policy(VG_KEY_RSA, ALL, VG_OP_X25519, 0, VG_ST_BAD_INPUT, "not an X25519 key");

	/* the key decides the rsa-private length */
	vgd_keyinfo i = info_of(VG_KEY_RSA, ALL);
	vgd_reason why;
	assert_int_equal(vgd_request_check(&i, VG_OP_RSA_PRIVATE, 0, 256, &why), VG_ST_OK);
	assert_int_equal(vgd_request_check(&i, VG_OP_RSA_PRIVATE, 0, 384, &why), VG_ST_BAD_INPUT);
	assert_string_equal(why.text, "input length must equal the modulus length");
	assert_int_equal(vgd_request_check(&i, VG_OP_SIGN, VG_ALG_RSA_PSS_SHA256, 32, &why),
			 VG_ST_OK);
}

static void test_policy_ecdsa(void **state)
{
	(void)state;
	expect_policy(VG_KEY_ECDSA_P256, VG_ALLOW_SIGN, VG_OP_SIGN, VG_ALG_ECDSA_P256_SHA256,
		      VG_ST_OK, NULL);
	expect_policy(VG_KEY_ECDSA_P256, VG_ALLOW_SIGN, VG_OP_SIGN, VG_ALG_ECDSA_P256_SHA512,
		      VG_ST_OK, NULL);
	expect_policy(VG_KEY_ECDSA_P384, VG_ALLOW_SIGN, VG_OP_SIGN, VG_ALG_ECDSA_P384_SHA256,
		      VG_ST_OK, NULL);
	/* the other curve's algorithm, or another key type's */
	expect_policy(VG_KEY_ECDSA_P256, ALL, VG_OP_SIGN, VG_ALG_ECDSA_P384_SHA384, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_ECDSA_P384, ALL, VG_OP_SIGN, VG_ALG_ECDSA_P256_SHA256, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_RSA, ALL, VG_OP_SIGN, VG_ALG_ECDSA_P256_SHA256, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_ECDSA_P256, ALL, VG_OP_SIGN, VG_ALG_ED25519, VG_ST_BAD_INPUT,
		      "algorithm does not match the key type");
	expect_policy(VG_KEY_ECDSA_P256, ALL, VG_OP_X25519, 0, VG_ST_BAD_INPUT,
		      "not an X25519 key");
	expect_policy(VG_KEY_ECDSA_P384, ALL, VG_OP_RSA_PRIVATE, 0, VG_ST_BAD_INPUT,
		      "not an RSA key");
	/* allow = tls13 */
	expect_policy(VG_KEY_ECDSA_P384, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_OK,
		      NULL);
	expect_policy(VG_KEY_ECDSA_P384, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_ECDSA_P384_SHA384,
		      VG_ST_NOT_ALLOWED, "key policy does not allow sign; it allows only tls13");
	expect_policy(VG_KEY_ECDSA_P256, VG_ALLOW_SIGN, VG_OP_SIGN, VG_ALG_TLS13, VG_ST_NOT_ALLOWED,
		      "key policy does not allow tls13 signing; it allows only sign");
}

/* ALG csr: any key that signs, for a policy with sign or tls13 (the
 * config's `sign` sets the tls13 bit too); X25519 cannot sign. */
static void test_policy_csr(void **state)
{
	static const int signers[] = {VG_KEY_ED25519, VG_KEY_RSA, VG_KEY_ECDSA_P256,
				      VG_KEY_ECDSA_P384};

	(void)state;
	for (size_t i = 0; i < sizeof signers / sizeof signers[0]; i++) {
		expect_policy(signers[i], VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_CSR, VG_ST_OK,
			      NULL);
		expect_policy(signers[i], VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13, VG_OP_SIGN,
			      VG_ALG_CSR, VG_ST_OK, NULL);
	}
	expect_policy(VG_KEY_RSA, VG_ALLOW_RSA_PRIVATE, VG_OP_SIGN, VG_ALG_CSR, VG_ST_NOT_ALLOWED,
		      "key policy does not allow csr (needs sign or tls13); it allows only "
		      "rsa-private");
	expect_policy(VG_KEY_X25519, ALL, VG_OP_SIGN, VG_ALG_CSR, VG_ST_BAD_INPUT,
		      "key cannot sign (X25519)");
	/* csr does not open the other algorithms to a tls13-only key */
	expect_policy(VG_KEY_RSA, VG_ALLOW_SIGN_TLS13, VG_OP_SIGN, VG_ALG_RSA_PKCS1_SHA256,
		      VG_ST_NOT_ALLOWED, "key policy does not allow sign; it allows only tls13");
}

static void test_policy_not_key_ops(void **state)
{
	static const int local[] = { 0, VG_OP_HELLO, VG_OP_PING, VG_OP_LIST_KEYS,
				     VG_OP_PUBLIC_KEY, VG_OP_STATS, VG_OP_MAX + 1 };

	(void)state;
	for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
		expect_policy(VG_KEY_RSA, ALL, local[i], 0, VG_ST_UNKNOWN_OP,
			      "not a key operation");
	/* sign without a known algorithm */
	expect_policy(VG_KEY_RSA, ALL, VG_OP_SIGN, 0, VG_ST_BAD_INPUT, "unknown algorithm");
	expect_policy(VG_KEY_RSA, ALL, VG_OP_SIGN, VG_ALG_MAX + 1, VG_ST_BAD_INPUT, NULL);
}

static void test_status_from_kernel(void **state)
{
	static const struct {
		int err, status;
	} map[] = {
		{ VG_E_RANGE, VG_ST_BAD_INPUT },	{ VG_E_INVALID, VG_ST_BAD_INPUT },
		{ VG_E_FAULT, VG_ST_INTERNAL },		{ VG_E_KEY, VG_ST_INTERNAL },
		{ VG_E_RANDOM, VG_ST_INTERNAL },	{ VG_E_UNSUPPORTED, VG_ST_INTERNAL },
		{ VG_E_VERIFY, VG_ST_INTERNAL },	{ VG_E_ZERO, VG_ST_INTERNAL },
		{ -1000, VG_ST_INTERNAL },
	};
	const char *why = "untouched";

	(void)state;
	assert_int_equal(vgd_status_from_kernel(VG_OK, &why), VG_ST_OK);
	assert_string_equal(why, "untouched");
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		assert_int_equal(vgd_status_from_kernel(map[i].err, &why), map[i].status);
		assert_string_equal(why, vg_strerror(map[i].err)); /* the kernels' text */
	}
	assert_string_equal(vg_strerror(VG_E_FAULT), "computation fault detected; result withheld");
}

static void test_err_from_kernel(void **state)
{
	(void)state;
	assert_int_equal(vgd_err_from_kernel(VG_OK), VGD_OK);
	assert_int_equal(vgd_err_from_kernel(VG_E_INVALID), VGD_E_INVALID);
	assert_int_equal(vgd_err_from_kernel(VG_E_KEY), VGD_E_KEY);
	assert_int_equal(vgd_err_from_kernel(VG_E_UNSUPPORTED), VGD_E_UNSUPPORTED);
	assert_int_equal(vgd_err_from_kernel(VG_E_FAULT), VGD_E_INTERNAL);
	assert_int_equal(vgd_err_from_kernel(VG_E_RANGE), VGD_E_INTERNAL);
}

/* Every text a keyholder can put in its reply record fits it. */
static void test_reasons_fit_record(void **state)
{
	(void)state;
	for (int r = 0; r < VG_R_COUNT; r++)
		assert_true(strlen(vg_reason(r)) < VGD_KREP_REASON_LEN);
#define FITS(name, value, msg) assert_true(strlen(vg_strerror(value)) < VGD_KREP_REASON_LEN);
	VG_ERRORS(FITS)
#undef FITS
}

/* ---- operations on the test keys ---- */

static uint8_t out[VG_PROTO_MAX_RESULT];

static void test_run_ed25519(void **state)
{
	static const uint8_t msg[] = "message to sign";
	key k = load("ed25519.pem");
	uint8_t hash[64], content[200];
	size_t n = 0;
	vgd_reason why;

	(void)state;
	k.info.allow = VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13;
	assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_ED25519, 0, 0, msg,
				       sizeof msg, out, &n, &why),
			 VG_ST_OK);
	assert_int_equal(n, 64);
	assert_int_equal(vg_ed25519_verify(out, msg, sizeof msg, k.info.pub), 0);
	/* TLS 1.3 mode: Ed25519 over the content, whatever the hash size */
	for (size_t hl = 32; hl <= 64; hl += 16) {
		for (int role = VG_TLS_SERVER; role <= VG_TLS_CLIENT; role++) {
			memset(hash, (int)hl + role, sizeof hash);
			assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_TLS13,
						       (uint8_t)role, 0, hash, hl, out, &n, &why),
					 VG_ST_OK);
			size_t cl = tls13_content(content, role, hash, hl);
			assert_int_equal(vg_ed25519_verify(out, content, cl, k.info.pub), 0);
			/* and not over the other role's content */
			cl = tls13_content(content, VG_TLS_SERVER + VG_TLS_CLIENT - role, hash, hl);
			assert_int_not_equal(vg_ed25519_verify(out, content, cl, k.info.pub), 0);
		}
	}
	/* a bad length never reaches the kernel */
	assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_TLS13, VG_TLS_SERVER,
				       0, hash, 20, out, &n, &why),
			 VG_ST_BAD_INPUT);
	unload(&k);
}

/* A CertificationRequestInfo around spki, written out (RFC 2986 4.1):
 * SEQUENCE { INTEGER 0, Name CN=t, spki, [0] {} }, every length below
 * 256 but the outer one, which takes two bytes for RSA. */
static size_t csr_info(uint8_t *dst, const uint8_t *spki, size_t spki_len)
{
	static const uint8_t head[] = {0x02, 0x01, 0x00, 0x30, 0x0c, 0x31, 0x0a, 0x30, 0x08,
				       0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, 't'};
	size_t body = sizeof head + spki_len + 2, o = 0;

	dst[o++] = 0x30;
	if (body < 0x80) {
		dst[o++] = (uint8_t)body;
	} else if (body < 0x100) {
		dst[o++] = 0x81;
		dst[o++] = (uint8_t)body;
	} else {
		dst[o++] = 0x82;
		dst[o++] = (uint8_t)(body >> 8);
		dst[o++] = (uint8_t)body;
	}
	memcpy(dst + o, head, sizeof head);
	o += sizeof head;
	memcpy(dst + o, spki, spki_len);
	o += spki_len;
	dst[o++] = 0xa0;
	dst[o++] = 0x00;
	return o;
}

/* The signature a csr request got, checked with the kernels' verifiers
 * as X.509 names it for the key: Ed25519 over the bytes; ECDSA with the
 * curve's hash, DER; RSA PKCS#1 v1.5 with SHA-256. */
static int csr_sig_ok(const key *k, const uint8_t *m, size_t len, const uint8_t *sig, size_t n)
{
	uint8_t dg[64], raw[VG_ECDSA_MAX_SIG_LEN];

	switch (k->info.type) {
	case VG_KEY_ED25519:
		return n == 64 && vg_ed25519_verify(sig, m, len, k->info.pub) == 0;
	case VG_KEY_ECDSA_P256:
		vg_sha256(dg, m, len);
		return vg_ecdsa_sig_from_der(VG_ECDSA_P256, sig, n, raw, 64) == VG_OK &&
		       vg_ecdsa_verify(VG_ECDSA_P256, k->info.pub, k->info.pub_len, dg, 32, raw,
				       64) == VG_OK;
	case VG_KEY_ECDSA_P384:
		vg_sha384(dg, m, len);
		return vg_ecdsa_sig_from_der(VG_ECDSA_P384, sig, n, raw, 96) == VG_OK &&
		       vg_ecdsa_verify(VG_ECDSA_P384, k->info.pub, k->info.pub_len, dg, 48, raw,
				       96) == VG_OK;
	case VG_KEY_RSA:
		vg_sha256(dg, m, len);
		return vg_rsa_verify_pkcs1(vg_rsa_key_public(k->secret), VG_HASH_SHA256, dg, 32,
					   sig, n) == VG_OK;
	}
	return 0;
}

/* csr on a tls13-only key of every type that signs: a request for the
 * key itself is signed (verified here), through vgd_keyop_run and the
 * batches' prepare halves alike; TLS 1.3 content, another key's request,
 * and a request with a byte more are refused before any kernel runs. */
static void test_run_csr(void **state)
{
	static const char *files[] = {"ed25519.pem", "ecdsa-p256.pem", "ecdsa-p384.pem",
				      "rsa2048.pem"};
	static uint8_t cri[2048], other_cri[2048], spki[VG_SPKI_MAX];
	key other = load("ed25519-b.pem");
	size_t sl = vg_spki_encode(other.info.type, other.info.pub, other.info.pub_len, NULL, 0,
				   spki, sizeof spki);
	size_t other_len = csr_info(other_cri, spki, sl);
	uint8_t tls[VG_TLS13_CONTENT_MAX], hash[32];

	(void)state;
	assert_int_not_equal(sl, 0);
	memset(hash, 7, sizeof hash);
	size_t tls_len = vg_tls13_content(tls, VG_TLS_SERVER, hash, sizeof hash);
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		key k = load(files[f]);
		vgd_reason why;
		size_t n = 0;

		k.info.allow = VG_ALLOW_SIGN_TLS13;
		sl = vg_spki_encode(k.info.type, k.info.pub, k.info.pub_len, k.info.rsa_e,
				    k.info.rsa_e_len, spki, sizeof spki);
		assert_int_not_equal(sl, 0);
		size_t len = csr_info(cri, spki, sl);
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_CSR, 0, 0, cri,
					       len, out, &n, &why),
				 VG_ST_OK);
		assert_true(csr_sig_ok(&k, cri, len, out, n));
		/* refused: TLS 1.3 content, another key's request, a byte more */
		const struct {
			const uint8_t *d;
			size_t n;
		} bad[] = {{tls, tls_len}, {other_cri, other_len}, {cri, len + 1}};
		cri[len] = 0;
		for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
			n = 1;
			assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_CSR, 0,
						       0, bad[b].d, bad[b].n, out, &n, &why),
					 VG_ST_BAD_INPUT);
			assert_string_equal(
				why.text, "csr: DATA is not a certification request for this key");
			assert_int_equal(n, 0);
		}
		/* the batches' first halves run the same check */
		vgd_ed25519_op eo;
		vgd_ecdsa_op co;
		static vgd_rsa_op ro;
		for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
			int st = k.info.type == VG_KEY_ED25519
					 ? vgd_keyop_ed25519_prepare(&k.info, k.secret, VG_OP_SIGN,
								     VG_ALG_CSR, 0, 0, bad[b].d,
								     bad[b].n, &eo, &why)
				 : k.info.type == VG_KEY_RSA
					 ? vgd_keyop_rsa_prepare(&k.info, k.secret, VG_OP_SIGN,
								 VG_ALG_CSR, 0, 0, bad[b].d,
								 bad[b].n, &ro, &why)
					 : vgd_keyop_ecdsa_prepare(&k.info, k.secret, VG_OP_SIGN,
								   VG_ALG_CSR, 0, 0, bad[b].d,
								   bad[b].n, &co, &why);
			assert_int_equal(st, VG_ST_BAD_INPUT);
		}
		unload(&k);
	}
	unload(&other);
}

/* The keyholder's batched path (keyholder.c: vgd_keyop_rsa_prepare, then
 * vg_rsa_private_mb, then vgd_keyop_rsa_finish) gives what vgd_keyop_run
 * gives: a batch of eight over two keys and both sizes, PKCS#1 v1.5
 * (deterministic: the same bytes), PSS and TLS 1.3 mode (verified),
 * rsa-private (the same bytes), and one input not below its modulus,
 * which fails alone. Keys of other types are not batched. */
static void test_rsa_batch_path(void **state)
{
	(void)state;
	key k2 = load("rsa2048.pem"), k3 = load("rsa3072.pem"), ed = load("ed25519.pem");
	k2.info.allow = k3.info.allow = ed.info.allow = ALL;
	struct {
		key *k;
		uint8_t op, alg, role;
		size_t len;
	} rq[VG_RSA_MB_MAX] = {
		{&k2, VG_OP_SIGN, VG_ALG_RSA_PKCS1_SHA256, 0, 32},
		{&k3, VG_OP_SIGN, VG_ALG_RSA_PKCS1_SHA384, 0, 48},
		{&k2, VG_OP_SIGN, VG_ALG_RSA_PSS_SHA256, 0, 32},
		{&k3, VG_OP_SIGN, VG_ALG_RSA_PSS_SHA512, 0, 64},
		{&k2, VG_OP_RSA_PRIVATE, 0, 0, 256},
		{&k3, VG_OP_RSA_PRIVATE, 0, 0, 384},
		{&k2, VG_OP_SIGN, VG_ALG_TLS13, VG_TLS_SERVER, 32},
		{&k2, VG_OP_RSA_PRIVATE, 0, 0, 256}, /* made >= n below */
	};
	static vgd_rsa_op ops[VG_RSA_MB_MAX];
	static uint8_t data[VG_RSA_MB_MAX][512], got[VG_RSA_MB_MAX][512], want[512];
	const vg_rsa_key *keys[VG_RSA_MB_MAX];
	uint8_t *outs[VG_RSA_MB_MAX];
	const uint8_t *ins[VG_RSA_MB_MAX];
	size_t lens[VG_RSA_MB_MAX], n;
	int rc[VG_RSA_MB_MAX];
	vgd_reason why;
	vgd_rsa_op spare;
	uint8_t dg[32] = {1};

	assert_int_equal(vgd_keyop_rsa_prepare(&ed.info, ed.secret, VG_OP_SIGN, VG_ALG_ED25519, 0,
					       0, dg, 32, &spare, &why),
			 -1);
	for (int i = 0; i < VG_RSA_MB_MAX; i++) {
		memset(data[i], 0x11 * (i + 1), rq[i].len);
		if (rq[i].op == VG_OP_RSA_PRIVATE)
			data[i][0] = 0x01; /* below n */
	}
	memset(data[7], 0xff, 256);
	for (int i = 0; i < VG_RSA_MB_MAX; i++) {
		assert_int_equal(vgd_keyop_rsa_prepare(&rq[i].k->info, rq[i].k->secret, rq[i].op,
						       rq[i].alg, rq[i].role, 0, data[i],
						       rq[i].len, &ops[i], &why),
				 VG_ST_OK);
		keys[i] = ops[i].key;
		outs[i] = got[i];
		ins[i] = ops[i].in;
		lens[i] = ops[i].len;
	}
	assert_int_equal(vg_rsa_private_mb(keys, outs, ins, lens, VG_RSA_MB_MAX, rc), 0);
	for (int i = 0; i < VG_RSA_MB_MAX; i++) {
		int st = vgd_keyop_rsa_finish(&ops[i], rc[i], &n, &why);
		if (i == 7) {
			assert_int_equal(st, VG_ST_BAD_INPUT);
			assert_string_equal(why.text, "input is not less than the modulus");
			continue;
		}
		assert_int_equal(st, VG_ST_OK);
		assert_int_equal(n, rq[i].k->info.pub_len);
		size_t wl;
		assert_int_equal(vgd_keyop_run(&rq[i].k->info, rq[i].k->secret, rq[i].op,
					       rq[i].alg, rq[i].role, 0, data[i], rq[i].len, want,
					       &wl, &why),
				 VG_ST_OK);
		assert_int_equal(wl, n);
		int pss = rq[i].alg == VG_ALG_RSA_PSS_SHA256 || rq[i].alg == VG_ALG_RSA_PSS_SHA512 ||
			  rq[i].alg == VG_ALG_TLS13;
		if (!pss) {
			assert_memory_equal(got[i], want, n);
			continue;
		}
		/* PSS is randomised: both verify. */
		vg_rsa_public_key *pub = malloc(vg_rsa_public_key_size());
		assert_non_null(pub);
		assert_int_equal(vg_rsa_public_key_init(pub, rq[i].k->info.pub,
							rq[i].k->info.pub_len, rq[i].k->info.rsa_e,
							rq[i].k->info.rsa_e_len),
				 0);
		uint8_t d[64], content[200];
		vg_hash_alg h = rq[i].alg == VG_ALG_RSA_PSS_SHA512 ? VG_HASH_SHA512 : VG_HASH_SHA256;
		const uint8_t *m = data[i];
		size_t ml = rq[i].len;
		if (rq[i].alg == VG_ALG_TLS13) {
			size_t cl = tls13_content(content, VG_TLS_SERVER, data[i], rq[i].len);
			assert_int_equal(vg_hash(h, d, content, cl), 0);
			m = d;
		}
		assert_int_equal(vg_rsa_verify_pss(pub, h, m, ml, got[i], n, ml), 0);
		assert_int_equal(vg_rsa_verify_pss(pub, h, m, ml, want, n, ml), 0);
		free(pub);
	}
	unload(&k2);
	unload(&k3);
	unload(&ed);
}

static void test_run_rsa(void **state)
{
	/* Independent of the table: which hash and encoding each one is. */
	static const struct {
		int alg;
		vg_hash_alg h;
		int pss;
	} algs[] = {
		{ VG_ALG_RSA_PKCS1_SHA256, VG_HASH_SHA256, 0 },
		{ VG_ALG_RSA_PKCS1_SHA384, VG_HASH_SHA384, 0 },
		{ VG_ALG_RSA_PKCS1_SHA512, VG_HASH_SHA512, 0 },
		{ VG_ALG_RSA_PSS_SHA256, VG_HASH_SHA256, 1 },
		{ VG_ALG_RSA_PSS_SHA384, VG_HASH_SHA384, 1 },
		{ VG_ALG_RSA_PSS_SHA512, VG_HASH_SHA512, 1 },
	};
	key k = load("rsa2048.pem");
	uint8_t dg[64], content[200], m[512], back[512];
	size_t n = 0, kb = k.info.pub_len;
	vgd_reason why;
	vg_rsa_public_key *pub = malloc(vg_rsa_public_key_size());

	(void)state;
	assert_non_null(pub);
	assert_int_equal(kb, 256);
	assert_int_equal(vg_rsa_public_key_init(pub, k.info.pub, k.info.pub_len, k.info.rsa_e,
						k.info.rsa_e_len),
			 0);
	k.info.allow = ALL;
	for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
		size_t dl = vg_hash_len(algs[i].h);
		memset(dg, (int)i + 1, sizeof dg);
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, (uint8_t)algs[i].alg,
					       0, 0, dg, dl, out, &n, &why),
				 VG_ST_OK);
		assert_int_equal(n, kb);
		int r = algs[i].pss ? vg_rsa_verify_pss(pub, algs[i].h, dg, dl, out, n, dl)
				    : vg_rsa_verify_pkcs1(pub, algs[i].h, dg, dl, out, n);
		assert_int_equal(r, 0);
		/* the digest must have the hash's length */
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, (uint8_t)algs[i].alg,
					       0, 0, dg, dl - 1, out, &n, &why),
				 VG_ST_BAD_INPUT);
	}
	/* TLS 1.3 mode: PSS with the hash of the transcript hash's length */
	for (size_t i = 3; i < 6; i++) {
		size_t hl = vg_hash_len(algs[i].h);
		uint8_t hash[64];
		memset(hash, 0x5a + (int)i, sizeof hash);
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_TLS13,
					       VG_TLS_CLIENT, 0, hash, hl, out, &n, &why),
				 VG_ST_OK);
		size_t cl = tls13_content(content, VG_TLS_CLIENT, hash, hl);
		assert_int_equal(vg_hash(algs[i].h, dg, content, cl), 0);
		assert_int_equal(vg_rsa_verify_pss(pub, algs[i].h, dg, hl, out, n, hl), 0);
	}
	/* rsa-private: out^e == m */
	memset(m, 0, sizeof m);
	m[kb - 1] = 2;
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_RSA_PRIVATE, 0, 0, 0, m, kb, out, &n, &why),
		VG_ST_OK);
	assert_int_equal(n, kb);
	assert_int_equal(vg_rsa_public(pub, back, out, kb), 0);
	assert_memory_equal(back, m, kb);
	/* m >= n, and a length other than the modulus' */
	memset(m, 0xff, kb);
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_RSA_PRIVATE, 0, 0, 0, m, kb, out, &n, &why),
		VG_ST_BAD_INPUT);
	assert_string_equal(why.text, "input is not less than the modulus");
	assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_RSA_PRIVATE, 0, 0, 0, m, kb + 1,
				       out, &n, &why),
			 VG_ST_BAD_INPUT);
	assert_string_equal(why.text, "input length must equal the modulus length");
	free(pub);
	unload(&k);
}

static void test_run_x25519(void **state)
{
	key k = load("x25519.pem");
	uint8_t peer[32] = { 9 }; /* the base point */
	size_t n = 0;
	vgd_reason why;

	(void)state;
	k.info.allow = VG_ALLOW_X25519;
	/* X25519(k, 9) is the key's public value */
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_X25519, 0, 0, 0, peer, 32, out, &n, &why),
		VG_ST_OK);
	assert_int_equal(n, 32);
	assert_memory_equal(out, k.info.pub, 32);
	/* The peer value is read as RFC 7748 5 says (PROTOCOL.md 6.6): bit
	 * 255 is masked, and u >= p is taken mod p. 9 with bit 255 set, and
	 * 2^255 - 10 = 9 + p, both give X25519(k, 9). */
	peer[31] = 0x80;
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_X25519, 0, 0, 0, peer, 32, out, &n, &why),
		VG_ST_OK);
	assert_memory_equal(out, k.info.pub, 32);
	memset(peer, 0xff, sizeof peer);
	peer[0] = 0xf6;
	peer[31] = 0x7f;
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_X25519, 0, 0, 0, peer, 32, out, &n, &why),
		VG_ST_OK);
	assert_memory_equal(out, k.info.pub, 32);
	/* p itself is 0 mod p: a low-order point */
	peer[0] = 0xed;
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_X25519, 0, 0, 0, peer, 32, out, &n, &why),
		VG_ST_BAD_INPUT);
	/* a low-order point gives no secret */
	memset(peer, 0, sizeof peer);
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_X25519, 0, 0, 0, peer, 32, out, &n, &why),
		VG_ST_BAD_INPUT);
	assert_string_equal(why.text, "peer value is a low-order point (all-zero shared secret)");
	/* the policy is checked again here, as in the keyholder */
	k.info.allow = 0;
	assert_int_equal(
		vgd_keyop_run(&k.info, k.secret, VG_OP_X25519, 0, 0, 0, peer, 32, out, &n, &why),
		VG_ST_NOT_ALLOWED);
	unload(&k);
}

/* Check an ECDSA signature from vgd: DER (strict) or raw, of digest on
 * curve under the key's public point. */
static void check_ecdsa(vg_ecdsa_curve curve, const key *k, int der, const uint8_t *sig, size_t n,
			const uint8_t *dg, size_t dl)
{
	uint8_t raw[VG_ECDSA_MAX_SIG_LEN];
	size_t rl = vg_ecdsa_sig_len(curve);

	if (der) {
		assert_true(n <= (curve == VG_ECDSA_P256 ? 72u : 104u));
		assert_int_equal(sig[0], 0x30);
		assert_int_equal(vg_ecdsa_sig_from_der(curve, sig, n, raw, rl), 0);
	} else {
		assert_int_equal(n, rl);
		memcpy(raw, sig, rl);
	}
	assert_int_equal(vg_ecdsa_verify(curve, k->info.pub, k->info.pub_len, dg, dl, raw, rl), 0);
}

static void test_run_ecdsa(void **state)
{
	/* Independent of the table: each algorithm's curve and hash. */
	static const struct {
		const char *file;
		int type, alg;
		vg_ecdsa_curve curve;
		vg_hash_alg h, tls_h;
	} algs[] = {
		{"ecdsa-p256.pem", VG_KEY_ECDSA_P256, VG_ALG_ECDSA_P256_SHA256, VG_ECDSA_P256,
		 VG_HASH_SHA256, VG_HASH_SHA256},
		{"ecdsa-p256.pem", VG_KEY_ECDSA_P256, VG_ALG_ECDSA_P256_SHA384, VG_ECDSA_P256,
		 VG_HASH_SHA384, VG_HASH_SHA256},
		{"ecdsa-p256.pem", VG_KEY_ECDSA_P256, VG_ALG_ECDSA_P256_SHA512, VG_ECDSA_P256,
		 VG_HASH_SHA512, VG_HASH_SHA256},
		{"ecdsa-p384.pem", VG_KEY_ECDSA_P384, VG_ALG_ECDSA_P384_SHA384, VG_ECDSA_P384,
		 VG_HASH_SHA384, VG_HASH_SHA384},
		{"ecdsa-p384.pem", VG_KEY_ECDSA_P384, VG_ALG_ECDSA_P384_SHA256, VG_ECDSA_P384,
		 VG_HASH_SHA256, VG_HASH_SHA384},
		{"ecdsa-p384.pem", VG_KEY_ECDSA_P384, VG_ALG_ECDSA_P384_SHA512, VG_ECDSA_P384,
		 VG_HASH_SHA512, VG_HASH_SHA384},
	};
	uint8_t dg[64], hash[64], content[200];
	size_t n = 0;
	vgd_reason why;

	(void)state;
	for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
		key k = load(algs[i].file);
		size_t dl = vg_hash_len(algs[i].h), pl = algs[i].curve == VG_ECDSA_P256 ? 65 : 97;
		assert_int_equal(k.info.type, algs[i].type);
		assert_int_equal(k.info.pub_len, pl);
		assert_int_equal(k.info.pub[0], 0x04);
		k.info.allow = VG_ALLOW_SIGN | VG_ALLOW_SIGN_TLS13;
		memset(dg, 0x30 + (int)i, sizeof dg);
		/* no SIG_FORMAT, DER asked for, raw asked for */
		static const uint8_t fmts[] = {0, VG_SIGFMT_DER, VG_SIGFMT_RAW};
		for (size_t f = 0; f < sizeof fmts; f++) {
			assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN,
						       (uint8_t)algs[i].alg, 0, fmts[f], dg, dl,
						       out, &n, &why),
					 VG_ST_OK);
			check_ecdsa(algs[i].curve, &k, fmts[f] != VG_SIGFMT_RAW, out, n, dg, dl);
		}
		/* a digest of another length, a format off the list */
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, (uint8_t)algs[i].alg,
					       0, 0, dg, dl - 1, out, &n, &why),
				 VG_ST_BAD_INPUT);
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, (uint8_t)algs[i].alg,
					       0, 3, dg, dl, out, &n, &why),
				 VG_ST_BAD_INPUT);
		assert_string_equal(why.text, "bad signature format");
		/* TLS 1.3 mode: the curve's own hash over the content, whatever
		 * the transcript hash's length (RFC 8446 4.2.3), DER */
		for (size_t hl = 32; hl <= 64; hl += 16) {
			memset(hash, (int)(hl + i), sizeof hash);
			assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_TLS13,
						       VG_TLS_SERVER, 0, hash, hl, out, &n, &why),
					 VG_ST_OK);
			size_t cl = tls13_content(content, VG_TLS_SERVER, hash, hl);
			assert_int_equal(vg_hash(algs[i].tls_h, dg, content, cl), 0);
			check_ecdsa(algs[i].curve, &k, 1, out, n, dg, vg_hash_len(algs[i].tls_h));
		}
		/* TLS 1.3 signatures are DER: no format choice there */
		assert_int_equal(vgd_keyop_run(&k.info, k.secret, VG_OP_SIGN, VG_ALG_TLS13,
					       VG_TLS_SERVER, VG_SIGFMT_RAW, hash, 32, out, &n,
					       &why),
				 VG_ST_BAD_INPUT);
		unload(&k);
	}
}

/* One keyholder record: the header, then DATA. */
typedef struct {
	vgd_kreq q;
	uint8_t data[256];
} krec;

static void krec_set(krec *r, uint64_t job, uint8_t op, uint8_t alg, uint8_t role,
		     const void *data, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->q.magic = VGD_KREQ_MAGIC;
	r->q.job = job;
	r->q.op = op;
	r->q.alg = alg;
	r->q.role = role;
	r->q.data_len = (uint32_t)len;
	memcpy(r->data, data, len);
}

/* The keyholder's batches (khbatch.c) answer as vgd_keyop_run does, each
 * request alone: eight Ed25519 signatures (messages of several lengths,
 * TLS 1.3 mode in both roles; Ed25519 is deterministic, so the same
 * bytes) fill one batch, eight X25519 operations another, one of them
 * with a low-order point, which fails alone with vgd_keyop_run's status
 * and reason while the others match. Requests a batch does not take (an
 * ECDSA key, a failing check) come back as -1 for the keyholder to run
 * alone. */
static void test_khbatch_path(void **state)
{
	(void)state;
	key ed = load("ed25519.pem"), x = load("x25519.pem");
	ed.info.allow = x.info.allow = ALL;
	static vgd_khbatch b;
	static krec rec[2 * VGD_KB_MAX];
	uint8_t want[VGD_RESULT_MAX], m[200];
	size_t wl;
	vgd_reason why;
	memset(&b, 0, sizeof(b));
	for (size_t i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)(i * 31 + 7);
	for (int i = 0; i < VGD_KB_MAX; i++) {
		if (i < 6)
			krec_set(&rec[i], (uint64_t)i, VG_OP_SIGN, VG_ALG_ED25519, 0, m,
				 (size_t)(i * 37 % 200));
		else
			krec_set(&rec[i], (uint64_t)i, VG_OP_SIGN, VG_ALG_TLS13,
				 i == 6 ? VG_TLS_SERVER : VG_TLS_CLIENT, m + i, 48);
		assert_int_equal(vgd_khbatch_take(&b, &ed.info, ed.secret, &rec[i].q),
				 VGD_KB_ED25519);
	}
	for (int i = 0; i < VGD_KB_MAX; i++) {
		uint8_t peer[32];
		for (int j = 0; j < 32; j++)
			peer[j] = (uint8_t)(i * 13 + j * 5 + 1);
		if (i == 5) {
			memset(peer, 0, 32);
			peer[0] = 1; /* u = 1: low order */
		}
		krec_set(&rec[VGD_KB_MAX + i], (uint64_t)(100 + i), VG_OP_X25519, 0, 0, peer, 32);
		assert_int_equal(vgd_khbatch_take(&b, &x.info, x.secret, &rec[VGD_KB_MAX + i].q),
				 VGD_KB_X25519);
	}
	assert_int_equal(b.n[VGD_KB_ED25519], VGD_KB_MAX);
	assert_int_equal(b.n[VGD_KB_X25519], VGD_KB_MAX);
	/* not batched: an operation its key has no batch for, failing checks */
	krec other;
	krec_set(&other, 200, VG_OP_SIGN, VG_ALG_ED25519, 0, m, 32);
	assert_int_equal(vgd_khbatch_take(&b, &x.info, x.secret, &other.q), -1);
	krec_set(&other, 201, VG_OP_SIGN, VG_ALG_ED25519, 0, m, 0);
	other.q.alg = VG_ALG_RSA_PSS_SHA256;
	assert_int_equal(vgd_khbatch_take(&b, &ed.info, ed.secret, &other.q), -1);
	krec_set(&other, 202, VG_OP_X25519, 0, 0, m, 31);
	assert_int_equal(vgd_khbatch_take(&b, &x.info, x.secret, &other.q), -1);
	assert_int_equal(b.n[VGD_KB_ED25519], VGD_KB_MAX);
	assert_int_equal(b.n[VGD_KB_X25519], VGD_KB_MAX);

	vgd_khbatch_run(&b, VGD_KB_ED25519);
	vgd_khbatch_run(&b, VGD_KB_X25519);
	for (int k = VGD_KB_ED25519; k <= VGD_KB_X25519; k++) {
		for (int i = 0; i < VGD_KB_MAX; i++) {
			const vgd_kreq *q = &rec[(k == VGD_KB_X25519) * VGD_KB_MAX + i].q;
			const key *kk = k == VGD_KB_X25519 ? &x : &ed;
			const vgd_khreply *r = &b.out[k][i];
			wl = 0;
			int st = vgd_keyop_run(&kk->info, kk->secret, q->op, q->alg, q->role, 0,
					       (const uint8_t *)(q + 1), q->data_len, want, &wl,
					       &why);
			assert_int_equal(r->rep.magic, VGD_KREP_MAGIC);
			assert_int_equal(r->rep.job, q->job);
			assert_int_equal(r->rep.status, st);
			assert_int_equal(r->rep.result_len, wl);
			assert_memory_equal(r->out, want, wl);
			if (k == VGD_KB_X25519 && i == 5) {
				assert_int_not_equal(st, VG_ST_OK);
				assert_string_equal(r->rep.reason, why.text);
			} else {
				assert_int_equal(st, VG_ST_OK);
				assert_true(wl > 0);
			}
		}
	}
	unload(&ed);
	unload(&x);
}

/* ECDSA through the keyholder's batch: P-256 and P-384 keys mixed in one
 * batch of eight, DER and raw encodings, TLS 1.3 mode; each reply has the
 * status and the length vgd_keyop_run gives, and verifies (ECDSA is
 * randomised, so the bytes differ), one with a digest of the wrong
 * length is refused before the batch. */
static void test_khbatch_ecdsa(void **state)
{
	(void)state;
	key p256 = load("ecdsa-p256.pem"), p384 = load("ecdsa-p384.pem");
	p256.info.allow = p384.info.allow = ALL;
	static vgd_khbatch b;
	static krec rec[VGD_KB_MAX];
	uint8_t want[VGD_RESULT_MAX], dg[64], content[200], d2[64];
	size_t wl;
	vgd_reason why;
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < VGD_KB_MAX; i++) {
		const key *k = i % 3 == 2 ? &p384 : &p256;
		int p384k = k == &p384;
		for (size_t j = 0; j < sizeof(dg); j++)
			dg[j] = (uint8_t)(i * 17 + j);
		if (i == 3)
			krec_set(&rec[i], (uint64_t)i, VG_OP_SIGN, VG_ALG_TLS13, VG_TLS_SERVER, dg, 32);
		else
			krec_set(&rec[i], (uint64_t)i, VG_OP_SIGN,
				 p384k ? VG_ALG_ECDSA_P384_SHA384 : VG_ALG_ECDSA_P256_SHA256, 0, dg,
				 p384k ? 48 : 32);
		if (i == 4)
			rec[i].q.fmt = VG_SIGFMT_RAW;
		assert_int_equal(vgd_khbatch_take(&b, &k->info, k->secret, &rec[i].q),
				 VGD_KB_ECDSA);
	}
	krec bad;
	krec_set(&bad, 99, VG_OP_SIGN, VG_ALG_ECDSA_P256_SHA256, 0, dg, 31);
	assert_int_equal(vgd_khbatch_take(&b, &p256.info, p256.secret, &bad.q), -1);
	assert_int_equal(b.n[VGD_KB_ECDSA], VGD_KB_MAX);
	vgd_khbatch_run(&b, VGD_KB_ECDSA);
	for (int i = 0; i < VGD_KB_MAX; i++) {
		const key *k = i % 3 == 2 ? &p384 : &p256;
		const vgd_kreq *q = &rec[i].q;
		const vgd_khreply *r = &b.out[VGD_KB_ECDSA][i];
		int st = vgd_keyop_run(&k->info, k->secret, q->op, q->alg, q->role, q->fmt,
				       (const uint8_t *)(q + 1), q->data_len, want, &wl, &why);
		assert_int_equal(st, VG_ST_OK);
		assert_int_equal(r->rep.status, VG_ST_OK);
		assert_int_equal(r->rep.job, q->job);
		vg_ecdsa_curve c = k == &p384 ? VG_ECDSA_P384 : VG_ECDSA_P256;
		size_t n = vg_ecdsa_sig_len(c);
		uint8_t raw[96];
		if (q->fmt == VG_SIGFMT_RAW) {
			assert_int_equal(r->rep.result_len, n);
			memcpy(raw, r->out, n);
		} else {
			assert_int_equal(vg_ecdsa_sig_from_der(c, r->out, r->rep.result_len, raw, n), 0);
		}
		const uint8_t *m = (const uint8_t *)(q + 1);
		size_t ml = q->data_len;
		if (q->alg == VG_ALG_TLS13) {
			size_t cl = tls13_content(content, VG_TLS_SERVER, m, ml);
			vg_sha256(d2, content, cl);
			m = d2;
			ml = 32;
		}
		assert_int_equal(vg_ecdsa_verify(c, k->info.pub, k->info.pub_len, m, ml, raw, n), 0);
	}
	unload(&p256);
	unload(&p384);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_ed25519),
		cmocka_unit_test(test_policy_x25519),
		cmocka_unit_test(test_policy_rsa),
		cmocka_unit_test(test_policy_ecdsa),
		cmocka_unit_test(test_policy_csr),
		cmocka_unit_test(test_policy_not_key_ops),
		cmocka_unit_test(test_status_from_kernel),
		cmocka_unit_test(test_err_from_kernel),
		cmocka_unit_test(test_reasons_fit_record),
		cmocka_unit_test(test_run_ed25519),
		cmocka_unit_test(test_run_csr),
		cmocka_unit_test(test_run_rsa),
		cmocka_unit_test(test_rsa_batch_path),
		cmocka_unit_test(test_khbatch_path),
		cmocka_unit_test(test_khbatch_ecdsa),
		cmocka_unit_test(test_run_x25519),
		cmocka_unit_test(test_run_ecdsa),
	};

	return cmocka_run_group_tests_name("keyops", tests, NULL, NULL);
}
