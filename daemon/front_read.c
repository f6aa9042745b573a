/* front_read.c: the front's client input (see front_internal.h): accept,
 * read, split what arrives into frames and hand each to front_ops.c; and
 * read on, when the loop settles, for the paused connections that
 * front_conn.c queued. Holds no key material. Everything read here is
 * untrusted: only frame headers are checked here, bodies go to
 * front_ops.c. */
#include "front_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "vg/proto_reason.h"

/* Make room for a frame of total bytes: once, up to the largest frame. */
static int conn_in_reserve(conn *c, size_t total)
{
	if (total <= c->in_cap)
		return 0;
	uint8_t *n = realloc(c->in, VG_PROTO_MAX_FRAME);
	if (!n)
		return -1;
	c->in = n;
	c->in_cap = VG_PROTO_MAX_FRAME;
	return 0;
}

/* Handle the complete frames in c->in, keep a partial one. Only a read
 * callback or the loop's settle step gets here, never an answer, so it
 * does not run twice on one connection's stack. */
static void read_frames(front *f, conn *c)
{
	size_t off = 0;
	c->last_active_ms = vgd_now_ms();
	while (!c->closing && !c->dead) {
		size_t avail = c->in_len - off;
		if (avail == 0) {
			c->partial_since_ms = 0;
			break;
		}
		int full = vgd_front_conn_no_room(f, c, 0);
		if (full) {
			/* The frame timeout restarts when reading does: the
			 * wait is ours, not the client's. */
			c->partial_since_ms = 0;
			c->paused = 1;
			if (full == VGD_NOROOM_FRONT) {
				f->out_over = 1;
				f->stats.out_paused++;
			}
			vgd_front_conn_set_reading(c, 0);
			break;
		}
		size_t want = avail < VG_PROTO_HDR_LEN ? avail : VG_PROTO_HDR_LEN;
		vg_frame_hdr h;
		int why;
		long r = vg_request_frame_check(c->in + off, want, &h, &why);
		if (r < 0) {
			/* Judged from the header alone (the request rules
			 * included): answered now, the body is never read. */
			vgd_stats_record(&f->stats, 0, (int)-r, 0);
			f->stats.malformed++;
			vgd_front_send_frame_error(f, c, &h, why);
			vgd_front_log(f, VGD_LK_MALFORMED, "closing connection of pid %d: %s",
				      (int)c->pid, vg_reason(why));
			vgd_front_conn_start_closing(c);
			break;
		}
		size_t total = avail >= VG_PROTO_HDR_LEN ? VG_PROTO_HDR_LEN + h.body_len : 0;
		if (total == 0 || avail < total) {
			if (!c->partial_since_ms)
				c->partial_since_ms = c->last_active_ms;
			if (conn_in_reserve(c, total) < 0) {
				vgd_front_send_error(f, c, h.opcode, h.id, VG_ST_INTERNAL,
						     vg_reason(VG_R_NO_MEMORY));
				vgd_front_conn_start_closing(c);
			}
			break;
		}
		vgd_front_handle_frame(f, c, c->in + off, total);
		off += total;
		c->partial_since_ms = 0;
	}
	if (off) {
		memmove(c->in, c->in + off, c->in_len - off);
		c->in_len -= off;
	}
	/* A large frame's room is given back once it has been handled: a
	 * connection holds 64 KiB only while such a frame arrives. */
	if (c->in_len == 0 && c->in_cap > CONN_IN_START) {
		uint8_t *small = realloc(c->in, CONN_IN_START);
		if (small) {
			c->in = small;
			c->in_cap = CONN_IN_START;
		}
	}
	/* A client that half-closed is closed once all it sent is answered
	 * (or, with requests in flight, by the last answer: see
	 * vgd_front_conn_job_done). */
	if (c->eof && !c->dead && !c->paused && c->inflight == 0)
		c->closing = 1;
	vgd_front_conn_maybe_finish(f, c);
}

/* The loop's settle step: paused connections with room again read the
 * frames they already hold, then read from their sockets again. */
void vgd_front_read_resumed(front *f)
{
	while (f->resume) {
		conn *c = f->resume;
		f->resume = c->resume_next;
		c->resume_next = NULL;
		c->resume_queued = 0;
		if (c->dead || c->closing || !c->paused)
			continue;
		c->paused = 0;
		if (!c->eof)
			vgd_front_conn_set_reading(c, 1);
		read_frames(f, c);
	}
}

/* One recv per wakeup: if it filled the buffer, epoll (level triggered)
 * reports the socket again; looping to EAGAIN would cost a call. A client
 * that half-closed after its last request gets its answers, then the
 * connection closes (c stays allocated until the next tick even if
 * closed). */
