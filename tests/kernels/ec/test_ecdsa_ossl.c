/* test_ecdsa_ossl.c: ECDSA against OpenSSL libcrypto on random keys and
 * digests, per curve:
 *   - the public key from the private key equals OpenSSL's d G;
 *   - two hedged signatures of the same digest differ, and OpenSSL and
 *     vg_ecdsa_verify accept both;
 *   - a signature made by OpenSSL verifies with vg_ecdsa_verify;
 *   - a signature with one bit changed is refused by both.
 * Digest lengths vary (20, 32, 48, 64 bytes) so bits2int truncation and
 * padding are exercised. Usage: test_ecdsa_ossl [COUNT] (keys per curve;
 * default 1000, the brief's minimum; the default suite runs fewer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "ecdsa_testutil.h"
#include "vg/ecdsa.h"

/* Count a failed expectation for curve c, key i (in scope), and go on. */
#define CHECK(cond, what)                                                           \
	do {                                                                        \
		if (!(cond)) {                                                      \
			fprintf(stderr, "curve %d key %ld: %s\n", (int)c, i, what); \
			failures++;                                                 \
		}                                                                   \
	} while (0)

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 1000;
	static const vg_ecdsa_curve curves[2] = {VG_ECDSA_P256, VG_ECDSA_P384};
	static const size_t dlens[4] = {20, 32, 48, 64};
	vg_ecdsa_key *key = malloc(vg_ecdsa_key_size());
	uint64_t rng;
	long failures = 0, checked = 0;

	/* a fresh seed each run (printed, so a failure can be replayed) */
	if (!key || getrandom(&rng, sizeof(rng), 0) != (ssize_t)sizeof(rng))
		return 2;
	if (argc > 2)
		rng = strtoull(argv[2], NULL, 0);
	tec_expect_variant("test_ecdsa_ossl");
	printf("test_ecdsa_ossl: %ld keys per curve, seed 0x%016llx\n", count,
	       (unsigned long long)rng);

	for (int ci = 0; ci < 2; ci++) {
		vg_ecdsa_curve c = curves[ci];
		size_t len = vg_ecdsa_scalar_len(c), slen = 2 * len, plen, wl;
		for (long i = 0; i < count; i++) {
			uint8_t d[48], digest[64], s1[96], s2[96], so[96], want[97];
			size_t dl = dlens[i % 4];
			/* any d in [1, n - 1]: random bytes, retried if out of range */
			do
				tec_rand_bytes(&rng, d, len);
			while (vg_ecdsa_private_check(c, d, len) != 0);
			tec_rand_bytes(&rng, digest, dl);

			CHECK(vg_ecdsa_key_init(key, c, d, len) == 0, "key_init");
			const uint8_t *pub = vg_ecdsa_key_public(key, &plen);
			tos_mul(c, want, &wl, d, len, NULL);
			CHECK(wl == plen && memcmp(pub, want, plen) == 0,
			      "public key differs from OpenSSL");

			CHECK(vg_ecdsa_sign(key, digest, dl, s1, slen) == 0, "sign");
			CHECK(vg_ecdsa_sign(key, digest, dl, s2, slen) == 0, "sign");
			CHECK(memcmp(s1, s2, slen) != 0, "two hedged signatures are equal");
			CHECK(tos_verify(c, pub, digest, dl, s1), "OpenSSL rejects our signature");
			CHECK(tos_verify(c, pub, digest, dl, s2), "OpenSSL rejects our signature");
			CHECK(vg_ecdsa_verify(c, pub, plen, digest, dl, s1, slen) == 0,
			      "verify ours");
			tos_sign(c, d, digest, dl, so);
			CHECK(vg_ecdsa_verify(c, pub, plen, digest, dl, so, slen) == 0,
			      "OpenSSL's signature refused");
			if (i % 8 == 0) {
				size_t bit = tec_rand(&rng) % (8 * slen);
				s1[bit / 8] ^= (uint8_t)(1u << (bit % 8));
				CHECK(!tos_verify(c, pub, digest, dl, s1),
				      "OpenSSL accepts a changed one");
				CHECK(vg_ecdsa_verify(c, pub, plen, digest, dl, s1, slen) ==
					      VG_E_VERIFY,
				      "a changed signature verifies");
			}
			checked++;
		}
	}
	vg_ecdsa_key_wipe(key);
	free(key);
	printf("test_ecdsa_ossl: %ld keys checked, %ld failures\n", checked, failures);
	return failures || checked != 2 * count ? 1 : 0;
}
