/* front.c: the front process (see front.h): its event loop, the work
 * deferred to the end of each iteration, the supervisor control channel,
 * the tick (timeouts, drain). Holds no key material: only public key
 * descriptions. Everything it reads from clients is untrusted and goes
 * through protocol/ before use; front_internal.h says which front_*.c
 * file owns the rest. The top of the front's call graph: callbacks below
 * queue work (vgd_front_schedule), settle() does it. */

#include "front_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "vg/proto_reason.h"

/* End of a loop iteration: read on for the connections that replies or
 * flushes unpaused, dispatch what the callbacks queued, then write what
 * they answered. Dispatch can answer (a poison job) and writing can
 * unpause, so loop until nothing is left. A connection held at
 * max_connections is admitted here once a close has made room. */
static void settle(front *f)
{
	vgd_front_decide_held(f); /* admitted if a close made room */
	while (f->resume || f->pump_wanted || f->dirty || f->out_relief) {
		if (f->out_relief) {
			/* The reply buffers fell back under their bound:
			 * connections that paused for it may read on. */
			f->out_relief = 0;
			for (conn *c = f->conns; c; c = c->next)
				vgd_front_conn_maybe_resume(f, c);
		}
		if (f->resume)
			vgd_front_read_resumed(f);
		if (f->pump_wanted) {
			f->pump_wanted = 0;
			vgd_front_pump(f);
		}
		vgd_front_flush_dirty(f);
	}
	vgd_front_decide_held(f); /* a flush above may have closed one */
	f->deferred = 0;
	f->settled++;
}

static void on_deferred(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	settle(arg);
}

/* ---- supervisor control channel ---- */
static void keys_install(front *f)
{
	vgd_acct_rekey(&f->acct, f->keys, f->nkeys, f->pending, f->npending);
	free(f->keys);
	f->keys = f->pending;
	f->nkeys = f->npending;
	f->generation = f->pending_gen;
	f->pending = NULL;
	f->npending = f->pending_cap = 0;
	vgd_info("key set %u installed (%zu keys)", f->generation, f->nkeys);
}

static void begin_drain(front *f)
{
	if (f->draining)
		return;
	f->draining = 1;
	f->drain_deadline_ms = vgd_now_ms() + (uint64_t)f->lim.drain_timeout_ms;
	if (f->listener)
		evconnlistener_disable(f->listener);
	vgd_front_decide_held(f); /* refused: shutting down */
	vgd_info("draining: %zu connection(s), %zu queued", f->nconns, f->queue.len + f->nfair);
}

/* Who may ask for certificate requests, as a reload set it: an
 * operator widening or narrowing csr_uids sees it took effect. */
static void log_csr_uids(const vgd_limits *l)
{
	char list[VGD_MAX_ACL * 11 + 1] = "";
	size_t n = 0;
	for (uint32_t i = 0; i < l->n_csr_uids && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%u", i ? "," : "",
				      (unsigned)l->csr_uids[i]);
	vgd_info("csr_uids: %s", l->n_csr_uids ? list : "(none)");
}

/* Limits from a reload. Connections paused under the old max_inflight
 * resume if the new one lets them. */
static void set_limits(front *f, const vgd_limits *l)
{
	if (l->max_inflight < 1 || l->max_inflight > (int32_t)VG_PROTO_MAX_INFLIGHT ||
	    l->max_queue < 1 || l->idle_timeout_ms < 1 || l->frame_timeout_ms < 1 ||
	    l->drain_timeout_ms < 0 || l->busy_poll_us < 0 || l->busy_poll_us > 1000000 ||
	    l->job_timeout_ms < 1 || l->max_conns_per_uid < 1 || l->max_inflight_per_uid < 1 ||
	    l->n_csr_uids > VGD_MAX_ACL) {
		vgd_err("ignoring invalid limits from the supervisor");
		return;
	}
	f->lim = *l;
	if (!l->follow_clients || l->busy_poll_us > 0)
		vgd_front_follow_release(f);
	vgd_log_setup("front", l->log_level);
	for (conn *c = f->conns, *nx; c; c = nx) {
		nx = c->next;
		vgd_front_conn_maybe_resume(f, c);
	}
	vgd_front_uid_resume_all(f);
	vgd_info("limits: max_inflight %d, max_queue %d, idle %d ms, frame %d ms, drain %d ms, "
		 "busy poll %d us, job %d ms, per uid %d connections %d in flight, "
		 "follow clients %s",
		 l->max_inflight, l->max_queue, l->idle_timeout_ms, l->frame_timeout_ms,
		 l->drain_timeout_ms, l->busy_poll_us, l->job_timeout_ms, l->max_conns_per_uid,
		 l->max_inflight_per_uid, l->follow_clients ? "yes" : "no");
	log_csr_uids(l);
}

