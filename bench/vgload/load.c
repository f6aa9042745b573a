/* load.c: the load generator. One thread, epoll over every client
 * connection; each connection keeps `depth` requests in flight, matched
 * to their replies by request id (replies may come back out of order).
 * Requests go out in one write per connection per wake-up and replies
 * are read in bulk, so the generator stays light next to the daemon.
 * Nothing here is secret. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "vg/proto.h"
#include "vgload.h"

#define SLOT_MASK (VGL_MAX_DEPTH - 1u) /* request id = seq * 128 + slot */
#define IN_CAP (2u * VG_PROTO_MAX_FRAME)
#define OUT_CAP (VGL_MAX_DEPTH * 512u)
#define MAX_SAMPLES (16u << 20)

typedef struct {
	int fd;
	int dead;
	unsigned nfree;
	uint32_t seq;
	uint8_t free_slot[VGL_MAX_DEPTH];
	uint32_t slot_id[VGL_MAX_DEPTH]; /* 0: free */
	uint64_t sent_ns[VGL_MAX_DEPTH];
	size_t in_len, out_len, out_off;
	int want_out;
	uint8_t in[IN_CAP];
	uint8_t out[OUT_CAP];
} lconn;

typedef struct {
	const vgl_phase *p;
	vgl_result *r;
	int ep;
	uint64_t inflight;
	int checked; /* the first OK reply was checked against the kernel */
	vg_request rq;
} lstate;

static double cpu_now(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

static void fail(lstate *s, const char *what, const char *detail)
{
	s->r->errors++;
	if (!s->r->first_error[0])
		snprintf(s->r->first_error, sizeof(s->r->first_error), "%s%s%s", what,
			 detail ? ": " : "", detail ? detail : "");
}

static void record(vgl_result *r, uint64_t ns)
{
	if (r->nlat == r->lat_cap) {
		if (r->lat_cap >= MAX_SAMPLES)
			return;
		size_t cap = r->lat_cap ? 2 * r->lat_cap : 65536;
		uint64_t *n = realloc(r->lat_ns, cap * sizeof(*n));
		if (!n)
			return;
		r->lat_ns = n;
		r->lat_cap = cap;
	}
	r->lat_ns[r->nlat++] = ns;
	r->sorted = 0;
}

static void conn_drop(lstate *s, lconn *c, const char *why)
{
	if (c->dead)
		return;
	unsigned lost = VGL_MAX_DEPTH - c->nfree;
	(void)epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
	c->dead = 1;
	s->inflight -= lost;
	/* The connection counts as one error, each request lost on it as one. */
	fail(s, "connection lost", why);
	s->r->errors += lost;
}

static void set_out_interest(lstate *s, lconn *c, int want)
{
	if (c->want_out == want)
		return;
	struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.ptr = c};
	if (epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &ev) == 0)
		c->want_out = want;
}

static void flush(lstate *s, lconn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			break;
		if (w <= 0) {
			conn_drop(s, c, strerror(errno));
			return;
		}
		c->out_off += (size_t)w;
	}
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	set_out_interest(s, c, c->out_len != 0);
}

/* Top the connection up to depth requests in flight; one send for all. */
static void refill(lstate *s, lconn *c)
{
	if (c->dead)
		return;
	uint64_t now = vgl_now_ns();
	unsigned busy = VGL_MAX_DEPTH - c->nfree;
	while (now < s->p->t_submit && busy < (unsigned)s->p->depth && c->nfree) {
		unsigned slot = c->free_slot[--c->nfree];
		uint32_t id = (++c->seq << 7) | slot;
		if (id == 0)
			id = (++c->seq << 7) | slot;
		s->rq.id = id;
		if (s->p->cpu_hint) {
			int cpu = sched_getcpu();
			s->rq.has_cpu = cpu >= 0;
			s->rq.cpu = (uint32_t)cpu;
		}
		long n = vg_request_encode(&s->rq, c->out + c->out_len, OUT_CAP - c->out_len);
		if (n <= 0) {
			c->nfree++;
			if (c->out_len == 0)
				fail(s, "cannot encode the request", vg_status_name((int)-n));
			break;
		}
		c->out_len += (size_t)n;
		c->slot_id[slot] = id;
		c->sent_ns[slot] = now;
		busy++;
		s->inflight++;
	}
	flush(s, c);
}

