/* x25519.c: X25519 (RFC 7748 section 5), the public API over the chosen
 * Curve25519 variant (c25519_impl.h; the C reference is c25519_c.c).
 * Secret: the scalar and the shared output, handled in constant time by
 * every variant. The peer's u-coordinate is public. */
#include "c25519_impl.h"
#include "vg/x25519.h"

int vg_x25519(uint8_t out[VG_X25519_LEN], const uint8_t scalar[VG_X25519_LEN],
	      const uint8_t peer[VG_X25519_LEN])
{
	/* The variant reports an all-zero output as a 0/1 flag computed
	 * without a branch; the status scales the error code by it. The
	 * outcome is public (it only says the peer sent a low-order point,
	 * which the peer knows), so callers may branch on the status; out is
	 * already all zero in that case. */
	return vg_c25519_impl()->x25519(out, scalar, peer) * VG_E_ZERO;
}

void vg_x25519_base(uint8_t out[VG_X25519_LEN], const uint8_t scalar[VG_X25519_LEN])
{
	vg_c25519_impl()->x25519_base(out, scalar);
}