static void ctl_readable(evutil_socket_t fd, short what, void *arg)
{
	front *f = arg;
	(void)what;
	for (;;) {
		vgd_ctl m;
		char cbuf[CMSG_SPACE(sizeof(int))];
		struct iovec iov = {&m, sizeof(m)};
		struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				    .msg_controllen = sizeof(cbuf)};
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			vgd_warn("supervisor is gone; draining");
			event_del(f->ctl_ev);
			begin_drain(f);
			return;
		}
		int passed = -1;
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
		if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&passed, CMSG_DATA(cm), sizeof(int));
		if ((size_t)n != sizeof(m)) {
			if (passed >= 0)
				close(passed);
			continue;
		}
		switch (m.type) {
		case VGD_CTL_KH_RING:
			/* Kept for the KH_ATTACH that follows for this slot. */
			if (passed >= 0 && m.index < (uint32_t)f->nkh) {
				if (f->kh_ring_fd[m.index] >= 0)
					close(f->kh_ring_fd[m.index]);
				f->kh_ring_fd[m.index] = passed;
				passed = -1;
			}
			break;
		case VGD_CTL_KH_ATTACH:
			if (passed >= 0 && m.index < (uint32_t)f->nkh) {
				vgd_front_kh_attach(f, (int)m.index, passed, f->kh_ring_fd[m.index]);
				f->kh_ring_fd[m.index] = -1;
				passed = -1;
			}
			break;
		case VGD_CTL_KEYS_BEGIN:
			free(f->pending);
			f->pending = calloc(m.count ? m.count : 1, sizeof(vgd_keyinfo));
			f->pending_cap = f->pending ? m.count : 0;
			f->npending = 0;
			f->pending_gen = m.generation;
			break;
		case VGD_CTL_KEYINFO:
			if (f->pending && f->npending < f->pending_cap) {
				f->pending[f->npending] = m.info;
				f->pending[f->npending].name[sizeof(m.info.name) - 1] = 0;
				f->npending++;
			}
			break;
		case VGD_CTL_KEYS_END:
			if (f->pending && f->npending == f->pending_cap)
				keys_install(f);
			break;
		case VGD_CTL_UIDNAME:
			m.info.name[sizeof(m.info.name) - 1] = 0;
			vgd_acct_set_name(&f->acct, m.index, m.info.name);
			break;
		case VGD_CTL_COUNTERS:
			f->stats.keyholder_restarts = m.restarts;
			f->stats.sandbox_violations = m.violations;
			f->stats.front_restarts = m.front_restarts;
			f->stats.children_hung = m.hung;
			f->stats.supervisor_dropped = m.dropped;
			break;
		case VGD_CTL_PING: {
			/* Liveness: the supervisor restarts a front that stops
			 * answering. */
			vgd_supmsg pong = {.type = VGD_SUP_PONG, .seq = m.seq};
			if (send(fd, &pong, sizeof(pong), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
				vgd_warn("cannot answer the supervisor's ping: %s", strerror(errno));
			break;
		}
		case VGD_CTL_DRAIN:
			begin_drain(f);
			break;
		case VGD_CTL_LIMITS:
			set_limits(f, &m.limits);
			break;
		}
		if (passed >= 0)
			close(passed);
	}
}

