/* vg/ed25519_mb.h: several Ed25519 signatures (RFC 8032) at once
 * ("multi-buffer"): the fixed-base multiplications [r]B of up to
 * VG_ED25519_MB_MAX signatures side by side, one per 64-bit lane of the
 * ifma tier's vectors, each with its own key and message; the hashes and
 * the scalar arithmetic run per signature with the single code.
 * Secret: as in vg/ed25519.h (every expanded key, nonce, and [r]B before
 * it is encoded). Public: the messages, public keys, lengths, the number
 * of signatures and the signatures. */
#ifndef VG_ED25519_MB_H
#define VG_ED25519_MB_H

#include <stddef.h>
#include <stdint.h>

#include "vg/ed25519.h"
#include "vg/error.h"

/* Signatures per call: one batch of eight lanes. Per signature against
 * vg_ed25519_sign of a 64-byte message (AMD EPYC Zen 5, ifma rows,
 * vgbench ed25519-sign-64-xN beside ed25519-sign-64 in one interleaved
 * run, loaded machine, the seeds expanded in the timed call): 0.48 at 8
 * signatures, 0.79 at 4; the batch costs the same however many lanes are
 * in use, so it is about even at 3, and fewer than 4 signatures run one
 * at a time through vg_ed25519_sign_expanded inside the call: calling it
 * with any count is never much slower than the single signer in a loop. */
#define VG_ED25519_MB_MAX 8

/* For i < n: sig[i] = vg_ed25519_sign_expanded(sig[i], msg[i], len[i],
 * h[i], pk[i])'s signature, bit for bit, and rc[i] = 0 (the single path
 * has no failure; rc is there for the shape of the batch APIs, vg/rsa_mb.h,
 * vg/x25519_mb.h). msg[i] may be NULL when len[i] is 0. sig[i] may overlap
 * msg[i] but no other signature's inputs.
 * Returns 0 when every rc[i] was set, or VG_E_INVALID (n is 0 or above
 * VG_ED25519_MB_MAX, or a NULL array or element) with no rc set. Uses
 * about 8 KiB of stack (the comb's frame is 5 KiB), wiped before it
 * returns. */
VG_MUST_CHECK int vg_ed25519_sign_expanded_mb(uint8_t *const sig[], const void *const msg[],
					      const size_t len[], const uint8_t *const h[],
					      const uint8_t *const pk[], size_t n, int rc[]);

#endif
