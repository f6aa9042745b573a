/* test_e2e.c: a real vgd on a temporary socket, driven through
 * libvgclient; every signature and shared secret is checked with OpenSSL
 * (libcrypto, verify.h) using the key file itself, independently of vgd. */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "verify.h"
#include "vgclient.h"

static vgt_daemon D;
static vg_client *C;

static EVP_PKEY *load_key(const char *file)
{
	EVP_PKEY *k = vt_load_file(&D, file);
	assert_non_null(k);
	return k;
}

static int setup(void **state)
{
	(void)state;
	C = vgt_start_client(&D, 0);
	return C ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	vg_client_free(C);
	return vgt_finish(&D);
}

static void test_ping_hello(void **state)
{
	(void)state;
	assert_int_equal(vg_client_ping(C), 0);
	vgc_hello h;
	assert_int_equal(vg_client_hello(C, &h), 0);
	assert_int_equal(h.n_versions, 1);
	assert_int_equal(h.versions[0], 1);
	assert_true(h.max_frame >= 4096);
	assert_non_null(strstr(h.server, "vgd"));
	/* hello names the kernel variant of each operation */
	assert_non_null(strstr(h.server, "ed25519="));
	assert_non_null(strstr(h.server, "rsa="));
}

static void test_ed25519(void **state)
{
	(void)state;
	static const struct { const char *key, *file; } keys[] = {
		{"ed", "ed25519.pem"}, {"ed-der", "ed25519-b.pem"}};
	for (size_t i = 0; i < 2; i++) {
		EVP_PKEY *k = load_key(keys[i].file);
		for (size_t len = 0; len < 3000; len += 331) {
			uint8_t msg[3000], sig[64];
			size_t sl = 0;
			RAND_bytes(msg, (int)len + 1);
			assert_int_equal(vg_client_sign(C, keys[i].key, VGC_ALG_ED25519, msg, len, sig,
							sizeof(sig), &sl),
					 0);
			assert_int_equal(sl, 64);
			assert_true(vt_verify(k, VGC_ALG_ED25519, msg, len, sig, sl));
		}
		EVP_PKEY_free(k);
	}
}

static void test_rsa_sign(void **state)
{
	(void)state;
	static const struct { const char *key, *file; size_t bytes; } keys[] = {
		{"rsa2048", "rsa2048.pem", 256}, {"rsa3072", "rsa3072.pem", 384},
		{"rsa4096", "rsa4096.pem", 512}, {"rsa-der", "rsa3072.pem", 384}};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		EVP_PKEY *k = load_key(keys[i].file);
		for (int alg = VGC_ALG_RSA_PKCS1_SHA256; alg <= VGC_ALG_RSA_PSS_SHA512; alg++) {
			static const size_t dlen[3] = {32, 48, 64}; /* SHA-256/384/512 */
			uint8_t dg[64], sig[512];
			size_t dl = dlen[(alg - VGC_ALG_RSA_PKCS1_SHA256) % 3], sl = 0;
			RAND_bytes(dg, (int)dl);
			assert_int_equal(vg_client_sign(C, keys[i].key, alg, dg, dl, sig, sizeof(sig), &sl), 0);
			assert_int_equal(sl, keys[i].bytes);
			assert_true(vt_verify(k, alg, dg, dl, sig, sl));
		}
		EVP_PKEY_free(k);
	}
}

/* TLS 1.3: the daemon builds 64 x 0x20 || context || 0 || hash
 * (vt_verify_tls13 checks against that content). */
