/* front_conn.c: the front's client connections (see front_internal.h):
 * their replies out, read and write interest, closing, and the two lists
 * the loop drains at the end of an iteration (replies to write, paused
 * connections to read on). Holds no key material, but the output buffer
 * holds results (wiped as they leave). Reading and parsing what a client
 * sends is front_read.c's. */
#include "front_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

/* Whether c may take another frame: 0 if so, else why not. A connection
 * pauses at the strict marks (front_read.c) and reads on only below the
 * loose ones (resume), so it does not flap at the edge. Over the front's
 * bound on reply buffers (max_reply_buffers) only connections with
 * unread replies wait: a client that reads its replies is always served. */
int vgd_front_conn_no_room(const front *f, const conn *c, int resume)
{
	size_t pending = vgd_front_conn_out_pending(c);
	size_t high = resume ? CONN_OUT_HIGH / 4 : CONN_OUT_HIGH;
	size_t bound = resume ? f->out_limit / 4 * 3 : f->out_limit;
	if (c->inflight >= (unsigned)f->lim.max_inflight || pending > high ||
	    vgd_front_uid_full(f, c))
		return VGD_NOROOM_CONN;
	if (pending > 0 && f->out_bytes > bound)
		return VGD_NOROOM_FRONT;
	return 0;
}

/* A paused connection may read on once it has room for more requests and
 * its replies have mostly left. It is only queued here: front_read.c
 * reads on when the loop settles (vgd_front_read_resumed), so whoever
 * freed the room (a keyholder's reply, a flush, new limits) never parses
 * requests on its own stack. */
void vgd_front_conn_maybe_resume(front *f, conn *c)
{
	if (c->dead || !c->paused || c->closing || c->resume_queued ||
	    vgd_front_conn_no_room(f, c, 1))
		return;
	c->resume_queued = 1;
	c->resume_next = f->resume;
	f->resume = c;
	vgd_front_schedule(f);
}

/* The reply buffers' total changed (a buffer of old bytes became one of
 * now bytes). Falling back under three quarters of the bound lets the
 * connections that paused for it read on (the loop walks them once). */
static void out_account(front *f, size_t old, size_t now)
{
	f->out_bytes = f->out_bytes - old + now;
	if (f->out_bytes > f->stats.out_bytes_max)
		f->stats.out_bytes_max = f->out_bytes;
	if (f->out_over && f->out_bytes <= f->out_limit / 4 * 3) {
		f->out_over = 0;
		f->out_relief = 1;
		vgd_front_schedule(f);
	}
}

/* Give up a drained buffer that had grown: a burst of replies does not
 * keep its memory (the next reply allocates again). */
static void conn_out_shrink(front *f, conn *c)
{
	if (c->out_cap <= CONN_OUT_START || vgd_front_conn_out_pending(c) != 0)
		return;
	vg_wipe(c->out, c->out_cap);
	free(c->out);
	out_account(f, c->out_cap, 0);
	c->out = NULL;
	c->out_cap = c->out_off = c->out_len = 0;
}

/* ---- replies ---- */
/* Room for n more bytes after out_len: the pending bytes move to the
 * start, or to a larger buffer. Memory given up is wiped first (realloc
 * could leave a copy behind). 0 or -1. */
static int conn_out_reserve(front *f, conn *c, size_t n)
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
	out_account(f, c->out_cap, cap);
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
	if (conn_out_reserve(c->front, c, (size_t)len) < 0) {
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
	if (!pending) {
		conn_out_shrink(f, c);
		vgd_front_conn_maybe_finish(f, c);
	}
	vgd_front_conn_maybe_resume(f, c);
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

/* Registered only while replies wait for room in the socket. */
static void conn_writable(evutil_socket_t fd, short what, void *arg)
{
	conn *c = arg;
	(void)fd;
	(void)what;
	c->last_active_ms = vgd_now_ms();
	conn_flush(c->front, c);
}

/* ---- connections ---- */
static void conn_free(conn *c)
{
	if (c->rev)
		event_free(c->rev);
	if (c->wev)
		event_free(c->wev);
	if (c->out) {
		vg_wipe(c->out, c->out_cap);
		free(c->out);
		out_account(c->front, c->out_cap, 0);
	}
	free(c->in);
	free(c);
}

/* A new connection on fd (non-blocking), read by on_readable; NULL if out
 * of memory (fd is then still the caller's). */
conn *vgd_front_conn_new(front *f, int fd, const struct ucred *cred,
			 event_callback_fn on_readable)
{
	conn *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->front = f;
	c->fd = fd;
	c->uid = cred->uid;
	c->gid = cred->gid;
	c->pid = cred->pid;
	c->in = malloc(CONN_IN_START);
	c->in_cap = CONN_IN_START;
	/* The reply buffer is allocated with the first reply (conn_out_reserve):
	 * a connection that has not been answered yet holds none. */
	c->rev = event_new(f->base, fd, EV_READ | EV_PERSIST, on_readable, c);
	c->wev = event_new(f->base, fd, EV_WRITE | EV_PERSIST, conn_writable, c);
	if (!c->in || !c->rev || !c->wev || vgd_front_uid_attach(f, c) < 0) {
		conn_free(c);
		return NULL;
	}
	c->last_active_ms = vgd_now_ms();
	vgd_front_conn_set_reading(c, 1);
	c->next = f->conns;
	if (f->conns)
		f->conns->prev = c;
	f->conns = c;
	f->nconns++;
	return c;
}

/* Off the live list, onto the released one: freed at the next tick. */
static void conn_release(front *f, conn *c)
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
	vgd_front_uid_detach(f, c);
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
	vgd_front_direct_release(f, c);
	if (f->nheld)
		vgd_front_schedule(f); /* room for a held connection */
	vgd_front_uid_closed(f, c);
	/* Queued jobs of a closed connection are dropped; those already with
	 * a keyholder finish and their replies go nowhere. */
	unsigned dropped = vgd_front_q_drop_owner(&f->queue, &f->pool, c) +
			   vgd_front_fair_drop_owner(f, c);
	c->inflight -= dropped;
	vgd_front_uid_done(f, c, dropped);
	if (c->inflight == 0)
		conn_release(f, c);
}

/* One of c's jobs has been answered (front_reply.c). */
void vgd_front_conn_job_done(front *f, conn *c)
{
	c->inflight--;
	vgd_front_uid_done(f, c, 1);
	if (c->dead) {
		if (c->inflight == 0)
			conn_release(f, c);
		return;
	}
	/* A client that half-closed is closed once all it sent is answered:
	 * a paused connection may still hold unread frames. */
	if (c->eof && c->inflight == 0 && !c->paused)
		c->closing = 1;
	if (c->closing) {
		vgd_front_conn_maybe_finish(f, c);
		return;
	}
	vgd_front_conn_maybe_resume(f, c);
}

/* At the tick, after the loop settled: no list names them any more. */
void vgd_front_conn_free_released(front *f)
{
	while (f->released) {
		conn *c = f->released;
		f->released = c->next;
		conn_free(c);
	}
}
