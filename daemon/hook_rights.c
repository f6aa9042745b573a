/* hook_rights.c: descriptor passing as the test hooks try it (see
 * hook_rights.h). Compiled into vgd-testhooks only; holds nothing. */
#include "hook_rights.h"

#ifdef VGD_TEST_HOOKS
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

void vgd_hook_send_rights(int sock, int fd, int batch)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	memset(cbuf, 0, sizeof(cbuf));
	char b = 0;
	struct iovec iov = {&b, 1};
	struct mmsghdr mm = {.msg_hdr = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
					 .msg_controllen = sizeof(cbuf)}};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mm.msg_hdr);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (batch)
		(void)sendmmsg(sock, &mm, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	else
		(void)sendmsg(sock, &mm.msg_hdr, MSG_DONTWAIT | MSG_NOSIGNAL);
}

void vgd_hook_recv_rights(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))], b;
	struct iovec iov = {&b, 1};
	struct mmsghdr mm = {.msg_hdr = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
					 .msg_controllen = sizeof(cbuf)}};
	(void)recvmmsg(sock, &mm, 1, MSG_DONTWAIT, NULL);
}
#endif
