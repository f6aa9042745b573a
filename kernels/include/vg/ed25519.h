/* vg/ed25519.h: Ed25519 (RFC 8032, PureEdDSA). Secret: the 32-byte seed
 * and everything derived from it. Constant time in the seed; verification
 * handles only public data and may be variable time. */
#ifndef VG_ED25519_H
#define VG_ED25519_H

#include <stddef.h>
#include <stdint.h>

#include "vg/error.h"

#define VG_ED25519_SEED_LEN 32
#define VG_ED25519_PUBLIC_LEN 32
#define VG_ED25519_SIG_LEN 64

/* Public key from the 32-byte private seed. */
void vg_ed25519_public_key(uint8_t pk[VG_ED25519_PUBLIC_LEN],
			   const uint8_t seed[VG_ED25519_SEED_LEN]);

/* Signature of msg under (seed, pk). pk must be the seed's public key (the
 * caller caches it); a mismatched pk yields a signature that does not verify. */
void vg_ed25519_sign(uint8_t sig[VG_ED25519_SIG_LEN], const void *msg, size_t len,
		     const uint8_t seed[VG_ED25519_SEED_LEN],
		     const uint8_t pk[VG_ED25519_PUBLIC_LEN]);

/* Strict verification: 0 if valid, VG_E_VERIFY otherwise. The exact rule
 * (S < L, canonical R and A, cofactored or not) is written in ed25519.c. */
VG_MUST_CHECK int vg_ed25519_verify(const uint8_t sig[VG_ED25519_SIG_LEN], const void *msg,
				    size_t len, const uint8_t pk[VG_ED25519_PUBLIC_LEN]);

#endif
