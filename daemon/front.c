/* front.c: the front process (see front.h). Holds no key material: only
 * public key descriptions. Everything it reads from clients is untrusted
 * and goes through protocol/ before use. */
#include "front.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "keyops.h"
#include "log.h"
#include "record.h"
#include "stats.h"
#include "vg/cpu.h"
#include "vg/error.h"
#include "vg/proto.h"
#include "vg_config.h"

/* Jobs outstanding per keyholder: enough queued work (3 ms of RSA-2048)
 * that a busy keyholder does not run dry while the front, which does not
 * preempt it (SCHED_BATCH, see spawn_front), waits for a CPU. */
#define KH_DEPTH 16
#define MAX_ATTEMPTS 3         /* keyholder crashes a job may survive */
#define QUEUE_TIMEOUT_MS 30000 /* a job waiting this long for a keyholder fails */
#define TICK_MS 100
#define INLINE_DATA 512
#define JOB_SPARE_MAX 1024 /* freed jobs kept for reuse after a burst */
#define CONN_IN_START 4096 /* most frames are short; grows to one max frame */

typedef struct conn conn;
typedef struct job job;

struct job {
	job *next, *prev;
	conn *c;
	uint64_t id;
	uint64_t t_start_us;
	uint64_t t_queued_ms;
	uint32_t req_id;
	uint8_t op, alg, role, attempts;
	char key[VG_PROTO_MAX_KEY_NAME + 1];
	uint32_t data_len;
	uint8_t *data;
	uint8_t inline_data[INLINE_DATA];
};

typedef struct {
	job *head, *tail;
	size_t len;
} jobq;

typedef struct {
	int fd;
	unsigned gen;
	int retiring;
	int full; /* the socket buffer refused a record: wait for a reply */
	int unsent; /* jobs at the tail of out that pump() has yet to send */
	struct event *ev;
	jobq out; /* sent, awaiting reply */
} khslot;

/* A client connection. Reads go straight into in[] (one recv per
 * readable event, no FIONREAD); replies collect in out and are written
 * once per loop iteration (see flush_dirty), so write interest is only
 * registered when the socket refused part of them. */
struct conn {
	conn *next, *prev;
	conn *dirty_next; /* on the front's dirty list: replies not yet written */
	void *front;
	int fd;
	struct event *rev, *wev;
	int reading, writing, dirty; /* rev / wev added; on the dirty list */
	uint8_t *in;                 /* unparsed bytes: in[0, in_len) */
	size_t in_len, in_cap;
	struct evbuffer *out;
	uid_t uid;
	gid_t gid;
	pid_t pid;
	unsigned inflight;
	int dead;    /* socket closed; freed when inflight drains */
	int closing; /* read no more; close once answered and flushed */
	int paused;  /* not reading: too many requests in flight */
	int eof;     /* client finished sending: close once answered */
	uint64_t last_active_ms;
	uint64_t partial_since_ms;
};

#define MAX_SLOTS 1024

typedef struct {
	const vgd_config *cfg;
	struct event_base *base;
	struct evconnlistener *listener;
	struct event *ctl_ev, *tick;
	int ctl_fd;
	/* key set (public descriptions) */
	vgd_keyinfo *keys;
	size_t nkeys;
	unsigned generation;
	vgd_keyinfo *pending;
	size_t npending, pending_cap;
	unsigned pending_gen;
	/* keyholders: slots [0, nkh) current; retiring ones after them */
	khslot kh[MAX_SLOTS];
	int nkh, nslots;
	jobq queue;
	uint64_t next_job;
	conn *conns;
	conn *released; /* closed and answered: freed at the next tick, so no
			 * caller up the stack is left holding a freed conn */
	size_t nconns;
	conn *dirty; /* connections with replies to write this iteration */
	job *spare;  /* freed jobs, reused instead of a malloc per request */
	size_t nspare;
	/* Work deferred to the end of the loop iteration (settle()): one
	 * dispatch to the keyholders and one write per connection however
	 * many frames and replies the iteration's callbacks produced. */
	struct event *defer_ev;
	int deferred, pump_wanted;
	uint64_t settled; /* settle() passes: the loop did work (busy polling) */
	int ncpus;
	int draining;
	uint64_t drain_deadline_ms;
	vgd_limits lim; /* from the config, replaced by a reload */
	vgd_stats stats;
	uint8_t frame[VG_PROTO_MAX_FRAME];
	uint8_t rec[KH_DEPTH][VGD_KREP_MAX]; /* keyholder replies, one recvmmsg */
} front;

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
static uint64_t now_ms(void) { return now_us() / 1000u; }

/* ---- job queues ---- */
static void q_push_tail(jobq *q, job *j)
{
	j->next = NULL;
	j->prev = q->tail;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	q->len++;
}
static void q_push_head(jobq *q, job *j)
{
	j->prev = NULL;
	j->next = q->head;
	if (q->head)
		q->head->prev = j;
	else
		q->tail = j;
	q->head = j;
	q->len++;
}
static void q_remove(jobq *q, job *j)
{
	if (j->prev)
		j->prev->next = j->next;
	else
		q->head = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else
		q->tail = j->prev;
	j->next = j->prev = NULL;
	q->len--;
}

