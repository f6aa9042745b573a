/* fe51mb_inv.c: inversion in every lane of a c25519_mb batch element
 * (c25519_mb_impl.h), shared by the X25519 and Ed25519 batches: Fermat's
 * 1/z = z^(2^255 - 21) by fe.c's chain (254 squarings, 11 products, the
 * same sequence for every value, so nothing depends on z; 0 gives 0), on
 * the row's eight-lane multiply and squarings. Secret: z, h and every
 * temporary (wiped). */
#include "c25519/c25519_mb_impl.h"
#include "vg/wipe.h"

#define W VG_FE51MB_WORDS

void vg_fe51mb_invert(const struct vg_c25519_mb_impl *im, uint64_t h[W], const uint64_t z[W])
{
	struct {
		_Alignas(64) uint64_t z2[W], z9[W], z11[W], t[W], a[W], b[W], c[W];
	} s;

	im->sqrn(s.z2, z, 1);       /* z^2 */
	im->sqrn(s.t, s.z2, 2);     /* z^8 */
	im->mul(s.z9, s.t, z);      /* z^9 */
	im->mul(s.z11, s.z9, s.z2); /* z^11 */
	im->sqrn(s.t, s.z11, 1);    /* z^22 */
	im->mul(s.a, s.t, s.z9);    /* a = z^(2^5 - 1) */
	im->sqrn(s.t, s.a, 5);
	im->mul(s.b, s.t, s.a); /* b = z^(2^10 - 1) */
	im->sqrn(s.t, s.b, 10);
	im->mul(s.c, s.t, s.b); /* c = z^(2^20 - 1) */
	im->sqrn(s.t, s.c, 20);
	im->mul(s.t, s.t, s.c); /* z^(2^40 - 1) */
	im->sqrn(s.t, s.t, 10);
	im->mul(s.a, s.t, s.b); /* a = z^(2^50 - 1) */
	im->sqrn(s.t, s.a, 50);
	im->mul(s.b, s.t, s.a); /* b = z^(2^100 - 1) */
	im->sqrn(s.t, s.b, 100);
	im->mul(s.t, s.t, s.b); /* z^(2^200 - 1) */
	im->sqrn(s.t, s.t, 50);
	im->mul(s.t, s.t, s.a); /* z^(2^250 - 1) */
	im->sqrn(s.t, s.t, 5);  /* z^(2^255 - 2^5) */
	im->mul(h, s.t, s.z11); /* z^(2^255 - 21) */
	vg_wipe(&s, sizeof(s));
}
