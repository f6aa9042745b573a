/* front_conn.c: the front's client connections (see front_internal.h).
 * Holds no key material. Everything read here is untrusted: only frame
 * headers are checked here, bodies go to front_ops.c. */
#include "front_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "vg/proto_reason.h"
#include "vg/wipe.h"

/* Read / write interest: an epoll_ctl each, so only on a change. A dead
 * connection's events are already deleted. */
void vgd_front_conn_set_reading(conn *c, int on)
{
	if (c->dead || c->reading == on)
		return;
	if ((on ? event_add(c->rev, NULL) : event_del(c->rev)) == 0)
		c->reading = on;
}

static void conn_set_writing(conn *c, int on)
{
	if (c->dead || c->writing == on)
		return;
	if ((on ? event_add(c->wev, NULL) : event_del(c->wev)) == 0)
		c->writing = on;
}

/* A closing connection reads nothing more; it is closed once every
 * request it sent has been answered and the answers have left, so a
 * malformed frame or a stall does not cost the requests before it their
 * replies. */
void vgd_front_conn_maybe_finish(front *f, conn *c)
{
	if (c->dead || !c->closing || c->inflight)
		return;
	if (vgd_front_conn_out_pending(c) == 0)
		vgd_front_conn_close(f, c);
}

void vgd_front_conn_start_closing(conn *c)
{
	if (c->dead)
		return;
	c->closing = 1;
	c->paused = 0;
	c->partial_since_ms = 0;
	vgd_front_conn_set_reading(c, 0);
}

/* ---- replies ---- */
/* Room for n more bytes after out_len: the pending bytes move to the
 * start, or to a larger buffer. Memory given up is wiped first (realloc
 * could leave a copy behind). 0 or -1. */
static int conn_out_reserve(conn *c, size_t n)
{
	size_t pending = vgd_front_conn_out_pending(c);
	if (c->out_cap - c->out_len >= n)
		return 0;
	if (c->out_off > 0) {
		memmove(c->out, c->out + c->out_off, pending);
		vg_wipe(c->out + pending, c->out_len - pending);
		c->out_off = 0;
		c->out_len = pending;
		if (c->out_cap - c->out_len >= n)
			return 0;
	}
	size_t cap = c->out_cap ? c->out_cap : CONN_OUT_START;
	while (cap - pending < n) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	uint8_t *b = malloc(cap);
	if (!b)
		return -1;
	if (pending)
		memcpy(b, c->out, pending);
	if (c->out) {
		vg_wipe(c->out, c->out_cap);
		free(c->out);
	}
	c->out = b;
	c->out_cap = cap;
	return 0;
}

/* One non-blocking send of what is pending; the bytes that left are
 * wiped. Returns how many left, 0 if the socket took none, -1 if the
 * peer is gone. */