static void on_reply(lstate *s, lconn *c, const uint8_t *fr, size_t len, uint64_t now)
{
	vg_reply rep;
	const vgl_phase *p = s->p;
	if (vg_reply_decode(fr, len, &rep) != VG_ST_OK) {
		conn_drop(s, c, "malformed reply frame");
		return;
	}
	unsigned slot = rep.id & SLOT_MASK;
	if (rep.id == 0 || c->slot_id[slot] != rep.id) {
		conn_drop(s, c, "reply to a request not in flight");
		return;
	}
	uint64_t sent = c->sent_ns[slot];
	c->slot_id[slot] = 0;
	c->free_slot[c->nfree++] = (uint8_t)slot;
	s->inflight--;
	if (rep.status != VG_ST_OK) {
		char why[128];
		snprintf(why, sizeof(why), "%s (%.*s)", vg_status_name(rep.status),
			 (int)(rep.reason_len < 80 ? rep.reason_len : 80),
			 rep.reason ? rep.reason : "");
		fail(s, "daemon error", why);
		return;
	}
	if (p->op->result_len ? rep.result_len != p->op->result_len
			      : rep.result_len == 0 || rep.result_len > VGL_OUT_MAX) {
		fail(s, "result of the wrong length", NULL);
		return;
	}
	if (!s->checked && p->keys) {
		/* One reply per phase is checked against the kernel: enough to
		 * catch a wrong key or op, cheap enough not to load the generator. */
		s->checked = 1;
		if (vgl_bare_check(p->keys, p->op, p->data, rep.result, rep.result_len) != 0) {
			fail(s, "reply does not match the kernel's result", NULL);
			return;
		}
	}
	s->r->ok++;
	if (sent >= p->t_warm)
		record(s->r, now - sent);
	if (p->front_stat_fd >= 0 && sent >= p->t_warm && s->r->ok % VGL_WHERE_EVERY == 0) {
		int fc = vgl_proc_cpu(p->front_stat_fd), cc = sched_getcpu();
		if (fc >= 0 && cc >= 0) {
			s->r->where_n++;
			s->r->where_same += fc == cc;
		}
	}
	if (now >= p->t_warm && now <= p->t_submit)
		s->r->completed++;
}

static void on_readable(lstate *s, lconn *c)
{
	while (!c->dead) {
		size_t space = IN_CAP - c->in_len; /* never 0: a frame fits twice */
		ssize_t n = read(c->fd, c->in + c->in_len, space);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			conn_drop(s, c, n == 0 ? "closed by the daemon" : strerror(errno));
			return;
		}
		uint64_t now = vgl_now_ns();
		size_t off = 0;
		c->in_len += (size_t)n;
		while (!c->dead) {
			vg_frame_hdr h;
			long fl = vg_frame_check(c->in + off, c->in_len - off, &h);
			if (fl < 0) {
				conn_drop(s, c, "bad reply framing");
				return;
			}
			if (fl == 0)
				break;
			on_reply(s, c, c->in + off, (size_t)fl, now);
			off += (size_t)fl;
		}
		if (c->dead)
			return;
		memmove(c->in, c->in + off, c->in_len - off);
		c->in_len -= off;
		/* A short read drained the socket: no second read just to see
		 * EAGAIN (epoll is level-triggered and says if more arrives). */
		if ((size_t)n < space)
			return;
	}
}

static int conn_open(lstate *s, lconn *c)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t l = strlen(s->p->sock);
	if (l >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, s->p->sock, l + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    fcntl(c->fd, F_SETFL, O_NONBLOCK) < 0)
		return -1;
	c->nfree = VGL_MAX_DEPTH;
	for (unsigned i = 0; i < VGL_MAX_DEPTH; i++)
		c->free_slot[i] = (uint8_t)(VGL_MAX_DEPTH - 1 - i);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
	return epoll_ctl(s->ep, EPOLL_CTL_ADD, c->fd, &ev);
}

