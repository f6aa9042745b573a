/* vg/rsa_mb.h: several RSA private operations at once ("multi-buffer"):
 * the CRT halves of up to VG_RSA_MB_MAX operations exponentiated side by
 * side, one half per 64-bit lane of the ifma tier's vectors (eight lanes),
 * each lane with its own key. Each operation then gets its own Garner
 * recombination and its own check with the public exponent, so a fault
 * in one lane withholds that operation's result alone.
 * Secret: as in vg/rsa.h (every key's d, p, q, dp, dq, qinv and every
 * intermediate). Public: n, e, the inputs, all lengths and the number of
 * operations. */
#ifndef VG_RSA_MB_H
#define VG_RSA_MB_H

#include <stddef.h>
#include <stdint.h>

#include "vg/error.h"
#include "vg/rsa.h"

/* Operations per call. Their 2n CRT halves fill ceil(2n / 8) batches of
 * eight lanes per half size, so 4 operations cost one batch and 8 two.
 * Per signature against vg_rsa_private (AMD EPYC Zen 5, ifma rows, thread
 * CPU time, loaded machine): RSA-2048 about 0.9 at 2 operations, 0.6 at
 * 3, 0.42-0.49 at 4 and 8; RSA-3072 0.64-0.69 and RSA-4096 0.68-0.77 at
 * 8 (vgbench --filter '^rsa(3072|4096)-private' --seconds 40, runs 2-4 of
 * the table in doc/performance.md).
 * Operations a batch would not pay for (past the last full batch: fewer
 * than 2 at 2048, fewer than 4 at 3072 and 4096) run one at a time inside
 * the call, so calling it with any count is never much slower than
 * vg_rsa_private in a loop. */
#define VG_RSA_MB_MAX 8

/* For i < n: out[i] = in[i]^d mod n_i with keys[i] (the result of
 * vg_rsa_private(keys[i], out[i], in[i], len[i])), rc[i] its status: 0,
 * VG_E_INVALID (len[i] is not the key's k), VG_E_RANGE (in[i] >= n_i) or
 * VG_E_FAULT (the check with e failed; out[i] is zeroed). Keys may differ
 * in every lane and in size: halves are batched with halves of the same
 * size (RSA-2048, 3072 and 4096 keys with balanced primes); an operation
 * whose key has unbalanced primes runs alone through vg_rsa_private, as
 * do those of a size the chosen rsa_mb row has no assembly for (it would
 * be slower than one at a time; vg_kernel_variant("rsa-mb") names the
 * row).
 * out[i] may be in[i] but must not overlap another operation's input
 * (some operations finish before the others' inputs are read).
 * Returns 0 when every rc[i] was set (even if some are errors), or
 * VG_E_INVALID (n is 0 or above VG_RSA_MB_MAX, or a NULL array or
 * element) with no rc set. Uses about 120 KiB of stack (the table of a
 * batch of 4096-bit halves is 80 KiB), wiped before it returns. */
VG_MUST_CHECK int vg_rsa_private_mb(const vg_rsa_key *const keys[], uint8_t *const out[],
				    const uint8_t *const in[], const size_t len[], size_t n,
				    int rc[]);

#endif
