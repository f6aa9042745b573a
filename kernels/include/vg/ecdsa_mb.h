/* vg/ecdsa_mb.h: several ECDSA signatures at once ("multi-buffer"): the
 * fixed-base multiplications k G of up to VG_ECDSA_MB_MAX P-256 or
 * P-384 signatures (batched per curve) run side by side, one per 64-bit
 * lane of the ifma tier's vectors (eight lanes), each lane with its own
 * key, digest and nonce;
 * the inversions of their Z and of their k are shared (one inversion of
 * each product, Montgomery's trick). Everything else (the hedged RFC 6979
 * nonce, s, the retry on r or s zero and the fault check of vg_ecdsa_sign)
 * runs per signature in the single code, so a fault in one lane
 * withholds that signature alone, and each signature is the one
 * vg_ecdsa_sign would give with the same hedge bytes.
 * Secret: as in vg/ecdsa.h (every key's d, every nonce, every
 * intermediate). Public: the keys' curves and public points, the digests,
 * all lengths, the number of signatures, the released signatures. */
#ifndef VG_ECDSA_MB_H
#define VG_ECDSA_MB_H

#include <stddef.h>
#include <stdint.h>

#include "vg/ecdsa.h"
#include "vg/error.h"

/* Signatures per call. A batch costs about the same with 1 or 8 lanes in
 * use (its comb walks every row in every lane), so per signature against
 * vg_ecdsa_sign (AMD EPYC Zen 5, ifma rows, thread CPU time): P-256 about
 * 1.9 with one lane, 1.07 with 2, 0.85 with 3, 0.66 with 4 and 0.43 with
 * 8; P-384 1.8, 0.99, 0.67, 0.52 and 0.33. When fewer than 3 signatures
 * of a curve come in one call they run one at a time through
 * vg_ecdsa_sign instead, so calling it with any count is never much
 * slower than vg_ecdsa_sign in a loop. */
#define VG_ECDSA_MB_MAX 8

/* For i < n: sig[i] = vg_ecdsa_sign(keys[i], digest[i], dlen[i], sig[i],
 * siglen[i]) (fresh random hedge bytes per signature), rc[i] its status:
 * 0, VG_E_INVALID (siglen[i] is not 2 * vg_ecdsa_scalar_len, a NULL
 * digest with dlen[i] > 0), VG_E_RANDOM (sig[i] zeroed) or VG_E_FAULT
 * (the fault check failed; sig[i] zeroed). The P-256 keys of a call are
 * batched together, and the P-384 keys together; a curve's signatures
 * run one at a time through vg_ecdsa_sign when its chosen batch row is
 * not the ifma one (vg_kernel_variant("p256-mb"), "p384-mb") or when too
 * few of them come in one call to pay for a batch.
 * Returns 0 when every rc[i] was set (even if some are errors), or
 * VG_E_INVALID (n is 0 or above VG_ECDSA_MB_MAX, or a NULL array, key or
 * signature) with no rc set. Uses about 28 KiB of stack (P-384's comb
 * frame is 11 KiB), wiped before it returns. */
VG_MUST_CHECK int vg_ecdsa_sign_mb(const vg_ecdsa_key *const keys[],
				   const uint8_t *const digest[], const size_t dlen[],
				   uint8_t *const sig[], const size_t siglen[], size_t n, int rc[]);

#endif
