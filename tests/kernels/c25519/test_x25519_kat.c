/* test_x25519_kat.c: X25519 against RFC 7748 (section 5.2 single-shot and
 * iterated vectors, section 6.1 Diffie-Hellman example) and all Wycheproof
 * x25519_test cases. With --iter-1m it runs only the 1,000,000-iteration
 * vector (the 'slow' suite). */
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
#include "vg/x25519.h"

static int all_zero(const uint8_t *b, size_t n)
{
	uint8_t acc = 0;
	for (size_t i = 0; i < n; i++)
		acc |= b[i];
	return acc == 0;
}

static void test_rfc7748_single(void **state)
{
	(void)state;
	vg_vecfile *f = vg_vec_open("rfc7748_x25519.txt");
	size_t n = 0;

	while (vg_vec_next(f)) {
		uint8_t k[32], u[32], want[32], out[32];
		ect_hex(k, 32, vg_vec_req(f, "scalar"));
		ect_hex(u, 32, vg_vec_req(f, "uCoordinate"));
		ect_hex(want, 32, vg_vec_req(f, "output"));
		assert_int_equal(vg_x25519(out, k, u), 0);
		if (memcmp(out, want, 32) != 0)
			fail_msg("%s: output differs", vg_vec_req(f, "name"));
		n++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(n, 2);
}

/* Section 6.1: both public keys (by vg_x25519_base and by vg_x25519 with
 * u = 9) and the shared secret from both sides. The fields are repeated in
 * every record of the file; the first record is used. */
static void test_rfc7748_dh(void **state)
{
	(void)state;
	vg_vecfile *f = vg_vec_open("rfc7748_x25519.txt");
	uint8_t a[32], A[32], b[32], B[32], K[32], out[32], nine[32] = {9};

	assert_true(vg_vec_next(f));
	ect_hex(a, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.alicePrivate"));
	ect_hex(A, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.alicePublic"));
	ect_hex(b, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.bobPrivate"));
	ect_hex(B, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.bobPublic"));
	ect_hex(K, 32, vg_vec_req(f, "extra_section6_1_diffieHellman.sharedSecret"));
	while (vg_vec_next(f))
		;
	assert_int_equal(vg_vec_close(f), 0);

	vg_x25519_base(out, a);
	assert_memory_equal(out, A, 32);
	vg_x25519_base(out, b);
	assert_memory_equal(out, B, 32);
	assert_int_equal(vg_x25519(out, a, nine), 0);
	assert_memory_equal(out, A, 32);
	assert_int_equal(vg_x25519(out, b, nine), 0);
	assert_memory_equal(out, B, 32);
	assert_int_equal(vg_x25519(out, a, B), 0);
	assert_memory_equal(out, K, 32);
	assert_int_equal(vg_x25519(out, b, A), 0);
	assert_memory_equal(out, K, 32);
}

/* Iterate (k, u) = (X25519(k, u), k) from k = u = 9 up to max_iter and
 * check every checkpoint of the file at or below it; returns how many
 * checkpoints were checked. */
static size_t iterate(long max_iter)
{
	vg_vecfile *f = vg_vec_open("rfc7748_x25519_iter.txt");
	long done = 0, want_iter[8];
	uint8_t want_k[8][32], k[32], u[32], out[32];
	size_t n = 0, checked = 0;

	while (vg_vec_next(f)) {
		assert_true(n < 8);
		want_iter[n] = vg_vec_int(f, "iterations");
		ect_hex(want_k[n], 32, vg_vec_req(f, "k"));
		if (n == 0) {
			ect_hex(k, 32, vg_vec_req(f, "initialK"));
			ect_hex(u, 32, vg_vec_req(f, "initialU"));
		}
		n++;
	}
	assert_int_equal(vg_vec_close(f), 0);

	for (size_t c = 0; c < n; c++) {
		if (want_iter[c] > max_iter)
			continue;
		for (; done < want_iter[c]; done++) {
			assert_int_equal(vg_x25519(out, k, u), 0);
			memcpy(u, k, 32);
			memcpy(k, out, 32);
		}
		if (memcmp(k, want_k[c], 32) != 0)
			fail_msg("k after %ld iterations differs", want_iter[c]);
		checked++;
	}
	return checked;
}

static void test_rfc7748_iter(void **state)
{
	(void)state;
	assert_int_equal(iterate(1000), 2); /* the 1 and 1000 checkpoints */
}

static void test_rfc7748_iter_1m(void **state)
{
	(void)state;
	assert_int_equal(iterate(1000000), 3);
}

static void test_wycheproof(void **state)
{
	(void)state;
	vg_vecfile *f = vg_vec_open("x25519_test.txt");
	size_t n = 0, nvalid = 0, naccept = 0, nzero = 0, bad = 0;

	while (vg_vec_next(f)) {
		uint8_t priv[32], pub[32], shared[32], out[32];
		long tc = vg_vec_int(f, "tcId");
		const char *result = vg_vec_req(f, "result");
		ect_hex(priv, 32, vg_vec_req(f, "private"));
		ect_hex(pub, 32, vg_vec_req(f, "public"));
		ect_hex(shared, 32, vg_vec_req(f, "shared"));

		memset(out, 0xa5, sizeof(out));
		int rc = vg_x25519(out, priv, pub);
		int ok;
		if (strcmp(result, "valid") == 0) {
			/* must compute, and match exactly */
			ok = rc == 0 && memcmp(out, shared, 32) == 0;
			nvalid++;
		} else if (strcmp(result, "acceptable") == 0) {
			/* either computed and equal to shared, or rejected as all
			 * zero, which is allowed only when shared is all zero */
			if (rc == 0)
				ok = memcmp(out, shared, 32) == 0;
			else
				ok = rc == VG_E_ZERO && all_zero(shared, 32) && all_zero(out, 32);
			nzero += rc == VG_E_ZERO;
			naccept++;
		} else {
			ok = 0; /* this file has no invalid cases */
		}
		if (!ok) {
			fprintf(stderr, "tcId %ld (%s, %s): rc %d\n", tc, vg_vec_req(f, "comment"),
				result, rc);
			bad++;
		}
		n++;
	}
	assert_int_equal(vg_vec_close(f), 0);
	assert_int_equal(bad, 0);
	assert_int_equal(n, 518);
	assert_int_equal(nvalid, 264);
	assert_int_equal(naccept, 254);
	assert_true(nzero > 0); /* the file has zero-shared-secret cases */
	printf("x25519 wycheproof: %zu cases, %zu valid, %zu acceptable (%zu rejected as all-zero)\n",
	       n, nvalid, naccept, nzero);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc7748_single),
		cmocka_unit_test(test_rfc7748_dh),
		cmocka_unit_test(test_rfc7748_iter),
		cmocka_unit_test(test_wycheproof),
	};
	const struct CMUnitTest slow[] = {
		cmocka_unit_test(test_rfc7748_iter_1m),
	};
	if (argc > 1 && strcmp(argv[1], "--iter-1m") == 0)
		return cmocka_run_group_tests_name("x25519-iter-1m", slow, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