static job *job_alloc(front *f)
{
	job *j = f->spare;
	if (!j)
		return malloc(sizeof(*j));
	f->spare = j->next;
	f->nspare--;
	return j;
}

static void job_free(front *f, job *j)
{
	if (j->data != j->inline_data)
		free(j->data);
	j->data = NULL;
	if (f->nspare < JOB_SPARE_MAX) {
		j->next = f->spare;
		f->spare = j;
		f->nspare++;
		return;
	}
	free(j);
}

static void conn_process(front *f, conn *c);
static void conn_release(front *f, conn *c);
static void conn_close(front *f, conn *c);
static void pump(front *f);

/* Queue the end-of-iteration work. event_active on our own loop is no
 * system call: the callback runs after the callbacks already made active
 * by this epoll_wait, so their frames and replies are batched. */
static void schedule(front *f)
{
	if (f->deferred)
		return;
	f->deferred = 1;
	event_active(f->defer_ev, EV_TIMEOUT, 0);
}

static void want_pump(front *f)
{
	f->pump_wanted = 1;
	schedule(f);
}

/* Read / write interest: an epoll_ctl each, so only on a change. A dead
 * connection's events are already deleted. */
static void conn_set_reading(conn *c, int on)
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
static void conn_maybe_finish(front *f, conn *c)
{
	if (c->dead || !c->closing || c->inflight)
		return;
	if (evbuffer_get_length(c->out) == 0)
		conn_close(f, c);
}

static void conn_start_closing(conn *c)
{
	if (c->dead)
		return;
	c->closing = 1;
	c->paused = 0;
	c->partial_since_ms = 0;
	conn_set_reading(c, 0);
}

/* ---- replies ---- */
/* Replies are appended here and written by flush_dirty(), so the replies
 * a loop iteration produces for one connection leave in one writev. */
static void conn_send(conn *c, const uint8_t *frame, long len)
{
	if (c->dead || len <= 0)
		return;
	if (evbuffer_add(c->out, frame, (size_t)len) < 0) {
		c->closing = 1;
		return;
	}
	if (!c->dirty) {
		front *f = c->front;
		c->dirty = 1;
		c->dirty_next = f->dirty;
		f->dirty = c;
		schedule(f);
	}
}

/* One non-blocking write of everything pending. Write interest is
 * registered only if the socket took less than all of it. */
static void conn_flush(front *f, conn *c)
{
	if (c->dead)
		return;
	if (evbuffer_get_length(c->out) > 0 && evbuffer_write(c->out, c->fd) < 0 &&
	    errno != EAGAIN && errno != EINTR) {
		conn_close(f, c); /* the peer is gone: its replies go nowhere */
		return;
	}
	int pending = evbuffer_get_length(c->out) > 0;
	conn_set_writing(c, pending);
	if (!pending)
		conn_maybe_finish(f, c);
}

static void flush_dirty(front *f)
{
	while (f->dirty) {
		conn *c = f->dirty;
		f->dirty = c->dirty_next;
		c->dirty_next = NULL;
		c->dirty = 0;
		conn_flush(f, c);
	}
}

/* End of a loop iteration: dispatch what the callbacks queued, then write
 * what they answered. Dispatch can answer (a poison job), so loop. */
static void settle(front *f)
{
	while (f->pump_wanted || f->dirty) {
		if (f->pump_wanted) {
			f->pump_wanted = 0;
			pump(f);
		}
		flush_dirty(f);
	}
	f->deferred = 0;
	f->settled++;
}

static void on_deferred(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	settle(arg);
}

static void send_error(front *f, conn *c, uint8_t op, uint32_t id, int status, const char *reason)
{
	long n = vg_error_encode(op, id, (uint8_t)status, reason, f->frame, sizeof(f->frame));
	conn_send(c, f->frame, n);
}

/* Every request ends here exactly once (directly or through a job). */
static void answer(front *f, conn *c, uint8_t op, uint32_t id, int status, const uint8_t *res,
		   size_t rlen, const char *reason, uint64_t t_start_us)
{
	vgd_stats_record(&f->stats, op, status, now_us() - t_start_us);
	if (status != VG_ST_OK) {
		send_error(f, c, op, id, status, reason);
		return;
	}
	vg_writer w;
	vg_frame_begin(&w, f->frame, sizeof(f->frame), op | VG_OP_REPLY, VG_ST_OK, id);
	vg_put(&w, VG_T_RESULT, res, rlen);
	conn_send(c, f->frame, vg_frame_end(&w));
}

static void job_finish(front *f, job *j, int status, const uint8_t *res, size_t rlen,
		       const char *reason)
{
	conn *c = j->c;
	answer(f, c, j->op, j->req_id, status, res, rlen, reason, j->t_start_us);
	c->inflight--;
	job_free(f, j);
	if (c->dead) {
		if (c->inflight == 0)
			conn_release(f, c);
		return;
	}
	if (c->eof && c->inflight == 0)
		c->closing = 1;
	if (c->closing) {
		conn_maybe_finish(f, c);
		return;
	}
	if (c->paused && c->inflight < (unsigned)f->lim.max_inflight) {
		c->paused = 0;
		conn_set_reading(c, 1);
		conn_process(f, c); /* frames may already be buffered */
	}
}

