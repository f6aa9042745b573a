/* wipe.c: vg_wipe, a zeroing the optimiser must keep. */
#include <string.h>

#include "vg/wipe.h"

void vg_wipe(void *p, size_t n)
{
	if (n == 0)
		return;
	explicit_bzero(p, n);
	/* Belt and braces: tell the compiler the memory is observed. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}
