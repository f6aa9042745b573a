/* async.c: libvgclient's request table and event-loop step: queueing up
 * to the in-flight limit, matching replies by id, timeouts, retrying the
 * requests of a broken connection once, and running completions. Reply
 * frames may hold X25519 shared secrets and raw RSA results: each frame is
 * wiped from the receive buffer once its callback has returned. */
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "req.h"

/* dispatch() result meaning "this connection is finished". */
#define BROKE (-1000)

static int32_t slot_alloc(vg_client *c)
{
	if (c->free_head >= 0) {
		int32_t i = c->free_head;
		c->free_head = c->reqs[i].next;
		return i;
	}
	if (c->nreqs == c->capreqs) {
		uint32_t cap = c->capreqs ? 2 * c->capreqs : 64;
		if (cap > VGC_MAX_SLOTS)
			cap = VGC_MAX_SLOTS;
		if (cap <= c->nreqs)
			return -1;
		struct vgc_req *n = realloc(c->reqs, cap * sizeof(*n));
		if (!n)
			return -1;
		c->reqs = n;
		c->capreqs = cap;
	}
	return (int32_t)c->nreqs++;
}

static void slot_free(vg_client *c, int32_t i)
{
	struct vgc_req *r = &c->reqs[i];
	free(r->frame);
	memset(r, 0, sizeof(*r));
	r->state = RQ_FREE;
	r->next = c->free_head;
	c->free_head = i;
}

void vgc_drop_all(vg_client *c)
{
	for (uint32_t i = 0; i < c->nreqs; i++)
		free(c->reqs[i].frame);
	c->nreqs = 0;
	c->free_head = -1;
	c->q_head = c->q_tail = -1;
	c->inflight = c->zombies = 0;
	c->npending = 0;
	c->min_deadline = 0;
}

static void queue_push_back(vg_client *c, int32_t i)
{
	c->reqs[i].next = -1;
	if (c->q_tail >= 0)
		c->reqs[c->q_tail].next = i;
	else
		c->q_head = i;
	c->q_tail = i;
}

static void queue_push_front(vg_client *c, int32_t i)
{
	c->reqs[i].next = c->q_head;
	c->q_head = i;
	if (c->q_tail < 0)
		c->q_tail = i;
}

