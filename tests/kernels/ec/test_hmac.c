/* test_hmac.c: HMAC-SHA-256/384/512 (vg/hmac.h): RFC 4231 test cases 2
 * (short key) and 6 (a key longer than either block size, hashed first),
 * values typed from RFC 4231 sections 4.3 and 4.7; and agreement with
 * OpenSSL's HMAC on random keys and messages of every length around the
 * block sizes, one-shot, fed in pieces, and through a copied keyed
 * context (how the RFC 6979 generator reuses a key). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ecdsa_testutil.h"
#include "vg/hmac.h"

/* One interface over the three, for the loops below. */
static size_t mac(int h, uint8_t *out, const uint8_t *key, size_t klen, const uint8_t *msg,
		  size_t len, size_t split)
{
	switch (h) {
	case 0: {
		vg_hmac_sha256_ctx c, c2;
		vg_hmac_sha256_init(&c, key, klen);
		c2 = c; /* a copied keyed context must give the same result */
		vg_hmac_sha256_update(&c2, msg, split);
		vg_hmac_sha256_update(&c2, msg + split, len - split);
		vg_hmac_sha256_final(&c2, out);
		return 32;
	}
	case 1: {
		vg_hmac_sha384_ctx c, c2;
		vg_hmac_sha384_init(&c, key, klen);
		c2 = c;
		vg_hmac_sha384_update(&c2, msg, split);
		vg_hmac_sha384_update(&c2, msg + split, len - split);
		vg_hmac_sha384_final(&c2, out);
		return 48;
	}
	default: {
		vg_hmac_sha512_ctx c, c2;
		vg_hmac_sha512_init(&c, key, klen);
		c2 = c;
		vg_hmac_sha512_update(&c2, msg, split);
		vg_hmac_sha512_update(&c2, msg + split, len - split);
		vg_hmac_sha512_final(&c2, out);
		return 64;
	}
	}
}

static const char *const names[3] = {"SHA-256", "SHA-384", "SHA-512"};

static void test_rfc4231(void **state)
{
	static const char *const tc2[3] = {
		"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
		"af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
		"8e2240ca5e69e2c78b3239ecfab21649",
		"164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
		"9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
	};
	static const char *const tc6[3] = {
		"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
		"4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
		"0c2ef6ab4030fe8296248df163f44952",
		"80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
		"6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
	};
	const char *m2 = "what do ya want for nothing?";
	const char *m6 = "Test Using Larger Than Block-Size Key - Hash Key First";
	uint8_t key6[131], out[64], want[64];

	(void)state;
	memset(key6, 0xaa, sizeof(key6));
	for (int h = 0; h < 3; h++) {
		size_t n =
			mac(h, out, (const uint8_t *)"Jefe", 4, (const uint8_t *)m2, strlen(m2), 3);
		tec_hex(want, n, tc2[h]);
		assert_memory_equal(out, want, n);
		n = mac(h, out, key6, sizeof(key6), (const uint8_t *)m6, strlen(m6), 0);
		tec_hex(want, n, tc6[h]);
		assert_memory_equal(out, want, n);
	}
	/* the one-shot functions */
	vg_hmac_sha256(out, "Jefe", 4, m2, strlen(m2));
	tec_hex(want, 32, tc2[0]);
	assert_memory_equal(out, want, 32);
	vg_hmac_sha384(out, "Jefe", 4, m2, strlen(m2));
	tec_hex(want, 48, tc2[1]);
	assert_memory_equal(out, want, 48);
	vg_hmac_sha512(out, "Jefe", 4, m2, strlen(m2));
	tec_hex(want, 64, tc2[2]);
	assert_memory_equal(out, want, 64);
}

static void test_openssl(void **state)
{
	uint64_t rng = 11;
	uint8_t key[300], msg[400], out[64], want[64];
	/* key lengths around both block sizes, and empty */
	static const size_t klens[] = {0, 1, 31, 32, 48, 63, 64, 65, 127, 128, 129, 200, 300};

	(void)state;
	tec_rand_bytes(&rng, key, sizeof(key));
	tec_rand_bytes(&rng, msg, sizeof(msg));
	for (int h = 0; h < 3; h++) {
		for (size_t ki = 0; ki < sizeof(klens) / sizeof(klens[0]); ki++) {
			for (size_t len = 0; len <= sizeof(msg); len += 1 + len / 8) {
				size_t split = len ? tec_rand(&rng) % (len + 1) : 0;
				size_t n = mac(h, out, key, klens[ki], msg, len, split);
				size_t wn = tos_hmac(names[h], key, klens[ki], msg, len, want);
				assert_int_equal(n, wn);
				if (memcmp(out, want, n) != 0)
					fail_msg("%s: key %zu, message %zu bytes: differs from "
						 "OpenSSL",
						 names[h], klens[ki], len);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc4231),
		cmocka_unit_test(test_openssl),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