/* ---- keyholders ---- */
static void kh_close(front *f, khslot *k)
{
	if (k->ev) {
		event_free(k->ev);
		k->ev = NULL;
	}
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
	(void)f;
}

/* A keyholder is gone: its jobs go back to the head of the queue, unless
 * they have already outlived MAX_ATTEMPTS keyholders (a poison request). */
static void kh_lost(front *f, khslot *k)
{
	vgd_warn("keyholder channel closed with %zu request(s) in flight; retrying them",
		 k->out.len);
	kh_close(f, k);
	while (k->out.tail) {
		job *j = k->out.tail;
		q_remove(&k->out, j);
		if (++j->attempts >= MAX_ATTEMPTS) {
			job_finish(f, j, VG_ST_INTERNAL, NULL, 0,
				   "keyholder crashed while processing this request");
			continue;
		}
		f->stats.retries++;
		j->t_queued_ms = now_ms();
		q_push_head(&f->queue, j);
	}
	k->full = 0;
	want_pump(f);
}

static int kh_valid_reply(const uint8_t *buf, ssize_t n, const vgd_krep **out)
{
	if (n < (ssize_t)sizeof(vgd_krep))
		return 0;
	const vgd_krep *r = (const vgd_krep *)buf;
	if (r->magic != VGD_KREP_MAGIC || r->result_len > VGD_RESULT_MAX ||
	    (size_t)n != sizeof(vgd_krep) + r->result_len || r->status > VG_ST_MAX ||
	    memchr(r->reason, 0, sizeof(r->reason)) == NULL)
		return 0;
	*out = r;
	return 1;
}

static void kh_readable(evutil_socket_t fd, short what, void *arg);

static void kh_retire_done(front *f, khslot *k)
{
	/* Closing the channel tells the keyholder to exit. */
	kh_close(f, k);
	k->retiring = 0;
}

/* Receive up to want replies in one recvmmsg. Returns how many arrived,
 * 0 if none is waiting, -1 if the channel is closed or broken (a
 * zero-length record is how a closed SOCK_SEQPACKET peer reads). */
static int kh_recv(front *f, int fd, int want, size_t len[KH_DEPTH])
{
	struct iovec iov[KH_DEPTH];
	struct mmsghdr mm[KH_DEPTH];
	memset(mm, 0, sizeof(mm[0]) * (size_t)want);
	for (int i = 0; i < want; i++) {
		iov[i] = (struct iovec){f->rec[i], sizeof(f->rec[i])};
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	int n = recvmmsg(fd, mm, (unsigned)want, MSG_DONTWAIT, NULL);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (mm[i].msg_len == 0)
			return -1;
		len[i] = mm[i].msg_len;
	}
	return n;
}

/* One reply: match it to its job and answer. Returns -1 if the record is
 * invalid (the channel is then dropped). */
static int kh_take_reply(front *f, khslot *k, const uint8_t *rec, size_t n)
{
	const vgd_krep *r;
	if (!kh_valid_reply(rec, (ssize_t)n, &r)) {
		vgd_err("invalid record from a keyholder; dropping its channel");
		return -1;
	}
	job *j = k->out.head;
	while (j && j->id != r->job)
		j = j->next;
	if (!j) {
		vgd_err("keyholder answered unknown job %llu", (unsigned long long)r->job);
		return 0;
	}
	q_remove(&k->out, j);
	k->full = 0;
	job_finish(f, j, r->status, rec + sizeof(vgd_krep), r->result_len, r->reason);
	return 0;
}

/* Replies: as many as are owed in each recvmmsg. Stop as soon as a call
 * brings fewer than asked (the socket is empty) or nothing more is owed:
 * a recv that would only say EAGAIN costs a system call, and a close or
 * stray record still wakes us (level triggered). */
static void kh_readable(evutil_socket_t fd, short what, void *arg)
{
	front *f = arg;
	khslot *k = NULL;
	for (int i = 0; i < f->nslots; i++)
		if (f->kh[i].fd == fd)
			k = &f->kh[i];
	if (!k)
		return;
	for (int budget = 0; budget < 16; budget++) {
		int want = k->out.len == 0 ? 1 : k->out.len > KH_DEPTH ? KH_DEPTH : (int)k->out.len;
		size_t len[KH_DEPTH];
		int n = kh_recv(f, fd, want, len);
		if (n < 0) {
			kh_lost(f, k);
			return;
		}
		for (int i = 0; i < n; i++)
			if (kh_take_reply(f, k, f->rec[i], len[i]) < 0) {
				kh_lost(f, k);
				return;
			}
		if (n < want || k->out.len == 0)
			break;
	}
	if (k->retiring && k->out.len == 0)
		kh_retire_done(f, k);
	want_pump(f);
	(void)what;
}

static void kreq_fill(vgd_kreq *h, const job *j)
{
	memset(h, 0, sizeof(*h));
	h->magic = VGD_KREQ_MAGIC;
	h->data_len = j->data_len;
	h->job = j->id;
	memcpy(h->key, j->key, sizeof(h->key));
	h->op = j->op;
	h->alg = j->alg;
	h->role = j->role;
}

