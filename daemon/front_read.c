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
static void admit(front *f, int fd)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0) {
		vgd_err("accept: %s", strerror(errno));
		close(fd);
		return;
	}
	/* One caller (uid) may hold max_connections_per_uid: the rest stay
	 * for everyone else. */
	if (vgd_front_uid_conns(f, cred.uid) >= (unsigned)f->lim.max_conns_per_uid) {
		f->stats.connections_refused++;
		f->stats.uid_refused++;
		long n = vg_error_encode(0, 0, VG_ST_OVERLOADED, vg_reason(VG_R_TOO_MANY_CONNECTIONS),
					 f->frame, sizeof(f->frame));
		if (n > 0)
			(void)send(fd, f->frame, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
		close(fd);
		return;
	}
	/* non-blocking: the listener accepts with SOCK_NONBLOCK */
	if (!vgd_front_conn_new(f, fd, &cred, conn_readable)) {
		vgd_err("accept: out of memory");
		close(fd);
	}
}

/* Accepted only to say why in a connection error (PROTOCOL.md 7.1), then
 * closed. */
static void refuse_conn(front *f, int fd, int why)
{
	f->stats.connections_refused++;
	if (why == VG_R_TOO_MANY_CONNECTIONS)
		vgd_front_log(f, VGD_LK_REFUSED, "refusing a connection: %zu of %d open",
			      f->nconns, f->cfg->max_connections);
	long n = vg_conn_error_encode((uint8_t)vg_reason_status(why), vg_reason(why), f->frame,
				      sizeof(f->frame));
	if (n > 0)
		(void)send(fd, f->frame, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
	close(fd);
}

/* A connection that arrives with max_connections open is held, with the
 * listener off, rather than refused at once: libevent accepts a whole
 * backlog in one callback, before the loop has read the end-of-file of
 * connections whose clients closed just before connecting again, so they
 * would still count. The held one is admitted as soon as a connection
 * closes (vgd_front_conn_close asks for this), or refused at the next
 * tick if the limit still holds then (final): by then the loop has read
 * every close that came before it. Either way the listener accepts
 * again. */
void vgd_front_decide_held(front *f, int final)
{
	if (f->held_fd < 0)
		return;
	int fd = f->held_fd;
	if (f->draining) {
		f->held_fd = -1;
		refuse_conn(f, fd, VG_R_SHUTTING_DOWN);
		return; /* the listener stays off while draining */
	}
	if (f->nconns < (size_t)f->cfg->max_connections)
		admit(f, fd);
	else if (final)
		refuse_conn(f, fd, VG_R_TOO_MANY_CONNECTIONS);
	else
		return;
	f->held_fd = -1;
	if (f->listener)
		evconnlistener_enable(f->listener);
}

void vgd_front_on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			 int salen, void *arg)
{
	front *f = arg;
	(void)sa;
	(void)salen;
	f->stats.connections_total++;
	if (f->draining) {
		refuse_conn(f, fd, VG_R_SHUTTING_DOWN);
		return;
	}
	if (f->nconns >= (size_t)f->cfg->max_connections || f->held_fd >= 0) {
		if (f->held_fd >= 0) { /* not expected: the listener is off */
			refuse_conn(f, fd, VG_R_TOO_MANY_CONNECTIONS);
			return;
		}
		f->held_fd = fd;
		f->held_ticks = 0;
		evconnlistener_disable(l); /* also ends libevent's accept loop */
		vgd_front_schedule(f);     /* a close in this iteration admits it */
		return;
	}
	admit(f, fd);
}