static void conn_readable(evutil_socket_t fd, short what, void *arg)
{
	conn *c = arg;
	front *f = c->front;
	(void)what;
	if (c->in_len == c->in_cap) {
		read_frames(f, c); /* not expected: a partial frame always fits */
		return;
	}
	ssize_t n = recv(fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
	if (n > 0) {
		c->in_len += (size_t)n;
		read_frames(f, c);
	} else if (n == 0) {
		c->eof = 1;
		vgd_front_conn_set_reading(c, 0);
		read_frames(f, c);
	} else if (errno != EAGAIN && errno != EINTR) {
		vgd_front_conn_close(f, c);
	}
}

/* A new client on fd (non-blocking: the listener accepts with
 * SOCK_NONBLOCK), counted from now on. */
static void admit(front *f, int fd, const struct ucred *cred)
{
	if (!vgd_front_conn_new(f, fd, cred, conn_readable)) {
		vgd_err("accept: out of memory");
		close(fd);
	}
}

/* Accepted only to say why in a connection error (PROTOCOL.md 7.1), then
 * closed: nothing it sent is read. The frame is one small send into an
 * empty socket buffer, so it never waits. */
static void refuse_conn(front *f, int fd, int why, const struct ucred *cred)
{
	f->stats.connections_refused++;
	if (why == VG_R_TOO_MANY_CONNECTIONS) {
		int uid_full = cred && !vgd_front_uid_may_connect(f, cred->uid) &&
			       f->nconns < (size_t)f->cfg->max_connections;
		if (uid_full)
			f->stats.uid_refused++;
		vgd_front_log(f, VGD_LK_REFUSED,
			      "refusing a connection of uid %ld pid %ld: %s (%zu of %d open)",
			      cred ? (long)cred->uid : -1L, cred ? (long)cred->pid : -1L,
			      uid_full ? "its uid's share is taken" : "max_connections", f->nconns,
			      f->cfg->max_connections);
	}
	long n = vg_conn_error_encode((uint8_t)vg_reason_status(why), vg_reason(why), f->frame,
				      sizeof(f->frame));
	if (n > 0)
		(void)send(fd, f->frame, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
	close(fd);
}

/* Whether a connection of this caller fits now: under max_connections
 * and its uid's share (vgd_front_uid_may_connect, which also keeps the
 * last places for uids holding few). */
static int fits(front *f, const struct ucred *cred)
{
	return f->nconns < (size_t)f->cfg->max_connections &&
	       vgd_front_uid_may_connect(f, cred->uid);
}

static int peer_cred(int fd, struct ucred *cred)
{
	socklen_t cl = sizeof(*cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, &cl) < 0) {
		vgd_err("accept: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Remove held[i], keeping the others in arrival order. */
static int unhold(front *f, int i)
{
	int fd = f->held[i];
	f->nheld--;
	memmove(&f->held[i], &f->held[i + 1], (size_t)(f->nheld - i) * sizeof(f->held[0]));
	memmove(&f->held_round[i], &f->held_round[i + 1],
		(size_t)(f->nheld - i) * sizeof(f->held_round[0]));
	return fd;
}

/* Decide held connections: admit those that fit now. Refuse (final)
 * those held since before the current round, unless this pass admitted
 * one: then places are freeing up (their clients may have closed them
 * already, unread), and the rest wait another round. Draining, refuse
 * all. */
static void decide(front *f, int final)
{
	int admitted = 0;
	for (int i = 0; i < f->nheld;) {
		struct ucred cred;
		if (peer_cred(f->held[i], &cred) < 0) {
			close(unhold(f, i));
			continue;
		}
		if (f->draining) {
			refuse_conn(f, unhold(f, i), VG_R_SHUTTING_DOWN, NULL);
		} else if (fits(f, &cred)) {
			admit(f, unhold(f, i), &cred);
			admitted = 1;
		} else {
			i++;
		}
	}
	for (int i = 0; i < f->nheld;) {
		if (admitted) {
			f->held_round[i++] = f->hold_round;
		} else if (final && f->held_round[i] != f->hold_round) {
			struct ucred cred;
			int ok = peer_cred(f->held[i], &cred) == 0;
			refuse_conn(f, unhold(f, i), VG_R_TOO_MANY_CONNECTIONS, ok ? &cred : NULL);
		} else {
			i++;
		}
	}
	if (f->nheld == 0)
		event_del(f->held_ev);
	if (f->listener_paused && f->nheld < VGD_HELD_MAX && !f->draining && f->listener) {
		f->listener_paused = 0;
		evconnlistener_enable(f->listener);
	}
}

/* Connections over a limit are held, never read, rather than refused at
 * once: libevent accepts a whole backlog in one callback, before the loop
 * has read the end-of-file of connections whose clients closed just
 * before connecting again, so they would still count. A held one is
 * admitted as soon as it fits (a close made room: the loop's settle step
 * asks), or refused at the second round that finds it held (10 to 20 ms
 * later: an epoll_wait lies between, and it reports every close that came
 * before the connection). Draining, all are refused. */
void vgd_front_decide_held(front *f)
{
	if (f->nheld)
		decide(f, 0);
}

void vgd_front_on_hold_round(evutil_socket_t fd, short what, void *arg)
{
	front *f = arg;
	(void)fd;
	(void)what;
	decide(f, 1);
	f->hold_round++;
	if (f->nheld) {
		struct timeval tv = {0, VGD_HOLD_MS * 1000};
		evtimer_add(f->held_ev, &tv);
	}
}

void vgd_front_on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			 int salen, void *arg)
{
	front *f = arg;
	(void)sa;
	(void)salen;
	f->stats.connections_total++;
	if (f->draining) {
		refuse_conn(f, fd, VG_R_SHUTTING_DOWN, NULL);
		return;
	}
	struct ucred cred;
	if (peer_cred(fd, &cred) < 0) {
		close(fd);
		return;
	}
	if (f->nheld == 0 && fits(f, &cred)) {
		admit(f, fd, &cred);
		return;
	}
	/* Over a limit, or behind others that are: held, in order. A full
	 * hold pauses the listener (which also ends libevent's accept loop)
	 * until a round or an admission makes room. */
	f->held_round[f->nheld] = f->hold_round;
	f->held[f->nheld++] = fd;
	if (f->nheld == VGD_HELD_MAX) {
		f->listener_paused = 1;
		evconnlistener_disable(l);
	}
	if (!evtimer_pending(f->held_ev, NULL)) {
		struct timeval tv = {0, VGD_HOLD_MS * 1000};
		evtimer_add(f->held_ev, &tv);
	}
	vgd_front_schedule(f); /* a close in this iteration admits it */
}
