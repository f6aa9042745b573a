/* rsa_mb_impl.h: the rsa_mb kernel family (dispatch.h): radix-2^52
 * "almost Montgomery" arithmetic on eight independent numbers at once, one
 * per 64-bit lane, and the batched exponentiation built on it
 * (rsa_mb_exp.c), which vg_rsa_private_mb (vg/rsa_mb.h) runs the CRT
 * halves of several operations through.
 *
 * Layout ("transposed"): a batch number of L digits is L * 8 qwords, digit
 * j of lane l at index 8 j + l, so that digit j of all eight lanes is one
 * zmm register. Digits are below 2^52. Each lane has its own odd modulus
 * m_l (4 m_l < 2^(52 L)) and k0_l = -m_l^-1 mod 2^52.
 *
 * Secret: every operand, modulus, k0 and table index. Public: L, the
 * number of lanes in use, exponent bit lengths. */
#ifndef VG_RSA_MB_IMPL_H
#define VG_RSA_MB_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

#define VG_RSA_MB_LANES 8
/* Digits of the largest half (a 2048-bit prime, RSA-4096). */
#define VG_RSA_MB_MAX_DIGITS 40
/* Window bits of the batched exponentiation and its table's entry count. */
#define VG_RSA_MB_WINDOW 5
#define VG_RSA_MB_TABLE (1 << VG_RSA_MB_WINDOW)

/* r = a b 2^(-52 L) mod m "almost", lane by lane: for a, b < 2 m_l the
 * result is below 2 m_l (no final subtraction); also for a < m_l and any
 * b < 2^(52 L) (the input's reduction). Digits of the result are below
 * 2^52, the value is the unique one of the digit-serial method (y_i from
 * the exact running sum), so every row gives the same bits. k0[l] per
 * lane. r may alias a or b. */
typedef void vg_amm52mb_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
			   const uint64_t *k0);

/* sel = table[idx[l]] in lane l: VG_RSA_MB_TABLE entries of L * 8 qwords
 * each (transposed), every entry read whole, one kept per lane under a
 * mask built from idx (secret, each below VG_RSA_MB_TABLE). */
typedef void vg_rsa52mb_select_fn(uint64_t *sel, const uint64_t *table, const uint64_t *idx);

/* acc = acc^(2^nsq) sel "almost" 2^(-52 L (nsq + 1)), lane by lane, where
 * sel is table[idx[l]] in lane l (as vg_rsa52mb_select_fn reads it): nsq
 * (public) squarings of acc, then a multiply by sel, each as
 * vg_amm52mb_fn (the same bits as a table read and nsq + 1 calls of it);
 * acc and every entry < 2 m_l. One window of the exponentiation in one
 * call, its table read included (a row may fuse it into the multiply). */
typedef void vg_amm52mb_win_fn(uint64_t *acc, const uint64_t *table, const uint64_t *idx,
			       const uint64_t *m, const uint64_t *k0, size_t nsq);

/* Slots by size: 20, 30 and 40 digits (the halves of RSA-2048, 3072 and
 * 4096; vg_rsa_mb_digits). */
#define VG_RSA_MB_SIZES 3
extern const size_t vg_rsa_mb_digits[VG_RSA_MB_SIZES];

struct vg_rsa_mb_impl {
	struct vg_variant v;
	vg_amm52mb_fn *mul[VG_RSA_MB_SIZES];
	vg_amm52mb_fn *sqr[VG_RSA_MB_SIZES]; /* called with b == a; the same bits as mul */
	vg_rsa52mb_select_fn *select[VG_RSA_MB_SIZES];
	vg_amm52mb_win_fn *win[VG_RSA_MB_SIZES];
};

/* The table (rsa_mb_impls.c): row 0 the C reference, then the ifma row. */
extern const struct vg_rsa_mb_impl vg_rsa_mb_impls[];
extern const size_t vg_rsa_mb_nimpls;
/* The chosen row (dispatch.c). Never NULL. */
const struct vg_rsa_mb_impl *vg_rsa_mb_impl(void);

/* The portable references, for any L <= VG_RSA_MB_MAX_DIGITS (the C
 * row's slots wrap them). */
void vg_amm52mb_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
		  const uint64_t *k0, size_t L);
void vg_rsa52mb_select_c(uint64_t *sel, const uint64_t *table, const uint64_t *idx, size_t L);

/* The assembly (kernels/x86_64/rsa/amm52mb_ifma.asm), only with asm. */
vg_amm52mb_fn vg_amm52mb_ifma_20, vg_amm52mb_sqr_ifma_20, vg_amm52mb_ifma_30, vg_amm52mb_ifma_40;
vg_amm52mb_fn vg_amm52mb_sqr_ifma_30, vg_amm52mb_sqr_ifma_40;
vg_amm52mb_win_fn vg_amm52mb_win_ifma_20;
/* r = a table[idx] "almost" with the table read fused into the multiply's
 * loop (vg_amm52mb_fn's contract for b = table[idx], read as
 * vg_rsa52mb_select_fn does; r may alias a). */
void vg_amm52mb_mulsel_ifma_30(uint64_t *r, const uint64_t *a, const uint64_t *table,
			       const uint64_t *idx, const uint64_t *m, const uint64_t *k0);
void vg_amm52mb_mulsel_ifma_40(uint64_t *r, const uint64_t *a, const uint64_t *table,
			       const uint64_t *idx, const uint64_t *m, const uint64_t *k0);
vg_rsa52mb_select_fn vg_rsa52mb_select_ifma_20, vg_rsa52mb_select_ifma_30,
	vg_rsa52mb_select_ifma_40;

/* One lane of a batched exponentiation: r = x^e mod m, fully reduced,
 * times the factor "out" (r = x^e out mod m). All pointers are the key's
 * own arrays (vg_rsa52 of rsa52.h, one half of it), read in place:
 *   m52, rr52, hi52, out52: L digits each (radix 2^52, not transposed):
 *     m, 2^(104 L) mod m, 2^(64 limbs + 52 L) mod m, the output factor;
 *   k0: -m^-1 mod 2^52;
 *   m64: m in limbs 64-bit limbs (for the final subtraction);
 *   e: the exponent, read at the batch's public length ebits;
 *   x: the input, 2 limbs limbs (any value below 2^(128 limbs));
 *   r: the result, limbs limbs. */
struct vg_rsa_mb_lane {
	const uint64_t *m52, *rr52, *hi52, *out52;
	uint64_t k0;
	const uint64_t *m64, *e, *x;
	uint64_t *r;
};

/* Exponentiate nl (1..VG_RSA_MB_LANES) lanes at once with row im's slot
 * for L digits (20, 30 or 40; limbs = 16, 24 or 32 accordingly); lanes
 * nl.. of the batch are idle (zero). Fixed VG_RSA_MB_WINDOW-bit windows,
 * the table read by a masked scan in every lane; nothing depends on a
 * secret but time on L, nl and ebits. */
void vg_rsa_mb_exp(const struct vg_rsa_mb_impl *im, size_t L, size_t limbs,
		   const struct vg_rsa_mb_lane *lanes, size_t nl, size_t ebits);

#endif
