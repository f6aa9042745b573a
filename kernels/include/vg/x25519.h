/* vg/x25519.h: X25519 (RFC 7748). Secret: the scalar and the shared value. */
#ifndef VG_X25519_H
#define VG_X25519_H

#include <stdint.h>

#include "vg/error.h"

#define VG_X25519_LEN 32

/* out = X25519(scalar, 9): the public value for a private scalar. */
void vg_x25519_base(uint8_t out[VG_X25519_LEN], const uint8_t scalar[VG_X25519_LEN]);

/* out = X25519(scalar, peer). Returns 0, or VG_E_ZERO (and out all zero)
 * when the result is all-zero (peer of small order). The scalar is clamped
 * and bit 255 of peer masked, as RFC 7748 requires. */
VG_MUST_CHECK int vg_x25519(uint8_t out[VG_X25519_LEN], const uint8_t scalar[VG_X25519_LEN],
			    const uint8_t peer[VG_X25519_LEN]);

#endif
