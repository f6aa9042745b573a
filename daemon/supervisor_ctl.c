/* supervisor_ctl.c: the supervisor's side of the control channel to the
 * front (see supervisor_internal.h and record.h): keyholder channels
 * passed as descriptors, key descriptions, limits, counters, the drain
 * order; and the front's READY, passed on to the service manager. Sends
 * only public key descriptions, never key material. */
#include "supervisor_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "notify.h"

static void send_ctl(sup *s, const vgd_ctl *m, int fd_to_pass)
{
	if (s->ctl_fd < 0)
		return;
	struct iovec iov = {(void *)m, sizeof(*m)};
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	if (fd_to_pass >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd_to_pass, sizeof(int));
	}
	if (sendmsg(s->ctl_fd, &mh, MSG_NOSIGNAL) < 0)
		vgd_warn("control message to the front failed: %s", strerror(errno));
}

/* A keyholder's channel for slot, passed to the front (the caller keeps
 * and closes its copy). */
void vgd_sup_send_keyholder(sup *s, int slot, int fd)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_KH_ATTACH;
	m.index = (uint32_t)slot;
	m.generation = s->gen;
	send_ctl(s, &m, fd);
}

void vgd_sup_send_counters(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_COUNTERS;
	m.restarts = s->restarts;
	m.violations = s->violations;
	send_ctl(s, &m, -1);
}

void vgd_sup_send_keys(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_KEYS_BEGIN;
	m.generation = s->gen;
	m.count = (uint32_t)s->ks.n;
	send_ctl(s, &m, -1);
	for (size_t i = 0; i < s->ks.n; i++) {
		memset(&m, 0, sizeof(m));
		m.type = VGD_CTL_KEYINFO;
		m.info = s->ks.info[i];
		send_ctl(s, &m, -1);
	}
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_KEYS_END;
	send_ctl(s, &m, -1);
}

void vgd_sup_send_limits(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_LIMITS;
	m.limits.max_inflight = s->cfg->max_inflight;
	m.limits.max_queue = s->cfg->max_queue;
	m.limits.idle_timeout_ms = s->cfg->idle_timeout_ms;
	m.limits.frame_timeout_ms = s->cfg->frame_timeout_ms;
	m.limits.drain_timeout_ms = s->cfg->drain_timeout_ms;
	m.limits.log_level = s->cfg->log_level;
	m.limits.busy_poll_us = s->cfg->busy_poll_us;
	send_ctl(s, &m, -1);
}

void vgd_sup_send_drain(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_DRAIN;
	send_ctl(s, &m, -1);
}

/* The front's only message is READY; a close means it is gone (its exit
 * is handled when it is reaped). */
static void ctl_readable(evutil_socket_t fd, short what, void *arg)
{
	sup *s = arg;
	(void)what;
	vgd_ctl m;
	ssize_t n = recv(fd, &m, sizeof(m), MSG_DONTWAIT);
	if (n == (ssize_t)sizeof(m) && m.type == VGD_CTL_READY) {
		vgd_info("ready: %d keyholder(s), %zu key(s), socket %s", s->nslots, s->ks.n,
			 s->cfg->socket_path);
		(void)vgd_notify("READY=1\nSTATUS=serving");
		return;
	}
	if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR))) {
		event_del(s->ctl_ev);
		close(s->ctl_fd);
		s->ctl_fd = -1;
	}
}

/* The channel to a new front: fd is the supervisor's end. */
void vgd_sup_ctl_open(sup *s, int fd)
{
	s->ctl_fd = fd;
	if (s->ctl_ev)
		event_free(s->ctl_ev);
	s->ctl_ev = event_new(s->base, s->ctl_fd, EV_READ | EV_PERSIST, ctl_readable, s);
	event_add(s->ctl_ev, NULL);
}

/* The front is gone. */
void vgd_sup_ctl_close(sup *s)
{
	if (s->ctl_ev)
		event_del(s->ctl_ev);
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	s->ctl_fd = -1;
}
