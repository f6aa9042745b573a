/* async.c: asynchronous requests from inside an OpenSSL async job (a
 * server that sets SSL_MODE_ASYNC, such as HAProxy with ssl-mode-async):
 * the request goes out through libvgclient's asynchronous API, the job
 * registers descriptors on its wait context and pauses, and the server
 * resumes it when one is readable; several jobs share one connection
 * (pipelined). conn.h describes the watch: the socket and a deadline
 * timer in the connection's epoll descriptor, which sits in the epoll
 * descriptor of the one waiting job that holds the watch; the other
 * waiting jobs are woken through an eventfd each.
 *
 * System calls per handshake. Each wait context registers one descriptor
 * with the server, made when its first request is submitted: an epoll
 * descriptor when the job will hold the watch (no other job waits: every
 * handshake at low load), an eventfd otherwise; a job asked later to hold
 * the watch adds an epoll descriptor, and one holding it that must be
 * woken gets an eventfd inside its epoll descriptor (the server never
 * sees it). Taking and giving up the watch is one epoll_ctl each (the
 * connection's epoll descriptor in or out), and a watch passed to a job
 * that has an epoll descriptor is put there directly, with no wake-up. A
 * job that holds the watch from its submit does not read the socket
 * before it first pauses (the reply cannot be there yet, and the socket
 * wakes it when it is). A job woken with its reply in does not read its
 * eventfd: that waits for the slot's next request, if any. Measured with
 * vghs and perf trace -s over HAProxy (AMD EPYC Zen 5, 2 vCPUs, P-256,
 * TLS 1.3): 51-53 system calls per handshake became 48-49 (36-38 in
 * process); at low load, the calls one handshake's request causes besides
 * its send and its reply's read (the server's epoll_ctl included) went
 * from 11 to 5. Descriptors are not pooled across wait contexts:
 * HAProxy drops an async descriptor from its books without closing it
 * (FD_DISOWN) and relies on our close to take it out of its threads'
 * epoll sets; one kept open would stay registered there under its old
 * connection, and a server that files it again (EEXIST, or events tagged
 * with the old generation) would never wake the new job.
 *
 * Ownership. A slot belongs to its wait context (freed by the context's
 * cleanup, e.g. SSL_free, which closes the slot's descriptors) and, while
 * a request is pending, to that request's callback: whichever lets go
 * last frees it. A job that waits holds a reference to the connection;
 * if the server frees the SSL while the job is paused (the client went
 * away), the cleanup gives that reference back, marks the slot abandoned
 * (its callback then writes nowhere) and passes the watch on; a late
 * reply is dropped. Everything here runs under the connection's lock
 * except the eventfd flag (atomic). Secret: rsa-private results, in a
 * slot's buffer until the job copies them; wiped then, or when the slot
 * is freed. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <openssl/async.h>
#include <openssl/crypto.h>

#include "conn.h"
#include "vgdprov_stats.h"

enum { SLOT_IDLE, SLOT_PENDING, SLOT_DONE };
/* The watch: asked for (the job has been woken to take it), or held (the
 * socket and timer are in the job's epoll descriptor). */
enum { HOLD_NONE, HOLD_ASKED, HOLD_HELD };

struct vg_prov_slot {
	int refs;                  /* atomic: the wait context's, a pending request's */
	int efd;                   /* eventfd that wakes the job; -1: none (yet) */
	int pfd;                   /* epoll descriptor for the watch; -1: none (yet) */
	int signaled;              /* atomic: efd has a count to read */
	int abandoned;             /* the wait context was freed while a job used the slot */
	int state;                 /* SLOT_* */
	int seen;                  /* the job paused since its last descriptor was added */
	vg_prov_conn *conn;        /* the connection of the job's request */
	vg_prov_slot *prev, *next; /* the pending list */
	int status;                /* SLOT_DONE: 0 or VGC_E_* */
	size_t result_len;
	uint8_t result[VGC_RESULT_MAX];
	char reason[160];
};

