/* ecdsa_mb_internal.h: the batched signing with explicit rows and hedge
 * bytes, behind vg_ecdsa_sign_mb (vg/ecdsa_mb.h), for the tests (the RFC
 * 6979 vectors in every lane, the comparison with the single kernel given
 * the same hedge, fault injection through a broken row, valgrind secret
 * marking). Not installed. Secret: as in ecdsa_internal.h. */
#ifndef VG_ECDSA_MB_INTERNAL_H
#define VG_ECDSA_MB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ec/ec_mb.h"
#include "ec/ecdsa_internal.h"

/* For i < n (1..VG_EC_MB_LANES), all in one batch of mb's comb: sig[i]
 * = vg_ecdsa_sign_with(f, keys[i], digest[i], dlen[i], extra[i],
 * extra_len[i], sig[i], siglen[i]) bit for bit (extra[i] NULL with
 * extra_len[i] 0: the deterministic RFC 6979 signature), rc[i] its status
 * (VG_E_INVALID for arguments vg_ecdsa_sign_with rejects; such a lane
 * takes no part in the batch). f and mb must be on the same curve (P-256
 * or P-384) and every key on it. Returns 0, or VG_E_INVALID (no rc set) for n out
 * of range, a NULL array or rows on different curves. */
VG_MUST_CHECK int vg_ecdsa_sign_mb_with(const struct vg_ec_impl *f, const struct vg_ec_mb_impl *mb,
					const vg_ecdsa_key *const keys[],
					const uint8_t *const digest[], const size_t dlen[],
					const uint8_t *const extra[], const size_t extra_len[],
					uint8_t *const sig[], const size_t siglen[], size_t n,
					int rc[]);

#endif
