/* test_checkconfig.c: `vgd --check-config` on good and bad configs (exit
 * status; the message names the file and the reason) and on key files vgd
 * must refuse: group-readable, garbage, encrypted PEM (PKCS#8 and legacy),
 * RSA keys failing validation (each message names the check that failed:
 * p*q != n, dp, qinv, e against d, an even e), 1024-bit RSA; allow words a
 * key type cannot do (the message names the type and what it can do).
 * Also keys from $CREDENTIALS_DIRECTORY or --credentials-dir (also as
 * vgd.service's LoadCredential=vgd:DIR names them), the max_keys limit,
 * include directories (vgctl genkey's sections) and `vgd --version`. */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;
static char OUT[16384];

static int setup(void **state)
{
	(void)state;
	return vgt_setup(&D, NULL, vgt_default_keys);
}

static int teardown(void **state)
{
	(void)state;
	vgt_cleanup(&D);
	return 0;
}

static int check(void)
{
	const char *argv[] = {"vgd", "--check-config", D.conf, NULL};
	return dt_run_vgd(argv, OUT, sizeof(OUT));
}

static void expect(int want_status, const char *needle1, const char *needle2)
{
	int st = check();
	if (st != want_status || (needle1 && !strstr(OUT, needle1)) ||
	    (needle2 && !strstr(OUT, needle2)))
		fail_msg("status %d (want %d), output:\n%s\nwant '%s' and '%s'", st, want_status, OUT,
			 needle1 ? needle1 : "", needle2 ? needle2 : "");
}

static void write_file(const char *name, const void *data, size_t len, mode_t mode)
{
	char p[512];
	vgt_key(&D, name, p, sizeof(p));
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}

static void one_key_config(const char *file, const char *allow)
{
	char k[512];
	snprintf(k, sizeof(k), "[key k]\nfile = %s\nallow = %s\n", file, allow);
	assert_int_equal(vgt_write_config(&D, NULL, k), 0);
}