/* Keys of our entries in a wait context (their addresses): the slot's
 * first descriptor, and the epoll descriptor added to an eventfd. */
static const char slot_key, watch_key;

/* Bumped in a forked child: the timer and the waiting jobs are the
 * parent's. pthread_atfork instead of a getpid() system call on every
 * request; glibc drops the handler if the provider is unloaded. */
static uint64_t fork_gen;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void on_fork_child(void)
{
	__atomic_add_fetch(&fork_gen, 1, __ATOMIC_RELAXED);
}

static void fork_init(void)
{
	pthread_atfork(NULL, NULL, on_fork_child);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void vg_prov_async_init(vg_prov_async *a)
{
	memset(a, 0, sizeof(*a));
	a->tfd = a->wfd = a->sock = -1;
}

void vg_prov_async_destroy(vg_prov_async *a)
{
	if (a->wfd >= 0)
		close(a->wfd);
	if (a->tfd >= 0)
		close(a->tfd);
	a->tfd = a->wfd = -1;
}

/* The timer and the watch's epoll descriptor (holding the timer from the
 * start), made on first use and again in a forked child (whose waiting
 * jobs, if any, are the parent's). 0 or -1. */
static int async_ready(vg_prov_async *a)
{
	pthread_once(&fork_once, fork_init);
	uint64_t g = __atomic_load_n(&fork_gen, __ATOMIC_RELAXED);
	if (a->wfd >= 0 && a->fork_gen == g)
		return 0;
	vg_prov_async_destroy(a);
	vg_prov_async_init(a);
	a->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	a->wfd = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event e = {.events = EPOLLIN, .data.fd = a->tfd};
	if (a->tfd < 0 || a->wfd < 0 || epoll_ctl(a->wfd, EPOLL_CTL_ADD, a->tfd, &e) < 0) {
		vg_prov_async_destroy(a);
		return -1;
	}
	a->fork_gen = g;
	return 0;
}

/* A slot whose only descriptor is its epoll descriptor gets an eventfd
 * inside it, so it can be woken; the server never sees that one. Under
 * the connection's lock, or by the slot's own job while no request of it
 * is pending (nobody else signals it then). 0 or -1. */
static int waker_add(vg_prov_slot *s)
{
	if (s->efd >= 0)
		return 0;
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0)
		return -1;
	struct epoll_event e = {.events = EPOLLIN, .data.fd = efd};
	if (epoll_ctl(s->pfd, EPOLL_CTL_ADD, efd, &e) < 0) {
		close(efd);
		return -1;
	}
	s->efd = efd;
	return 0;
}

/* Wake the slot's job: write its eventfd first, then flag it, so a job
 * that sees the flag finds a count to read (a reader between the two
 * leaves a count behind: one spurious wake-up, then it is read). */
static void signal_slot(vg_prov_slot *s)
{
	if (s->efd < 0 && (s->pfd < 0 || waker_add(s) < 0))
		return; /* let go (abandoned), or out of descriptors */
	uint64_t one = 1;
	if (write(s->efd, &one, sizeof(one)) < 0) {
		/* EAGAIN only at the counter's maximum: readable anyway */
	}
	__atomic_store_n(&s->signaled, 1, __ATOMIC_RELEASE);
}

static void drain_slot(vg_prov_slot *s)
{
	if (__atomic_exchange_n(&s->signaled, 0, __ATOMIC_ACQ_REL) && s->efd >= 0) {
		uint64_t v;
		if (read(s->efd, &v, sizeof(v)) < 0) {
			/* EAGAIN: read by an earlier drain */
		}
	}
}

/* HAProxy files every descriptor of a wait context when the job pauses
 * and drops each one when the SSL goes; one it never saw makes it abort
 * (fd_delete of an unknown descriptor). A job that added a descriptor
 * and did not pause since (its reply came at once, the submit failed, or
 * it falls back to a blocking call) pauses once, woken at once, before
 * returning. */
