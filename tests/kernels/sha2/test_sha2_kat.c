/* test_sha2_kat.c: SHA-256/384/512 against the FIPS 180-4 / NIST example
 * messages (empty, "abc", the 448- and 896-bit two-block messages, one
 * million 'a'), one-shot, through vg_hash, and incremental with odd chunk
 * sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vecfile.h"
#include "vg/sha2.h"

typedef struct {
	const char *name;
	const char *msg; /* NULL: one million 'a' */
	const char *sha256, *sha384, *sha512;
} kat;

#define M448 "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define M896                                                                       \
	"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop" \
	"jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

static const kat kats[] = {
	{"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	 "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f1"
	 "4898b95b",
	 "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2"
	 "877eec2f63b931bd47417a81a538327af927da3e"},
	{"abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	 "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca1"
	 "34c825a7",
	 "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23"
	 "a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
	{"448-bit", M448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	 "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1f"
	 "e3c8452b",
	 "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea"
	 "57789ca031ad85c7a71dd70354ec631238ca3445"},
	{"896-bit", M896, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
	 "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa"
	 "91746039",
	 "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99de"
	 "c4b5433ac7d329eeb6dd26545e96e55b874be909"},
	{"million-a", NULL, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	 "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd8"
	 "7f3d8985",
	 "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432c"
	 "e577c31beb009c5c2c49aa2e4eadb217ad8cc09b"},
};

/* Chunk sizes for the incremental runs: odd, and straddling both block
 * sizes, so the buffering path is exercised from every offset. */
static const size_t chunks[] = {1, 3, 7, 13, 31, 55, 63, 65, 111, 127, 129, 1001};

static uint8_t *message(const kat *k, size_t *len)
{
	if (k->msg) {
		*len = strlen(k->msg);
		uint8_t *m = malloc(*len + 1);
		assert_non_null(m);
		memcpy(m, k->msg, *len);
		return m;
	}
	*len = 1000000;
	uint8_t *m = malloc(*len);
	assert_non_null(m);
	memset(m, 'a', *len);
	return m;
}

static void expect(const char *hex, const uint8_t *got, size_t n, const char *what,
		   const kat *k)
{
	uint8_t want[64];
	assert_int_equal(strlen(hex), 2 * n);
	assert_int_equal(vg_hex_fixed(hex, want, n), 0);
	if (memcmp(want, got, n) != 0)
		fail_msg("%s mismatch for message '%s'", what, k->name);
}

/* Incremental hashing with a given chunk size, generic over the three
 * algorithms through small adapters. */
static void inc256(uint8_t *out, const uint8_t *m, size_t len, size_t chunk)
{
	vg_sha256_ctx c;
	vg_sha256_init(&c);
	for (size_t off = 0; off < len; off += chunk)
		vg_sha256_update(&c, m + off, len - off < chunk ? len - off : chunk);
	vg_sha256_final(&c, out);
}

static void inc384(uint8_t *out, const uint8_t *m, size_t len, size_t chunk)
{
	vg_sha384_ctx c;
	vg_sha384_init(&c);
	for (size_t off = 0; off < len; off += chunk)
		vg_sha384_update(&c, m + off, len - off < chunk ? len - off : chunk);
	vg_sha384_final(&c, out);
}

static void inc512(uint8_t *out, const uint8_t *m, size_t len, size_t chunk)
{
	vg_sha512_ctx c;
	vg_sha512_init(&c);
	for (size_t off = 0; off < len; off += chunk)
		vg_sha512_update(&c, m + off, len - off < chunk ? len - off : chunk);
	vg_sha512_final(&c, out);
}

static void run(vg_hash_alg alg)
{
	for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		const kat *k = &kats[i];
		size_t len, n = vg_hash_len(alg);
		uint8_t *m = message(k, &len);
		uint8_t out[64];
		const char *hex = alg == VG_HASH_SHA256	  ? k->sha256
				  : alg == VG_HASH_SHA384 ? k->sha384
							  : k->sha512;

		memset(out, 0xa5, sizeof(out));
		switch (alg) {
		case VG_HASH_SHA256:
			vg_sha256(out, m, len);
			break;
		case VG_HASH_SHA384:
			vg_sha384(out, m, len);
			break;
		case VG_HASH_SHA512:
			vg_sha512(out, m, len);
			break;
		}
		expect(hex, out, n, "one-shot", k);

		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_hash(alg, out, m, len), 0);
		expect(hex, out, n, "vg_hash", k);

		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			memset(out, 0xa5, sizeof(out));
			if (alg == VG_HASH_SHA256)
				inc256(out, m, len, chunks[c]);
			else if (alg == VG_HASH_SHA384)
				inc384(out, m, len, chunks[c]);
			else
				inc512(out, m, len, chunks[c]);
			expect(hex, out, n, "incremental", k);
		}
		free(m);
	}
}

static void test_sha256(void **state) { (void)state, run(VG_HASH_SHA256); }
static void test_sha384(void **state) { (void)state, run(VG_HASH_SHA384); }
static void test_sha512(void **state) { (void)state, run(VG_HASH_SHA512); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_sha384),
		cmocka_unit_test(test_sha512),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