static size_t jobs_in_flight(front *f)
{
	size_t n = f->queue.len + f->nfair;
	for (int i = 0; i < f->nkh; i++)
		n += f->kh[i] ? f->kh[i]->out.len : 0;
	for (int i = 0; i < f->nretiring; i++)
		n += f->retiring[i]->out.len;
	return n;
}

/* Drain deadline: whatever is still queued or with a keyholder gets its
 * one reply now (the keyholders' late answers go nowhere: we exit). */
static void fail_all(front *f)
{
	for (job *j; (j = f->queue.head ? f->queue.head : vgd_front_fair_any(f)) != NULL;) {
		if (j == f->queue.head)
			vgd_front_q_remove(&f->queue, j);
		else
			vgd_front_fair_remove(f, j);
		vgd_front_job_finish(f, j, VG_ST_UNAVAILABLE, NULL, 0,
				     vg_reason(VG_R_STOPPED_QUEUED));
	}
	vgd_front_kh_fail_all(f, VG_ST_UNAVAILABLE, vg_reason(VG_R_STOPPED_RUNNING));
}

/* Before exiting: every connection still open is told why it ends, in
 * the connection error PROTOCOL.md 7.1 promises (UNAVAILABLE "daemon is
 * shutting down") after the answers it is owed, and one non-blocking
 * attempt hands it all to the kernel. */
static void flush_all(front *f)
{
	long n = vg_conn_error_encode(VG_ST_UNAVAILABLE, vg_reason(VG_R_SHUTTING_DOWN), f->frame,
				      sizeof(f->frame));
	for (conn *c = f->conns; c; c = c->next)
		if (!c->dead)
			vgd_front_conn_send(c, f->frame, n);
	for (conn *c = f->conns; c; c = c->next)
		if (!c->dead)
			while (vgd_front_conn_out_pending(c) > 0 && vgd_front_conn_write_out(c) > 0)
				;
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
	front *f = arg;
	(void)fd;
	(void)what;
	settle(f); /* empties the lists that may name released conns */
	vgd_front_conn_free_released(f);
	/* Read after settle(), which stamps connections and keyholders. */
	uint64_t now = vgd_now_ms();
	vgd_front_direct_sync(f, now);
	for (conn *c = f->conns, *nx; c; c = nx) {
		nx = c->next;
		if (c->dead)
			continue;
		if (c->partial_since_ms &&
		    vgd_ms_since(now, c->partial_since_ms) > (uint64_t)f->lim.frame_timeout_ms) {
			vgd_front_log(f, VGD_LK_TIMEOUT,
				      "closing connection of pid %d: partial frame timed out",
				      (int)c->pid);
			vgd_front_conn_start_closing(c);
			vgd_front_conn_maybe_finish(f, c);
		} else if (c->inflight == 0 && !c->partial_since_ms && !c->closing &&
			   vgd_ms_since(now, c->last_active_ms) > (uint64_t)f->lim.idle_timeout_ms) {
			vgd_debug("closing idle connection of pid %d", (int)c->pid);
			vgd_front_conn_close(f, c);
		}
	}
	for (int k = 0; k < VGD_LK_COUNT; k++)
		vgd_ratelog_tick(&f->logs[k], now); /* summaries of suppressed lines */
	vgd_acct_tick(&f->acct, now, f->keys, f->nkeys); /* each interval's use lines */
	/* A keyholder that has had jobs and no progress for job_timeout is
	 * hung (stopped, looping): its jobs go to another keyholder, and its
	 * channel is closed (the supervisor's ping restarts it). */
	vgd_front_kh_check_progress(f, now);
	vgd_front_sched_tick(f, now);
	/* Jobs that found no keyholder in time fail rather than wait forever. */
	while (f->queue.head && vgd_ms_since(now, f->queue.head->t_queued_ms) > QUEUE_TIMEOUT_MS) {
		job *j = f->queue.head;
		vgd_front_q_remove(&f->queue, j);
		vgd_front_job_finish(f, j, VG_ST_UNAVAILABLE, NULL, 0,
				     vg_reason(VG_R_NO_KEYHOLDER));
	}
	for (job *j; (j = vgd_front_fair_expired(f, now, QUEUE_TIMEOUT_MS)) != NULL;) {
		vgd_front_fair_remove(f, j);
		vgd_front_job_finish(f, j, VG_ST_UNAVAILABLE, NULL, 0,
				     vg_reason(VG_R_NO_KEYHOLDER));
	}
	if (f->draining) {
		int out_pending = 0;
		for (conn *c = f->conns; c; c = c->next)
			if (!c->dead && vgd_front_conn_out_pending(c))
				out_pending = 1;
		if ((jobs_in_flight(f) == 0 && !out_pending) || now > f->drain_deadline_ms) {
			if (jobs_in_flight(f)) {
				vgd_warn("drain deadline passed with %zu request(s) unanswered; "
					 "answering them UNAVAILABLE",
					 jobs_in_flight(f));
				fail_all(f);
			}
			flush_all(f);
			event_base_loopexit(f->base, NULL);
		}
	}
}