static void make_seen(vg_prov_slot *s)
{
	if (s->seen)
		return;
	signal_slot(s);
	vg_prov_stat_add(VG_PROV_ST_SEEN_PAUSES, 1);
	if (ASYNC_pause_job())
		drain_slot(s);
	s->seen = 1;
}

static void slot_close_fds(vg_prov_slot *s)
{
	if (s->efd >= 0)
		close(s->efd);
	if (s->pfd >= 0)
		close(s->pfd);
	s->efd = s->pfd = -1;
}

static void slot_unref(vg_prov_slot *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	slot_close_fds(s);
	OPENSSL_cleanse(s->result, sizeof(s->result));
	free(s);
}

static void list_append(vg_prov_async *a, vg_prov_slot *s)
{
	s->next = NULL;
	s->prev = a->tail;
	if (a->tail)
		a->tail->next = s;
	else
		a->head = s;
	a->tail = s;
	a->npending++;
}

static void list_remove(vg_prov_async *a, vg_prov_slot *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		a->head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	else
		a->tail = s->prev;
	s->prev = s->next = NULL;
	a->npending--;
}

/* Keep the watch's epoll descriptor watching the client's socket (a new
 * one after a reconnect; writable too while requests wait to be written)
 * and the timer armed for the earliest request deadline. A socket closed
 * and reopened with the same number inside one vg_client_process() is
 * not seen here: the timer's next expiry registers the socket again. A
 * closed socket leaves the epoll descriptor by itself. */
