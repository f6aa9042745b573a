/* c25519_adx.c: the adx row (BMI2 mulx, ADX adcx/adox) of the
 * Ed25519/X25519 hot operations: the shared glue of c25519_tier.inc over
 * fe4_adx.asm. Secret: as in c25519_tier.inc. */
#define VARIANT adx
#define TIER adx
#include "c25519_tier.inc"
