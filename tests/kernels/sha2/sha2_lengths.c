/* sha2_lengths.c: prints "alg length hexdigest" for a fixed byte pattern
 * at every length from 0 to 1100 (all padding boundaries of both block
 * sizes, several times over), hashed incrementally in 37-byte pieces.
 * check_lengths.py compares the lines with Python's hashlib, an
 * independent implementation. Test-only. */
#include <stdio.h>
#include <stdint.h>

#include "vg/sha2.h"

#define MAXLEN 1100

static uint8_t pattern(size_t i) { return (uint8_t)(i * 31 + 7); }

static void put(const char *alg, size_t len, const uint8_t *d, size_t n)
{
	printf("%s %zu ", alg, len);
	for (size_t i = 0; i < n; i++)
		printf("%02x", d[i]);
	printf("\n");
}

int main(void)
{
	static uint8_t m[MAXLEN];
	uint8_t d[64];

	for (size_t i = 0; i < MAXLEN; i++)
		m[i] = pattern(i);
	for (size_t len = 0; len <= MAXLEN; len++) {
		vg_sha256_ctx c256;
		vg_sha512_ctx c512;
		vg_sha384_ctx c384;

		vg_sha256_init(&c256);
		vg_sha384_init(&c384);
		vg_sha512_init(&c512);
		for (size_t off = 0; off < len; off += 37) {
			size_t n = len - off < 37 ? len - off : 37;
			vg_sha256_update(&c256, m + off, n);
			vg_sha384_update(&c384, m + off, n);
			vg_sha512_update(&c512, m + off, n);
		}
		vg_sha256_final(&c256, d);
		put("sha256", len, d, VG_SHA256_LEN);
		vg_sha384_final(&c384, d);
		put("sha384", len, d, VG_SHA384_LEN);
		vg_sha512_final(&c512, d);
		put("sha512", len, d, VG_SHA512_LEN);
	}
	return 0;
}
