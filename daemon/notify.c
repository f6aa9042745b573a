/* notify.c: see notify.h. Supports path and abstract ('@') sockets. */
#include "notify.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "errcode.h"

int vgd_notify(const char *msg)
{
	const char *path = getenv("NOTIFY_SOCKET");
	if (!path || !*path)
		return 0;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	size_t n = strlen(path);
	if (n >= sizeof(sa.sun_path) || (path[0] != '/' && path[0] != '@'))
		return VGD_E_INVALID;
	memcpy(sa.sun_path, path, n);
	if (path[0] == '@')
		sa.sun_path[0] = 0;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return VGD_E_IO;
	ssize_t w = sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
	close(fd);
	return w < 0 ? VGD_E_IO : 1;
}
