/* vg/wipe.h: erasing secrets so the compiler cannot drop the stores. */
#ifndef VG_WIPE_H
#define VG_WIPE_H

#include <stddef.h>

/* Overwrite n bytes at p with zeros. The stores are not removed by
 * dead-store elimination (explicit_bzero plus a compiler barrier). */
void vg_wipe(void *p, size_t n);

#define VG_WIPE_VAR(v) vg_wipe(&(v), sizeof(v))

#endif
