/* secmem.h: memory for secrets: page-aligned, mlock'ed, excluded from core
 * dumps (MADV_DONTDUMP), wiped before it is returned. */
#ifndef VGD_SECMEM_H
#define VGD_SECMEM_H

#include <stddef.h>

/* NULL on failure. If mlock fails (RLIMIT_MEMLOCK) the memory is still
 * returned and *locked is 0 so the caller can say so. */
void *vgd_secmem_alloc(size_t len, int *locked);
/* Wipe, unlock and unmap. */
void vgd_secmem_free(void *p, size_t len);
/* Lock memory from vgd_secmem_alloc in this process (locks are not
 * inherited across fork). 0 or -1. */
int vgd_secmem_lock(void *p, size_t len);
/* Unmap without touching the contents: for a forked child that must not
 * keep a view of its parent's secrets (copy-on-write leaves them intact
 * in the parent). */
void vgd_secmem_drop(void *p, size_t len);

#endif