static int wbuf_append(vg_client *c, const uint8_t *p, size_t n)
{
	if (c->woff == c->wlen)
		c->woff = c->wlen = 0;
	if (c->wlen + n > c->wcap && c->woff > 0) {
		/* Compact first: written bytes at the front are dead. (Not on a
		 * first request: wbuf is still NULL, and memmove(NULL, ...) is
		 * undefined even for 0 bytes.) */
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	if (c->wlen + n > c->wcap) {
		size_t cap = c->wcap ? c->wcap : 16384;
		while (cap < c->wlen + n)
			cap *= 2;
		uint8_t *nb = realloc(c->wbuf, cap);
		if (!nb)
			return -1;
		c->wbuf = nb;
		c->wcap = cap;
	}
	memcpy(c->wbuf + c->wlen, p, n);
	c->wlen += n;
	return 0;
}

/* Move queued requests into the write buffer while the daemon's in-flight
 * limit allows (beyond it vgd stops reading the connection, so anything
 * more would only sit in kernel buffers), then write what the socket
 * takes. Returns 0 or a connection error. */
static int pump(vg_client *c)
{
	while (c->q_head >= 0 && c->inflight < c->max_inflight) {
		int32_t i = c->q_head;
		struct vgc_req *r = &c->reqs[i];
		if (wbuf_append(c, vgc_req_frame(r), r->frame_len) < 0)
			break; /* out of memory: try again on the next call */
		c->q_head = r->next;
		if (c->q_head < 0)
			c->q_tail = -1;
		r->next = -1;
		r->state = RQ_SENT;
		c->inflight++;
	}
	return vgc_conn_flush(c);
}

const uint8_t *vgc_req_frame(const struct vgc_req *r)
{
	return r->frame ? r->frame : r->inl;
}

static int submit_slot(vg_client *c, const vg_request *rq, vg_client_cb cb, vgc_icb icb,
		       void *arg, int own)
{
	if (c->closing)
		return VGC_E_BUSY;
	/* Header and items take less than 128 bytes besides DATA. */
	size_t cap = 128 + rq->data_len;
	if (cap > VG_PROTO_MAX_FRAME)
		cap = VG_PROTO_MAX_FRAME;
	uint8_t *frame = NULL;
	if (cap > VGC_INLINE_FRAME && !(frame = malloc(cap)))
		return VGC_E_NOMEM;
	int32_t i = slot_alloc(c);
	if (i < 0) {
		free(frame);
		return VGC_E_NOMEM;
	}
	struct vgc_req *q = &c->reqs[i];
	memset(q, 0, sizeof(*q));
	if (++c->gen == 0)
		c->gen = 1; /* id 0 is the connection error's (PROTOCOL.md 7.1) */
	uint32_t id = (uint32_t)c->gen << 16 | (uint32_t)i;
	vg_request r = *rq;
	r.id = id;
	/* Where the caller runs (PROTOCOL.md 6.10), once hello said this
	 * connection's daemon takes the hint. sched_getcpu is the vDSO or
	 * rseq: no system call. */
	int cpu = c->state == CS_UP && c->cpu_hint == CPU_HINT_YES && vgc_op_takes_cpu(r.op)
			  ? sched_getcpu()
			  : -1;
	if (cpu >= 0) {
		r.has_cpu = 1;
		r.cpu = (uint32_t)cpu;
	}
	long n = vg_request_encode(&r, frame ? frame : q->inl, frame ? cap : sizeof(q->inl));
	if (n < 0) {
		free(frame);
		slot_free(c, i);
		return VGC_E_INVALID;
	}
	if (c->state == CS_NONE) {
		int e = vgc_conn_start(c);
		if (e < 0) {
			free(frame);
			slot_free(c, i);
			return e;
		}
	}
	q->id = id;
	q->state = RQ_QUEUED;
	q->op = rq->op;
	q->frame = frame;
	q->frame_len = (size_t)n;
	q->cb = cb;
	q->icb = icb;
	q->arg = arg;
	q->own = own != 0;
	vgc_expect_of(rq, &q->expect);
	if (c->timeout_ms > 0) {
		q->deadline = vgc_now_ms() + c->timeout_ms;
		if (c->min_deadline == 0 || q->deadline < c->min_deadline)
			c->min_deadline = q->deadline;
	}
	queue_push_back(c, i);
	if (!own)
		c->npending++;
	/* Write now when possible: the request reaches vgd without waiting
	 * for the caller's loop. A failure is left for process() (the socket
	 * then polls readable), which may run callbacks; submit never does. */
	if (c->state == CS_UP && !c->broken && pump(c) < 0)
		c->broken = 1;
	return 0;
}

int vgc_submit(vg_client *c, const vg_request *rq, vg_client_cb cb, vgc_icb icb, void *arg)
{
	vg_request h; /* the CPU hint's hello goes ahead of this request */
	if (vgc_hint_hello(c, rq->op, &h) &&
	    submit_slot(c, &h, NULL, vgc_hint_caps_done, NULL, 1) == 0)
		c->cpu_hint = CPU_HINT_ASKED;
	return submit_slot(c, rq, cb, icb, arg, 0);
}

static void run_cb(vg_client *c, vg_client_cb cb, vgc_icb icb, void *arg, int st,
		   const vg_reply *rep, const char *reason)
{
	c->in_cb++;
	if (icb)
		icb(c, arg, st, rep, reason);
	else if (cb)
		cb(st, st == 0 && rep ? rep->result : NULL, st == 0 && rep ? rep->result_len : 0,
		   reason, arg);
	c->in_cb--;
}

/* Run the callbacks of every RQ_DONE slot, with rep and reason when the
 * daemon gave them (a connection error), else the error's name. Callbacks
 * may submit (slots may move: only indices are kept) or cancel (a nested
 * delivery): each slot's state is read again before use. */
static int deliver_done_with(vg_client *c, const vg_reply *rep, const char *reason)
{
	int n = 0;
	for (uint32_t i = 0; i < c->nreqs; i++) {
		struct vgc_req *r = &c->reqs[i];
		if (r->state != RQ_DONE)
			continue;
		vg_client_cb cb = r->cb;
		vgc_icb icb = r->icb;
		void *arg = r->arg;
		int st = r->status;
		int own = r->own;
		if (r->keep_id) {
			/* Sent and unanswered: the id stays reserved. */
			r->keep_id = 0;
			r->state = RQ_ZOMBIE;
			r->cb = NULL;
			r->icb = NULL;
			c->zombies++;
		} else {
			slot_free(c, (int32_t)i);
		}
		if (!own)
			c->npending--;
		run_cb(c, cb, icb, arg, st, rep, reason ? reason : vg_client_strerror(st));
		n += !own;
	}
	return n;
}

static int deliver_done(vg_client *c)
{
	return deliver_done_with(c, NULL, NULL);
}

/* Mark a pending slot done with st. A sent request keeps its slot (as a
 * zombie) when the connection lives on, so a late reply is recognised. */
static void mark_done(vg_client *c, struct vgc_req *r, int st, int keep)
{
	r->keep_id = keep != 0;
	r->state = RQ_DONE;
	r->status = st;
	(void)c;
}

/* Fail every queued request with st: no connection can be made, so none
 * can be sent (including those waiting for their retry: what stops them
 * now is the connect). */
static void fail_queue(vg_client *c, int st)
{
	for (int32_t i = c->q_head; i >= 0;) {
		struct vgc_req *r = &c->reqs[i];
		int32_t nx = r->next;
		mark_done(c, r, st, 0);
		i = nx;
	}
	c->q_head = c->q_tail = -1;
}

/* The connection is finished (EOF, error, protocol violation, refusal).
 * Unanswered requests go back to the front of the queue for one retry on a
 * new connection; the new socket is opened before the old one is closed,
 * so the caller sees a different descriptor number. */
static int conn_broke(vg_client *c)
{
	int old = c->fd;
	c->fd = -1;
	vgc_conn_close(c);
	c->inflight = c->zombies = 0;
	for (uint32_t i = 0; i < c->nreqs; i++) {
		struct vgc_req *r = &c->reqs[i];
		if (r->state == RQ_ZOMBIE) {
			slot_free(c, (int32_t)i);
		} else if (r->state == RQ_SENT) {
			if (r->tries >= 1) {
				mark_done(c, r, VGC_E_CLOSED, 0);
			} else {
				r->tries = 1;
				r->state = RQ_QUEUED;
				vgc_hint_strip(r);
				queue_push_front(c, (int32_t)i);
			}
		}
	}
	if (c->q_head >= 0 && vgc_conn_start(c) < 0)
		fail_queue(c, VGC_E_CONNECT);
	if (old >= 0)
		close(old);
	return deliver_done(c);
}

/* The daemon ends the connection and says why (a connection error,
 * opcode 0xff, PROTOCOL.md 7.1): what was sent on it fails with that
 * status and the daemon's reason instead of being retried (a refused
 * connection would only be refused again). Returns BROKE. */
static int conn_error(vg_client *c, const vg_reply *rep)
{
	char reason[VG_PROTO_MAX_REASON + 1];
	size_t n = rep->reason_len < VG_PROTO_MAX_REASON ? rep->reason_len : VG_PROTO_MAX_REASON;
	if (rep->reason && n)
		memcpy(reason, rep->reason, n);
	reason[n] = 0;
	int st = vgc_err_from_status(rep->status);
	for (uint32_t i = 0; i < c->nreqs; i++)
		if (c->reqs[i].state == RQ_SENT)
			mark_done(c, &c->reqs[i], st, 0);
	c->inflight = c->zombies;
	deliver_done_with(c, rep, n ? reason : vg_client_strerror(st));
	return BROKE;
}

/* One decoded reply. Returns 1 if a callback ran, 0 if not, BROKE. */
static int handle_reply(vg_client *c, const vg_reply *rep)
{
	if (rep->conn_error)
		return conn_error(c, rep);
	uint32_t idx = rep->id & 0xffffu;
	struct vgc_req *r = idx < c->nreqs ? &c->reqs[idx] : NULL;
	if (!r || r->id != rep->id || (r->state != RQ_SENT && r->state != RQ_ZOMBIE) ||
	    r->op != rep->op)
		return BROKE; /* answers nothing we sent (ids are never 0): end it */
	int closes = vg_status_closes(rep->status);
	c->inflight--;
	if (r->state == RQ_ZOMBIE) {
		c->zombies--;
		slot_free(c, (int32_t)idx);
		return closes ? BROKE : 0;
	}
	vg_client_cb cb = r->cb;
	vgc_icb icb = r->icb;
	void *arg = r->arg;
	int own = r->own;
	int fits = vgc_expect_ok(&r->expect, rep->result, rep->result_len);
	slot_free(c, (int32_t)idx);
	if (!own)
		c->npending--;
	int st = vgc_err_from_status(rep->status);
	char reason[VG_PROTO_MAX_REASON + 1];
	reason[0] = 0;
	int bad_item = vg_reply_check(rep);
	if (st == 0 && bad_item) {
		/* A success reply must carry what its operation returns. */
		st = VGC_E_PROTOCOL;
		snprintf(reason, sizeof(reason), "reply breaks the rule for its %s item",
			 vg_tag_name(bad_item));
	} else if (st == 0 && !fits) {
		/* ... and a RESULT its request can produce: no caller sees
		 * more (or other) bytes than vgclient.h promises. */
		st = VGC_E_PROTOCOL;
		snprintf(reason, sizeof(reason),
			 "%s reply's RESULT (%zu bytes) does not fit the request",
			 vg_op_name(rep->op), rep->result_len);
	} else if (st != 0) {
		size_t n = rep->reason_len < VG_PROTO_MAX_REASON ? rep->reason_len : VG_PROTO_MAX_REASON;
		if (rep->reason && n)
			memcpy(reason, rep->reason, n);
		reason[n] = 0;
		if (!n)
			snprintf(reason, sizeof(reason), "%s", vg_client_strerror(st));
	}
	run_cb(c, cb, icb, arg, st, rep, reason);
	return closes ? BROKE : !own;
}

/* Run every whole frame in the receive buffer. */
static int dispatch(vg_client *c, int *ran)
{
	size_t off = 0;
	int ret = 0;
	while (off < c->rlen) {
		vg_frame_hdr h;
		long fl = vg_frame_check(c->rbuf + off, c->rlen - off, &h);
		if (fl == 0)
			break;
		vg_reply rep;
		if (fl < 0 || vg_reply_decode(c->rbuf + off, (size_t)fl, &rep) != VG_ST_OK) {
			ret = BROKE;
			break;
		}
		int r = handle_reply(c, &rep);
		explicit_bzero(c->rbuf + off, (size_t)fl);
		off += (size_t)fl;
		if (r == BROKE) {
			ret = BROKE;
			break;
		}
		*ran += r;
	}
	if (ret == BROKE)
		return BROKE;
	memmove(c->rbuf, c->rbuf + off, c->rlen - off);
	c->rlen -= off;
	return 0;
}

/* Requests past their deadline complete with VGC_E_TIMEOUT. */
static int expire(vg_client *c)
{
	if (c->min_deadline == 0)
		return 0;
	long long now = vgc_now_ms();
	if (now < c->min_deadline)
		return 0;
	long long next = 0;
	/* Queued: unlink while keeping the order of the rest. */
	int32_t prev = -1;
	for (int32_t i = c->q_head; i >= 0;) {
		struct vgc_req *r = &c->reqs[i];
		int32_t nx = r->next;
		if (r->deadline && r->deadline <= now) {
			if (prev >= 0)
				c->reqs[prev].next = nx;
			else
				c->q_head = nx;
			if (c->q_tail == i)
				c->q_tail = prev;
			mark_done(c, r, VGC_E_TIMEOUT, 0);
		} else {
			prev = i;
		}
		i = nx;
	}
	for (uint32_t i = 0; i < c->nreqs; i++) {
		struct vgc_req *r = &c->reqs[i];
		if (r->state != RQ_SENT && r->state != RQ_QUEUED)
			continue;
		if (r->state == RQ_SENT && r->deadline && r->deadline <= now)
			mark_done(c, r, VGC_E_TIMEOUT, 1);
		else if (r->deadline && (next == 0 || r->deadline < next))
			next = r->deadline;
	}
	c->min_deadline = next;
	return deliver_done(c);
}

int vgc_process(vg_client *c)
{
	int ran = 0;
	c->more = 0;
	if (c->state == CS_NONE && c->q_head >= 0 && vgc_conn_start(c) < 0) {
		fail_queue(c, VGC_E_CONNECT);
		ran += deliver_done(c);
	}
	if (c->state == CS_CONNECTING || c->state == CS_RETRY) {
		if (vgc_conn_step(c) < 0) {
			fail_queue(c, VGC_E_CONNECT);
			ran += deliver_done(c);
		}
	}
	for (int round = 0; c->state == CS_UP; round++) {
		if (c->broken || pump(c) < 0) {
			ran += conn_broke(c);
			continue; /* the new connection gets its queue written */
		}
		size_t room = VGC_RBUF_SIZE - c->rlen;
		int r = room ? vgc_conn_read(c) : 0;
		if (r < 0) {
			ran += conn_broke(c);
			continue;
		}
		if (r == 0)
			break;
		/* A stream socket's recv takes everything queued up to the room
		 * given: a short read left it empty, so the recv that would only
		 * say EAGAIN is skipped (what comes later makes it readable
		 * again, edge-triggered or not). */
		int drained = (size_t)r < room;
		if (dispatch(c, &ran) == BROKE) {
			ran += conn_broke(c);
			continue;
		}
		if (drained)
			break;
		if (round >= 1024) {
			/* Replies keep coming (callbacks resubmitting): give
			 * the caller's loop a turn; vg_client_timeout() says 0
			 * so it comes back even if edge-triggered. */
			c->more = 1;
			break;
		}
	}
	ran += expire(c);
	/* Every in-flight slot is a timed-out request vgd never answered: the
	 * connection can carry nothing more. Start over on a new one. */
	if (c->state == CS_UP && c->q_head >= 0 && c->zombies >= c->max_inflight)
		ran += conn_broke(c);
	return ran;
}

int vg_client_cancel_all(vg_client *c)
{
	if (vgc_forked_check(c))
		return 0;
	for (uint32_t i = 0; i < c->nreqs; i++) {
		struct vgc_req *r = &c->reqs[i];
		if (r->state == RQ_QUEUED)
			mark_done(c, r, VGC_E_CANCELLED, 0);
		else if (r->state == RQ_SENT)
			mark_done(c, r, VGC_E_CANCELLED, 1);
	}
	c->q_head = c->q_tail = -1;
	return deliver_done(c);
}