ssize_t vgd_front_conn_write_out(conn *c)
{
	size_t pending = vgd_front_conn_out_pending(c);
	if (pending == 0)
		return 0;
	ssize_t w = send(c->fd, c->out + c->out_off, pending, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (w < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	vg_wipe(c->out + c->out_off, (size_t)w);
	c->out_off += (size_t)w;
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	return w;
}

/* Replies are appended here and written by vgd_front_flush_dirty(), so the
 * replies a loop iteration produces for one connection leave in one send. */
void vgd_front_conn_send(conn *c, const uint8_t *frame, long len)
{
	if (c->dead || len <= 0)
		return;
	if (conn_out_reserve(c, (size_t)len) < 0) {
		c->closing = 1;
		return;
	}
	memcpy(c->out + c->out_len, frame, (size_t)len);
	c->out_len += (size_t)len;
	if (!c->dirty) {
		front *f = c->front;
		c->dirty = 1;
		c->dirty_next = f->dirty;
		f->dirty = c;
		vgd_front_schedule(f);
	}
}

/* One non-blocking write of everything pending. Write interest is
 * registered only if the socket took less than all of it. */
static void conn_flush(front *f, conn *c)
{
	if (c->dead)
		return;
	if (vgd_front_conn_write_out(c) < 0) {
		vgd_front_conn_close(f, c); /* the peer is gone: its replies go nowhere */
		return;
	}
	int pending = vgd_front_conn_out_pending(c) > 0;
	conn_set_writing(c, pending);
	if (!pending)
		vgd_front_conn_maybe_finish(f, c);
	vgd_front_conn_maybe_resume(f, c);
}

/* A paused connection is read again once it has room for more requests
 * and its replies have mostly left. */
void vgd_front_conn_maybe_resume(front *f, conn *c)
{
	if (c->dead || !c->paused || c->closing ||
	    c->inflight >= (unsigned)f->lim.max_inflight ||
	    vgd_front_conn_out_pending(c) > CONN_OUT_HIGH / 4)
		return;
	c->paused = 0;
	vgd_front_conn_set_reading(c, 1);
	vgd_front_conn_process(f, c); /* frames may already be buffered */
}

void vgd_front_flush_dirty(front *f)
{
	while (f->dirty) {
		conn *c = f->dirty;
		f->dirty = c->dirty_next;
		c->dirty_next = NULL;
		c->dirty = 0;
		conn_flush(f, c);
	}
}

/* ---- connections ---- */
void vgd_front_conn_release(front *f, conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		f->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = NULL;
	c->next = f->released;
	f->released = c;
}

/* Sockets and events go now; the memory at the next tick (see
 * f->released), as callers up the stack may still hold c. */
void vgd_front_conn_close(front *f, conn *c)
{
	if (c->dead)
		return;
	vgd_front_conn_set_reading(c, 0);
	conn_set_writing(c, 0);
	c->dead = 1;
	close(c->fd);
	c->fd = -1;
	f->nconns--;
	f->stats.connections_open = f->nconns;
	/* Queued jobs of a closed connection are dropped; those already with
	 * a keyholder finish and their replies go nowhere. */
	for (job *j = f->queue.head, *nx; j; j = nx) {
		nx = j->next;
		if (j->c == c) {
			vgd_front_q_remove(&f->queue, j);
			c->inflight--;
			vgd_front_job_free(f, j);
		}
	}
	if (c->inflight == 0)
		vgd_front_conn_release(f, c);
}

void vgd_front_conn_free(conn *c)
{
	if (c->rev)
		event_free(c->rev);
	if (c->wev)
		event_free(c->wev);
	if (c->out) {
		vg_wipe(c->out, c->out_cap);
		free(c->out);
	}
	free(c->in);
	free(c);
}

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

/* Handle the complete frames in c->in, keep a partial one. Not reentrant
 * for one connection: nothing it calls answers a job (dispatch is
 * deferred to settle()), so no vgd_front_job_finish() resumes c from inside. */
void vgd_front_conn_process(front *f, conn *c)
{
	size_t off = 0;
	c->last_active_ms = vgd_now_ms();
	while (!c->closing && !c->dead) {
		size_t avail = c->in_len - off;
		if (avail == 0) {
			c->partial_since_ms = 0;
			break;
		}
		if (c->inflight >= (unsigned)f->lim.max_inflight ||
		    vgd_front_conn_out_pending(c) > CONN_OUT_HIGH) {
			c->paused = 1;
			vgd_front_conn_set_reading(c, 0);
			break;
		}
		size_t want = avail < VG_PROTO_HDR_LEN ? avail : VG_PROTO_HDR_LEN;
		vg_frame_hdr h;
		long r = vg_frame_check(c->in + off, want, &h);
		if (r < 0) {
			const char *why = vg_reason(vg_frame_fault(r));
			/* h is zero unless the magic was right: then its id is the
			 * request's. */
			vgd_stats_record(&f->stats, 0, (int)-r, 0);
			f->stats.malformed++;
			vgd_front_send_error(f, c, h.opcode, h.id, (int)-r, why);
			vgd_info("closing connection of pid %d: %s", (int)c->pid, why);
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
	vgd_front_conn_maybe_finish(f, c);
}

/* The client half-closed after its last request: answer what it sent,
 * then close. c stays allocated until the next tick even if closed. */
static void conn_eof(front *f, conn *c)
{
	c->eof = 1;
	vgd_front_conn_set_reading(c, 0);
	vgd_front_conn_process(f, c);
	if (!c->dead && c->inflight == 0) {
		c->closing = 1;
		vgd_front_conn_maybe_finish(f, c);
	}
}

/* One recv per wakeup: if it filled the buffer, epoll (level triggered)
 * reports the socket again; looping to EAGAIN would cost a call. */
static void conn_readable(evutil_socket_t fd, short what, void *arg)
{
	conn *c = arg;
	front *f = c->front;
	(void)what;
	if (c->in_len == c->in_cap) {
		vgd_front_conn_process(f, c); /* not expected: a partial frame always fits */
		return;
	}
	ssize_t n = recv(fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
	if (n > 0) {
		c->in_len += (size_t)n;
		vgd_front_conn_process(f, c);
	} else if (n == 0) {
		conn_eof(f, c);
	} else if (errno != EAGAIN && errno != EINTR) {
		vgd_front_conn_close(f, c);
	}
}

/* Registered only while replies wait for room in the socket. */
static void conn_writable(evutil_socket_t fd, short what, void *arg)
{
	conn *c = arg;
	(void)fd;
	(void)what;
	c->last_active_ms = vgd_now_ms();
	conn_flush(c->front, c);
}

void vgd_front_on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
		      int salen, void *arg)
{
	front *f = arg;
	(void)l;
	(void)sa;
	(void)salen;
	f->stats.connections_total++;
	if (f->nconns >= (size_t)f->cfg->max_connections || f->draining) {
		/* Accepted only to say why, then closed. */
		f->stats.connections_refused++;
		long n = vg_error_encode(0, 0, f->draining ? VG_ST_UNAVAILABLE : VG_ST_OVERLOADED,
					 vg_reason(f->draining ? VG_R_SHUTTING_DOWN
							       : VG_R_TOO_MANY_CONNECTIONS),
					 f->frame, sizeof(f->frame));
		if (n > 0)
			(void)send(fd, f->frame, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
		close(fd);
		return;
	}
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	conn *c = calloc(1, sizeof(*c));
	if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0) {
		vgd_err("accept: %s", c ? strerror(errno) : "out of memory");
		free(c);
		close(fd);
		return;
	}
	c->front = f;
	c->fd = fd; /* non-blocking: the listener accepts with SOCK_NONBLOCK */
	c->uid = cred.uid;
	c->gid = cred.gid;
	c->pid = cred.pid;
	c->in = malloc(CONN_IN_START);
	c->in_cap = CONN_IN_START;
	c->out = malloc(CONN_OUT_START);
	c->out_cap = CONN_OUT_START;
	c->rev = event_new(f->base, fd, EV_READ | EV_PERSIST, conn_readable, c);
	c->wev = event_new(f->base, fd, EV_WRITE | EV_PERSIST, conn_writable, c);
	if (!c->in || !c->out || !c->rev || !c->wev) {
		vgd_err("accept: out of memory");
		vgd_front_conn_free(c);
		close(fd);
		return;
	}
	c->last_active_ms = vgd_now_ms();
	vgd_front_conn_set_reading(c, 1);
	c->next = f->conns;
	if (f->conns)
		f->conns->prev = c;
	f->conns = c;
	f->nconns++;
	f->stats.connections_open = f->nconns;
}
