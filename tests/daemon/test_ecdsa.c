/* test_ecdsa.c: ECDSA keys end to end in a real vgd. The key files are
 * made here by the openssl CLI in every form a user has: SEC 1 `EC PRIVATE
 * KEY` PEM (with the EC PARAMETERS block `openssl ecparam -genkey` writes,
 * without the embedded public key, with a compressed one), SEC 1 DER,
 * PKCS#8 PEM and DER, P-256 and P-384, and one from $CREDENTIALS_DIRECTORY.
 * Every signature (DER and raw r||s, every algorithm of the key's curve,
 * the TLS 1.3 mode) is verified by OpenSSL against the key file; the forms
 * vgd must refuse (explicit parameters, other curves, a public key that is
 * not the private key's, no curve at all, policies an EC key cannot have)
 * are refused by `vgd --check-config` with a message that says which.
 * Test keys only: nothing secret. */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;
static vg_client *C;
static char OUT[16384];
static char creds_env[400];

/* Run a shell script in the test directory; 0 if it succeeded. */
static int sh(const char *script)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "cd '%s' && (%s) >> gen.log 2>&1", D.dir, script);
	int st = system(cmd);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Every form, made by the openssl CLI. */
static const char gen_keys[] =
	"set -e; umask 077\n"
	"openssl ecparam -name prime256v1 -genkey -out p256-sec1.pem\n"
	"openssl ec -in p256-sec1.pem -no_public -out p256-nopub.pem\n"
	"openssl ec -in p256-sec1.pem -outform DER -out p256-sec1.der\n"
	"openssl ec -in p256-sec1.pem -conv_form compressed -out p256-compressed.pem\n"
	"openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256-pkcs8.pem\n"
	"openssl pkey -in p256-pkcs8.pem -outform DER -out p256-pkcs8.der\n"
	"openssl ecparam -name secp384r1 -genkey -noout -out p384-sec1.pem\n"
	"openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384-pkcs8.pem\n"
	"openssl pkey -in p384-pkcs8.pem -outform DER -out p384-pkcs8.der\n"
	"mkdir -m 700 creds; cp p384-pkcs8.pem creds/vgd_p384.pem\n"
	/* refused: explicit parameters, other curves */
	"openssl ec -in p256-sec1.pem -param_enc explicit -out explicit.pem\n"
	"openssl ecparam -name secp521r1 -genkey -noout -out p521.pem\n"
	"openssl ecparam -name secp256k1 -genkey -noout -out k1.pem\n"
	"openssl genrsa -out rsa2050.pem 2050\n";

/* name, file, PEM OpenSSL verifies against, curve (256/384), allow */
static const struct form {
	const char *name, *file, *pem;
	int bits;
	const char *allow;
} forms[] = {
	{"p256-sec1", "p256-sec1.pem", "p256-sec1.pem", 256, "sign"},
	{"p256-nopub", "p256-nopub.pem", "p256-sec1.pem", 256, "sign"},
	{"p256-der", "p256-sec1.der", "p256-sec1.pem", 256, "sign"},
	{"p256-compressed", "p256-compressed.pem", "p256-sec1.pem", 256, "sign"},
	{"p256-pkcs8", "p256-pkcs8.pem", "p256-pkcs8.pem", 256, "sign"},
	{"p256-pkcs8-der", "p256-pkcs8.der", "p256-pkcs8.pem", 256, "sign"},
	{"p384-sec1", "p384-sec1.pem", "p384-sec1.pem", 384, "sign"},
	{"p384-pkcs8-der", "p384-pkcs8.der", "p384-pkcs8.pem", 384, "sign"},
	{"p384-cred", NULL, "p384-pkcs8.pem", 384, "sign, tls13"},
	{"p256-tls", "p256-pkcs8.pem", "p256-pkcs8.pem", 256, "tls13"},
	{"p384-tls", "p384-sec1.pem", "p384-sec1.pem", 384, "tls13"},
};
#define NFORMS (sizeof(forms) / sizeof(forms[0]))

static void keys_conf(char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NFORMS; i++) {
		if (forms[i].file)
			n += (size_t)snprintf(buf + n, cap - n,
					      "[key %s]\nfile = %s\nallow = %s\n\n", forms[i].name,
					      forms[i].file, forms[i].allow);
		else
			n += (size_t)snprintf(buf + n, cap - n,
					      "[key %s]\ncredential = vgd_p384.pem\nallow = %s\n\n",
					      forms[i].name, forms[i].allow);
	}
}

