/* test_sig_der.c: vgbench's raw r||s <-> DER conversion (sig_der.c), on
 * hand-written encodings: a wrong conversion would make the ECDSA
 * cross-check compare garbage. Nothing here is secret. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static int failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                   \
		}                                                                     \
	} while (0)

/* r has its top bit set (DER adds a 0x00), s is 5 (DER drops 31 zeros). */
static void test_padding_and_stripping(void)
{
	uint8_t raw[64] = {0}, der[VG_BENCH_DER_MAX], back[64];
	uint8_t want[40] = {0x30, 0x26, 0x02, 0x21, 0x00, 0x80};
	raw[0] = 0x80;
	memset(raw + 1, 0x11, 31);
	raw[63] = 5;
	memset(want + 6, 0x11, 31);
	want[37] = 0x02;
	want[38] = 0x01;
	want[39] = 0x05;
	int n = vg_bench_sig_to_der(der, sizeof(der), raw, 32);
	CHECK(n == 40);
	CHECK(n == 40 && memcmp(der, want, 40) == 0);
	CHECK(vg_bench_sig_to_raw(back, 32, want, 40) == 64);
	CHECK(memcmp(back, raw, 64) == 0);
}

/* A leading zero byte before a byte below 0x80 is dropped, not kept. */
static void test_leading_zero(void)
{
	uint8_t raw[64], der[VG_BENCH_DER_MAX], back[64];
	memset(raw, 0x7f, sizeof(raw));
	raw[0] = 0;
	int n = vg_bench_sig_to_der(der, sizeof(der), raw, 32);
	CHECK(n == 2 + 2 + 31 + 2 + 32);
	CHECK(der[2] == 0x02 && der[3] == 31 && der[4] == 0x7f);
	CHECK(vg_bench_sig_to_raw(back, 32, der, (size_t)n) == 64);
	CHECK(memcmp(back, raw, 64) == 0);
}

/* P-384 sizes, every byte pattern of the top byte class. */
static void test_roundtrip_p384(void)
{
	uint8_t raw[96], der[VG_BENCH_DER_MAX], back[96];
	for (unsigned top = 0; top < 256; top += 51) {
		for (size_t i = 0; i < sizeof(raw); i++)
			raw[i] = (uint8_t)(i * 37 + top);
		raw[0] = raw[48] = (uint8_t)top;
		int n = vg_bench_sig_to_der(der, sizeof(der), raw, 48);
		CHECK(n > 0 && n <= VG_BENCH_DER_MAX);
		CHECK(vg_bench_sig_to_raw(back, 48, der, (size_t)n) == 96);
		CHECK(memcmp(back, raw, 96) == 0);
	}
}

static void test_rejects(void)
{
	uint8_t out[64];
	static const uint8_t negative[] = {0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x01};
	static const uint8_t not_minimal[] = {0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01};
	static const uint8_t trailing[] = {0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00};
	static const uint8_t short_seq[] = {0x30, 0x05, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
	static const uint8_t long_form[] = {0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
	static const uint8_t not_int[] = {0x30, 0x06, 0x04, 0x01, 0x01, 0x02, 0x01, 0x01};
	static const uint8_t ok[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02};
	CHECK(vg_bench_sig_to_raw(out, 32, ok, sizeof(ok)) == 64);
	CHECK(out[31] == 1 && out[63] == 2 && out[0] == 0 && out[32] == 0);
	CHECK(vg_bench_sig_to_raw(out, 32, negative, sizeof(negative)) < 0);
	CHECK(vg_bench_sig_to_raw(out, 32, not_minimal, sizeof(not_minimal)) < 0);
	CHECK(vg_bench_sig_to_raw(out, 32, trailing, sizeof(trailing)) < 0);
	CHECK(vg_bench_sig_to_raw(out, 32, short_seq, sizeof(short_seq)) < 0);
	CHECK(vg_bench_sig_to_raw(out, 32, long_form, sizeof(long_form)) < 0);
	CHECK(vg_bench_sig_to_raw(out, 32, not_int, sizeof(not_int)) < 0);
	/* An integer longer than the curve's scalars. */
	uint8_t big[2 + 2 + 33 + 3] = {0x30, 2 + 33 + 3, 0x02, 33};
	memset(big + 4, 0x22, 33);
	big[37] = 0x02;
	big[38] = 0x01;
	big[39] = 0x01;
	CHECK(vg_bench_sig_to_raw(out, 32, big, sizeof(big)) < 0);
	CHECK(vg_bench_sig_to_raw(out, 48, big, sizeof(big)) == 96);
}

int main(void)
{
	test_padding_and_stripping();
	test_leading_zero();
	test_roundtrip_p384();
	test_rejects();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures != 0;
}
