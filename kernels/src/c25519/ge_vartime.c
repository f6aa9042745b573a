/* ge_vartime.c: [a]A + [b]B for signature verification. VARIABLE TIME:
 * the scalars and the point are public (the signature, the public key and
 * the hash of public data), so branches and table indices depend on them.
 * Never call this with a secret.
 *
 * Method: both scalars in width-w non-adjacent form (wNAF), interleaved
 * (Straus/Shamir): one doubling chain, an addition at each non-zero
 * digit. A uses width 5 (odd multiples A, 3A, ..., 15A built per call);
 * B uses width 8 with the static table vg_ge_base_odd (B, 3B, ..., 127B). */
#include <string.h>

#include "ge.h"
#include "ge_table.h"

/* naf[i] for i < 256 such that s = sum naf[i] 2^i, every non-zero digit
 * odd and below 2^(w-1) in absolute value, and any w consecutive digits
 * holding at most one non-zero. Requires s < 2^255 so that the at most
 * 2^(w-1) added by a negative digit cannot overflow 256 bits. */
void vg_ge_wnaf(int8_t naf[256], const uint8_t s[32], unsigned w)
{
	uint64_t k[4] = {0, 0, 0, 0};
	const uint64_t window = (uint64_t)1 << w;

	for (unsigned i = 0; i < 32; i++)
		k[i / 8] |= (uint64_t)s[i] << (8 * (i % 8));
	memset(naf, 0, 256);
	for (unsigned i = 0; i < 256; i++) {
		if (k[0] & 1) {
			/* The signed residue of k mod 2^w: subtracting it clears the
			 * low w bits, so the next w - 1 digits are zero. */
			uint64_t low = k[0] & (window - 1);
			if (low >= window / 2) {
				naf[i] = (int8_t)((int64_t)low - (int64_t)window);
				uint64_t add = window - low; /* k -= negative digit */
				for (unsigned l = 0; l < 4 && add; l++) {
					k[l] += add;
					add = k[l] < add;
				}
			} else {
				naf[i] = (int8_t)low;
				k[0] -= low; /* clears bits only: no borrow */
			}
		}
		/* k >>= 1 */
		k[0] = k[0] >> 1 | k[1] << 63;
		k[1] = k[1] >> 1 | k[2] << 63;
		k[2] = k[2] >> 1 | k[3] << 63;
		k[3] >>= 1;
	}
}

void vg_ge_double_scalarmult_vartime(vg_ge_p2 *r, const uint8_t a[32], const vg_ge_p3 *A,
				     const uint8_t b[32])
{
	int8_t anaf[256], bnaf[256];
	vg_ge_cached ai[8]; /* ai[j] = (2j + 1) A */
	vg_ge_cached neg;
	vg_ge_niels bneg;
	vg_ge_completed t;
	vg_ge_p3 u, a2;

	vg_ge_wnaf(anaf, a, 5);
	vg_ge_wnaf(bnaf, b, 8);

	vg_ge_p3_to_cached(&ai[0], A);
	vg_ge_p3_dbl(&t, A);
	vg_ge_completed_to_p3(&a2, &t);
	for (unsigned j = 1; j < 8; j++) {
		vg_ge_add_cached(&t, &a2, &ai[j - 1]);
		vg_ge_completed_to_p3(&u, &t);
		vg_ge_p3_to_cached(&ai[j], &u);
	}

	vg_ge_p2_identity(r);
	int i = 255;
	while (i >= 0 && anaf[i] == 0 && bnaf[i] == 0)
		i--;
	for (; i >= 0; i--) {
		vg_ge_p2_dbl(&t, r);
		if (anaf[i] > 0) {
			vg_ge_completed_to_p3(&u, &t);
			vg_ge_add_cached(&t, &u, &ai[anaf[i] / 2]);
		} else if (anaf[i] < 0) {
			vg_ge_completed_to_p3(&u, &t);
			vg_ge_cached_neg(&neg, &ai[-anaf[i] / 2]);
			vg_ge_add_cached(&t, &u, &neg);
		}
		if (bnaf[i] > 0) {
			vg_ge_completed_to_p3(&u, &t);
			vg_ge_add_niels(&t, &u, &vg_ge_base_odd[bnaf[i] / 2]);
		} else if (bnaf[i] < 0) {
			vg_ge_completed_to_p3(&u, &t);
			bneg = vg_ge_base_odd[-bnaf[i] / 2];
			vg_ge_niels_cneg(&bneg, 1);
			vg_ge_add_niels(&t, &u, &bneg);
		}
		vg_ge_completed_to_p2(r, &t);
	}
}