/* Send the k->unsent jobs at the tail of k->out in one sendmmsg. Those
 * the socket refused go back to the head of the queue, in order, and the
 * keyholder counts as full until it answers. Returns -1 if the channel is
 * broken (the refused jobs are already back in the queue). */
static int kh_send_batch(front *f, khslot *k)
{
	vgd_kreq h[KH_DEPTH];
	struct iovec iov[KH_DEPTH][2];
	struct mmsghdr mm[KH_DEPTH];
	job *js[KH_DEPTH];
	int n = k->unsent;
	k->unsent = 0;
	job *j = k->out.tail;
	for (int i = n - 1; i >= 0; i--, j = j->prev)
		js[i] = j;
	memset(mm, 0, sizeof(mm[0]) * (size_t)n);
	for (int i = 0; i < n; i++) {
		kreq_fill(&h[i], js[i]);
		iov[i][0] = (struct iovec){&h[i], sizeof(h[i])};
		iov[i][1] = (struct iovec){js[i]->data, js[i]->data_len};
		mm[i].msg_hdr.msg_iov = iov[i];
		mm[i].msg_hdr.msg_iovlen = js[i]->data_len ? 2 : 1;
	}
	int sent = sendmmsg(k->fd, mm, (unsigned)n, MSG_DONTWAIT | MSG_NOSIGNAL);
	int broken = sent < 0 && errno != EAGAIN && errno != ENOBUFS;
	if (sent < 0)
		sent = 0;
	/* A datagram is sent whole or not at all. */
	for (int i = n - 1; i >= sent; i--) {
		q_remove(&k->out, js[i]);
		q_push_head(&f->queue, js[i]);
	}
	if (sent < n)
		k->full = 1;
	return broken ? -1 : 0;
}

/* Hand queued jobs to the least-loaded current keyholders: assign first,
 * then one sendmmsg per keyholder. */
static void pump(front *f)
{
	while (f->queue.head) {
		khslot *best = NULL;
		for (int i = 0; i < f->nkh; i++) {
			khslot *k = &f->kh[i];
			if (k->fd < 0 || k->full || k->out.len >= KH_DEPTH)
				continue;
			if (!best || k->out.len < best->out.len)
				best = k;
		}
		if (!best)
			break;
		job *j = f->queue.head;
		q_remove(&f->queue, j);
		q_push_tail(&best->out, j);
		best->unsent++;
	}
	/* Send every batch before handling a broken channel: kh_lost()
	 * must not find another keyholder's jobs assigned but unsent. */
	int lost[MAX_SLOTS], nlost = 0;
	for (int i = 0; i < f->nkh; i++)
		if (f->kh[i].unsent && kh_send_batch(f, &f->kh[i]) < 0)
			lost[nlost++] = i;
	for (int i = 0; i < nlost; i++)
		kh_lost(f, &f->kh[lost[i]]); /* requeues; asks for another pump */
	f->stats.queue_depth = f->queue.len;
	if (f->queue.len > f->stats.queue_max)
		f->stats.queue_max = f->queue.len;
}

static void kh_attach(front *f, int index, unsigned gen, int fd)
{
	if (index < 0 || index >= f->nkh) {
		close(fd);
		return;
	}
	khslot *k = &f->kh[index];
	if (k->fd >= 0) {
		/* A newer generation replaces a live keyholder: let the old one
		 * finish its jobs in a retiring slot. */
		int r = f->nslots;
		for (int i = f->nkh; i < f->nslots; i++)
			if (f->kh[i].fd < 0 && !f->kh[i].out.len) {
				r = i;
				break;
			}
		if (r == MAX_SLOTS) {
			kh_lost(f, k);
		} else {
			if (r == f->nslots)
				f->nslots++;
			f->kh[r] = *k;
			f->kh[r].retiring = 1;
			/* The moved jobs keep their links; fix the event arg. */
			event_free(f->kh[r].ev);
			f->kh[r].ev = event_new(f->base, f->kh[r].fd, EV_READ | EV_PERSIST,
						kh_readable, f);
			event_add(f->kh[r].ev, NULL);
			if (f->kh[r].out.len == 0)
				kh_retire_done(f, &f->kh[r]);
			k->ev = NULL;
			k->out.head = k->out.tail = NULL;
			k->out.len = 0;
		}
	}
	int sz = 1 << 20;
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	k->fd = fd;
	k->gen = gen;
	k->full = 0;
	k->retiring = 0;
	k->ev = event_new(f->base, fd, EV_READ | EV_PERSIST, kh_readable, f);
	event_add(k->ev, NULL);
	want_pump(f);
}

/* ---- requests ---- */
static const vgd_keyinfo *find_key(front *f, const char *name)
{
	for (size_t i = 0; i < f->nkeys; i++)
		if (strcmp(f->keys[i].name, name) == 0)
			return &f->keys[i];
	return NULL;
}