static void test_tls13(void **state)
{
	(void)state;
	EVP_PKEY *ed = load_key("ed25519-b.pem"), *rsa = load_key("rsa2048-pkcs1.pem");
	for (int role = VGC_TLS_SERVER; role <= VGC_TLS_CLIENT; role++) {
		for (size_t hl = 32; hl <= 64; hl += 16) {
			uint8_t h[64], sig[512];
			size_t sl = 0;
			RAND_bytes(h, (int)hl);
			assert_int_equal(vg_client_sign_tls13(C, "ed-tls", role, h, hl, sig, sizeof(sig),
							      &sl),
					 0);
			assert_true(vt_verify_tls13(ed, role, h, hl, sig, sl));
			assert_int_equal(vg_client_sign_tls13(C, "rsa-pkcs1", role, h, hl, sig,
							      sizeof(sig), &sl),
					 0);
			assert_true(vt_verify_tls13(rsa, role, h, hl, sig, sl));
		}
	}
	/* A TLS 1.3-only key refuses arbitrary signing. */
	uint8_t sig[512];
	size_t sl;
	assert_int_equal(vg_client_sign(C, "ed-tls", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	uint8_t dg[32] = {0};
	assert_int_equal(vg_client_sign(C, "rsa-pkcs1", VGC_ALG_RSA_PSS_SHA256, dg, 32, sig, sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	EVP_PKEY_free(ed);
	EVP_PKEY_free(rsa);
}

static void test_x25519(void **state)
{
	(void)state;
	EVP_PKEY *mine = load_key("x25519.pem");
	for (int i = 0; i < 8; i++) {
		uint8_t pub[32], got[32];
		vt_x25519_peer(pub);
		assert_int_equal(vg_client_x25519(C, "x", pub, got), 0);
		assert_true(vt_check_x25519(mine, pub, got));
	}
	/* A low-order peer point (u = 0) gives an all-zero secret: refused. */
	uint8_t zero[32] = {0}, out[32];
	assert_int_equal(vg_client_x25519(C, "x", zero, out), VGC_E_BAD_INPUT);
	EVP_PKEY_free(mine);
}

static void test_rsa_private(void **state)
{
	(void)state;
	EVP_PKEY *k = load_key("rsa2048.pem");
	uint8_t m[256], c[256], out[256];
	size_t cl = sizeof(c), ol = 0;
	RAND_bytes(m, sizeof(m));
	m[0] = 0x01; /* below n */
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(k, NULL);
	assert_int_equal(EVP_PKEY_encrypt_init(pc), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(pc, RSA_NO_PADDING), 1);
	assert_int_equal(EVP_PKEY_encrypt(pc, c, &cl, m, sizeof(m)), 1);
	assert_int_equal(vg_client_rsa_private(C, "rsa2048", c, cl, out, sizeof(out), &ol), 0);
	assert_int_equal(ol, 256);
	assert_memory_equal(out, m, 256);
	/* input >= n, and the wrong length, are bad input */
	memset(c, 0xff, sizeof(c));
	assert_int_equal(vg_client_rsa_private(C, "rsa2048", c, 256, out, sizeof(out), &ol),
			 VGC_E_BAD_INPUT);
	uint8_t big[384] = {0};
	assert_int_equal(vg_client_rsa_private(C, "rsa2048", big, sizeof(big), out, sizeof(out), &ol),
			 VGC_E_BAD_INPUT); /* daemon: not the modulus length */
	assert_int_equal(vg_client_rsa_private(C, "rsa2048", c, 255, out, sizeof(out), &ol),
			 VGC_E_INVALID); /* refused locally: below any modulus length */
	/* a key whose policy does not allow it */
	assert_int_equal(vg_client_rsa_private(C, "rsa3072", big, sizeof(big), out, sizeof(out), &ol),
			 VGC_E_NOT_ALLOWED);
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(k);
}

static void test_errors(void **state)
{
	(void)state;
	uint8_t sig[512];
	size_t sl;
	assert_int_equal(vg_client_sign(C, "nope", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_UNKNOWN_KEY);
	assert_non_null(strstr(vg_client_errmsg(C), "no such key"));
	uint8_t dg[32] = {0};
	assert_int_equal(vg_client_sign(C, "rsa2048", VGC_ALG_RSA_PKCS1_SHA256, dg, 31, sig, sizeof(sig), &sl),
			 VGC_E_INVALID); /* refused locally: digest length */
	assert_int_equal(vg_client_sign(C, "rsa2048", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_BAD_INPUT); /* wrong key type */
	assert_int_equal(vg_client_x25519(C, "ed", dg, sig), VGC_E_BAD_INPUT);
	/* the connection survived all of these */
	assert_int_equal(vg_client_ping(C), 0);
}

static void test_list_keys(void **state)
{
	(void)state;
	vgc_key_info *k;
	int n = vg_client_list_keys(C, &k);
	assert_int_equal(n, 9);
	int seen = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(k[i].name, "rsa4096") == 0) {
			assert_int_equal(k[i].type, VGC_KEY_RSA);
			assert_int_equal(k[i].pub_len, 512);
			assert_int_equal(k[i].ops, VGC_OPS_SIGN | VGC_OPS_SIGN_TLS13 | VGC_OPS_RSA_PRIVATE);
			seen++;
		}
		if (strcmp(k[i].name, "ed") == 0) {
			EVP_PKEY *e = load_key("ed25519.pem");
			assert_int_equal(k[i].pub_len, 32);
			assert_true(vt_check_public(e, k[i].pub, 32));
			EVP_PKEY_free(e);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	free(k);
	vgc_key_info one;
	assert_int_equal(vg_client_public_key(C, "x", &one), 0);
	assert_int_equal(one.type, VGC_KEY_X25519);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ping_hello), cmocka_unit_test(test_ed25519),
		cmocka_unit_test(test_rsa_sign),   cmocka_unit_test(test_tls13),
		cmocka_unit_test(test_x25519),     cmocka_unit_test(test_rsa_private),
		cmocka_unit_test(test_errors),     cmocka_unit_test(test_list_keys),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
