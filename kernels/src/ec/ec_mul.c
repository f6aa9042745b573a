/* ec_mul.c: the C variable-base multiplication [k]P, constant time in k
 * and in P. Used by the signing fault check, where P is the public key but
 * k = r / s is derived from the secret nonce until the signature is
 * released. Secret: k, its windows, every table entry and intermediate.
 *
 * Method: fixed 4-bit windows from the top, T[j] = j P for j < 16 (T[0]
 * the identity): per window four doublings, a scan of all of T keeping
 * the entry the window selects under a mask, and one complete addition
 * (adding the identity is an ordinary case of the complete formulas). */
#include "ec/ec.h"
#include "vg/wipe.h"

void vg_ec_point_mul_c(const struct vg_ec_impl *f, vg_ec_point *r, const uint64_t *k,
		       const vg_ec_point *p)
{
	size_t n = f->curve->limbs;
	vg_ec_point tab[16], acc, t;

	vg_ec_point_identity(f, &tab[0]);
	tab[1] = *p;
	for (size_t j = 2; j < 16; j++)
		vg_ec_point_add(f, &tab[j], &tab[j - 1], p);

	vg_ec_point_identity(f, &acc);
	for (size_t i = 64 * n; i > 0;) {
		i -= 4; /* public position */
		for (int s = 0; s < 4; s++)
			vg_ec_point_dbl(f, &acc, &acc);
		uint64_t w = (k[i / 64] >> (i % 64)) & 15;
		t = tab[0];
		for (size_t j = 1; j < 16; j++)
			vg_ec_point_cmov(f, &t, &tab[j], vg_ct_eq(w, j));
		vg_ec_point_add(f, &acc, &acc, &t);
	}
	*r = acc;
	vg_wipe(tab, sizeof(tab));
	vg_wipe(&acc, sizeof(acc));
	vg_wipe(&t, sizeof(t));
}