static void test_good_and_bad_config(void **state)
{
	(void)state;
	assert_int_equal(vgt_write_config(&D, NULL, vgt_default_keys), 0);
	expect(0, "OK", "rsa4096");
	assert_non_null(strstr(OUT, "9 key(s)"));
	assert_non_null(strstr(OUT, "rsa-4096"));
	assert_int_equal(vgt_write_config(&D, "max_queue = lots\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'max_queue'");
	assert_non_null(strstr(OUT, "line 5")); /* socket, keyholders, log_level, front_user, this */
	/* max_reply_buffers: bytes with K/M/G, at least 64 KiB; comments after
	 * values, as README's example writes them */
	assert_int_equal(vgt_write_config(&D, "max_reply_buffers = 8M   # all connections\n"
					  "max_queue = 100 # requests\n",
					  vgt_default_keys),
			 0);
	expect(0, "OK", "rsa4096");
	assert_int_equal(vgt_write_config(&D, "max_reply_buffers = 64K\n", vgt_default_keys), 0);
	expect(0, "OK", NULL);
	assert_int_equal(vgt_write_config(&D, "max_reply_buffers = 63K\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'max_reply_buffers'");
	assert_int_equal(vgt_write_config(&D, "max_reply_buffers = 12X\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'max_reply_buffers'");
	assert_int_equal(vgt_write_config(&D, "max_reply_buffers = 2048G\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'max_reply_buffers'");
	assert_int_equal(vgt_write_config(&D, "busy_poll_us = 5000\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'busy_poll_us'"); /* at most 1000 */
	assert_int_equal(vgt_write_config(&D, "pin_keyholders = no\n", vgt_default_keys), 0);
	expect(0, "OK", NULL);
	assert_int_equal(vgt_write_config(&D, "pin_keyholders = maybe\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'pin_keyholders'");
	assert_int_equal(vgt_write_config(&D, "follow_clients = no\n", vgt_default_keys), 0);
	expect(0, "OK", NULL);
	assert_int_equal(vgt_write_config(&D, "follow_clients = 1\n", vgt_default_keys), 0);
	expect(1, D.conf, "bad value for 'follow_clients'");
	assert_int_equal(vgt_write_config(&D, "[server]\n", vgt_default_keys), 0);
	expect(1, D.conf, "unknown section");
	assert_int_equal(vgt_write_config(&D, NULL, "[key a]\nallow = sign\n"), 0);
	expect(1, D.conf, "key 'a' has no file or credential");
	assert_int_equal(vgt_write_config(&D, NULL, "[key a]\nfile = ed25519.pem\nallow = teleport\n"), 0);
	expect(1, D.conf, "bad value for 'allow'");
	assert_int_equal(vgt_write_config(&D, NULL, "[key a]\nfile = missing.pem\nallow = sign\n"), 0);
	expect(1, "missing.pem", "No such file");
	/* A key type that can do nothing the policy allows: the message names
	 * the word, the key's type and what it can be allowed (it used to say
	 * "'allow' permits nothing this key type can do"). */
	one_key_config("x25519.pem", "sign");
	expect(1, "key 'k': allow = sign does not fit an x25519 key",
	       "(it can be allowed: x25519)");
	one_key_config("ecdsa-p256.pem", "rsa-private");
	expect(1, "key 'k': allow = rsa-private does not fit an ecdsa-p256 key",
	       "(it can be allowed: sign, tls13)");
	one_key_config("ecdsa-p384.pem", "tls13, rsa-private");
	expect(1, "allow = rsa-private does not fit an ecdsa-p384 key", "sign, tls13)");
	const char *argv[] = {"vgd", "--check-config", "/nonexistent/vgd.conf", NULL};
	assert_int_equal(dt_run_vgd(argv, OUT, sizeof(OUT)), 1);
	assert_non_null(strstr(OUT, "/nonexistent/vgd.conf"));
}

static void test_refused_key_files(void **state)
{
	(void)state;
	char p[512];
	/* Group-readable. */
	one_key_config("ed25519.pem", "sign");
	expect(0, "OK", NULL);
	vgt_key(&D, "ed25519.pem", p, sizeof(p));
	assert_int_equal(chmod(p, 0640), 0);
	expect(1, "ed25519.pem", "gives access to other users");
	assert_int_equal(chmod(p, 0604), 0);
	expect(1, "ed25519.pem", "mode 604");
	assert_int_equal(chmod(p, 0400), 0);
	expect(0, "OK", NULL);

	/* Garbage, DER-looking garbage, and a PEM that is not a key. */
	static const char junk[] = "this is not a key at all\n\x01\x02\x03";
	write_file("junk.pem", junk, sizeof(junk), 0600);
	one_key_config("junk.pem", "sign");
	expect(1, "junk.pem", "malformed");
	static const uint8_t der_junk[] = {0x30, 0x82, 0x01, 0x00, 0x02, 0x01, 0x00};
	write_file("junk.der", der_junk, sizeof(der_junk), 0600);
	one_key_config("junk.der", "sign");
	expect(1, "junk.der", "malformed");
	static const char cert[] = "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n";
	write_file("cert.pem", cert, sizeof(cert) - 1, 0600);
	one_key_config("cert.pem", "sign");
	expect(1, "cert.pem", "not a private key");

	/* Encrypted PKCS#8, written by OpenSSL. */
	EVP_PKEY *ed = vt_load_file(&D, "ed25519-b.pem");
	assert_non_null(ed);
	vgt_key(&D, "enc.pem", p, sizeof(p));
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(PEM_write_PrivateKey(f, ed, EVP_aes_128_cbc(),
					      (const unsigned char *)"secret", 6, NULL, NULL),
			 1);
	fclose(f);
	chmod(p, 0600);
	one_key_config("enc.pem", "sign");
	expect(1, "enc.pem", "encrypted");
	EVP_PKEY_free(ed);
	/* Legacy encrypted PEM (Proc-Type/DEK-Info headers). */
	static const char legacy[] =
		"-----BEGIN RSA PRIVATE KEY-----\n"
		"Proc-Type: 4,ENCRYPTED\n"
		"DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n"
		"MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n"
		"-----END RSA PRIVATE KEY-----\n";
	write_file("legacy.pem", legacy, sizeof(legacy) - 1, 0600);
	one_key_config("legacy.pem", "sign");
	expect(1, "legacy.pem", "encrypted");
}

/* ---- a PKCS#1 RSAPrivateKey built here, so its values can be wrong ---- */
static size_t der_len(uint8_t *p, size_t n)
{
	if (n < 0x80) {
		p[0] = (uint8_t)n;
		return 1;
	}
	if (n < 0x100) {
		p[0] = 0x81;
		p[1] = (uint8_t)n;
		return 2;
	}
	p[0] = 0x82;
	p[1] = (uint8_t)(n >> 8);
	p[2] = (uint8_t)n;
	return 3;
}

static size_t der_int(uint8_t *p, const BIGNUM *bn)
{
	uint8_t v[1024];
	int n = BN_bn2bin(bn, v + 1);
	size_t len = (size_t)n, off = 1;
	if (n == 0 || (v[1] & 0x80)) {
		v[0] = 0;
		off = 0;
		len++;
	}
	p[0] = 0x02;
	size_t h = 1 + der_len(p + 1, len);
	memcpy(p + h, v + off, len);
	return h + len;
}

/* RSAPrivateKey of k, its which-th value (0 n, 1 e, 2 d, 3 p, 4 q, 5 dp,
 * 6 dq, 7 qinv) replaced by override if given. */
enum { V_N, V_E, V_D, V_P, V_Q, V_DP, V_DQ, V_QINV };
static size_t pkcs1_der_with(EVP_PKEY *k, int which, const BIGNUM *override, uint8_t *out)
{
	static const char *names[] = {OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
				      OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
				      OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
				      OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
	uint8_t body[4096];
	size_t bl = 0;
	BIGNUM *zero = BN_new();
	bl += der_int(body, zero);
	BN_free(zero);
	for (size_t i = 0; i < 8; i++) {
		BIGNUM *bn = NULL;
		assert_int_equal(EVP_PKEY_get_bn_param(k, names[i], &bn), 1);
		bl += der_int(body + bl, (int)i == which && override ? override : bn);
		BN_free(bn);
	}
	out[0] = 0x30;
	size_t h = 1 + der_len(out + 1, bl);
	memcpy(out + h, body, bl);
	return h + bl;
}

static size_t pkcs1_der(EVP_PKEY *k, const BIGNUM *n_override, uint8_t *out)
{
	return pkcs1_der_with(k, V_N, n_override, out);
}

/* k with value which (an EVP parameter name) changed by add (or set to
 * set when add is 0) is refused with a message naming the check. */
static void refused_with(EVP_PKEY *k, int which, const char *param, unsigned long add,
			 unsigned long set, const char *file, const char *check)
{
	static uint8_t der[8192];
	BIGNUM *v = NULL;
	assert_int_equal(EVP_PKEY_get_bn_param(k, param, &v), 1);
	if (add)
		assert_int_equal(BN_add_word(v, add), 1);
	else
		assert_int_equal(BN_set_word(v, set), 1);
	size_t len = pkcs1_der_with(k, which, v, der);
	BN_free(v);
	write_file(file, der, len, 0600);
	one_key_config(file, "sign");
	char want[200];
	snprintf(want, sizeof(want), "RSA key rejected: %s", check);
	expect(1, file, want);
}

static void test_rsa_validation(void **state)
{
	(void)state;
	EVP_PKEY *k = vt_load_file(&D, "rsa2048.pem");
	assert_non_null(k);
	uint8_t der[8192];
	/* Unchanged: our encoder is right, vgd takes it. */
	size_t len = pkcs1_der(k, NULL, der);
	write_file("good.der", der, len, 0600);
	one_key_config("good.der", "sign");
	expect(0, "OK", "rsa-2048");
	/* n + 2: still odd and 2048 bits, but p*q != n. */
	BIGNUM *n = NULL;
	assert_int_equal(EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n), 1);
	assert_int_equal(BN_add_word(n, 2), 1);
	len = pkcs1_der(k, n, der);
	write_file("bad-n.der", der, len, 0600);
	one_key_config("bad-n.der", "sign");
	/* The check that failed, not "invalid key". */
	expect(1, "bad-n.der", "RSA key rejected: n is not p*q");
	BN_free(n);
	refused_with(k, V_DP, OSSL_PKEY_PARAM_RSA_EXPONENT1, 2, 0, "bad-dp.der",
		     "dp is not d mod (p-1)");
	refused_with(k, V_DQ, OSSL_PKEY_PARAM_RSA_EXPONENT2, 2, 0, "bad-dq.der",
		     "dq is not d mod (q-1)");
	refused_with(k, V_QINV, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, 1, 0, "bad-qinv.der",
		     "qinv is not the inverse of q mod p");
	/* e = 3 with the key's d (made for 65537): every CRT value still
	 * matches p, q and d; only the test signature finds it. */
	refused_with(k, V_E, OSSL_PKEY_PARAM_RSA_E, 0, 3, "bad-e.der",
		     "e does not match d (a test signature did not verify)");
	refused_with(k, V_E, OSSL_PKEY_PARAM_RSA_E, 0, 65536, "even-e.der",
		     "the public exponent e is even or below 3");
	EVP_PKEY_free(k);

	/* 1024-bit RSA, as openssl genrsa would write it. */
	EVP_PKEY *small = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)1024);
	assert_non_null(small);
	char p[512];
	vgt_key(&D, "rsa1024.pem", p, sizeof(p));
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(PEM_write_PrivateKey(f, small, NULL, NULL, 0, NULL, NULL), 1);
	fclose(f);
	chmod(p, 0600);
	one_key_config("rsa1024.pem", "sign");
	/* the message names the sizes vgd takes, not "unsupported parameter" */
	expect(1, "rsa1024.pem",
	       "RSA key rejected: 1024-bit modulus; vgd supports RSA keys of 2048 to 4096 bits");
	EVP_PKEY_free(small);

	/* Over 4096 bits: a 4160-bit n (the size is judged before the rest). */
	k = vt_load_file(&D, "rsa2048.pem");
	assert_non_null(k);
	n = NULL;
	assert_int_equal(EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n), 1);
	assert_int_equal(BN_lshift(n, n, 2112), 1);
	assert_int_equal(BN_add_word(n, 1), 1);
	assert_int_equal(BN_num_bits(n), 4160);
	len = pkcs1_der(k, n, der);
	write_file("big-n.der", der, len, 0600);
	one_key_config("big-n.der", "sign");
	expect(1, "big-n.der",
	       "RSA key rejected: 4160-bit modulus; vgd supports RSA keys of 2048 to 4096 bits");
	BN_free(n);
	EVP_PKEY_free(k);
}

static void write_at(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* include = DIR: DIR's *.conf files, in name order, add key sections
 * (their relative paths from DIR); hidden files and other names are not
 * read; a global setting there, a key name used twice and a missing DIR
 * are errors naming the file. */
static void test_include(void **state)
{
	(void)state;
	char dir[512], inc[600], p[700], key[512], text[1024];
	snprintf(dir, sizeof(dir), "%s", D.conf);
	*strrchr(dir, '/') = 0;
	snprintf(inc, sizeof(inc), "%s/inc.d", dir);
	assert_int_equal(mkdir(inc, 0755), 0);
	vgt_key(&D, "ed25519.pem", key, sizeof(key));
	snprintf(text, sizeof(text), "# genkey's kind of file\n[key inc-ed]\nfile = %s\nallow = tls13\n",
		 key);
	snprintf(p, sizeof(p), "%s/b.conf", inc);
	write_at(p, text);
	snprintf(p, sizeof(p), "%s/.b.conf.tmp.conf", inc);
	write_at(p, "this is not a config\n");
	snprintf(p, sizeof(p), "%s/notes.txt", inc);
	write_at(p, "neither is this\n");
	assert_int_equal(vgt_write_config(&D, "include = inc.d\n", vgt_default_keys), 0);
	expect(0, "10 key(s)", "inc-ed");

	snprintf(p, sizeof(p), "%s/a.conf", inc);
	write_at(p, "keyholders = 3\n");
	expect(1, "a.conf: line 1", "an included file holds only key sections");
	unlink(p);

	snprintf(p, sizeof(p), "%s/c.conf", inc);
	write_at(p, text);
	expect(1, "c.conf: line 2", "duplicate key 'inc-ed'");
	unlink(p);
	expect(0, "10 key(s)", NULL);

	assert_int_equal(vgt_write_config(&D, "include = missing.d\n", vgt_default_keys), 0);
	expect(1, "include", "missing.d: No such file");
}

static int check_creds(const char *dir)
{
	const char *argv[] = {"vgd", "--check-config", "-c", D.conf, "--credentials-dir", dir,
			      NULL};
	return dt_run_vgd(argv, OUT, sizeof(OUT));
}

static void test_credentials(void **state)
{
	(void)state;
	assert_int_equal(vgt_write_config(&D, NULL, "[key c]\ncredential = x25519.pem\nallow = x25519\n"), 0);
	unsetenv("CREDENTIALS_DIRECTORY");
	/* Without systemd's variable the message names the way to check. */
	expect(1, "CREDENTIALS_DIRECTORY", "x25519.pem");
	assert_non_null(strstr(OUT, "vgd --check-config --credentials-dir"));
	setenv("CREDENTIALS_DIRECTORY", D.dir, 1);
	expect(0, "OK", "x25519");
	unsetenv("CREDENTIALS_DIRECTORY");

	/* Before a restart: --credentials-dir, with the credential's own
	 * name, ... */
	assert_int_equal(check_creds(D.dir), 0);
	assert_non_null(strstr(OUT, "OK"));
	assert_non_null(strstr(OUT, "x25519"));
	/* ... and as vgd.service names them: credential vgd_FILE is FILE of
	 * the directory in LoadCredential=vgd:DIR. */
	assert_int_equal(vgt_write_config(&D, NULL,
					  "[key c]\ncredential = vgd_x25519.pem\n"
					  "allow = x25519\n"
					  "[key e]\ncredential = vgd_ed25519.pem\nallow = sign\n"),
			 0);
	if (check_creds(D.dir) != 0)
		fail_msg("--credentials-dir with vgd_ names:\n%s", OUT);
	assert_non_null(strstr(OUT, "2 key(s)"));
	/* A missing credential names the file looked for. */
	assert_int_equal(vgt_write_config(&D, NULL,
					  "[key c]\ncredential = vgd_nothere.pem\n"
					  "allow = x25519\n"),
			 0);
	assert_int_equal(check_creds(D.dir), 1);
	assert_non_null(strstr(OUT, "nothere.pem"));
	assert_non_null(strstr(OUT, "No such file"));
	/* The daemon itself takes only what systemd hands it. */
	const char *run[] = {"vgd", "-c", D.conf, "--credentials-dir", D.dir, NULL};
	assert_int_equal(dt_run_vgd(run, OUT, sizeof(OUT)), 64);
	assert_non_null(strstr(OUT, "--credentials-dir goes with --check-config"));
	assert_int_equal(vgt_write_config(&D, NULL, "[key c]\ncredential = ../x.pem\nallow = x25519\n"), 0);
	expect(1, D.conf, "bad value for 'credential'");
}

/* n key sections k0..k(n-1), all on one Ed25519 file. */
static char *many_keys(int n)
{
	size_t cap = (size_t)n * 64 + 1, len = 0;
	char *k = malloc(cap);
	assert_non_null(k);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(k + len, cap - len,
					"[key k%d]\nfile = ed25519.pem\nallow = sign\n", i);
	return k;
}

/* --check-config prints a line per key: more than OUT holds. */
static int check_big(char *out, size_t cap)
{
	const char *argv[] = {"vgd", "--check-config", D.conf, NULL};
	return dt_run_vgd(argv, out, cap);
}

/* max_keys: a documented setting (it was a silent 100). At the limit a
 * config loads; one key more is refused, naming that key and the limit;
 * the default, 1024, holds a host with a few hundred virtual hosts. */
static void test_max_keys(void **state)
{
	(void)state;
	char *k3 = many_keys(3), *k4 = many_keys(4);
	assert_int_equal(vgt_write_config(&D, "max_keys = 3\n", k3), 0);
	expect(0, "OK", "3 key(s)");
	assert_int_equal(vgt_write_config(&D, "max_keys = 3\n", k4), 0);
	expect(1, D.conf,
	       "too many keys: key 'k3' is one more than max_keys = 3 (raise max_keys, at most "
	       "1024)");
	assert_int_equal(vgt_write_config(&D, "max_keys = 0\n", k3), 0);
	expect(1, D.conf, "bad value for 'max_keys'");
	assert_int_equal(vgt_write_config(&D, "max_keys = 1025\n", k3), 0);
	expect(1, D.conf, "bad value for 'max_keys'");
	free(k3);
	free(k4);

	/* The default: 1024 load, 1025 do not. */
	static char big[128 * 1024];
	char *k1024 = many_keys(1024), *k1025 = many_keys(1025);
	assert_int_equal(vgt_write_config(&D, NULL, k1024), 0);
	int st = check_big(big, sizeof(big));
	if (st != 0 || !strstr(big, "1024 key(s)"))
		fail_msg("1024 keys: status %d, output starts:\n%.2000s", st, big);
	assert_int_equal(vgt_write_config(&D, NULL, k1025), 0);
	st = check_big(big, sizeof(big));
	if (st != 1 || !strstr(big, "too many keys: key 'k1024' is one more than max_keys = "
				    "1024, the most vgd holds (1024)"))
		fail_msg("1025 keys: status %d, output:\n%.2000s", st, big);
	free(k1024);
	free(k1025);
}

static void test_version(void **state)
{
	(void)state;
	const char *argv[] = {"vgd", "--version", NULL};
	assert_int_equal(dt_run_vgd(argv, OUT, sizeof(OUT)), 0);
	printf("# %s", OUT);
	assert_non_null(strstr(OUT, "vgd "));
	assert_non_null(strstr(OUT, "kernels: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_and_bad_config),
		cmocka_unit_test(test_refused_key_files),
		cmocka_unit_test(test_rsa_validation),
		cmocka_unit_test(test_credentials),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_max_keys),
		cmocka_unit_test(test_version),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
