/* c25519_base.c: the base row (x86-64 mul/adc) of the Ed25519/X25519 hot
 * operations: the shared glue of c25519_tier.inc over fe4_base.asm.
 * Secret: as in c25519_tier.inc. */
#define VARIANT base
#define TIER base
#include "c25519_tier.inc"
