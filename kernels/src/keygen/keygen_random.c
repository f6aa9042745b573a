/* keygen_random.c: getrandom(2) as the generators' default random source
 * (keygen_internal.h). The bytes are secret. */
#include "keygen/keygen_internal.h"
#include "random.h"

int vg_keygen_getrandom(void *ctx, uint8_t *buf, size_t len)
{
	(void)ctx;
	return vg_random_bytes(buf, len);
}