static void watch_update(vg_prov_async *a, vg_client *cl)
{
	int fd = vg_client_fd(cl);
	uint32_t ev = EPOLLIN | ((vg_client_events(cl) & POLLOUT) ? EPOLLOUT : 0);
	if (fd >= 0 && (fd != a->sock || ev != a->sock_ev)) {
		struct epoll_event e = {.events = ev, .data.fd = fd};
		int op = fd == a->sock ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
		if (epoll_ctl(a->wfd, op, fd, &e) < 0 && (errno == EEXIST || errno == ENOENT))
			epoll_ctl(a->wfd, op == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd,
				  &e);
	}
	a->sock = fd;
	a->sock_ev = fd >= 0 ? ev : 0;
	int t = vg_client_timeout(cl);
	if (t < 0)
		return;
	long long due = now_ms() + (t > 0 ? t : 1);
	/* An earlier expiry is kept: it wakes the holder early, which then
	 * arms the timer for what is due next. */
	if (a->armed_ms && a->armed_ms <= due)
		return;
	struct itimerspec its = {
		.it_value = {.tv_sec = due / 1000, .tv_nsec = due % 1000 * 1000000}};
	if (timerfd_settime(a->tfd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		a->armed_ms = due;
}

/* The holder lets go: the watch's epoll descriptor leaves the holder's,
 * which then fires only for its eventfd, if it has one. The socket and
 * the timer stay in the watch's for the next holder. */
static void unwatch(vg_prov_async *a, vg_prov_slot *s)
{
	if (a->holder_state != HOLD_HELD || s->pfd < 0)
		return;
	struct epoll_event e = {0};
	if (epoll_ctl(s->pfd, EPOLL_CTL_DEL, a->wfd, &e) < 0) {
		/* ENOENT: the holder could not add it and waited blocking */
	}
}

/* The watch goes into the slot's epoll descriptor. 0 or -1. */
static int watch_put(vg_prov_async *a, vg_prov_slot *s)
{
	struct epoll_event e = {.events = EPOLLIN, .data.fd = a->wfd};
	if (epoll_ctl(s->pfd, EPOLL_CTL_ADD, a->wfd, &e) < 0 && errno != EEXIST)
		return -1;
	a->holder_state = HOLD_HELD;
	return 0;
}

/* The watch goes from the holder to the newest waiting job (it will wait
 * longest, so the watch moves least), or to nobody when no job waits. A
 * job with an epoll descriptor gets the watch put there, and wakes when
 * the socket or the timer has something for it; one without is woken to
 * make it (take_watch). */
static void pass_watch(vg_prov_async *a, vg_prov_slot *from)
{
	unwatch(a, from);
	vg_prov_slot *n = a->tail;
	while (n && (n->abandoned || n == from))
		n = n->prev;
	a->holder = n;
	a->holder_state = n ? HOLD_ASKED : HOLD_NONE;
	if (n) {
		vg_prov_stat_add(VG_PROV_ST_WATCHERS, 1);
		if (n->pfd < 0 || watch_put(a, n) < 0)
			signal_slot(n);
	}
}

/* The slot asked to hold the watch takes it: its epoll descriptor (made
 * and added to the wait context the first time, if the slot's first
 * descriptor was an eventfd) gets the watch's. 0, or -1 when that fails
 * (the job then waits blocking). */
static int take_watch(vg_prov_async *a, vg_prov_slot *s, ASYNC_WAIT_CTX *w, vg_client *cl)
{
	if (s->pfd < 0) {
		int pfd = epoll_create1(EPOLL_CLOEXEC);
		if (pfd < 0)
			return -1;
		if (!ASYNC_WAIT_CTX_set_wait_fd(w, &watch_key, pfd, NULL, NULL)) {
			close(pfd);
			return -1;
		}
		s->pfd = pfd;
		s->seen = 0;
	}
	if (watch_put(a, s) < 0)
		return -1;
	watch_update(a, cl);
	return 0;
}

/* The request's completion (under the connection's lock, from whichever
 * job or call reads the reply). */
static void slot_cb(int st, const uint8_t *res, size_t len, const char *reason, void *arg)
{
	vg_prov_slot *s = arg;
	vg_prov_async *a = &s->conn->async;
	if (st == 0 && len > sizeof(s->result)) {
		st = VGC_E_BUFFER;
		reason = vg_client_strerror(st);
	}
	s->status = st;
	s->result_len = 0;
	s->reason[0] = 0;
	if (st == 0) {
		memcpy(s->result, res, len);
		s->result_len = len;
	} else {
		snprintf(s->reason, sizeof(s->reason), "%s",
			 reason ? reason : vg_client_strerror(st));
		vg_prov_stat_add(VG_PROV_ST_ERRORS, 1);
	}
	/* Atomic: pause_job looks at it without the lock. */
	__atomic_store_n(&s->state, SLOT_DONE, __ATOMIC_RELEASE);
	list_remove(a, s);
	if (a->running != s)
		signal_slot(s); /* no-op once abandoned (descriptors -1) */
	slot_unref(s);
}

/* The wait context is being freed (SSL_free): the job will not run
 * again. The server has stopped polling our descriptors (HAProxy drops
 * them first); closing them is ours, and takes them out of the server's
 * epoll sets. */
static void slot_cleanup(ASYNC_WAIT_CTX *w, const void *key, OSSL_ASYNC_FD fd, void *custom)
{
	vg_prov_slot *s = custom;
	vg_prov_conn *c = s->conn;
	if (!c) {
		/* No job attached (between handshakes): nothing else uses it. */
		slot_close_fds(s);
		slot_unref(s);
		return;
	}
	pthread_mutex_lock(&c->lock);
	vg_prov_async *a = &c->async;
	s->abandoned = 1;
	if (s->state == SLOT_PENDING)
		vg_prov_stat_add(VG_PROV_ST_ABANDONED, 1);
	if (a->holder == s)
		pass_watch(a, s);
	slot_close_fds(s);
	/* Nobody left to read the replies of the abandoned requests: cancel
	 * them so their slots go now (late replies are dropped by the
	 * client). Only abandoned ones can be pending here: a live waiting
	 * job would hold the watch. */
	if (!a->holder && a->npending && c->client)
		vg_client_cancel_all(c->client);
	pthread_mutex_unlock(&c->lock);
	vg_prov_conn_unref(c); /* the job's reference */
	slot_unref(s);         /* the wait context's */
}

/* The slot of this wait context, or NULL before its first request. */
static vg_prov_slot *slot_find(ASYNC_WAIT_CTX *w)
{
	OSSL_ASYNC_FD fd;
	void *custom = NULL;
	if (ASYNC_WAIT_CTX_get_fd(w, &slot_key, &fd, &custom))
		return custom;
	return NULL;
}

/* The slot of this wait context, made with its first descriptor (which
 * the context owns from then on): an epoll descriptor when the job will
 * hold the watch, else an eventfd. NULL when it cannot be made. */
static vg_prov_slot *slot_new(ASYNC_WAIT_CTX *w, int holds)
{
	vg_prov_slot *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->refs = 1;
	s->efd = s->pfd = -1;
	int fd = holds ? epoll_create1(EPOLL_CLOEXEC) : eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0 || !ASYNC_WAIT_CTX_set_wait_fd(w, &slot_key, fd, s, slot_cleanup)) {
		if (fd >= 0)
			close(fd);
		free(s);
		return NULL;
	}
	if (holds)
		s->pfd = fd;
	else
		s->efd = fd;
	return s;
}

static int submit(vg_client *cl, const vg_prov_req *rq, vg_prov_slot *s)
{
	switch (rq->kind) {
	case VG_PROV_OP_SIGN:
		return vg_client_submit_sign(cl, rq->key, rq->alg, rq->data, rq->len, slot_cb, s);
	case VG_PROV_OP_TLS13:
		return vg_client_submit_sign_tls13(cl, rq->key, rq->role, rq->data, rq->len,
						   slot_cb, s);
	case VG_PROV_OP_RSA:
		return vg_client_submit_rsa_private(cl, rq->key, rq->data, rq->len, slot_cb, s);
	default:
		return VGC_E_INVALID;
	}
}

/* Pause the job until woken. A job that cannot make its watch descriptor
 * or cannot pause waits here instead, blocking its thread as a
 * synchronous call would. */
static void pause_job(vg_prov_conn *c, vg_prov_slot *s, int block)
{
	vg_prov_stat_add(VG_PROV_ST_PAUSES, 1);
	if (block || !ASYNC_pause_job()) {
		/* The slot's descriptors (a negative one is skipped) and the
		 * watch's (the socket and the timer), which a blocked holder
		 * could not put in its own. */
		struct pollfd p[3] = {{.fd = s->efd, .events = POLLIN},
				      {.fd = s->pfd, .events = POLLIN},
				      {.fd = c->async.wfd, .events = POLLIN}};
		int t = c->timeout_ms > 0 ? c->timeout_ms : -1;
		(void)poll(p, 3, t);
	} else {
		s->seen = 1;
	}
	/* A job whose reply is in returns without pausing again for it:
	 * its wake-up is left unread (the server stops polling a descriptor
	 * once it has fired and resumed the job), and read before the slot's
	 * next request (vg_prov_async_call). One read less per handshake for
	 * a job woken by another's reading of its reply. */
	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SLOT_DONE)
		drain_slot(s);
}