static void put_keyinfo(vg_writer *w, const vgd_keyinfo *k)
{
	vg_put_open(w, VG_T_KEYINFO);
	vg_put_str(w, VG_T_KEY, k->name);
	vg_put_u8(w, VG_T_KEY_TYPE, k->type);
	vg_put(w, VG_T_PUBKEY, k->pub, k->pub_len);
	if (k->type == VG_KEY_RSA)
		vg_put(w, VG_T_RSA_E, k->rsa_e, k->rsa_e_len);
	vg_put_u32(w, VG_T_OPS, k->allow);
	vg_put_close(w);
}

static void put_stat(vg_writer *w, const char *name, uint64_t v)
{
	vg_put_open(w, VG_T_STAT);
	vg_put_str(w, VG_T_STAT_NAME, name);
	vg_put_u64(w, VG_T_STAT_VALUE, v);
	vg_put_close(w);
}

static long encode_stats(front *f, uint32_t id)
{
	vg_writer w;
	vg_frame_begin(&w, f->frame, sizeof(f->frame), VG_OP_STATS | VG_OP_REPLY, VG_ST_OK, id);
	for (int op = 1; op <= VG_OP_MAX; op++) {
		const vgd_op_stats *o = &f->stats.op[op];
		char name[64];
		const char *on = vg_op_name(op);
		snprintf(name, sizeof(name), "%s.count", on);
		put_stat(&w, name, o->count);
		snprintf(name, sizeof(name), "%s.errors", on);
		put_stat(&w, name, o->errors);
		if (op == VG_OP_SIGN || op == VG_OP_X25519 || op == VG_OP_RSA_PRIVATE) {
			static const struct { const char *n; double p; } pct[] = {
				{"p50_us", 50}, {"p90_us", 90}, {"p99_us", 99}, {"p999_us", 99.9}};
			for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
				snprintf(name, sizeof(name), "%s.%s", on, pct[i].n);
				put_stat(&w, name, vgd_stats_percentile(o, pct[i].p));
			}
		}
	}
	const vgd_stats *s = &f->stats;
	put_stat(&w, "connections.open", f->nconns);
	put_stat(&w, "connections.total", s->connections_total);
	put_stat(&w, "connections.refused", s->connections_refused);
	put_stat(&w, "queue.depth", f->queue.len);
	put_stat(&w, "queue.max", s->queue_max);
	put_stat(&w, "requests.overloaded", s->overloaded);
	put_stat(&w, "requests.malformed", s->malformed);
	put_stat(&w, "requests.denied", s->denied);
	put_stat(&w, "requests.retried", s->retries);
	put_stat(&w, "keyholders", (uint64_t)f->nkh);
	put_stat(&w, "keyholder.restarts", s->keyholder_restarts);
	put_stat(&w, "sandbox.violations", s->sandbox_violations);
	put_stat(&w, "keys", f->nkeys);
	put_stat(&w, "keys.generation", f->generation);
	return vg_frame_end(&w);
}

static void handle_local(front *f, conn *c, const vg_request *rq, uint64_t t0)
{
	vg_writer w;
	uint8_t op = rq->op;
	vg_frame_begin(&w, f->frame, sizeof(f->frame), op | VG_OP_REPLY, VG_ST_OK, rq->id);
	switch (op) {
	case VG_OP_HELLO:
		vg_put_u8(&w, VG_T_VERSION, VG_PROTO_VERSION);
		vg_put_u32(&w, VG_T_CAPS,
			   VG_CAP_PIPELINE | VG_CAP_TLS13 | VG_CAP_ED25519 | VG_CAP_X25519 |
				   VG_CAP_RSA);
		vg_put_open(&w, VG_T_LIMIT);
		vg_put_u32(&w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
		vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, (uint32_t)f->lim.max_inflight);
		vg_put_close(&w);
		{
			/* Name, version and the kernel variant each operation
			 * runs, so `vgctl hello` shows what vgd --version shows. */
			char server[96];
			snprintf(server, sizeof(server), "vgd %s %s", VG_VERSION,
				 vg_kernel_variants());
			vg_put_str(&w, VG_T_SERVER, server);
		}
		break;
	case VG_OP_PING:
		if (rq->has_data)
			vg_put(&w, VG_T_RESULT, rq->data, rq->data_len);
		break;
	case VG_OP_LIST_KEYS:
		for (size_t i = 0; i < f->nkeys; i++)
			if (vgd_acl_allows(&f->keys[i], c->uid, c->gid))
				put_keyinfo(&w, &f->keys[i]);
		break;
	case VG_OP_PUBLIC_KEY: {
		const vgd_keyinfo *k = find_key(f, rq->key);
		if (!k || !vgd_acl_allows(k, c->uid, c->gid)) {
			/* Unknown and forbidden look the same to a caller not
			 * allowed to see the key. */
			answer(f, c, op, rq->id, VG_ST_UNKNOWN_KEY, NULL, 0, "no such key", t0);
			return;
		}
		put_keyinfo(&w, k);
		break;
	}
	case VG_OP_STATS: {
		long n = encode_stats(f, rq->id);
		vgd_stats_record(&f->stats, op, VG_ST_OK, now_us() - t0);
		conn_send(c, f->frame, n);
		return;
	}
	}
	long n = vg_frame_end(&w);
	if (n < 0) {
		answer(f, c, op, rq->id, VG_ST_INTERNAL, NULL, 0, "reply too large", t0);
		return;
	}
	vgd_stats_record(&f->stats, op, VG_ST_OK, now_us() - t0);
	conn_send(c, f->frame, n);
}

