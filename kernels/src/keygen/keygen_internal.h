/* keygen_internal.h: the key generators behind vg/keygen.h with their
 * random source as a parameter, so that tests can feed known bytes (and
 * mark them secret under valgrind), and the hook through which the
 * generators make public the few verdicts they branch on. Not installed.
 * Secret: whatever the random source returns. */
#ifndef VG_KEYGEN_INTERNAL_H
#define VG_KEYGEN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vg/keygen.h"

/* Fill buf[0..len) with random bytes: 0, or a negative VG_E_* code. */
typedef int vg_keygen_rand_fn(void *ctx, uint8_t *buf, size_t len);

/* getrandom(2) (random.h), as a vg_keygen_rand_fn; ctx unused. */
int vg_keygen_getrandom(void *ctx, uint8_t *buf, size_t len);

/* Called on a value derived from secrets that is public by design
 * before it is branched on: "this random candidate was discarded", "the
 * finished key passed its checks". A no-op (keygen_declassify.c, weak);
 * the valgrind tests define it to mark the value defined. */
void vg_keygen_declassify(const void *p, size_t len);

VG_MUST_CHECK int vg_rsa_generate_with(vg_keygen_rand_fn *rnd, void *ctx, size_t bits, uint32_t e,
				       vg_rsa_keypair *out);
/* vg_rsa_generate_with without the checks of the finished key (its
 * loading and the pairwise test, which branch on its public lengths and
 * verdicts): everything that touches the secrets while they are made,
 * for the valgrind test, which marks the random bytes secret. */
VG_MUST_CHECK int vg_rsa_generate_raw_with(vg_keygen_rand_fn *rnd, void *ctx, size_t bits,
					   uint32_t e, vg_rsa_keypair *out);
VG_MUST_CHECK int vg_ecdsa_generate_with(vg_keygen_rand_fn *rnd, void *ctx, vg_ecdsa_curve curve,
					 uint8_t *priv, size_t priv_len, uint8_t *pub,
					 size_t pub_len);

#endif