/* Wait for the slot's reply, reading replies while holding the watch;
 * give the watch up when done. fresh: the slot took the watch with its
 * submit, so the first round skips reading (the reply needs a round trip
 * through vgd; the socket wakes the job when it comes). */
static void wait_reply(vg_prov_conn *c, ASYNC_WAIT_CTX *w, vg_prov_slot *s, int fresh)
{
	vg_prov_async *a = &c->async;
	int block = 0;
	for (;; fresh = 0) {
		pthread_mutex_lock(&c->lock);
		vg_client *cl = c->client;
		if (s->state != SLOT_DONE && a->holder == s && a->holder_state == HOLD_ASKED &&
		    take_watch(a, s, w, cl) < 0) {
			block = 1; /* no descriptor: read replies here, blocking */
			a->holder_state = HOLD_HELD;
		}
		if (s->state != SLOT_DONE && a->holder == s && !fresh) {
			if (a->armed_ms && now_ms() >= a->armed_ms) {
				uint64_t v;
				if (read(a->tfd, &v, sizeof(v)) < 0) {
					/* EAGAIN: not expired after all */
				}
				a->armed_ms = 0;
				if (a->sock >= 0) {
					struct epoll_event e = {0};
					epoll_ctl(a->wfd, EPOLL_CTL_DEL, a->sock, &e);
				}
				a->sock = -1; /* register the socket again */
			}
			a->running = s;
			vg_client_process(cl);
			a->running = NULL;
			watch_update(a, cl);
		}
		int done = s->state == SLOT_DONE;
		if (done && a->holder == s)
			pass_watch(a, s);
		pthread_mutex_unlock(&c->lock);
		if (done)
			return;
		pause_job(c, s, block);
	}
}

