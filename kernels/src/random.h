/* random.h: the kernels' one source of randomness, getrandom(2). Used for
 * RSA-PSS salts, ECDSA hedges, Miller-Rabin bases and key generation.
 * What it returns is secret whenever its caller makes it so. */
#ifndef VG_RANDOM_H
#define VG_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "vg/error.h"

/* Fill buf[0..len) from getrandom(2) (blocking until the kernel's pool is
 * initialised), retrying on EINTR and short reads. 0, or VG_E_RANDOM
 * when the system call fails (buf's contents are then unspecified). */
VG_MUST_CHECK int vg_random_bytes(uint8_t *buf, size_t len);

#endif