static void handle_key_op(front *f, conn *c, const vg_request *rq, uint64_t t0)
{
	const char *reason = "";
	const vgd_keyinfo *k = find_key(f, rq->key);
	if (!k) {
		answer(f, c, rq->op, rq->id, VG_ST_UNKNOWN_KEY, NULL, 0, "no such key", t0);
		return;
	}
	if (!vgd_acl_allows(k, c->uid, c->gid)) {
		f->stats.denied++;
		vgd_warn("denied: uid %u gid %u pid %d may not use key '%s' (%s)", (unsigned)c->uid,
			 (unsigned)c->gid, (int)c->pid, k->name, vg_op_name(rq->op));
		answer(f, c, rq->op, rq->id, VG_ST_NOT_ALLOWED, NULL, 0,
		       "caller may not use this key", t0);
		return;
	}
	int st = vgd_policy_check(k, rq->op, rq->alg, &reason);
	if (st == VG_ST_OK && rq->op == VG_OP_RSA_PRIVATE && rq->data_len != k->pub_len) {
		st = VG_ST_BAD_INPUT;
		reason = "input length must equal the modulus length";
	}
	if (st != VG_ST_OK) {
		if (st == VG_ST_NOT_ALLOWED) {
			f->stats.denied++;
			vgd_warn("denied: uid %u pid %d, key '%s': %s", (unsigned)c->uid, (int)c->pid,
				 k->name, reason);
		}
		answer(f, c, rq->op, rq->id, st, NULL, 0, reason, t0);
		return;
	}
	if (f->queue.len >= (size_t)f->lim.max_queue) {
		f->stats.overloaded++;
		answer(f, c, rq->op, rq->id, VG_ST_OVERLOADED, NULL, 0,
		       "request queue is full; try again", t0);
		return;
	}
	job *j = job_alloc(f);
	uint8_t *big = rq->data_len > INLINE_DATA ? malloc(rq->data_len) : NULL;
	if (!j || (rq->data_len > INLINE_DATA && !big)) {
		free(j);
		free(big);
		answer(f, c, rq->op, rq->id, VG_ST_INTERNAL, NULL, 0, "out of memory", t0);
		return;
	}
	memset(j, 0, offsetof(job, inline_data));
	j->c = c;
	j->id = ++f->next_job;
	j->t_start_us = t0;
	j->t_queued_ms = t0 / 1000u;
	j->req_id = rq->id;
	j->op = rq->op;
	j->alg = rq->alg;
	j->role = rq->tls_role;
	memcpy(j->key, rq->key, sizeof(j->key));
	j->data = big ? big : j->inline_data;
	j->data_len = (uint32_t)rq->data_len;
	if (rq->data_len)
		memcpy(j->data, rq->data, rq->data_len);
	c->inflight++;
	q_push_tail(&f->queue, j);
	/* Dispatched at the end of the iteration, with every other frame
	 * this read brought (one sendmmsg per keyholder). */
	want_pump(f);
}

static void handle_frame(front *f, conn *c, const uint8_t *frame, size_t len)
{
	uint64_t t0 = now_us();
	vg_request rq;
	const char *reason = "";
	int st = vg_request_decode(frame, len, &rq, &reason);
	if (st != VG_ST_OK) {
		vg_frame_hdr h;
		(void)vg_frame_check(frame, len, &h);
		vgd_stats_record(&f->stats, 0, st, 0);
		send_error(f, c, h.opcode, h.id, st, reason);
		if (vg_status_closes(st)) {
			f->stats.malformed++;
			vgd_info("closing connection of pid %d: %s", (int)c->pid, reason);
			conn_start_closing(c);
		}
		return;
	}
	if (f->draining) {
		answer(f, c, rq.op, rq.id, VG_ST_UNAVAILABLE, NULL, 0, "daemon is shutting down",
		       t0);
		return;
	}
	switch (rq.op) {
	case VG_OP_SIGN:
	case VG_OP_X25519:
	case VG_OP_RSA_PRIVATE:
		handle_key_op(f, c, &rq, t0);
		break;
	default:
		handle_local(f, c, &rq, t0);
	}
}

/* ---- connections ---- */
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
}

/* Sockets and events go now; the memory at the next tick (see
 * f->released), as callers up the stack may still hold c. */
static void conn_close(front *f, conn *c)
{
	if (c->dead)
		return;
	conn_set_reading(c, 0);
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
			q_remove(&f->queue, j);
			c->inflight--;
			job_free(f, j);
		}
	}
	if (c->inflight == 0)
		conn_release(f, c);
}

static void conn_free(conn *c)
{
	if (c->rev)
		event_free(c->rev);
	if (c->wev)
		event_free(c->wev);
	if (c->out)
		evbuffer_free(c->out);
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
 * deferred to settle()), so no job_finish() resumes c from inside. */