static int setup(void **state)
{
	char conf[4096];
	(void)state;
	if (vgt_setup(&D, NULL, NULL) < 0 || sh(gen_keys) < 0)
		return -1;
	/* --check-config and the daemon both find the credential here. */
	snprintf(creds_env, sizeof(creds_env), "CREDENTIALS_DIRECTORY=%s/creds", D.dir);
	putenv(creds_env);
	keys_conf(conf, sizeof(conf));
	if (vgt_write_config(&D, NULL, conf) < 0 || vgt_start(&D, 0, NULL) < 0)
		return -1;
	C = vg_client_new(D.sock);
	return C ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	vg_client_free(C);
	return dt_stop_clean(&D);
}

static EVP_PKEY *pem_key(const char *file)
{
	EVP_PKEY *k = vt_load_file(&D, file);
	if (!k)
		fail_msg("OpenSSL cannot read %s", file);
	return k;
}

/* Every form loads, as its curve, with OpenSSL's public key; every
 * algorithm of its curve signs, DER by default and on request, raw r||s on
 * request, and OpenSSL verifies each against the key file. */
static void test_forms_sign(void **state)
{
	static const int p256_algs[] = {VGC_ALG_ECDSA_P256_SHA256, VGC_ALG_ECDSA_P256_SHA384,
					VGC_ALG_ECDSA_P256_SHA512};
	static const int p384_algs[] = {VGC_ALG_ECDSA_P384_SHA384, VGC_ALG_ECDSA_P384_SHA256,
					VGC_ALG_ECDSA_P384_SHA512};
	(void)state;
	for (size_t i = 0; i < NFORMS; i++) {
		const struct form *f = &forms[i];
		EVP_PKEY *k = pem_key(f->pem);
		vgc_key_info info;
		assert_int_equal(vg_client_public_key(C, f->name, &info), 0);
		assert_int_equal(info.type,
				 f->bits == 256 ? VGC_KEY_ECDSA_P256 : VGC_KEY_ECDSA_P384);
		assert_int_equal(info.pub_len, f->bits == 256 ? 65 : 97);
		if (!vt_check_public(k, info.pub, info.pub_len))
			fail_msg("%s: public key differs from OpenSSL's", f->name);
		if (strcmp(f->allow, "tls13") == 0) {
			EVP_PKEY_free(k);
			continue;
		}
		const int *algs = f->bits == 256 ? p256_algs : p384_algs;
		for (size_t a = 0; a < 3; a++) {
			uint8_t dg[64], sig[VGC_RESULT_MAX];
			size_t dl = algs[a] == VGC_ALG_ECDSA_P256_SHA256 ||
						    algs[a] == VGC_ALG_ECDSA_P384_SHA256
					    ? 32
				    : algs[a] == VGC_ALG_ECDSA_P256_SHA384 ||
						    algs[a] == VGC_ALG_ECDSA_P384_SHA384
					    ? 48
					    : 64;
			size_t sl = 0;
			RAND_bytes(dg, (int)dl);
			assert_int_equal(
				vg_client_sign(C, f->name, algs[a], dg, dl, sig, sizeof(sig), &sl),
				0);
			if (!vt_verify(k, algs[a], dg, dl, sig, sl))
				fail_msg("%s alg %d: DER signature does not verify", f->name,
					 algs[a]);
			assert_int_equal(vg_client_sign_format(C, f->name, algs[a], VGC_SIG_DER, dg,
							       dl, sig, sizeof(sig), &sl),
					 0);
			assert_true(vt_verify(k, algs[a], dg, dl, sig, sl));
			assert_int_equal(vg_client_sign_format(C, f->name, algs[a], VGC_SIG_RAW, dg,
							       dl, sig, sizeof(sig), &sl),
					 0);
			assert_int_equal(sl, f->bits == 256 ? 64 : 96);
			if (!vt_verify_ecdsa_raw(k, algs[a], dg, dl, sig, sl))
				fail_msg("%s alg %d: raw signature does not verify", f->name,
					 algs[a]);
			/* and not for another digest */
			dg[0] ^= 1;
			assert_false(vt_verify_ecdsa_raw(k, algs[a], dg, dl, sig, sl));
		}
		EVP_PKEY_free(k);
	}
}

