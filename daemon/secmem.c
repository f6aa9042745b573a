/* secmem.c: see secmem.h. */
#include "secmem.h"

#include <sys/mman.h>
#include <unistd.h>

#include "vg/wipe.h"

static size_t round_pages(size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	return (len + pg - 1) / pg * pg;
}

void *vgd_secmem_alloc(size_t len, int *locked)
{
	size_t n = round_pages(len ? len : 1);
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, n, MADV_DONTDUMP);
	*locked = mlock(p, n) == 0;
	return p;
}

void vgd_secmem_free(void *p, size_t len)
{
	if (!p)
		return;
	size_t n = round_pages(len ? len : 1);
	vg_wipe(p, n);
	(void)munlock(p, n);
	(void)munmap(p, n);
}

void vgd_secmem_drop(void *p, size_t len)
{
	if (p)
		(void)munmap(p, round_pages(len ? len : 1));
}

int vgd_secmem_lock(void *p, size_t len)
{
	return p && mlock(p, round_pages(len ? len : 1)) == 0 ? 0 : -1;
}
