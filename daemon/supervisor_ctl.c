/* supervisor_ctl.c: the supervisor's side of the control channel to the
 * front (see supervisor_internal.h and record.h): keyholder channels
 * passed as descriptors, key descriptions, limits, counters, pings, the
 * drain order. Sends only public key descriptions, never key material.
 *
 * The supervisor never waits for the front: its end is non-blocking, and
 * what the socket does not take waits in a bounded queue that a write
 * event drains. Counters are not queued (the latest values go out when the
 * queue is empty). When the queue is full the message is dropped and
 * counted, and the front, which has then missed state it needs (a
 * keyholder channel, part of a key set), is killed and restarted with
 * everything current. */
#include "supervisor_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "acct.h"
#include "clock.h"
#include "log.h"

/* 1 sent, 0 the socket is full, -1 the channel is broken. */
static int try_send(sup *s, const vgd_ctl *m, int fd_to_pass)
{
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
	if (sendmsg(s->front.fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0)
		return 1;
	if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS || errno == EINTR)
		return 0;
	vgd_warn("control message to the front failed: %s", strerror(errno));
	return -1;
}

static void queue_pop(sup *s)
{
	ctlmsg *q = &s->ctlq[s->ctlq_head];
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	s->ctlq_head = (s->ctlq_head + 1) % VGD_CTL_QUEUE_MAX;
	s->ctlq_len--;
}

static void queue_clear(sup *s)
{
	while (s->ctlq_len)
		queue_pop(s);
	s->ctlq_head = 0;
	s->counters_pending = 0;
}

static void send_counters_now(sup *s);

/* The socket has room again: send what waits, in order. */
static void ctl_writable(evutil_socket_t fd, short what, void *arg)
{
	sup *s = arg;
	(void)fd;
	(void)what;
	while (s->ctlq_len && s->front.fd >= 0) {
		ctlmsg *q = &s->ctlq[s->ctlq_head];
		int r = try_send(s, &q->m, q->fd);
		if (r == 0)
			break;
		queue_pop(s); /* sent, or the channel is broken (the reaper cleans up) */
	}
	if (s->ctlq_len && s->front.fd >= 0) {
		event_add(s->ctl_wev, NULL);
		return;
	}
	if (s->counters_pending && s->front.fd >= 0) {
		s->counters_pending = 0;
		send_counters_now(s);
	}
}

static void send_ctl(sup *s, const vgd_ctl *m, int fd_to_pass)
{
	if (s->front.fd < 0)
		return;
	if (s->ctlq_len == 0) {
		int r = try_send(s, m, fd_to_pass);
		if (r != 0)
			return;
	}
	if (s->ctlq_len == VGD_CTL_QUEUE_MAX || !s->ctlq) {
		s->dropped++;
		vgd_ratelog_event(&s->childlog, vgd_now_ms(),
				  "front (pid %d) is not reading its control channel: message "
				  "dropped; restarting it",
				  (int)s->front.pid);
		if (s->front.pid > 0 && !s->front.killed) {
			s->front.killed = KILLED_STALE;
			kill(s->front.pid, SIGKILL);
		}
		return;
	}
	ctlmsg *q = &s->ctlq[(s->ctlq_head + s->ctlq_len) % VGD_CTL_QUEUE_MAX];
	q->m = *m;
	q->fd = -1;
	/* The caller keeps and closes its descriptor: the queue holds its
	 * own duplicate until the message leaves. */
	if (fd_to_pass >= 0 && (q->fd = fcntl(fd_to_pass, F_DUPFD_CLOEXEC, 0)) < 0) {
		vgd_warn("cannot hold a keyholder channel for the front: %s", strerror(errno));
		return;
	}
	s->ctlq_len++;
	event_add(s->ctl_wev, NULL);
}

/* A keyholder's channel for slot, passed to the front (the caller keeps
 * and closes its copy). */
/* A keyholder's ring, then its channel: the front attaches the channel
 * with the ring that came just before it for the same slot. */
void vgd_sup_send_keyholder(sup *s, int slot, int fd, int mfd)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_KH_RING;
	m.index = (uint32_t)slot;
	m.generation = s->gen;
	send_ctl(s, &m, mfd);
	m.type = VGD_CTL_KH_ATTACH;
	send_ctl(s, &m, fd);
}

