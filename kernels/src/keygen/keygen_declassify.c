/* keygen_declassify.c: the default vg_keygen_declassify, which does
 * nothing (see keygen_internal.h). Weak and alone in this file, as
 * ec/ec_declassify.c, so a valgrind test's strong definition replaces it
 * without valgrind code in the library. */
#include "keygen/keygen_internal.h"

__attribute__((weak)) void vg_keygen_declassify(const void *p, size_t len)
{
	(void)p;
	(void)len;
}
