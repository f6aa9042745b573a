/* test_sha2_unit.c: SHA-2 API properties: incremental hashing with random
 * split points equals one-shot for every length across the padding
 * boundaries; vg_hash and vg_hash_len dispatch; final wipes the context. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vg/error.h"
#include "vg/sha2.h"

static uint64_t rng = 0x5eed5eed12345678;

static uint64_t next(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

#define MAXLEN 600

/* Split m into up to four random pieces (some possibly empty). */
static void splits(size_t len, size_t cut[3])
{
	for (int i = 0; i < 3; i++)
		cut[i] = len ? (size_t)(next() % (len + 1)) : 0;
	for (int i = 0; i < 3; i++) /* sort */
		for (int j = i + 1; j < 3; j++)
			if (cut[j] < cut[i]) {
				size_t t = cut[i];
				cut[i] = cut[j];
				cut[j] = t;
			}
}

static void test_incremental_equals_oneshot(void **state)
{
	(void)state;
	uint8_t m[MAXLEN];
	for (size_t i = 0; i < MAXLEN; i++)
		m[i] = (uint8_t)next();

	for (size_t len = 0; len <= MAXLEN; len++) {
		size_t cut[3];
		uint8_t a[64], b[64];
		splits(len, cut);
		size_t from[4] = {0, cut[0], cut[1], cut[2]}, to[4] = {cut[0], cut[1], cut[2], len};

		vg_sha256_ctx c256;
		vg_sha256(a, m, len);
		vg_sha256_init(&c256);
		for (int p = 0; p < 4; p++)
			vg_sha256_update(&c256, m + from[p], to[p] - from[p]);
		vg_sha256_final(&c256, b);
		assert_memory_equal(a, b, VG_SHA256_LEN);

		vg_sha384_ctx c384;
		vg_sha384(a, m, len);
		vg_sha384_init(&c384);
		for (int p = 0; p < 4; p++)
			vg_sha384_update(&c384, m + from[p], to[p] - from[p]);
		vg_sha384_final(&c384, b);
		assert_memory_equal(a, b, VG_SHA384_LEN);

		vg_sha512_ctx c512;
		vg_sha512(a, m, len);
		vg_sha512_init(&c512);
		for (int p = 0; p < 4; p++)
			vg_sha512_update(&c512, m + from[p], to[p] - from[p]);
		vg_sha512_final(&c512, b);
		assert_memory_equal(a, b, VG_SHA512_LEN);
	}
}

/* Appending one byte changes the digest: a check that the length and the
 * last partial block both reach the output, at every length. */
static void test_lengths_distinct(void **state)
{
	(void)state;
	uint8_t zeros[300] = {0}, a[64], b[64];
	for (size_t len = 0; len < sizeof(zeros); len++) {
		vg_sha256(a, zeros, len);
		vg_sha256(b, zeros, len + 1 <= sizeof(zeros) ? len + 1 : len);
		if (len + 1 <= sizeof(zeros))
			assert_memory_not_equal(a, b, VG_SHA256_LEN);
		vg_sha512(a, zeros, len);
		vg_sha512(b, zeros, len + 1 <= sizeof(zeros) ? len + 1 : len);
		if (len + 1 <= sizeof(zeros))
			assert_memory_not_equal(a, b, VG_SHA512_LEN);
	}
}

static void test_null_empty(void **state)
{
	(void)state;
	uint8_t a[64], b[64];
	vg_sha512(a, NULL, 0);
	vg_sha512(b, "", 0);
	assert_memory_equal(a, b, 64);
	vg_sha256_ctx c;
	vg_sha256_init(&c);
	vg_sha256_update(&c, NULL, 0);
	vg_sha256_final(&c, a);
	vg_sha256(b, "", 0);
	assert_memory_equal(a, b, 32);
}

static void test_dispatch(void **state)
{
	(void)state;
	const uint8_t msg[] = "dispatch";
	uint8_t a[64], b[64];

	assert_int_equal(vg_hash_len(VG_HASH_SHA256), 32);
	assert_int_equal(vg_hash_len(VG_HASH_SHA384), 48);
	assert_int_equal(vg_hash_len(VG_HASH_SHA512), 64);
	assert_int_equal(vg_hash_len((vg_hash_alg)0), 0);
	assert_int_equal(vg_hash_len((vg_hash_alg)4), 0);

	assert_int_equal(vg_hash(VG_HASH_SHA256, a, msg, sizeof(msg)), 0);
	vg_sha256(b, msg, sizeof(msg));
	assert_memory_equal(a, b, 32);
	assert_int_equal(vg_hash(VG_HASH_SHA384, a, msg, sizeof(msg)), 0);
	vg_sha384(b, msg, sizeof(msg));
	assert_memory_equal(a, b, 48);
	assert_int_equal(vg_hash(VG_HASH_SHA512, a, msg, sizeof(msg)), 0);
	vg_sha512(b, msg, sizeof(msg));
	assert_memory_equal(a, b, 64);

	memset(a, 0x5a, sizeof(a));
	assert_int_equal(vg_hash((vg_hash_alg)0, a, msg, sizeof(msg)), VG_E_INVALID);
	assert_int_equal(vg_hash((vg_hash_alg)99, a, msg, sizeof(msg)), VG_E_INVALID);
	for (size_t i = 0; i < sizeof(a); i++)
		assert_int_equal(a[i], 0x5a); /* untouched */
}

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t acc = 0;
	for (size_t i = 0; i < n; i++)
		acc |= b[i];
	return acc == 0;
}

static void test_final_wipes(void **state)
{
	(void)state;
	uint8_t out[64], msg[77];
	memset(msg, 0xc3, sizeof(msg));

	vg_sha256_ctx c256;
	vg_sha256_init(&c256);
	vg_sha256_update(&c256, msg, sizeof(msg));
	assert_false(all_zero(&c256, sizeof(c256)));
	vg_sha256_final(&c256, out);
	assert_true(all_zero(&c256, sizeof(c256)));

	vg_sha512_ctx c512;
	vg_sha512_init(&c512);
	vg_sha512_update(&c512, msg, sizeof(msg));
	vg_sha512_final(&c512, out);
	assert_true(all_zero(&c512, sizeof(c512)));

	vg_sha384_ctx c384;
	vg_sha384_init(&c384);
	vg_sha384_update(&c384, msg, sizeof(msg));
	vg_sha384_final(&c384, out);
	assert_true(all_zero(&c384, sizeof(c384)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental_equals_oneshot),
		cmocka_unit_test(test_lengths_distinct),
		cmocka_unit_test(test_null_empty),
		cmocka_unit_test(test_dispatch),
		cmocka_unit_test(test_final_wipes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
