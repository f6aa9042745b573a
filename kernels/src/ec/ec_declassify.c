/* ec_declassify.c: the default vg_ec_declassify, which does nothing.
 *
 * The signing code branches on a few values that derive from secrets but
 * are public by design (whether a nonce candidate was in range, whether r
 * or s came out zero, whether a loaded key is valid, the public point).
 * It passes them to vg_ec_declassify first. That is a no-op here; the
 * constant-time test (tests/kernels/ec/test_ct_ecdsa.c) links a strong
 * definition that tells valgrind the value is defined from then on, so
 * every other use of a secret is still checked. The symbol is weak and
 * alone in this file, so the test's definition replaces it without any
 * valgrind code in the library. */
#include "ec/ec.h"

__attribute__((weak)) void vg_ec_declassify(const void *p, size_t len)
{
	(void)p;
	(void)len;
}