/* Whether busy polling may keep a CPU now: only while fewer keyholders
 * are busy than there are CPUs, so the spinning front never takes a core
 * a keyholder could use (under load it sleeps as before). */
static int may_poll(front *f)
{
	if (f->lim.busy_poll_us <= 0 || f->queue.len > 0 || f->nfair > 0)
		return 0;
	int busy = 0;
	for (int i = 0; i < f->nkh; i++)
		busy += f->kh[i] && f->kh[i]->out.len > 0;
	return busy < f->ncpus;
}

/* The use table (acct.h). vgd-testhooks takes a shorter interval and
 * fewer rows from the environment, so tests see the interval's lines and
 * the other row without waiting a minute or using 257 keys. */
static void acct_init(front *f)
{
	unsigned rows = 0;
	uint64_t interval = 0;
#ifdef VGD_TEST_HOOKS
	const char *e = getenv("VGD_TEST_ACCT_INTERVAL_MS");
	if (e)
		interval = strtoull(e, NULL, 10);
	e = getenv("VGD_TEST_ACCT_ROWS");
	if (e)
		rows = (unsigned)strtoul(e, NULL, 10);
#endif
	vgd_acct_init(&f->acct, rows, interval, vgd_now_ms());
}

/* The event loop. With busy_poll_us set, after a pass that did work the
 * front keeps polling (epoll_wait with a zero timeout) instead of
 * sleeping, for up to busy_poll_us: the next client request or keyholder
 * reply is then picked up without a wake-up, which on a VM costs several
 * microseconds per process hop (an idle vCPU must be woken). Off by
 * default: it spends a CPU while it polls. */
static void run_loop(front *f)
{
	uint64_t until = 0, seen = f->settled;
	for (;;) {
		int poll = 0;
		if (f->lim.busy_poll_us > 0) {
			uint64_t now = vgd_now_us();
			if (f->settled != seen) {
				seen = f->settled;
				until = now + (uint64_t)f->lim.busy_poll_us;
			}
			poll = now < until && may_poll(f);
		}
		int r = event_base_loop(f->base, EVLOOP_ONCE | (poll ? EVLOOP_NONBLOCK : 0));
		if (r != 0 || event_base_got_exit(f->base) || event_base_got_break(f->base))
			return;
	}
}