int vg_prov_async_call(vg_prov_conn *c, const vg_prov_req *rq, uint8_t *out, size_t cap,
		       size_t *out_len, char *err, size_t errlen, int *status)
{
	ASYNC_JOB *job = ASYNC_get_current_job();
	ASYNC_WAIT_CTX *w = job ? ASYNC_get_wait_ctx(job) : NULL;
	vg_prov_slot *s = w ? slot_find(w) : NULL;
	if (!w || (s && s->state != SLOT_IDLE))
		return 0;
	if (s)
		drain_slot(s); /* the last request's wake-up (pause_job); no
				* one signals a slot without a pending request */
	vg_prov_async *a = &c->async;
	pthread_mutex_lock(&c->lock);
	vg_client *cl = vg_prov_conn_client(c);
	int ready = cl && async_ready(a) == 0;
	if (!s)
		s = slot_new(w, ready && !a->holder);
	if (!s || !ready) {
		pthread_mutex_unlock(&c->lock);
		if (s)
			make_seen(s);
		return 0; /* the caller blocks */
	}
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL); /* the request's */
	s->conn = c;
	s->state = SLOT_PENDING;
	int r = submit(cl, rq, s);
	if (r < 0) {
		snprintf(err, errlen, "%s",
			 r == VGC_E_CONNECT ? vg_client_errmsg(cl) : vg_client_strerror(r));
		if (r == VGC_E_CONNECT)
			vg_prov_explain_connect(c, err, errlen);
		s->state = SLOT_IDLE;
		s->conn = NULL;
		__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
		pthread_mutex_unlock(&c->lock);
		make_seen(s);
		*status = r;
		return 1;
	}
	c->told = 0;         /* connected: a later failure is reported again */
	vg_prov_conn_ref(c); /* the job's, until it is done or abandoned */
	list_append(a, s);
	vg_prov_stat_add(VG_PROV_ST_ASYNC, 1);
	vg_prov_stat_max(VG_PROV_ST_INFLIGHT_MAX, a->npending);
	int fresh = 0;
	if (!a->holder) {
		a->holder = s;
		a->holder_state = HOLD_ASKED;
		/* A slot made for the watch takes it now (else at its first
		 * round, making its epoll descriptor then). */
		if (s->pfd >= 0 && watch_put(a, s) == 0) {
			watch_update(a, cl);
			fresh = 1;
		}
	}
	pthread_mutex_unlock(&c->lock);

	wait_reply(c, w, s, fresh);
	make_seen(s);

	pthread_mutex_lock(&c->lock);
	*status = s->status;
	if (s->status == 0 && s->result_len > cap)
		*status = VGC_E_BUFFER;
	if (*status == 0) {
		memcpy(out, s->result, s->result_len);
		if (out_len)
			*out_len = s->result_len;
	} else {
		snprintf(err, errlen, "%s", s->reason[0] ? s->reason : vg_client_strerror(*status));
	}
	OPENSSL_cleanse(s->result, s->result_len);
	s->state = SLOT_IDLE;
	s->conn = NULL;
	pthread_mutex_unlock(&c->lock);
	vg_prov_conn_unref(c);
	return 1;
}