static void conn_process(front *f, conn *c)
{
	size_t off = 0;
	c->last_active_ms = now_ms();
	while (!c->closing && !c->dead) {
		size_t avail = c->in_len - off;
		if (avail == 0) {
			c->partial_since_ms = 0;
			break;
		}
		if (c->inflight >= (unsigned)f->lim.max_inflight) {
			c->paused = 1;
			conn_set_reading(c, 0);
			break;
		}
		size_t want = avail < VG_PROTO_HDR_LEN ? avail : VG_PROTO_HDR_LEN;
		vg_frame_hdr h;
		long r = vg_frame_check(c->in + off, want, &h);
		if (r < 0) {
			const char *why = r == -VG_ST_TOO_LARGE  ? "frame larger than the maximum"
					  : r == -VG_ST_BAD_VERSION ? "unsupported protocol version"
								    : "malformed frame header";
			/* h is zero unless the magic was right: then its id is the
			 * request's. */
			vgd_stats_record(&f->stats, 0, (int)-r, 0);
			f->stats.malformed++;
			send_error(f, c, h.opcode, h.id, (int)-r, why);
			vgd_info("closing connection of pid %d: %s", (int)c->pid, why);
			conn_start_closing(c);
			break;
		}
		size_t total = avail >= VG_PROTO_HDR_LEN ? VG_PROTO_HDR_LEN + h.body_len : 0;
		if (total == 0 || avail < total) {
			if (!c->partial_since_ms)
				c->partial_since_ms = c->last_active_ms;
			if (conn_in_reserve(c, total) < 0) {
				send_error(f, c, h.opcode, h.id, VG_ST_INTERNAL, "out of memory");
				conn_start_closing(c);
			}
			break;
		}
		handle_frame(f, c, c->in + off, total);
		off += total;
		c->partial_since_ms = 0;
	}
	if (off) {
		memmove(c->in, c->in + off, c->in_len - off);
		c->in_len -= off;
	}
	conn_maybe_finish(f, c);
}

/* The client half-closed after its last request: answer what it sent,
 * then close. c stays allocated until the next tick even if closed. */
