/* reach.c: why the provider cannot reach vgd, in one line an admin can
 * act on. libvgclient reports a failed connect as text; the server (nginx,
 * HAProxy) prints only what the provider raises, and vgd never sees a
 * connection that did not happen, so this line is the admin's only clue.
 * It names the socket, the errno and the usual cause of that errno in a
 * web server's deployment (the socket's group, a chroot, vgd stopped),
 * raised as OpenSSL errors are (nginx prints them) and on stderr (HAProxy
 * prints no OpenSSL error).
 * Nothing here is secret: paths, ids and errno values only. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "conn.h"

/* The path libvgclient connects to for this setting (vg_client_new's
 * order: the given path, $VGD_SOCKET, the default). */
static const char *effective_path(const char *socket)
{
	if (socket && *socket)
		return socket;
	const char *env = getenv("VGD_SOCKET");
	return env && *env ? env : VGC_DEFAULT_SOCKET;
}

/* Connect once more, to learn the errno that libvgclient turned into
 * text. 0 when it connects now (vgd came back meanwhile). Only on the
 * failure path, so the extra connection costs nothing in normal use. */
static int probe(const char *path)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path));
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return errno;
	int e = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 ? 0 : errno;
	close(fd);
	return e == EINPROGRESS ? 0 : e;
}

/* The errnos a deployment meets, by name (the name is what an admin
 * searches for), with their usual cause. */
static const struct {
	int err;
	const char *name, *cause;
} causes[] = {
	{EACCES, "EACCES",
	 "this process may not use the socket: its user must be in the socket's group "
	 "(vgd-clients), or reach it through a path made for it; HAProxy's user/group "
	 "settings drop supplementary groups (/usr/share/doc/vgd/doc/haproxy.md)"},
	{ENOENT, "ENOENT",
	 "no socket at that path: vgd (vgd.socket) is not running, or a chroot hides the "
	 "path (HAProxy's chroot needs the socket bind-mounted inside it: "
	 "/usr/share/doc/vgd/doc/haproxy.md)"},
	{ECONNREFUSED, "ECONNREFUSED", "nothing listens there: vgd is not running"},
	{EAGAIN, "EAGAIN", "vgd's listen queue is full: vgd is overloaded or stopped"},
	{ENOTDIR, "ENOTDIR", "a component of the path is not a directory: check the socket path"},
	{ENAMETOOLONG, "ENAMETOOLONG", "the socket path is too long for a Unix socket"},
};

void vg_prov_explain_connect(vg_prov_conn *c, char *err, size_t errlen)
{
	const char *path = effective_path(c->socket);
	int e = probe(path);
	if (e == 0)
		return; /* reachable now: libvgclient's own text stays */
	const char *name = NULL, *cause = "see errno";
	for (size_t i = 0; i < sizeof(causes) / sizeof(causes[0]); i++)
		if (causes[i].err == e) {
			name = causes[i].name;
			cause = causes[i].cause;
		}
	char num[16];
	if (!name) {
		snprintf(num, sizeof(num), "errno %d", e);
		name = num;
	}
	snprintf(err, errlen, "cannot connect to vgd at %s: %s (%s) as uid %u gid %u: %s", path,
		 name, strerror(e), (unsigned)geteuid(), (unsigned)getegid(), cause);
	/* HAProxy prints none of OpenSSL's error queue (neither when it loads
	 * its certificates nor for a failed handshake: "SSL handshake
	 * failure"), so the line also goes to stderr, which HAProxy's and
	 * nginx's units send to the journal; once per failure streak, not
	 * once per handshake. */
	if (!c->told) {
		c->told = 1;
		fprintf(stderr, "vgd provider: %s\n", err);
	}
}