/* TLS 1.3 mode: the curve's own scheme whatever the transcript hash's
 * length (RFC 8446 4.2.3), DER; a TLS 1.3-only key refuses anything else. */
static void test_tls13(void **state)
{
	static const char *const keys[] = {"p256-tls", "p384-tls", "p384-cred"};
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		EVP_PKEY *k = NULL;
		for (size_t j = 0; j < NFORMS; j++)
			if (strcmp(forms[j].name, keys[i]) == 0)
				k = pem_key(forms[j].pem);
		assert_non_null(k);
		for (int role = VGC_TLS_SERVER; role <= VGC_TLS_CLIENT; role++) {
			for (size_t hl = 32; hl <= 64; hl += 16) {
				uint8_t h[64], sig[VGC_RESULT_MAX];
				size_t sl = 0;
				RAND_bytes(h, (int)hl);
				assert_int_equal(vg_client_sign_tls13(C, keys[i], role, h, hl, sig,
								      sizeof(sig), &sl),
						 0);
				if (!vt_verify_tls13(k, role, h, hl, sig, sl))
					fail_msg("%s: TLS 1.3 signature (hash %zu) does not verify",
						 keys[i], hl);
			}
		}
		EVP_PKEY_free(k);
	}
	uint8_t dg[48] = {0}, sig[VGC_RESULT_MAX];
	size_t sl;
	assert_int_equal(vg_client_sign(C, "p384-tls", VGC_ALG_ECDSA_P384_SHA384, dg, 48, sig,
					sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	assert_int_equal(vg_client_sign(C, "p256-tls", VGC_ALG_ECDSA_P256_SHA256, dg, 32, sig,
					sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
}

static void test_errors(void **state)
{
	uint8_t dg[64] = {1}, sig[VGC_RESULT_MAX];
	size_t sl;
	(void)state;
	/* the other curve's algorithm: refused by vgd */
	assert_int_equal(vg_client_sign(C, "p256-pkcs8", VGC_ALG_ECDSA_P384_SHA384, dg, 48, sig,
					sizeof(sig), &sl),
			 VGC_E_BAD_INPUT);
	assert_non_null(strstr(vg_client_errmsg(C), "does not match the key type"));
	/* refused locally: a digest of another length, a format RSA has not */
	assert_int_equal(vg_client_sign(C, "p256-pkcs8", VGC_ALG_ECDSA_P256_SHA256, dg, 48, sig,
					sizeof(sig), &sl),
			 VGC_E_INVALID);
	assert_int_equal(vg_client_sign_format(C, "p256-pkcs8", VGC_ALG_RSA_PSS_SHA256, VGC_SIG_RAW,
					       dg, 32, sig, sizeof(sig), &sl),
			 VGC_E_INVALID);
	assert_int_equal(vg_client_sign_format(C, "p256-pkcs8", VGC_ALG_ECDSA_P256_SHA256, 3, dg,
					       32, sig, sizeof(sig), &sl),
			 VGC_E_INVALID);
	/* too small a buffer for the DER signature */
	assert_int_equal(
		vg_client_sign(C, "p256-pkcs8", VGC_ALG_ECDSA_P256_SHA256, dg, 32, sig, 8, &sl),
		VGC_E_BUFFER);
	assert_int_equal(vg_client_ping(C), 0);
}

static void test_hello_and_list(void **state)
{
	(void)state;
	vgc_hello h;
	assert_int_equal(vg_client_hello(C, &h), 0);
	assert_true(h.caps & 0x20); /* PROTOCOL.md 6.1: ECDSA */
	vgc_key_info *k;
	int n = vg_client_list_keys(C, &k);
	assert_int_equal(n, (int)NFORMS);
	for (int i = 0; i < n; i++) {
		int p384 = strncmp(k[i].name, "p384", 4) == 0;
		assert_int_equal(k[i].type, p384 ? VGC_KEY_ECDSA_P384 : VGC_KEY_ECDSA_P256);
		int tls_only = strstr(k[i].name, "-tls") != NULL;
		assert_int_equal(k[i].ops,
				 tls_only ? VGC_OPS_SIGN_TLS13 : VGC_OPS_SIGN | VGC_OPS_SIGN_TLS13);
	}
	free(k);
}

static int check(const char *conf_keys)
{
	const char *argv[] = {"vgd", "--check-config", D.conf, NULL};
	assert_int_equal(vgt_write_config(&D, NULL, conf_keys), 0);
	return dt_run_vgd(argv, OUT, sizeof(OUT));
}

static void expect_refused(const char *file, const char *allow, const char *needle)
{
	char k[512];
	snprintf(k, sizeof(k), "[key bad]\nfile = %s\nallow = %s\n", file, allow);
	int st = check(k);
	if (st != 1 || !strstr(OUT, needle) || !strstr(OUT, "key 'bad'"))
		fail_msg("%s: status %d, output:\n%s\nwant '%s'", file, st, OUT, needle);
}

/* Write a file into the test directory with mode 0600. */
static void write_key(const char *name, const uint8_t *p, size_t n)
{
	char path[512];
	vgt_key(&D, name, path, sizeof(path));
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	assert_int_equal(chmod(path, 0600), 0);
}

static size_t read_key(const char *name, uint8_t *p, size_t cap)
{
	char path[512];
	vgt_key(&D, name, path, sizeof(path));
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(p, 1, cap, f);
	fclose(f);
	return n;
}

static void test_check_config(void **state)
{
	char conf[4096];
	(void)state;
	/* --check-config names each curve, and RSA by its modulus's bits */
	keys_conf(conf, sizeof(conf));
	strcat(conf, "[key rsa2050]\nfile = rsa2050.pem\nallow = sign\n");
	int st = check(conf);
	if (st != 0)
		fail_msg("status %d: %s", st, OUT);
	assert_non_null(strstr(OUT, "p256-sec1                ecdsa-p256\n"));
	assert_non_null(strstr(OUT, "p384-cred                ecdsa-p384\n"));
	assert_non_null(strstr(OUT, "rsa2050                  rsa-2050\n"));

	expect_refused("explicit.pem", "sign", "explicit EC curve parameters are not supported");
	expect_refused("p521.pem", "sign", "unsupported EC curve secp521r1");
	expect_refused("k1.pem", "sign", "unsupported EC curve secp256k1");
	/* policies an EC key cannot have */
	expect_refused("p256-pkcs8.pem", "sign, rsa-private",
		       "allow = rsa-private does not fit an ecdsa-p256 key");
	expect_refused("p384-sec1.pem", "tls13, x25519",
		       "allow = x25519 does not fit an ecdsa-p384 key");

	/* A public key that is not the private key's: SEC 1 DER ends with
	 * the point's last byte (Y); change it. */
	uint8_t der[512];
	size_t n = read_key("p256-sec1.der", der, sizeof(der));
	assert_true(n > 100 && n < sizeof(der));
	der[n - 1] ^= 0x01;
	write_key("mismatch.der", der, n);
	expect_refused("mismatch.der", "sign", "public key in the file does not match");
	/* No curve anywhere: SEC 1 without its [0] parameters. The -no_public
	 * form is SEQUENCE { INTEGER 1, OCTET STRING d, [0] { OID } }. */
	assert_int_equal(sh("openssl ec -in p256-sec1.pem -no_public -outform DER -out nopub.der"),
			 0);
	n = read_key("nopub.der", der, sizeof(der));
	assert_int_equal(n, 2 + 3 + 34 + 12);
	assert_int_equal(der[2 + 3 + 34], 0xa0);
	der[1] = 3 + 34;
	write_key("nocurve.der", der, 2 + 3 + 34);
	expect_refused("nocurve.der", "sign", "names no curve");
	/* The curve block alone. */
	assert_int_equal(
		sh("openssl ecparam -name prime256v1 -out params.pem; chmod 600 params.pem"), 0);
	expect_refused("params.pem", "sign", "EC PARAMETERS but no private key");

	/* back to the daemon's own config */
	keys_conf(conf, sizeof(conf));
	assert_int_equal(vgt_write_config(&D, NULL, conf), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms_sign),   cmocka_unit_test(test_tls13),
		cmocka_unit_test(test_errors),       cmocka_unit_test(test_hello_and_list),
		cmocka_unit_test(test_check_config),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
