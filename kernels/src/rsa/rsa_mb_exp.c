/* rsa_mb_exp.c: the batched exponentiation of the rsa_mb family
 * (rsa_mb_impl.h): up to eight independent x^e mod m at once, one per
 * lane, on a row's eight-lane multiply and table read. Secret: every
 * modulus, constant, exponent, input and intermediate. Public: L, limbs,
 * the number of lanes, ebits. Loops and branches depend only on those; the
 * table is read by a masked scan; each lane's radix conversions are fixed
 * sequences of shifts and masks. */
#include <stddef.h>

#include "rsa/bn.h"
#include "rsa/rsa52.h"
#include "rsa/rsa_mb_impl.h"
#include "vg/wipe.h"

#define LANES VG_RSA_MB_LANES
#define MAXD VG_RSA_MB_MAX_DIGITS
#define WBITS VG_RSA_MB_WINDOW
#define TABLE VG_RSA_MB_TABLE

/* Stack scratch of one batch, wiped as a whole (about 100 KiB). Vector
 * operands are 64-byte aligned: a zmm load across two cache lines costs
 * more. table holds TABLE entries of LANES * L qwords, packed. */
struct mb_scratch {
	_Alignas(64) uint64_t table[TABLE * LANES * MAXD];
	_Alignas(64) uint64_t acc[LANES * MAXD];
	_Alignas(64) uint64_t m[LANES * MAXD];
	_Alignas(64) uint64_t rr[LANES * MAXD];
	_Alignas(64) uint64_t t[LANES * MAXD];
	_Alignas(64) uint64_t u[LANES * MAXD];
	_Alignas(64) uint64_t k0[LANES];
	_Alignas(64) uint64_t idx[LANES];
	uint64_t d[MAXD];                    /* one lane's digits */
	uint64_t w[VG_BN_MAX_LIMBS / 2 + 1]; /* one lane's limbs, and one more */
	uint64_t v[VG_BN_MAX_LIMBS / 2 + 1];
};

/* Lane l of the transposed x = the L digits d, and back. */
static void put_lane(uint64_t *x, size_t l, const uint64_t *d, size_t L)
{
	for (size_t j = 0; j < L; j++)
		x[LANES * j + l] = d[j];
}

static void get_lane(uint64_t *d, const uint64_t *x, size_t l, size_t L)
{
	for (size_t j = 0; j < L; j++)
		d[j] = x[LANES * j + l];
}

/* The window digits at bit pos of every lane's exponent (idle lanes 0). */
static void windows_at(uint64_t *idx, const struct vg_rsa_mb_lane *lanes, size_t nl, size_t pos,
		       size_t ebits)
{
	for (size_t l = 0; l < LANES; l++)
		idx[l] = l < nl ? vg_bn_window(lanes[l].e, pos, ebits, WBITS) : 0;
}

static int slot_of(size_t L)
{
	for (int k = 0; k < VG_RSA_MB_SIZES; k++)
		if (vg_rsa_mb_digits[k] == L)
			return k;
	return -1;
}

