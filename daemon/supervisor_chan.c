/* supervisor_chan.c: what children send the supervisor on their own
 * channels (see supervisor_internal.h): violation reports, pongs, the
 * front's READY.
 *
 * A child's channel is its own: a report names the child it came on, so a
 * child can only speak for itself, and only once (the one report its
 * SIGSYS handler writes before it exits). Everything else a child sends is
 * dropped and counted, the supervisor reads at most VGD_SUP_READ_BUDGET
 * messages per wake-up from one child, and the lines children can cause
 * are rate-limited (ratelog.h): a compromised child cannot flood the log,
 * the counters or the supervisor's memory. Nothing here is secret. */
#include "supervisor_internal.h"

#include <errno.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "notify.h"

static const char *role_name(const child *c) { return c->slot < 0 ? "front" : "keyholder"; }

/* ---- what children send ---- */
static void on_message(sup *s, child *c, const vgd_supmsg *m)
{
	switch (m->type) {
	case VGD_SUP_VIOLATION:
		/* Kept, and logged when the child is reaped and its exit
		 * status confirms it: a child that is alive was not killed by
		 * its sandbox, whatever it says. */
		if (c->reported < 0) {
			c->reported = m->nr;
			return;
		}
		break; /* a child dies of its first violation: more are not reports */
	case VGD_SUP_PONG:
		if (c->ping_sent_ms && m->seq == c->ping_seq) {
			c->ping_sent_ms = 0;
			return;
		}
		break;
	case VGD_SUP_READY:
		if (c->slot < 0 && !s->front_ready) {
			s->front_ready = 1;
			vgd_info("ready: %d keyholder(s), %zu key(s), socket %s", s->nslots, s->ks.n,
				 s->cfg->socket_path);
			(void)vgd_notify("READY=1\nSTATUS=serving");
			return;
		}
		break;
	}
	s->dropped++;
	vgd_ratelog_event(&s->childlog, vgd_now_ms(),
			  "%s (pid %d) sent an unexpected message (type %u); dropped", role_name(c),
			  (int)c->pid, (unsigned)m->type);
}

static void child_readable(evutil_socket_t fd, short what, void *arg)
{
	child *c = arg;
	sup *s = c->s;
	(void)what;
	if (c->fd < 0)
		return;
	uint64_t dropped = s->dropped;
	for (int i = 0; i < VGD_SUP_READ_BUDGET; i++) {
		vgd_supmsg m;
		ssize_t n = recv(fd, &m, sizeof(m), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		/* A child that exits with a message of ours unread (a ping)
		 * leaves ECONNRESET pending, and recv returns it before what
		 * the child sent (its violation report): the error is consumed,
		 * read on. */
		if (n < 0 && errno == ECONNRESET)
			continue;
		if (n <= 0) {
			/* The child is gone or going: its exit is handled when it
			 * is reaped. */
			vgd_sup_child_unwatch(c);
			if (c->slot < 0)
				vgd_sup_ctl_close(s);
			break;
		}
		if ((size_t)n != sizeof(m)) {
			s->dropped++;
			continue;
		}
		on_message(s, c, &m);
	}
	if (s->dropped != dropped)
		vgd_sup_send_counters(s);
}

int vgd_sup_child_watch(sup *s, child *c, int fd)
{
	c->s = s;
	c->fd = fd;
	c->ev = event_new(s->base, fd, EV_READ | EV_PERSIST, child_readable, c);
	if (!c->ev || event_add(c->ev, NULL) < 0) {
		if (c->ev)
			event_free(c->ev);
		c->ev = NULL;
		return -1;
	}
	return 0;
}

void vgd_sup_child_unwatch(child *c)
{
	if (c->ev) {
		event_free(c->ev);
		c->ev = NULL;
	}
	/* The front's channel is closed by vgd_sup_ctl_close (it owns the
	 * queue of messages for it). */
	if (c->fd >= 0 && c->slot >= 0)
		close(c->fd);
	if (c->slot >= 0)
		c->fd = -1;
}

void vgd_sup_kill(sup *s, child *c, int why)
{
	(void)s;
	if (c->pid <= 0 || c->killed)
		return;
	c->killed = why;
	kill(c->pid, SIGKILL);
}

void vgd_sup_child_read(child *c)
{
	if (c->ev)
		child_readable(c->fd, EV_READ, c);
}
