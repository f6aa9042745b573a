/* ec_fe.c: limb helpers, field and scalar arithmetic over a run-time limb
 * count, and the C inversions. Constant time: every value may be secret;
 * loops run over the public limb count and exponent only. */
#include "ec/ec.h"
#include "vg/wipe.h"

__attribute__((noinline)) void vg_ec_scrub_stack(void)
{
	uint8_t buf[VG_EC_SCRUB_BYTES];
	vg_wipe(buf, sizeof(buf));
}

void vg_ec_copy(uint64_t *r, const uint64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		r[i] = a[i];
}

void vg_ec_cmov(uint64_t *r, const uint64_t *a, size_t n, uint64_t ctl)
{
	uint64_t m = vg_ct_barrier(vg_ct_mask(ctl));
	for (size_t i = 0; i < n; i++)
		r[i] ^= m & (r[i] ^ a[i]);
}

uint64_t vg_ec_iszero(const uint64_t *a, size_t n)
{
	uint64_t acc = 0;
	for (size_t i = 0; i < n; i++)
		acc |= a[i];
	return vg_ct_iszero(acc);
}

uint64_t vg_ec_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t acc = 0;
	for (size_t i = 0; i < n; i++)
		acc |= a[i] ^ b[i];
	return vg_ct_iszero(acc);
}

/* The borrow out of a - b is 1 exactly when a < b. */
uint64_t vg_ec_lt(const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t borrow = 0;
	for (size_t i = 0; i < n; i++)
		borrow = (uint64_t)(((vg_u128)a[i] - b[i] - borrow) >> 64) & 1;
	return borrow;
}

void vg_ec_from_bytes(uint64_t *r, const uint8_t *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = in + 8 * (n - 1 - i);
		uint64_t w = 0;
		for (size_t j = 0; j < 8; j++)
			w = w << 8 | p[j];
		r[i] = w;
	}
}

void vg_ec_to_bytes(uint8_t *out, const uint64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = out + 8 * (n - 1 - i);
		for (size_t j = 0; j < 8; j++)
			p[j] = (uint8_t)(a[i] >> (56 - 8 * j));
	}
}

void vg_ec_reduce_once(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
	uint64_t t[VG_EC_MAX_LIMBS + 1];

	vg_ec_copy(t, a, n);
	t[n] = 0;
	vg_ec_mont_csub(r, t, m, n);
}

void vg_ec_fe_add(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	f->fe_add(r, a, b);
}

void vg_ec_fe_sub(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	f->fe_sub(r, a, b);
}

void vg_ec_sc_add(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	vg_ec_mod_add(r, a, b, f->curve->n.m, f->curve->limbs);
}

/* a R = mont(a, R^2); the multiply accepts any a < R and reduces. */
void vg_ec_fe_to_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	f->fe_mul(r, a, f->curve->p.rr);
}

void vg_ec_sc_to_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	f->sc_mul(r, a, f->curve->n.rr);
}

/* a = mont(a R, 1). */
void vg_ec_fe_from_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	static const uint64_t one[VG_EC_MAX_LIMBS] = {1};
	f->fe_mul(r, a, one);
}

void vg_ec_sc_from_mont(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	static const uint64_t one[VG_EC_MAX_LIMBS] = {1};
	f->sc_mul(r, a, one);
}

/* r = a^(m - 2) in the Montgomery domain (a R -> a^(m-2) R = a^-1 R for
 * prime m; 0 -> 0). Left to right over the public exponent in 4-bit
 * windows: 4 squarings and one multiply by a table entry per window. The
 * table index is an exponent nibble, which is public, so neither the
 * sequence of operations nor any address depends on a. sqr may be NULL
 * (scalars have no dedicated square): mul(x, x) then. */
static void fermat_inv(vg_ec_mul_fn *mul, vg_ec_sqr_fn *sqr, const uint64_t *mod,
		       const uint64_t *one, size_t n, uint64_t *r, const uint64_t *a)
{
	uint64_t tab[16][VG_EC_MAX_LIMBS], acc[VG_EC_MAX_LIMBS], e[VG_EC_MAX_LIMBS] = {0};

	/* e = m - 2: both moduli end in a word >= 2, so no borrow. */
	vg_ec_copy(e, mod, n);
	e[0] -= 2;

	vg_ec_copy(tab[0], one, n);
	vg_ec_copy(tab[1], a, n);
	for (size_t i = 2; i < 16; i++)
		mul(tab[i], tab[i - 1], a);

	vg_ec_copy(acc, one, n);
	for (size_t i = 64 * n; i > 0;) {
		i -= 4;
		for (int s = 0; s < 4; s++) {
			if (sqr)
				sqr(acc, acc);
			else
				mul(acc, acc, acc);
		}
		mul(acc, acc, tab[(e[i / 64] >> (i % 64)) & 15]);
	}
	vg_ec_copy(r, acc, n);
	vg_wipe(tab, sizeof(tab));
	vg_wipe(acc, sizeof(acc));
}

void vg_ec_fe_inv_c(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	const struct vg_ec_curve *c = f->curve;
	fermat_inv(f->fe_mul, f->fe_sqr, c->p.m, c->p.one, c->limbs, r, a);
}

void vg_ec_sc_inv_c(const struct vg_ec_impl *f, uint64_t *r, const uint64_t *a)
{
	const struct vg_ec_curve *c = f->curve;
	fermat_inv(f->sc_mul, NULL, c->n.m, c->n.one, c->limbs, r, a);
}

void vg_ec_inv2_c(const struct vg_ec_impl *f, uint64_t *rz, const uint64_t *z, uint64_t *rk,
		  const uint64_t *k)
{
	vg_ec_fe_inv_c(f, rz, z);
	vg_ec_sc_inv_c(f, rk, k);
}
