/* supervisor_socket.c: the listening socket (see supervisor_internal.h):
 * the one systemd passes (socket activation), or our own at socket_path
 * with its group and mode, which it has from its creation (no chmod or
 * chown by path: see make_socket). Created before any child, inherited by
 * the front only. While no front runs (the crash-loop brake's pause), and
 * while vgd stops on a socket of its own (the front no longer accepts,
 * and the backlog would die with the socket), the supervisor answers each
 * new connection with a fixed connection error (PROTOCOL.md 7.1) and
 * closes it: it accepts and writes, and never reads a byte a client
 * sends. Stopping on systemd's socket, it leaves new connections in the
 * backlog for the next start. Nothing here is secret. */
#include "supervisor_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "vg/proto.h"
#include "vg/proto_reason.h"

/* fd 3 from systemd, -1 if we were not given one, -2 if it is not a
 * listening stream socket. */
static int socket_from_systemd(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	if (!pid || !fds || strtol(pid, NULL, 10) != (long)getpid())
		return -1;
	if (strtol(fds, NULL, 10) < 1)
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	int fd = 3, type = 0, listening = 0;
	socklen_t l = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l) < 0 || type != SOCK_STREAM)
		return -2;
	l = sizeof(listening);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &l) < 0 || !listening)
		return -2;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

static int make_socket(sup *s)
{
	const vgd_config *c = s->cfg;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(c->socket_path) >= sizeof(sa.sun_path)) {
		vgd_err("socket path too long: %s", c->socket_path);
		return -1;
	}
	memcpy(sa.sun_path, c->socket_path, strlen(c->socket_path));
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* A stale socket (nobody listening) is replaced; a live one is not. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		vgd_err("%s: another vgd is already listening", c->socket_path);
		close(fd);
		return -1;
	}
	struct stat st;
	if (lstat(c->socket_path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			vgd_err("%s exists and is not a socket", c->socket_path);
			close(fd);
			return -1;
		}
		unlink(c->socket_path);
	}
	/* Mode and group are the socket file's from the moment bind creates
	 * it, so no chmod or chown by path follows (in a directory others can
	 * write, the name could point elsewhere by then). Linux creates the
	 * file with the socket's own inode mode (set by fchmod before bind)
	 * less the umask, and with our filesystem group id: root takes the
	 * socket's group for the bind (setfsgid), then returns to its own. */
	gid_t gid = (gid_t)-1;
	if (c->socket_group[0]) {
		struct group *g = getgrnam(c->socket_group);
		if (!g) {
			vgd_err("socket group %s: no such group", c->socket_group);
			close(fd);
			return -1;
		}
		gid = g->gr_gid;
	}
	if (fchmod(fd, c->socket_mode) < 0) {
		vgd_err("socket %s: fchmod: %s", c->socket_path, strerror(errno));
		close(fd);
		return -1;
	}
	int as_group = gid != (gid_t)-1 && geteuid() == 0 && gid != getegid();
	if (as_group)
		(void)setfsgid(gid);
	mode_t old = umask(0);
	int r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	int err = errno;
	umask(old);
	if (as_group)
		(void)setfsgid(getegid());
	if (r < 0) {
		vgd_err("bind %s: %s", c->socket_path, strerror(err));
		close(fd);
		return -1;
	}
	s->owns_socket_path = 1;
	/* Not root: a group of ours other than our own can only be set after
	 * bind, by name; lchown never follows a link, and we can only change
	 * files we own. */
	if (gid != (gid_t)-1 && !as_group && gid != getegid() &&
	    lchown(c->socket_path, (uid_t)-1, gid) < 0) {
		vgd_err("socket group %s: %s", c->socket_group, strerror(errno));
		close(fd);
		return -1;
	}
	if (listen(fd, 1024) < 0) {
		vgd_err("socket %s: %s", c->socket_path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int vgd_sup_listen(sup *s)
{
	int fd = socket_from_systemd();
	if (fd == -2) {
		vgd_err("LISTEN_FDS: fd 3 is not a listening stream socket");
		return -1;
	}
	s->socket_activated = fd >= 0;
	if (fd < 0)
		fd = make_socket(s);
	if (fd < 0)
		return -1;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* ---- answering while no front does ---- */
/* Accept up to budget connections and give each the connection error for
 * the current state; nothing is read. */
static void answer(sup *s, int budget)
{
	char reason[96];
	int status = VG_ST_UNAVAILABLE;
	if (s->stopping) {
		snprintf(reason, sizeof(reason), "%s", vg_reason(VG_R_SHUTTING_DOWN));
	} else {
		long long left = s->brake_until_ms - (long long)vgd_now_ms();
		long long n = left > 0 ? (left + 999) / 1000 : 1;
		snprintf(reason, sizeof(reason), "restarting after %s; retry in %lld s",
			 left > 0 ? "repeated crashes" : "a crash", n);
	}
	uint8_t frame[160];
	long len = vg_conn_error_encode((uint8_t)status, reason, frame, sizeof(frame));
	for (int i = 0; i < budget; i++) {
		int c = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (c < 0)
			break;
		if (len > 0)
			(void)send(c, frame, (size_t)len, MSG_DONTWAIT | MSG_NOSIGNAL);
		close(c);
	}
}

static void on_listen_readable(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	answer(arg, 64); /* then the loop's other events; level-triggered */
}

void vgd_sup_answer_update(sup *s)
{
	if (s->listen_fd < 0 || !s->base)
		return;
	int want = s->stopping ? !s->socket_activated : s->front.pid <= 0;
	if (want == s->answering)
		return;
	if (!s->answer_ev)
		s->answer_ev = event_new(s->base, s->listen_fd, EV_READ | EV_PERSIST,
					 on_listen_readable, s);
	if (!s->answer_ev || (want ? event_add(s->answer_ev, NULL) : event_del(s->answer_ev)) < 0) {
		vgd_warn("cannot %s answering on the socket", want ? "start" : "stop");
		return;
	}
	s->answering = want;
}

void vgd_sup_answer_backlog(sup *s)
{
	if (s->listen_fd >= 0 && !s->socket_activated)
		answer(s, 1 << 16);
}
