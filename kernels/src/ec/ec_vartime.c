/* ec_vartime.c: the C double-scalar multiplication [u1]G + [u2]Q for
 * verification. VARIABLE TIME: its branches and table indices depend on
 * u1, u2 and Q, so it must only see public data (a signature, a digest
 * and a public key).
 *
 * Method: Straus-Shamir interleaving of two width-w NAFs, one doubling
 * chain. G uses width VG_EC_GNAF_W (10) and the build-time table of its
 * odd multiples G, 3G, ..., 511G (affine, mixed additions); Q uses width 5
 * and the odd multiples Q, 3Q, ..., 15Q computed here (projective). */
#include "ec/ec.h"

#define QNAF_W 5
#define QNAF_ENTRIES (1 << (QNAF_W - 2))
#define NAF_MAX (64 * VG_EC_MAX_LIMBS + 1)

/* Bits [bit, bit + now) of a (limbs words), now < 64. */
static uint64_t get_bits(const uint64_t *a, size_t limbs, size_t bit, size_t now)
{
	uint64_t v = a[bit / 64] >> (bit % 64);
	if (bit % 64 + now > 64 && bit / 64 + 1 < limbs)
		v |= a[bit / 64 + 1] << (64 - bit % 64);
	return v & (((uint64_t)1 << now) - 1);
}

/* Scans a + carry 2^bit from the bottom: a position whose effective bit is
 * 0 (the bit equals the carry) is skipped; otherwise the next w bits plus
 * the carry form an odd window, recentred below 2^(w-1) by taking 2^w off
 * and carrying 1 when it is not. The carry out of the top is one more
 * digit. */
size_t vg_ec_wnaf(int16_t *d, const uint64_t *a, size_t limbs, unsigned w)
{
	size_t nbits = 64 * limbs, len = 0, bit = 0;
	uint64_t carry = 0;

	for (size_t i = 0; i <= nbits; i++)
		d[i] = 0;
	while (bit < nbits) {
		if (((a[bit / 64] >> (bit % 64)) & 1) == carry) {
			bit++;
			continue;
		}
		size_t now = nbits - bit < w ? nbits - bit : w;
		uint64_t word = get_bits(a, limbs, bit, now) + carry; /* odd */
		carry = (word >> (w - 1)) & 1;
		d[bit] = (int16_t)((int)word - (int)(carry << w));
		len = bit + 1;
		bit += now;
	}
	if (carry) {
		d[nbits] = 1;
		len = nbits + 1;
	}
	return len;
}

void vg_ec_dsm_c(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *u1, const uint64_t *u2,
		 const vg_ec_point *q)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	int16_t d1[NAF_MAX], d2[NAF_MAX];
	vg_ec_point qt[QNAF_ENTRIES], q2, acc, neg;
	uint64_t ny[VG_EC_MAX_LIMBS];
	static const uint64_t zero[VG_EC_MAX_LIMBS];

	size_t l1 = vg_ec_wnaf(d1, u1, n, VG_EC_GNAF_W);
	size_t l2 = vg_ec_wnaf(d2, u2, n, QNAF_W);

	/* qt[j] = (2 j + 1) Q */
	qt[0] = *q;
	vg_ec_point_dbl(f, &q2, q);
	for (size_t j = 1; j < QNAF_ENTRIES; j++)
		vg_ec_point_add(f, &qt[j], &qt[j - 1], &q2);

	vg_ec_point_identity(f, &acc);
	int started = 0; /* doubling the identity is skipped, not wrong */
	for (size_t i = (l1 > l2 ? l1 : l2); i-- > 0;) {
		if (started)
			vg_ec_point_dbl(f, &acc, &acc);
		if (i < l1 && d1[i] != 0) {
			int m = d1[i] < 0 ? -d1[i] : d1[i];
			const uint64_t *e = c->g_odd + (size_t)(m / 2) * 2 * n;
			if (d1[i] > 0) {
				vg_ec_point_madd(f, &acc, &acc, e, e + n);
			} else {
				f->fe_sub(ny, zero, e + n);
				vg_ec_point_madd(f, &acc, &acc, e, ny);
			}
			started = 1;
		}
		if (i < l2 && d2[i] != 0) {
			int m = d2[i] < 0 ? -d2[i] : d2[i];
			if (d2[i] > 0) {
				vg_ec_point_add(f, &acc, &acc, &qt[m / 2]);
			} else {
				neg = qt[m / 2];
				f->fe_sub(neg.y, zero, neg.y);
				vg_ec_point_add(f, &acc, &acc, &neg);
			}
			started = 1;
		}
	}
	*r = acc;
}
