/* direct.c: making and mapping the direct slots' regions (direct.h).
 * Nothing here is secret. */
#include "direct.h"

#include <stdio.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A zeroed memfd of size bytes. Client slots are sealed: a client may
 * write its slot, but not shrink it (a keyholder touching a page gone
 * would die of SIGBUS) nor grow it, nor change the seals. */
static int make_memfd(const char *name, size_t size, int seal)
{
	int fd = (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0 ||
	    (seal && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) ||
	    (!seal && fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL) < 0)) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int vgd_direct_create(vgd_direct *d, int n, int index)
{
	/* The slots' name says whose they are: a client sees it in
	 * /proc/self/maps ("/memfd:vgd-direct-k1"), and so do the tests. */
	char name[32];
	snprintf(name, sizeof(name), "vgd-direct-k%d", index);
	memset(d, 0, sizeof(*d));
	d->dir_fd = -1;
	for (int i = 0; i < VGD_DIRECT_MAX; i++)
		d->slot_fd[i] = -1;
	if (n < 0 || n > VGD_DIRECT_MAX)
		return -1;
	d->dir_fd = make_memfd("vgd-direct-dir", VGD_DDIR_SIZE, 0);
	if (d->dir_fd < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		d->slot_fd[i] = make_memfd(name, VG_DIRECT_SLOT_SIZE, 1);
		if (d->slot_fd[i] < 0) {
			vgd_direct_close_fds(d);
			return -1;
		}
	}
	d->nslots = n;
	return 0;
}

int vgd_direct_map(vgd_direct *d, int slots)
{
	void *p = mmap(NULL, VGD_DDIR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, d->dir_fd, 0);
	if (p == MAP_FAILED)
		return -1;
	d->dir = p;
	for (int i = 0; slots && i < d->nslots; i++) {
		p = mmap(NULL, VG_DIRECT_SLOT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			 d->slot_fd[i], 0);
		if (p == MAP_FAILED) {
			vgd_direct_unmap(d);
			return -1;
		}
		d->slot[i] = p;
	}
	return 0;
}

void vgd_direct_unmap(vgd_direct *d)
{
	if (d->dir)
		(void)munmap(d->dir, VGD_DDIR_SIZE);
	d->dir = NULL;
	for (int i = 0; i < VGD_DIRECT_MAX; i++) {
		if (d->slot[i])
			(void)munmap(d->slot[i], VG_DIRECT_SLOT_SIZE);
		d->slot[i] = NULL;
	}
}

void vgd_direct_unmap_dir_only(vgd_direct *d)
{
	if (d->dir)
		(void)munmap(d->dir, VGD_DDIR_SIZE);
	d->dir = NULL;
}

void vgd_direct_close_fds(vgd_direct *d)
{
	if (d->dir_fd >= 0)
		close(d->dir_fd);
	d->dir_fd = -1;
	for (int i = 0; i < VGD_DIRECT_MAX; i++) {
		if (d->slot_fd[i] >= 0)
			close(d->slot_fd[i]);
		d->slot_fd[i] = -1;
	}
}

void vgd_direct_wake(uint32_t *word)
{
	(void)syscall(SYS_futex, word, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

void vgd_direct_wait(uint32_t *word, uint32_t seen, int timeout_ms)
{
	struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
	(void)syscall(SYS_futex, word, FUTEX_WAIT, seen, &ts, NULL, 0);
}
