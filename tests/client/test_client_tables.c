/* test_client_tables.c: unit tests of libvgclient's error space and of the
 * public header's copies of protocol values: the one mapping from wire
 * statuses to VGC_E_* codes (vgc_err_from_status, the contract vgclient.h
 * documents), the code texts, and the VGC_ALG_* constants against the
 * protocol's algorithm table (a new algorithm row without its VGC_ALG_*
 * constant fails here). No daemon needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h" /* vgc_err_from_status (hidden in the shared library) */
#include "vg/proto_tables.h"

/* vgclient.h: "Codes -101..-110 are the daemon's status codes". */
static const struct {
	int status, code;
} named[] = {
	{ VG_ST_MALFORMED, VGC_E_MALFORMED },     { VG_ST_BAD_VERSION, VGC_E_BAD_VERSION },
	{ VG_ST_UNKNOWN_OP, VGC_E_UNKNOWN_OP },   { VG_ST_UNKNOWN_KEY, VGC_E_UNKNOWN_KEY },
	{ VG_ST_NOT_ALLOWED, VGC_E_NOT_ALLOWED }, { VG_ST_BAD_INPUT, VGC_E_BAD_INPUT },
	{ VG_ST_TOO_LARGE, VGC_E_TOO_LARGE },     { VG_ST_OVERLOADED, VGC_E_OVERLOADED },
	{ VG_ST_INTERNAL, VGC_E_INTERNAL },       { VG_ST_UNAVAILABLE, VGC_E_UNAVAILABLE },
};

static void test_status_to_code(void **state)
{
	(void)state;
	assert_int_equal(sizeof named / sizeof named[0], VG_ST_MAX);
	assert_int_equal(vgc_err_from_status(VG_ST_OK), VGC_OK);
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		int code = vgc_err_from_status(named[i].status);
		assert_int_equal(code, named[i].code);
		assert_int_equal(code, -100 - named[i].status); /* the documented numbering */
		const char *t = vg_client_strerror(code);
		assert_string_not_equal(t, "unknown error");
		assert_string_not_equal(t, "vgd: error (unknown status)");
		assert_memory_equal(t, "vgd: ", 5);
	}
	/* A status this library does not name keeps its number. */
	assert_int_equal(vgc_err_from_status(VG_ST_MAX + 1), -101 - VG_ST_MAX);
	assert_int_equal(vgc_err_from_status(200), -300);
	assert_int_equal(vgc_err_from_status(255), -355);
	assert_string_equal(vg_client_strerror(-300), "vgd: error (unknown status)");
	assert_string_equal(vg_client_strerror(-355), "vgd: error (unknown status)");
	assert_string_equal(vg_client_strerror(-356), "unknown error");
	assert_string_equal(vg_client_strerror(-99), "unknown error");
	assert_string_equal(vg_client_strerror(1), "unknown error");
}

static void test_library_codes(void **state)
{
	static const int own[] = {
		VGC_OK,		VGC_E_CONNECT, VGC_E_IO,	VGC_E_TIMEOUT,
		VGC_E_PROTOCOL, VGC_E_CLOSED,  VGC_E_NOMEM,	VGC_E_INVALID,
		VGC_E_BUFFER,	VGC_E_CANCELLED, VGC_E_BUSY,
	};

	(void)state;
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
		const char *t = vg_client_strerror(own[i]);
		assert_string_not_equal(t, "unknown error");
		/* the library's own codes are never a daemon status */
		assert_true(own[i] > -100);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(vg_client_strerror(own[j]), t);
	}
}

/* Every algorithm of the protocol's table has its VGC_ALG_* constant with
 * the same wire value and name. */
static void test_alg_constants(void **state)
{
	static const struct {
		int value;
		const char *name;
	} api[] = {
		{ VGC_ALG_ED25519, "ed25519" },
		{ VGC_ALG_RSA_PKCS1_SHA256, "rsa-pkcs1-sha256" },
		{ VGC_ALG_RSA_PKCS1_SHA384, "rsa-pkcs1-sha384" },
		{ VGC_ALG_RSA_PKCS1_SHA512, "rsa-pkcs1-sha512" },
		{ VGC_ALG_RSA_PSS_SHA256, "rsa-pss-sha256" },
		{ VGC_ALG_RSA_PSS_SHA384, "rsa-pss-sha384" },
		{ VGC_ALG_RSA_PSS_SHA512, "rsa-pss-sha512" },
		{ VGC_ALG_TLS13, "tls13" },
		{ VGC_ALG_ECDSA_P256_SHA256, "ecdsa-p256-sha256" },
		{ VGC_ALG_ECDSA_P384_SHA384, "ecdsa-p384-sha384" },
		{ VGC_ALG_ECDSA_P256_SHA384, "ecdsa-p256-sha384" },
		{ VGC_ALG_ECDSA_P256_SHA512, "ecdsa-p256-sha512" },
		{ VGC_ALG_ECDSA_P384_SHA256, "ecdsa-p384-sha256" },
		{ VGC_ALG_ECDSA_P384_SHA512, "ecdsa-p384-sha512" },
		{ VGC_ALG_CSR, "csr" },
	};
	const vg_alg_info *a;
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof api / sizeof api[0]; i++)
		assert_int_equal(vg_alg_from_name(api[i].name), api[i].value);
	for (size_t i = 0; (a = vg_alg_at(i)) != NULL; i++, n++) {
		size_t j = 0;
		while (j < sizeof api / sizeof api[0] && api[j].value != a->alg)
			j++;
		if (j == sizeof api / sizeof api[0])
			fail_msg("algorithm %s has no VGC_ALG_* constant", a->name);
	}
	assert_int_equal(n, sizeof api / sizeof api[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_to_code),
		cmocka_unit_test(test_library_codes),
		cmocka_unit_test(test_alg_constants),
	};

	return cmocka_run_group_tests_name("client-tables", tests, NULL, NULL);
}
