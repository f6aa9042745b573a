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
#define VG_ED25519_EXPANDED_LEN 64

/* Public key from the 32-byte private seed. */
void vg_ed25519_public_key(uint8_t pk[VG_ED25519_PUBLIC_LEN],
			   const uint8_t seed[VG_ED25519_SEED_LEN]);

/* Signature of msg under (seed, pk). pk must be the seed's public key (the
 * caller caches it); a mismatched pk yields a signature that does not verify. */
void vg_ed25519_sign(uint8_t sig[VG_ED25519_SIG_LEN], const void *msg, size_t len,
		     const uint8_t seed[VG_ED25519_SEED_LEN],
		     const uint8_t pk[VG_ED25519_PUBLIC_LEN]);

/* RFC 8032 section 5.1.5's expansion of the seed, h = SHA-512(seed) with
 * its first half clamped: the scalar a, then the prefix. Secret, like the
 * seed. A signer that keeps it (the keyholder does, in locked memory)
 * signs with vg_ed25519_sign_expanded and so skips one of the four
 * SHA-512 blocks a 64-byte message costs vg_ed25519_sign. */
void vg_ed25519_expand(uint8_t h[VG_ED25519_EXPANDED_LEN],
		       const uint8_t seed[VG_ED25519_SEED_LEN]);

/* vg_ed25519_sign from the expanded seed h (vg_ed25519_expand) and its
 * public key; the same signature. */
void vg_ed25519_sign_expanded(uint8_t sig[VG_ED25519_SIG_LEN], const void *msg, size_t len,
			      const uint8_t h[VG_ED25519_EXPANDED_LEN],
			      const uint8_t pk[VG_ED25519_PUBLIC_LEN]);

/* Strict verification: 0 if valid, VG_E_VERIFY otherwise. The exact rule
 * (S < L, canonical R and A, cofactored or not) is written in ed25519.c. */
VG_MUST_CHECK int vg_ed25519_verify(const uint8_t sig[VG_ED25519_SIG_LEN], const void *msg,
				    size_t len, const uint8_t pk[VG_ED25519_PUBLIC_LEN]);

#endif
