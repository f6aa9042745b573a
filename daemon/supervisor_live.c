/* supervisor_live.c: liveness (see supervisor_internal.h). A timer pings
 * every child on its own channel; a child that has not answered within
 * liveness_timeout is hung (stopped, looping, or compromised and silent)
 * and is killed, and the reaper restarts it. A keyholder whose front died
 * and that did not exit with it (its channel end was passed elsewhere, or
 * it is stuck) is killed too. And whatever order things died in, every
 * child that should exist and does not (the front; one keyholder of the
 * current generation per slot) is restarted from here. Nothing here is
 * secret. */
#include "supervisor_internal.h"

#include <errno.h>
#include <sys/socket.h>

#include "clock.h"
#include "log.h"

/* The timer's period: often enough to see a hung child soon after its
 * deadline, at most once a second. */
static int period_ms(const sup *s)
{
	int p = s->cfg->liveness_timeout_ms / 2;
	return p < 1000 ? (p < 100 ? 100 : p) : 1000;
}

static void ping_keyholder(child *c)
{
	vgd_supmsg m = {.type = VGD_CTL_PING, .seq = c->ping_seq};
	/* Non-blocking: a keyholder that does not read its channel simply
	 * keeps the ping it has outstanding. */
	if (send(c->fd, &m, sizeof(m), MSG_DONTWAIT | MSG_NOSIGNAL) < 0 && errno != EAGAIN)
		return;
}

/* One child: hung if its ping is older than the deadline, else pinged if
 * none is outstanding. */
static void check(sup *s, child *c, uint64_t now)
{
	if (c->pid <= 0 || c->fd < 0 || c->killed)
		return;
	if (c->ping_sent_ms) {
		if (vgd_ms_since(now, c->ping_sent_ms) <= (uint64_t)s->cfg->liveness_timeout_ms)
			return;
		s->hung++;
		vgd_ratelog_event(&s->childlog, now,
				  "%s (pid %d, slot %d) did not answer a ping within %d ms; killing it",
				  c->slot < 0 ? "front" : "keyholder", (int)c->pid, c->slot,
				  s->cfg->liveness_timeout_ms);
		vgd_sup_kill(s, c, KILLED_HUNG);
		return;
	}
	c->ping_seq++;
	c->ping_sent_ms = now;
	if (c->slot < 0)
		vgd_sup_send_ping(s, c->ping_seq);
	else
		ping_keyholder(c);
}

/* Children that should exist: the front, and a keyholder of the current
 * generation in every slot. The reaper restarts what it reaps; this
 * catches anything that fell between. */
static void reconcile(sup *s)
{
	int want = 0;
	if (s->front.pid <= 0 && !s->respawn_front) {
		s->respawn_front = 1;
		want = 1;
	}
	for (int slot = 0; slot < s->nslots; slot++) {
		if (!s->respawn_slots[slot] && !vgd_sup_slot_covered(s, slot)) {
			s->respawn_slots[slot] = 1;
			want = 1;
		}
	}
	if (want) {
		vgd_warn("restarting children that should be running and are not");
		vgd_sup_restart_later(s);
	}
}

static void on_live_timer(evutil_socket_t fd, short what, void *arg)
{
	sup *s = arg;
	(void)fd;
	(void)what;
	uint64_t now = vgd_now_ms();
	uint64_t hung = s->hung;
	vgd_ratelog_tick(&s->childlog, now); /* the summary of suppressed lines */
	if (s->stopping)
		return; /* the kill timer ends what does not drain */
	check(s, &s->front, now);
	for (int i = 0; i < VGD_KH_PROCS_MAX; i++) {
		child *k = &s->kh[i];
		if (k->pid <= 0)
			continue;
		if (k->orphan && !k->killed) {
			/* Its front died a timer tick ago or more: it should have
			 * exited when its channel closed. */
			if (k->orphan++ >= 2)
				vgd_sup_kill(s, k, KILLED_ORPHAN);
			continue;
		}
		check(s, k, now);
	}
	reconcile(s);
	if (s->hung != hung)
		vgd_sup_send_counters(s);
}

int vgd_sup_live_start(sup *s)
{
	vgd_ratelog_init(&s->childlog, "children", "lines about children's messages",
			 VGD_LOG_WARN);
	s->live_timer = event_new(s->base, -1, EV_PERSIST, on_live_timer, s);
	int p = period_ms(s);
	struct timeval tv = {p / 1000, (p % 1000) * 1000};
	return s->live_timer && event_add(s->live_timer, &tv) == 0 ? 0 : -1;
}
