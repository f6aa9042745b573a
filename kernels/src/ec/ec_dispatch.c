/* ec_dispatch.c: the chosen row of the curve an ECDSA key names. The
 * rows are chosen by the kernel dispatch (dispatch.c's family list: the
 * families ec_p256 and ec_p384). Nothing here is secret. */
#include "ec/ecdsa_internal.h"

const struct vg_ec_impl *vg_ecdsa_impl(vg_ecdsa_curve curve)
{
	switch (curve) {
	case VG_ECDSA_P256: return vg_ec_p256_impl();
	case VG_ECDSA_P384: return vg_ec_p384_impl();
	}
	return NULL; /* a value outside the enum */
}
