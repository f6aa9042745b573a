/* ec_base.c: the C fixed-base multiplication [k]G, constant time, and the
 * comb recoding every tier shares. Secret: k, its digits, every selected
 * table entry and every intermediate point. No branch or memory index
 * depends on them: each row is read in full and one entry kept under a
 * mask.
 *
 * Method (signed radix-2^7 comb without doublings). Write
 *   k = sum_{i < rows} d_i 128^i,  d_i in [-63, 64],
 * then [k]G = sum_i [d_i] (128^i G), and row i of the table holds
 * 1..64 times 128^i G (affine). Each row costs one 64-entry scan, a masked
 * negation for a negative digit and one mixed addition; a zero digit
 * keeps the sum through a masked move (the affine operand of the mixed
 * addition cannot be the identity). rows = 37 for P-256, 55 for P-384.
 * The C row adds with the complete formulas (ec_point.c); the assembly
 * tiers use Jacobian mixed additions, whose exceptional cases the
 * argument in kernels/x86_64/ec/ec_comb.asm rules out. */
#include "ec/ec.h"
#include "vg/wipe.h"

/* Digit i is window i of k plus the carry from window i - 1, recentred
 * into [-(2^(w-1) - 1), 2^(w-1)] by taking 2^w off (and carrying 1) when
 * it exceeds 2^(w-1). With w = 7 the top window of a 64 limbs-bit k holds
 * 4 bits (P-256) or 6 (P-384), with w = 5 one bit (P-256), so the last
 * digit is at most 2^(w-1) and no carry is left over. */
void vg_ec_comb_recode_w(int8_t *d, const uint64_t *k, size_t limbs, size_t rows, unsigned wb)
{
	uint64_t carry = 0, half = (uint64_t)1 << (wb - 1);

	for (size_t i = 0; i < rows; i++) {
		size_t bit = wb * i; /* public position */
		uint64_t w = bit / 64 < limbs ? k[bit / 64] >> (bit % 64) : 0;
		if (bit % 64 > 64 - wb && bit / 64 + 1 < limbs)
			w |= k[bit / 64 + 1] << (64 - bit % 64);
		w = (w & ((1u << wb) - 1)) + carry; /* in [0, 2^w] */
		carry = (w + half - 1) >> wb;      /* 1 iff w > 2^(w-1) */
		d[i] = (int8_t)(w - (carry << wb));
	}
}

void vg_ec_comb_recode(int8_t *d, const uint64_t *k, size_t limbs, size_t rows)
{
	vg_ec_comb_recode_w(d, k, limbs, rows, VG_EC_COMB_W);
}

/* (x, y) = [|digit|] 128^row G with the sign of digit applied: a scan of
 * the whole row, then y = p - y under the sign mask. For digit 0 nothing
 * is selected and (x, y) = (0, 0), which the caller discards. */
static void select_entry(const struct vg_ec_impl *f, uint64_t *x, uint64_t *y, size_t row,
			 int8_t digit)
{
	const struct vg_ec_curve *c = f->curve;
	size_t n = c->limbs;
	const uint64_t *e = c->comb + row * VG_EC_COMB_ENTRIES * 2 * n;
	uint64_t neg = (uint64_t)(uint8_t)digit >> 7;                          /* 1 if digit < 0 */
	uint64_t mag = (uint8_t)(((uint8_t)digit ^ (uint8_t)(0 - neg)) + neg); /* |digit| */
	static const uint64_t zero[VG_EC_MAX_LIMBS];
	uint64_t ny[VG_EC_MAX_LIMBS];

	for (size_t i = 0; i < n; i++)
		x[i] = y[i] = 0;
	for (size_t j = 0; j < VG_EC_COMB_ENTRIES; j++, e += 2 * n) {
		uint64_t m = vg_ct_barrier(vg_ct_mask(vg_ct_eq(mag, j + 1)));
		for (size_t i = 0; i < n; i++) {
			x[i] |= m & e[i];
			y[i] |= m & e[n + i];
		}
	}
	f->fe_sub(ny, zero, y); /* -y mod p */
	vg_ec_cmov(y, ny, n, neg);
	vg_wipe(ny, sizeof(ny));
}

void vg_ec_base_mul_c(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k)
{
	const struct vg_ec_curve *c = f->curve;
	int8_t d[VG_EC_COMB_ROWS(VG_EC_MAX_LIMBS)];
	uint64_t x[VG_EC_MAX_LIMBS], y[VG_EC_MAX_LIMBS];
	vg_ec_point acc, t;

	vg_ec_comb_recode(d, k, c->limbs, c->comb_rows);
	vg_ec_point_identity(f, &acc);
	for (size_t i = 0; i < c->comb_rows; i++) {
		select_entry(f, x, y, i, d[i]);
		vg_ec_point_madd(f, &t, &acc, x, y);
		vg_ec_point_cmov(f, &acc, &t, vg_ct_nonzero((uint64_t)(uint8_t)d[i]));
	}
	*r = acc;
	vg_wipe(d, sizeof(d));
	vg_wipe(x, sizeof(x));
	vg_wipe(y, sizeof(y));
	vg_wipe(&acc, sizeof(acc));
	vg_wipe(&t, sizeof(t));
}
