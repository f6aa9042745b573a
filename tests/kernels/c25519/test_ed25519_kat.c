/* test_ed25519_kat.c: Ed25519 against the RFC 8032 section 7.1 vectors
 * (public key, exact signature, verification) and all Wycheproof
 * ed25519_test cases with their expected verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ec_testutil.h"
#include "vecfile.h"
#include "vg/ed25519.h"

static void test_rfc8032(void **state)
{
	(void)state;
	vg_vecfile *f = vg_vec_open("rfc8032_ed25519.txt");
	size_t n = 0;

	while (vg_vec_next(f)) {
		uint8_t seed[32], pk_want[32], pk[32], sig[64], sig_want[64];
		size_t mlen;
		const char *name = vg_vec_req(f, "name");
		ect_hex(seed, 32, vg_vec_req(f, "secretKey"));
		ect_hex(pk_want, 32, vg_vec_req(f, "publicKey"));
		ect_hex(sig_want, 64, vg_vec_req(f, "signature"));
		uint8_t *msg = vg_vec_hex(f, "message", &mlen);
		assert_int_equal((long)mlen, vg_vec_int(f, "messageLength"));
		assert_string_equal(vg_vec_req(f, "result"), "valid");

		vg_ed25519_public_key(pk, seed);
		if (memcmp(pk, pk_want, 32) != 0)
			fail_msg("%s: public key differs", name);
		vg_ed25519_sign(sig, msg, mlen, seed, pk);
		if (memcmp(sig, sig_want, 64) != 0)
			fail_msg("%s: signature differs", name);
		/* the keyholder's path: the seed expanded once, then signing */
		uint8_t h[VG_ED25519_EXPANDED_LEN];
		memset(sig, 0, 64);
		vg_ed25519_expand(h, seed);
		vg_ed25519_sign_expanded(sig, msg, mlen, h, pk);
		if (memcmp(sig, sig_want, 64) != 0)
			fail_msg("%s: signature from the expanded seed differs", name);
		if (vg_ed25519_verify(sig_want, msg, mlen, pk_want) != 0)
			fail_msg("%s: published signature does not verify", name);
		/* and the same message one byte longer must not verify */
		uint8_t *longer = malloc(mlen + 1);
		assert_non_null(longer);
		memcpy(longer, msg, mlen);
		longer[mlen] = 0;
		assert_int_equal(vg_ed25519_verify(sig_want, longer, mlen + 1, pk_want), VG_E_VERIFY);
		free(longer);
		free(msg);
		n++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(n, 5);
}

static void test_wycheproof(void **state)
{
	(void)state;
	vg_vecfile *f = vg_vec_open("ed25519_test.txt");
	size_t n = 0, nvalid = 0, ninvalid = 0, bad = 0;

	while (vg_vec_next(f)) {
		uint8_t pk[32];
		size_t mlen, slen;
		long tc = vg_vec_int(f, "tcId");
		const char *result = vg_vec_req(f, "result");
		ect_hex(pk, 32, vg_vec_req(f, "publicKey.pk"));
		uint8_t *msg = vg_vec_hex(f, "msg", &mlen);
		uint8_t *sig = vg_vec_hex(f, "sig", &slen);
		int want_valid = strcmp(result, "valid") == 0;
		assert_true(want_valid || strcmp(result, "invalid") == 0); /* no "acceptable" here */

		/* The API takes exactly 64 bytes: a caller rejects other lengths
		 * before calling, so those cases count as rejected. */
		int rc = slen == VG_ED25519_SIG_LEN ? vg_ed25519_verify(sig, msg, mlen, pk) : VG_E_VERIFY;
		if (rc != 0 && rc != VG_E_VERIFY) {
			fprintf(stderr, "tcId %ld: unexpected return %d\n", tc, rc);
			bad++;
		} else if ((rc == 0) != want_valid) {
			fprintf(stderr, "tcId %ld (%s, %s): got %s\n", tc, vg_vec_req(f, "comment"),
				result, rc == 0 ? "accepted" : "rejected");
			bad++;
		}
		nvalid += want_valid;
		ninvalid += !want_valid;
		free(msg);
		free(sig);
		n++;
	}
	assert_int_equal(vg_vec_close(f), 0); /* fails on zero records too */
	assert_int_equal(bad, 0);
	assert_int_equal(n, 151);
	assert_int_equal(nvalid, 88);
	assert_int_equal(ninvalid, 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc8032),
		cmocka_unit_test(test_wycheproof),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