int vgd_front_main(const vgd_front_args *a)
{
	front *f = calloc(1, sizeof(*f));
	if (!f)
		return 1;
	f->cfg = a->cfg;
	f->lim = (vgd_limits){
		.max_inflight = a->cfg->max_inflight,
		.max_queue = a->cfg->max_queue,
		.idle_timeout_ms = a->cfg->idle_timeout_ms,
		.frame_timeout_ms = a->cfg->frame_timeout_ms,
		.drain_timeout_ms = a->cfg->drain_timeout_ms,
		.log_level = a->cfg->log_level,
		.busy_poll_us = a->cfg->busy_poll_us,
		.job_timeout_ms = a->cfg->job_timeout_ms,
		.max_conns_per_uid = a->cfg->max_conns_per_uid,
		.max_inflight_per_uid = a->cfg->max_inflight_per_uid,
		.follow_clients = a->cfg->follow_clients,
		.n_csr_uids = (uint32_t)a->cfg->n_csr_uids,
	};
	for (size_t i = 0; i < a->cfg->n_csr_uids; i++)
		f->lim.csr_uids[i] = (uint32_t)a->cfg->csr_uids[i];
	vgd_ratelog_init(&f->logs[VGD_LK_MALFORMED], "malformed",
			 "connections closed for a malformed frame", VGD_LOG_INFO);
	vgd_ratelog_init(&f->logs[VGD_LK_TIMEOUT], "timeout",
			 "connections closed for a stalled frame", VGD_LOG_INFO);
	vgd_ratelog_init(&f->logs[VGD_LK_DENIED], "denied", "denied requests", VGD_LOG_WARN);
	vgd_ratelog_init(&f->logs[VGD_LK_REFUSED], "refused", "refused connections",
			 VGD_LOG_WARN);
	vgd_ratelog_init(&f->logs[VGD_LK_POISON], "poisoned",
			 "requests given up on after crashing keyholders", VGD_LOG_ERR);
	acct_init(f);
	f->out_limit = a->cfg->max_reply_buffers;
	f->ncpus = a->ncpus > 0 ? a->ncpus : 1;
	vgd_front_follow_init(f);
	f->generation = a->generation;
	f->nkeys = a->keys->n;
	f->keys = calloc(f->nkeys ? f->nkeys : 1, sizeof(vgd_keyinfo));
	if (!f->keys)
		return 1;
	memcpy(f->keys, a->keys->info, f->nkeys * sizeof(vgd_keyinfo));
	struct event_config *ec = event_config_new();
	event_config_avoid_method(ec, "select");
	event_config_avoid_method(ec, "poll");
	f->base = event_base_new_with_config(ec);
	event_config_free(ec);
	if (!f->base) {
		vgd_err("cannot create the event loop");
		return 1;
	}
	f->defer_ev = event_new(f->base, -1, 0, on_deferred, f);
	f->held_ev = evtimer_new(f->base, vgd_front_on_hold_round, f);
	f->nkh = a->nkeyholders < VGD_KH_MAX ? a->nkeyholders : VGD_KH_MAX;
	for (int i = 0; i < VGD_KH_MAX; i++)
		f->kh_ring_fd[i] = -1;
	for (int i = 0; i < f->nkh; i++)
		f->kh_cpu[i] = a->kh_cpu ? a->kh_cpu[i] : -1;
	if (vgd_front_direct_init(f, a->direct, a->ndirect) < 0) {
		vgd_err("cannot set up the direct slots");
		return 1;
	}
	for (int i = 0; i < f->nkh; i++)
		if (a->kh_fds[i] >= 0)
			vgd_front_kh_attach(f, i, a->kh_fds[i], a->kh_rings[i]);
	f->listener = evconnlistener_new(f->base, vgd_front_on_accept, f, 0,
					 0 /* already listening */, a->listen_fd);
	f->ctl_ev = event_new(f->base, a->ctl_fd, EV_READ | EV_PERSIST, ctl_readable, f);
	f->tick = event_new(f->base, -1, EV_PERSIST, tick, f);
	struct timeval tv = {0, TICK_MS * 1000};
	if (!f->listener || !f->ctl_ev || !f->tick || !f->defer_ev || !f->held_ev ||
	    event_add(f->ctl_ev, NULL) < 0 || event_add(f->tick, &tv) < 0) {
		vgd_err("cannot set up the front's events");
		return 1;
	}
	vgd_supmsg ready = {.type = VGD_SUP_READY};
	if (send(a->ctl_fd, &ready, sizeof(ready), MSG_NOSIGNAL) < 0)
		vgd_warn("cannot tell the supervisor we are ready: %s", strerror(errno));
	run_loop(f);
	vgd_info("front exiting");
	return 0;
}