static void send_counters_now(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_COUNTERS;
	m.restarts = s->restarts;
	m.violations = s->violations;
	m.front_restarts = s->front_restarts;
	m.hung = s->hung;
	m.dropped = s->dropped;
	send_ctl(s, &m, -1);
}

/* Counters change with every event children cause: they never queue up;
 * the latest values follow whatever is queued. */
void vgd_sup_send_counters(sup *s)
{
	if (s->ctlq_len) {
		s->counters_pending = 1;
		return;
	}
	send_counters_now(s);
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
	vgd_sup_send_uid_names(s);
}

/* The user names of uid 0 and of the uids the keys' ACLs name, for the
 * front's use lines (acct.h): the front may not read /etc/passwd. Looked
 * up here when a front starts and at each reload, never in the front's
 * loop; a uid without a name, or past VGD_ACCT_NAMES, stays a number. */
void vgd_sup_send_uid_names(sup *s)
{
	uint32_t done[VGD_ACCT_NAMES];
	unsigned n = 0;
	for (size_t i = 0; i <= s->ks.n && n < VGD_ACCT_NAMES; i++) {
		static const uid_t root = 0;
		const uid_t *uids = i == 0 ? &root : s->ks.info[i - 1].uids;
		size_t nu = i == 0 ? 1 : s->ks.info[i - 1].n_uids;
		for (size_t j = 0; j < nu && n < VGD_ACCT_NAMES; j++) {
			unsigned k = 0;
			while (k < n && done[k] != (uint32_t)uids[j])
				k++;
			if (k < n)
				continue;
			done[n++] = (uint32_t)uids[j];
			struct passwd pw, *res = NULL;
			char buf[2048];
			if (getpwuid_r(uids[j], &pw, buf, sizeof(buf), &res) != 0 || !res)
				continue;
			vgd_ctl m;
			memset(&m, 0, sizeof(m));
			m.type = VGD_CTL_UIDNAME;
			m.index = (uint32_t)uids[j];
			snprintf(m.info.name, sizeof(m.info.name), "%s", pw.pw_name);
			send_ctl(s, &m, -1);
		}
	}
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
	m.limits.job_timeout_ms = s->cfg->job_timeout_ms;
	m.limits.max_conns_per_uid = s->cfg->max_conns_per_uid;
	m.limits.max_inflight_per_uid = s->cfg->max_inflight_per_uid;
	m.limits.follow_clients = s->cfg->follow_clients;
	m.limits.n_csr_uids = (uint32_t)s->cfg->n_csr_uids;
	for (size_t i = 0; i < s->cfg->n_csr_uids; i++)
		m.limits.csr_uids[i] = (uint32_t)s->cfg->csr_uids[i];
	send_ctl(s, &m, -1);
}

void vgd_sup_send_drain(sup *s)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_DRAIN;
	send_ctl(s, &m, -1);
}

void vgd_sup_send_ping(sup *s, uint32_t seq)
{
	vgd_ctl m;
	memset(&m, 0, sizeof(m));
	m.type = VGD_CTL_PING;
	m.seq = seq;
	send_ctl(s, &m, -1);
}

/* The channel to a new front: fd is the supervisor's end (non-blocking).
 * What the front sends on it is read by supervisor_chan.c. 0 or -1. */
int vgd_sup_ctl_open(sup *s, int fd)
{
	if (!s->ctlq) {
		s->ctlq = calloc(VGD_CTL_QUEUE_MAX, sizeof(*s->ctlq));
		if (!s->ctlq)
			return -1;
		for (unsigned i = 0; i < VGD_CTL_QUEUE_MAX; i++)
			s->ctlq[i].fd = -1;
	}
	queue_clear(s);
	s->front.fd = fd;
	if (s->ctl_wev)
		event_free(s->ctl_wev);
	s->ctl_wev = event_new(s->base, fd, EV_WRITE, ctl_writable, s);
	return s->ctl_wev ? 0 : -1;
}

/* The front is gone: what waited for it goes nowhere. */
void vgd_sup_ctl_close(sup *s)
{
	if (s->ctl_wev) {
		event_free(s->ctl_wev);
		s->ctl_wev = NULL;
	}
	if (s->ctlq)
		queue_clear(s);
	if (s->front.fd >= 0)
		close(s->front.fd);
	s->front.fd = -1;
}
