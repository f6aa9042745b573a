/* vg/x25519_mb.h: several X25519 operations (RFC 7748) at once
 * ("multi-buffer"): up to VG_X25519_MB_MAX variable-point scalar
 * multiplications side by side, one per 64-bit lane of the ifma tier's
 * vectors, each lane with its own scalar and peer point.
 * Secret: every scalar and every shared output. Public: the peers'
 * u-coordinates, the number of operations and each status (it only says
 * that a peer sent a low-order point). */
#ifndef VG_X25519_MB_H
#define VG_X25519_MB_H

#include <stddef.h>
#include <stdint.h>

#include "vg/error.h"
#include "vg/x25519.h"

/* Operations per call: one batch of eight lanes. Per operation against
 * vg_x25519 (AMD EPYC Zen 5, ifma rows, vgbench x25519-var-xN beside
 * x25519-var in one interleaved run, loaded machine): a batch costs about
 * 2.9 single operations however many lanes are in use: 0.36 at 8
 * operations, 0.74 at 4, about even at 3. Fewer than 4 operations run one
 * at a time through vg_x25519 inside the call, so calling it with any
 * count is never much slower than vg_x25519 in a loop. */
#define VG_X25519_MB_MAX 8

/* For i < n: out[i] = X25519(scalar[i], point[i]), the result of
 * vg_x25519(out[i], scalar[i], point[i]), and rc[i] its status: 0, or
 * VG_E_ZERO with out[i] all zero (point[i] of small order). Bit-identical
 * to vg_x25519 in every lane. out[i] may be scalar[i] or point[i] but
 * must not overlap another operation's inputs.
 * Returns 0 when every rc[i] was set, or VG_E_INVALID (n is 0 or above
 * VG_X25519_MB_MAX, or a NULL array or element) with no rc set. Uses
 * about 7 KiB of stack (the ladder's frame is 4.8 KiB), wiped before it
 * returns. */
VG_MUST_CHECK int vg_x25519_mb(uint8_t *const out[], const uint8_t *const scalar[],
			       const uint8_t *const point[], size_t n, int rc[]);

#endif
