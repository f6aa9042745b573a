/* ec_dispatch.c: the implementation row each curve uses. Only the
 * portable C rows exist so far, so they are returned directly; when the
 * shared kernel dispatch (one table of variants per family, C first,
 * chosen once) is available, the P-256 and P-384 families register their
 * rows there and these accessors return its choice. Nothing here is
 * secret. */
#include "ec/ecdsa_internal.h"

const struct vg_ec_impl *vg_ec_p256_impl(void) { return &vg_ec_p256_c; }

const struct vg_ec_impl *vg_ec_p384_impl(void) { return &vg_ec_p384_c; }

const struct vg_ec_impl *vg_ecdsa_impl(vg_ecdsa_curve curve)
{
	switch (curve) {
	case VG_ECDSA_P256: return vg_ec_p256_impl();
	case VG_ECDSA_P384: return vg_ec_p384_impl();
	}
	return NULL; /* a value outside the enum */
}
