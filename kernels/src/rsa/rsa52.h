/* rsa52.h: RSA in radix 2^52, the method of the ifma row (rsa_impl.h):
 * both CRT exponentiations at once with "almost Montgomery" multiplication
 * (amm52_ifma.asm), the two halves side by side in one call, and the
 * public exponentiation with the single multiply.
 * Secret: the primes, their exponents and constants, every operand and
 * intermediate. Public: digit counts, bit lengths. */
#ifndef VG_RSA_RSA52_H
#define VG_RSA_RSA52_H

#include <stddef.h>
#include <stdint.h>

/* Digits of the largest half supported (a 2048-bit prime: 40 x 52 = 2080
 * bits, leaving 4 m < 2^(52 L)) and the qword stride of one half inside a
 * pair (digits rounded up to 8, a whole number of zmm registers). */
#define VG_RSA52_MAX_DIGITS 40
/* Digits of the largest public modulus (4096 bits: 80 x 52 = 4160). */
#define VG_RSA52_PUB_MAX_DIGITS 80
#define VG_RSA52_STRIDE(L) ((((L) + 7) / 8) * 8)
/* Window bits of the paired exponentiation and its table's entry count. */
#define VG_RSA52_WINDOW 5
#define VG_RSA52_TABLE (1 << VG_RSA52_WINDOW)

/* r = a b 2^(-52 L) mod m "almost", for each of two halves at qword offset
 * h * VG_RSA52_STRIDE(L): digits < 2^52, a, b < 2 m_h, result < 2 m_h
 * normalised; k0[h] = -m_h^-1 mod 2^52. r may alias a or b. Also for
 * a < m_h and any b < 2^(52 L) (the input's reduction, vg_rsa52_exp2):
 * the accumulator stays below a + m_h whatever b's digits, and the result
 * below a b 2^(-52 L) + m_h < 2 m_h. */
typedef void vg_amm52x2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
			   const uint64_t *k0);

/* acc = acc^(2^nsq) sel "almost" 2^(-52 L (nsq + 1)), for each half (the
 * layout of vg_amm52x2_fn): nsq squarings of acc, then a multiply by sel,
 * each as vg_amm52x2_fn (so the result is the same as nsq + 1 calls of
 * it); acc, sel < 2 m_h; nsq public. One window of the exponentiation in
 * one call. */
typedef void vg_amm52x2w_fn(uint64_t *acc, const uint64_t *sel, const uint64_t *m,
			    const uint64_t *k0, size_t nsq);

/* sel = table[ip] for half 0 and table[iq] for half 1 (VG_RSA52_TABLE entries of
 * 2 * VG_RSA52_MAX_DIGITS qwords, halves VG_RSA52_STRIDE(L) qwords each),
 * reading every entry whole: the indices are secret. The digits L.. of
 * each half are zero in every entry (the multiplies keep them zero); the
 * 20-digit read does not load digits 20..23 and writes them zero. */
typedef void vg_rsa52_select2_fn(uint64_t *sel, const uint64_t *table, uint64_t ip, uint64_t iq);

/* The assembly (kernels/x86_64/rsa/), defined only when the build has it. */
vg_amm52x2_fn vg_amm52x2_ifma_20, vg_amm52x2_ifma_30, vg_amm52x2_ifma_40;
vg_amm52x2w_fn vg_amm52x2w_ifma_20, vg_amm52x2w_ifma_30, vg_amm52x2w_ifma_40;
/* Single multiplies for the public operation (one number, k0[0]). */
vg_amm52x2_fn vg_amm52x1_ifma_40, vg_amm52x1_ifma_60, vg_amm52x1_ifma_80;
vg_rsa52_select2_fn vg_rsa52_select2_ifma_24, vg_rsa52_select2_ifma_32, vg_rsa52_select2_ifma_40;

/* The paired functions of one row for one digit count L (rsa_impl.h):
 * the multiply (the table, leaving the domain), the table read, and the
 * window: the squarings and the multiply by the entry read (the ifma
 * row's in one call, which keeps m in registers and the frame from one
 * multiply to the next; at 30 and 40 digits its squarings skip the cross
 * products already counted, inside the multiply's digit loop, where a
 * separate product-then-reduce squaring had measured slower; at 20
 * digits the multiply squares faster on an idle core: amm52_ifma.asm). */
struct vg_rsa52_impl {
	vg_amm52x2_fn *mul;
	vg_rsa52_select2_fn *select;
	vg_amm52x2w_fn *win;
};

