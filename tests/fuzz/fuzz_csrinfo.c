/* fuzz_csrinfo.c: libFuzzer target for vg_csr_info_check, the keyholder's
 * check of a certificate request before ALG csr signs it, and the DER
 * header reader under it. Properties: no read outside the input (ASan);
 * a header read back is the one vg_der_hdr writes (only minimal lengths
 * pass); an accepted input is a SEQUENCE within the size bounds, holds
 * the key's SubjectPublicKeyInfo, is no TLS 1.3 content, and is refused
 * one byte shorter, one byte longer, and for the other key. Public data. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "vg/proto.h"
#include "vg/proto_tls13.h"
#include "vg/proto_x509.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two keys: RFC 8410's Ed25519 example, and a P-256 "point" (the check
 * compares bytes, so any 04 || X || Y does). The seeds are requests for
 * them (corpus/fuzz_csrinfo). */
static const uint8_t ed_pub[32] = {0x19, 0xbf, 0x44, 0x09, 0x69, 0x84, 0xcd, 0xfe, 0x85, 0x41, 0xba,
				   0xc1, 0x67, 0xdc, 0x3b, 0x96, 0xc8, 0x50, 0x86, 0xaa, 0x30, 0xb6,
				   0xb6, 0xcb, 0x0c, 0x5c, 0x38, 0xad, 0x70, 0x31, 0x66, 0xe1};
static uint8_t spki[2][VG_SPKI_MAX];
static size_t spki_len[2];
static uint8_t longer[VG_CSR_INFO_MAX + 1];

static void keys_once(void)
{
	uint8_t point[65];

	if (spki_len[0] != 0)
		return;
	memset(point, 0x5a, sizeof(point));
	point[0] = 0x04;
	spki_len[0] = vg_spki_encode(VG_KEY_ED25519, ed_pub, 32, NULL, 0, spki[0], VG_SPKI_MAX);
	spki_len[1] = vg_spki_encode(VG_KEY_ECDSA_P256, point, 65, NULL, 0, spki[1], VG_SPKI_MAX);
	CHECK(spki_len[0] == 44 && spki_len[1] == 91);
}

static int contains(const uint8_t *h, size_t hn, const uint8_t *n, size_t nn)
{
	for (size_t i = 0; nn <= hn && i <= hn - nn; i++)
		if (memcmp(h + i, n, nn) == 0)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *hash;
	size_t len, hash_len;

	keys_once();
	if (size > 0) {
		size_t h = vg_der_read(data, size, data[0], &len);
		if (h != 0) {
			uint8_t again[VG_DER_HDR_MAX];
			CHECK(h <= size && len <= size - h);
			CHECK(vg_der_hdr(again, data[0], len) == h && memcmp(again, data, h) == 0);
		}
	}
	for (int k = 0; k < 2; k++) {
		int r = vg_csr_info_check(data, size, spki[k], spki_len[k]);
		CHECK(r == 0 || r == -1);
		if (r != 0)
			continue;
		CHECK(size >= VG_CSR_INFO_MIN && size <= VG_CSR_INFO_MAX && data[0] == 0x30);
		CHECK(contains(data, size, spki[k], spki_len[k]));
		CHECK(vg_tls13_parse(data, size, &hash, &hash_len) == 0);
		CHECK(vg_csr_info_check(data, size - 1, spki[k], spki_len[k]) == -1);
		memcpy(longer, data, size);
		longer[size] = 0;
		CHECK(vg_csr_info_check(longer, size + 1, spki[k], spki_len[k]) == -1);
		CHECK(vg_csr_info_check(data, size, spki[1 - k], spki_len[1 - k]) == -1);
	}
	return 0;
}
