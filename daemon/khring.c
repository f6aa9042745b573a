/* khring.c: making, mapping and the futex doorbell of the front-keyholder
 * rings (see khring.h). Nothing here is secret. */
#include "khring.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The futex is shared between processes (no FUTEX_PRIVATE_FLAG): the
 * keyholder's filter allows FUTEX_WAIT only, the front's allows futex. */
void vgd_khring_wake(vgd_khring *r)
{
	(void)syscall(SYS_futex, &r->req_head, FUTEX_WAKE, 1, NULL, NULL, 0);
}

int vgd_khring_wait(vgd_khring *r, unsigned seen, int timeout_ms)
{
	struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
	long n = syscall(SYS_futex, &r->req_head, FUTEX_WAIT, seen, &ts, NULL, 0);
	return n == 0 || errno == EAGAIN ? 0 : -1;
}

int vgd_khring_doorbell(vgd_khring *r, int fd)
{
	/* One recv, not a loop to EAGAIN: the keyholder writes a byte only
	 * when it turns rung from 0 to 1, and rung goes back to 0 only
	 * below, after a byte was taken, so at most one byte is ever
	 * pending. Should more be there, the level-triggered event comes
	 * back for it. */
	char b[16];
	ssize_t n = recv(fd, b, sizeof(b), MSG_DONTWAIT);
	if (n == 0)
		return -1; /* the keyholder's end closed: it is gone */
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
		return -1;
	atomic_store(&r->rung, 0);
	return 0;
}

int vgd_khring_create(void)
{
	int fd = (int)syscall(SYS_memfd_create, "vgd-khring", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)VGD_KHRING_SIZE) < 0) {
		close(fd);
		return -1;
	}
	return fd; /* a new memfd reads as zeros: every counter starts at 0 */
}

vgd_khring *vgd_khring_map(int mfd)
{
	void *p = mmap(NULL, VGD_KHRING_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	return p == MAP_FAILED ? NULL : p;
}

void vgd_khring_unmap(vgd_khring *r)
{
	if (r)
		(void)munmap(r, VGD_KHRING_SIZE);
}