void vg_rsa_mb_exp(const struct vg_rsa_mb_impl *im, size_t L, size_t limbs,
		   const struct vg_rsa_mb_lane *lanes, size_t nl, size_t ebits)
{
	struct mb_scratch s;
	int k = slot_of(L);
	size_t E = LANES * L; /* qwords of one batch number */
	size_t windows = (ebits + WBITS - 1) / WBITS;
	uint64_t *tab = s.table;

	/* L, nl and ebits are public and checked by the caller; this guard
	 * keeps a wrong call from reading past the scratch. */
	if (k < 0 || nl == 0 || nl > LANES || windows == 0 || 52 * L < 64 * limbs + 2)
		return;
	vg_amm52mb_fn *mul = im->mul[k];
	vg_amm52mb_win_fn *win = im->win[k];
	vg_rsa52mb_select_fn *select = im->select[k];

	vg_wipe(&s.acc, sizeof(s) - offsetof(struct mb_scratch, acc));
	vg_wipe(tab, TABLE * E * sizeof(tab[0]));
	/* The lanes' constants, transposed; idle lanes stay zero, and a zero
	 * modulus with zero operands keeps every digit of those lanes zero. */
	for (size_t l = 0; l < nl; l++) {
		put_lane(s.m, l, lanes[l].m52, L);
		put_lane(s.rr, l, lanes[l].rr52, L);
		s.k0[l] = lanes[l].k0;
	}

	/* Enter the domain, x of 2 limbs limbs: x = hi 2^(64 limbs) + lo;
	 * u = hi 2^(64 limbs) mod m (almost) by one multiply of hi (below
	 * 2^(52 L)) by the constant 2^(64 limbs + 52 L) mod m; then lo + u <
	 * 2^(64 limbs) + 2 m < 2^(52 L), a valid b for the multiply by
	 * 2^(104 L) that gives table[1] = x 2^(52 L) mod m (almost). */
	for (size_t l = 0; l < nl; l++) {
		vg_rsa52_to52(s.d, L, lanes[l].x + limbs, limbs);
		put_lane(s.t, l, s.d, L);
		put_lane(s.u, l, lanes[l].hi52, L);
	}
	mul(s.acc, s.u, s.t, s.m, s.k0);
	for (size_t l = 0; l < nl; l++) {
		get_lane(s.d, s.acc, l, L);
		vg_rsa52_from52(s.w, limbs + 1, s.d, L);
		s.w[limbs] += vg_bn_add(s.w, s.w, lanes[l].x, limbs);
		vg_rsa52_to52(s.d, L, s.w, limbs + 1);
		put_lane(s.t, l, s.d, L);
	}
	mul(tab + E, s.rr, s.t, s.m, s.k0);
	/* table[0] = 2^(52 L) mod m (almost), table[i] = x^i 2^(52 L). */
	vg_wipe(s.t, E * sizeof(s.t[0]));
	for (size_t l = 0; l < nl; l++)
		s.t[l] = 1;
	mul(tab, s.rr, s.t, s.m, s.k0);
	for (size_t i = 2; i < TABLE; i++)
		mul(tab + i * E, tab + (i - 1) * E, tab + E, s.m, s.k0);

	/* Fixed windows from the top, at the public length ebits. */
	windows_at(s.idx, lanes, nl, WBITS * (windows - 1), ebits);
	select(s.acc, tab, s.idx);
	for (size_t w = windows - 1; w-- > 0;) {
		windows_at(s.idx, lanes, nl, WBITS * w, ebits);
		win(s.acc, tab, s.idx, s.m, s.k0, WBITS);
	}

	/* Leave the domain times each lane's factor: acc out 2^(-52 L) is
	 * below m + 2 m^2 2^(-52 L) < 2 m (out < m), so one conditional
	 * subtraction on limbs + 1 limbs reduces it fully. */
	for (size_t l = 0; l < nl; l++)
		put_lane(s.t, l, lanes[l].out52, L);
	mul(s.acc, s.acc, s.t, s.m, s.k0);
	for (size_t l = 0; l < nl; l++) {
		get_lane(s.d, s.acc, l, L);
		vg_rsa52_from52(s.w, limbs + 1, s.d, L);
		for (size_t i = 0; i < limbs; i++)
			s.v[i] = lanes[l].m64[i];
		s.v[limbs] = 0;
		uint64_t borrow = vg_bn_sub(s.v, s.w, s.v, limbs + 1);
		vg_bn_ccopy(borrow ^ 1, s.w, s.v, limbs);
		for (size_t i = 0; i < limbs; i++)
			lanes[l].r[i] = s.w[i];
	}
	vg_wipe(tab, TABLE * E * sizeof(tab[0]));
	vg_wipe(&s.acc, sizeof(s) - offsetof(struct mb_scratch, acc));
}