int vgl_load_run(const vgl_phase *p, vgl_result *r)
{
	memset(r, 0, sizeof(*r));
	if (p->clients < 1 || p->clients > VGL_MAX_CLIENTS || p->depth < 1 ||
	    p->depth > (int)VGL_MAX_DEPTH)
		return -1;
	lstate s = {.p = p, .r = r, .ep = -1};
	s.rq.op = p->op->op;
	s.rq.alg = p->op->alg;
	snprintf(s.rq.key, sizeof(s.rq.key), "%s", p->op->key);
	s.rq.data = p->data;
	s.rq.data_len = p->op->data_len;
	s.rq.has_data = 1;
	lconn *conns = calloc((size_t)p->clients, sizeof(*conns));
	s.ep = epoll_create1(EPOLL_CLOEXEC);
	int rc = -1;
	for (int i = 0; conns && i < p->clients; i++)
		conns[i].fd = -1;
	if (!conns || s.ep < 0)
		goto out;
	for (int i = 0; i < p->clients; i++)
		if (conn_open(&s, &conns[i]) < 0) {
			snprintf(r->first_error, sizeof(r->first_error), "cannot connect to %s: %s",
				 p->sock, strerror(errno));
			goto out;
		}
	double cpu0 = cpu_now();
	for (int i = 0; i < p->clients; i++)
		refill(&s, &conns[i]);
	struct epoll_event evs[VGL_MAX_CLIENTS];
	for (;;) {
		uint64_t now = vgl_now_ns();
		if (now >= p->t_end || (now >= p->t_submit && s.inflight == 0))
			break;
		int alive = 0;
		for (int i = 0; i < p->clients; i++)
			alive |= !conns[i].dead;
		if (!alive)
			break;
		/* 1x1 with a request out: first the spin of libvgclient's
		 * blocking calls (client/sync.c), so the figure is what they
		 * see: reads that do not block, with sched_yield between them,
		 * then epoll_wait. */
		if (p->spin_us > 0 && p->clients == 1 && p->depth == 1 && s.inflight > 0) {
			uint64_t until = now + (uint64_t)p->spin_us * 1000u;
			while (s.inflight > 0 && !conns[0].dead && vgl_now_ns() < until) {
				on_readable(&s, &conns[0]);
				if (s.inflight > 0)
					sched_yield();
			}
			if (s.inflight == 0 || conns[0].dead) {
				refill(&s, &conns[0]);
				continue;
			}
		}
		/* Round up: waking early would spin; the loop re-checks t_end. */
		int ms = (int)((p->t_end - now + 999999u) / 1000000u);
		int n = epoll_wait(s.ep, evs, VGL_MAX_CLIENTS, ms);
		if (n < 0 && errno != EINTR)
			break;
		for (int i = 0; i < n; i++) {
			lconn *c = evs[i].data.ptr;
			if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				on_readable(&s, c);
			if (!c->dead && (evs[i].events & EPOLLOUT))
				flush(&s, c);
			refill(&s, c);
		}
	}
	r->cpu_s = cpu_now() - cpu0;
	r->unfinished = s.inflight;
	r->window_s = (double)(p->t_submit - p->t_warm) / 1e9;
	rc = 0;
out:
	for (int i = 0; conns && i < p->clients; i++)
		if (conns[i].fd >= 0)
			close(conns[i].fd);
	free(conns);
	if (s.ep >= 0)
		close(s.ep);
	return rc;
}

void vgl_result_free(vgl_result *r)
{
	free(r->lat_ns);
	r->lat_ns = NULL;
	r->nlat = r->lat_cap = 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void vgl_sort_ns(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), cmp_u64);
}

double vgl_rank_us(const uint64_t *sorted, size_t n, double pct)
{
	/* Nearest rank. */
	size_t i = (size_t)(pct / 100.0 * (double)n + 0.999999);
	if (i < 1)
		i = 1;
	if (i > n)
		i = n;
	return (double)sorted[i - 1] / 1e3;
}

double vgl_percentile_us(vgl_result *r, double pct)
{
	if (r->nlat == 0)
		return -1;
	if (!r->sorted) {
		vgl_sort_ns(r->lat_ns, r->nlat);
		r->sorted = 1;
	}
	return vgl_rank_us(r->lat_ns, r->nlat, pct);
}