/* d[0..L) = a[0..n) (64-bit limbs) in radix 2^52, digits above a zero
 * (bit positions are public; constant time in the values). */
void vg_rsa52_to52(uint64_t *d, size_t L, const uint64_t *a, size_t n);
/* a[0..n) = d[0..L) (digits < 2^52; bits beyond 64 n dropped). */
void vg_rsa52_from52(uint64_t *a, size_t n, const uint64_t *d, size_t L);

/* The portable references (the C row's radix-2^52 functions wrap them):
 * vg_amm52_c is one half of the paired multiply, with L digits and
 * k0 = -m^-1 mod 2^52; r may alias a or b. vg_rsa52_select2_c is the
 * paired table read for halves S qwords apart, a masked scan of every
 * entry. vg_amm52x2w_c is the window for L digits, by vg_amm52_c. */
void vg_amm52_c(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t k0,
		size_t L);
void vg_amm52x2w_c(uint64_t *acc, const uint64_t *sel, const uint64_t *m, const uint64_t *k0,
		   size_t nsq, size_t L);
void vg_rsa52_select2_c(uint64_t *sel, const uint64_t *table, uint64_t ip, uint64_t iq, size_t S);

/* Per-key constants of the pair (p, q), set at key load (rsa_key.c). */
struct vg_rsa52 {
	size_t digits;                             /* public: L, or 0 if unusable */
	uint64_t k0[2];                            /* secret: -p^-1, -q^-1 mod 2^52 */
	uint64_t m[2 * VG_RSA52_MAX_DIGITS];       /* secret: p | q in radix 2^52 */
	uint64_t rr[2 * VG_RSA52_MAX_DIGITS];      /* secret: 2^(104 L) mod p | q */
	/* secret: 2^(64 limbs + 52 L) mod p | q: one multiply by it brings the
	 * input's limbs above the halves' length down (vg_rsa52_exp2) */
	uint64_t hi[2 * VG_RSA52_MAX_DIGITS];
	/* secret: qinv mod p | 1, the factor of each half's result: the
	 * multiply that leaves the domain also gives Garner its m1 qinv */
	uint64_t out[2 * VG_RSA52_MAX_DIGITS];
};

/* Fill c for primes p (lp limbs) and q (lq limbs) and qinv = q^-1 mod p
 * (lp limbs): digits = 0 unless both have 16, 24 or 32 limbs alike. */
void vg_rsa52_init(struct vg_rsa52 *c, const uint64_t *p, size_t lp, const uint64_t *q,
		   size_t lq, const uint64_t *qinv);

/* rp = x^ep qinv mod p and rq = x^eq mod q, plain and fully reduced, on
 * limbs (= lp = lq) limbs, from the input x of xn <= 2 limbs limbs (any
 * value below 2^(64 xn): it is reduced here, by two paired multiplies);
 * the exponents are read at the public length ebits (the larger of the
 * two primes' bit lengths). impl supplies the multiply, the table read and
 * the window for c->digits. Fixed VG_RSA52_WINDOW-bit windows, masked
 * table scan. */
void vg_rsa52_exp2(const struct vg_rsa52 *c, const struct vg_rsa52_impl *impl, uint64_t *rp,
		   uint64_t *rq, const uint64_t *x, size_t xn, const uint64_t *ep, const uint64_t *eq,
		   size_t ebits, const uint64_t *p, const uint64_t *q, size_t limbs);

/* Constants of a public modulus n for the single multiply. Public. */
struct vg_rsa52_pub {
	size_t digits; /* L, or 0 if unusable */
	uint64_t k0[1];
	uint64_t m[VG_RSA52_PUB_MAX_DIGITS];
	uint64_t rr[VG_RSA52_PUB_MAX_DIGITS]; /* 2^(104 L) mod n */
};

/* Fill c for n (limbs limbs) from rr64 = 2^(128 limbs) mod n: digits = 0
 * unless limbs is 32, 48 or 64. */
void vg_rsa52_pub_init(struct vg_rsa52_pub *c, const uint64_t *n, const uint64_t *rr64,
		       size_t limbs);

/* r = a^e mod n (limbs limbs), plain and fully reduced, a < n, e odd >= 3
 * and public (square and multiply branching on it), f the single
 * multiply for c->digits. r must not alias a. */
void vg_rsa52_exp_pub(const struct vg_rsa52_pub *c, vg_amm52x2_fn *f, uint64_t *r,
		      const uint64_t *a, const uint64_t *n, size_t limbs, uint64_t e);

#endif