static void conn_eof(front *f, conn *c)
{
	c->eof = 1;
	conn_set_reading(c, 0);
	conn_process(f, c);
	if (!c->dead && c->inflight == 0) {
		c->closing = 1;
		conn_maybe_finish(f, c);
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
		conn_process(f, c); /* not expected: a partial frame always fits */
		return;
	}
	ssize_t n = recv(fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
	if (n > 0) {
		c->in_len += (size_t)n;
		conn_process(f, c);
	} else if (n == 0) {
		conn_eof(f, c);
	} else if (errno != EAGAIN && errno != EINTR) {
		conn_close(f, c);
	}
}

/* Registered only while replies wait for room in the socket. */
static void conn_writable(evutil_socket_t fd, short what, void *arg)
{
	conn *c = arg;
	(void)fd;
	(void)what;
	c->last_active_ms = now_ms();
	conn_flush(c->front, c);
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
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
					 f->draining ? "daemon is shutting down" : "too many connections",
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
	c->out = evbuffer_new();
	c->rev = event_new(f->base, fd, EV_READ | EV_PERSIST, conn_readable, c);
	c->wev = event_new(f->base, fd, EV_WRITE | EV_PERSIST, conn_writable, c);
	if (!c->in || !c->out || !c->rev || !c->wev) {
		vgd_err("accept: out of memory");
		conn_free(c);
		close(fd);
		return;
	}
	c->last_active_ms = now_ms();
	conn_set_reading(c, 1);
	c->next = f->conns;
	if (f->conns)
		f->conns->prev = c;
	f->conns = c;
	f->nconns++;
	f->stats.connections_open = f->nconns;
}

/* ---- supervisor control channel ---- */
static void keys_install(front *f)
{
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
	f->drain_deadline_ms = now_ms() + (uint64_t)f->lim.drain_timeout_ms;
	if (f->listener)
		evconnlistener_disable(f->listener);
	vgd_info("draining: %zu connection(s), %zu queued", f->nconns, f->queue.len);
}

/* Limits from a reload. Connections paused under the old max_inflight
 * resume if the new one lets them. */
static void set_limits(front *f, const vgd_limits *l)
{
	if (l->max_inflight < 1 || l->max_inflight > (int32_t)VG_PROTO_MAX_INFLIGHT ||
	    l->max_queue < 1 || l->idle_timeout_ms < 1 || l->frame_timeout_ms < 1 ||
	    l->drain_timeout_ms < 0 || l->busy_poll_us < 0 || l->busy_poll_us > 1000000) {
		vgd_err("ignoring invalid limits from the supervisor");
		return;
	}
	f->lim = *l;
	vgd_log_setup("front", l->log_level);
	for (conn *c = f->conns, *nx; c; c = nx) {
		nx = c->next;
		if (!c->dead && c->paused && !c->closing &&
		    c->inflight < (unsigned)f->lim.max_inflight) {
			c->paused = 0;
			conn_set_reading(c, 1);
			conn_process(f, c);
		}
	}
	vgd_info("limits: max_inflight %d, max_queue %d, idle %d ms, frame %d ms, drain %d ms, "
		 "busy poll %d us",
		 l->max_inflight, l->max_queue, l->idle_timeout_ms, l->frame_timeout_ms,
		 l->drain_timeout_ms, l->busy_poll_us);
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
		case VGD_CTL_KH_ATTACH:
			if (passed >= 0)
				kh_attach(f, (int)m.index, m.generation, passed);
			passed = -1;
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
		case VGD_CTL_COUNTERS:
			f->stats.keyholder_restarts = m.restarts;
			f->stats.sandbox_violations = m.violations;
			break;
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
	size_t n = f->queue.len;
	for (int i = 0; i < f->nslots; i++)
		n += f->kh[i].out.len;
	return n;
}

/* Drain deadline: whatever is still queued or with a keyholder gets its
 * one reply now (the keyholders' late answers go nowhere: we exit). */
static void fail_all(front *f)
{
	while (f->queue.head) {
		job *j = f->queue.head;
		q_remove(&f->queue, j);
		job_finish(f, j, VG_ST_UNAVAILABLE, NULL, 0, "daemon stopped before this request ran");
	}
	for (int i = 0; i < f->nslots; i++) {
		khslot *k = &f->kh[i];
		kh_close(f, k);
		while (k->out.head) {
			job *j = k->out.head;
			q_remove(&k->out, j);
			job_finish(f, j, VG_ST_UNAVAILABLE, NULL, 0,
				   "daemon stopped before this request finished");
		}
	}
}

/* Before exiting: one non-blocking attempt to hand every pending reply to
 * the kernel. */
static void flush_all(front *f)
{
	for (conn *c = f->conns; c; c = c->next)
		if (!c->dead)
			while (evbuffer_get_length(c->out) > 0 && evbuffer_write(c->out, c->fd) > 0)
				;
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
	front *f = arg;
	(void)fd;
	(void)what;
	uint64_t now = now_ms();
	settle(f); /* empties the dirty list, which may name released conns */
	while (f->released) {
		conn *c = f->released;
		f->released = c->next;
		conn_free(c);
	}
	for (conn *c = f->conns, *nx; c; c = nx) {
		nx = c->next;
		if (c->dead)
			continue;
		if (c->partial_since_ms &&
		    now - c->partial_since_ms > (uint64_t)f->lim.frame_timeout_ms) {
			vgd_info("closing connection of pid %d: partial frame timed out", (int)c->pid);
			conn_start_closing(c);
			conn_maybe_finish(f, c);
		} else if (c->inflight == 0 && !c->partial_since_ms && !c->closing &&
			   now - c->last_active_ms > (uint64_t)f->lim.idle_timeout_ms) {
			vgd_debug("closing idle connection of pid %d", (int)c->pid);
			conn_close(f, c);
		}
	}
	/* Jobs that found no keyholder in time fail rather than wait forever. */
	while (f->queue.head && now - f->queue.head->t_queued_ms > QUEUE_TIMEOUT_MS) {
		job *j = f->queue.head;
		q_remove(&f->queue, j);
		job_finish(f, j, VG_ST_UNAVAILABLE, NULL, 0, "no keyholder available in time");
	}
	if (f->draining) {
		int out_pending = 0;
		for (conn *c = f->conns; c; c = c->next)
			if (!c->dead && evbuffer_get_length(c->out))
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
	if (f->lim.busy_poll_us <= 0 || f->queue.len > 0)
		return 0;
	int busy = 0;
	for (int i = 0; i < f->nkh; i++)
		busy += f->kh[i].out.len > 0;
	return busy < f->ncpus;
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
			uint64_t now = now_us();
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
	};
	f->ctl_fd = a->ctl_fd;
	f->ncpus = a->ncpus > 0 ? a->ncpus : 1;
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
	f->nkh = a->nkeyholders;
	f->nslots = f->nkh;
	for (int i = 0; i < MAX_SLOTS; i++)
		f->kh[i].fd = -1;
	for (int i = 0; i < f->nkh; i++)
		if (a->kh_fds[i] >= 0)
			kh_attach(f, i, a->generation, a->kh_fds[i]);
	f->listener = evconnlistener_new(f->base, on_accept, f, 0, 0 /* already listening */, a->listen_fd);
	f->ctl_ev = event_new(f->base, a->ctl_fd, EV_READ | EV_PERSIST, ctl_readable, f);
	f->tick = event_new(f->base, -1, EV_PERSIST, tick, f);
	struct timeval tv = {0, TICK_MS * 1000};
	if (!f->listener || !f->ctl_ev || !f->tick || !f->defer_ev || event_add(f->ctl_ev, NULL) < 0 ||
	    event_add(f->tick, &tv) < 0) {
		vgd_err("cannot set up the front's events");
		return 1;
	}
	vgd_ctl ready = {.type = VGD_CTL_READY};
	if (send(a->ctl_fd, &ready, sizeof(ready), MSG_NOSIGNAL) < 0)
		vgd_warn("cannot tell the supervisor we are ready: %s", strerror(errno));
	run_loop(f);
	vgd_info("front exiting");
	return 0;
}
