/* async.c: asynchronous requests from inside an OpenSSL async job (a
 * server that sets SSL_MODE_ASYNC, such as HAProxy with ssl-mode-async):
 * the request goes out through libvgclient's asynchronous API, the job
 * registers descriptors on its wait context and pauses, and the server
 * resumes it when one is readable; several jobs share one connection
 * (pipelined). conn.h describes the watch: an eventfd per wait context
 * (a slot), and the socket and a deadline timer in an epoll descriptor of
 * the one waiting job that holds the watch.
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
	int efd;                   /* eventfd; -1 once the wait context let go */
	int pfd;                   /* epoll descriptor, made when the slot first holds the watch */
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

/* Keys of our entries in a wait context (their addresses). */
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
	a->tfd = a->sock = -1;
}

void vg_prov_async_destroy(vg_prov_async *a)
{
	if (a->tfd >= 0)
		close(a->tfd);
	a->tfd = -1;
}

/* The timer, made on first use and again in a forked child (whose
 * waiting jobs, if any, are the parent's). 0 or -1. */
static int async_ready(vg_prov_async *a)
{
	pthread_once(&fork_once, fork_init);
	uint64_t g = __atomic_load_n(&fork_gen, __ATOMIC_RELAXED);
	if (a->tfd >= 0 && a->fork_gen == g)
		return 0;
	vg_prov_async_destroy(a);
	vg_prov_async_init(a);
	a->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (a->tfd < 0)
		return -1;
	a->fork_gen = g;
	return 0;
}

/* Wake the slot's job: write its eventfd first, then flag it, so a job
 * that sees the flag finds a count to read (a reader between the two
 * leaves a count behind: one spurious wake-up, then it is read). */
static void signal_slot(vg_prov_slot *s)
{
	if (s->efd < 0)
		return;
	uint64_t one = 1;
	if (write(s->efd, &one, sizeof(one)) < 0) {
		/* EAGAIN only at the counter's maximum: readable anyway */
	}
	__atomic_store_n(&s->signaled, 1, __ATOMIC_RELEASE);
}

static void drain_slot(vg_prov_slot *s)
{
	if (__atomic_exchange_n(&s->signaled, 0, __ATOMIC_ACQ_REL)) {
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

/* Keep the holder's epoll descriptor watching the client's socket (a new
 * one after a reconnect; writable too while requests wait to be written)
 * and the timer armed for the earliest request deadline. A socket closed
 * and reopened with the same number inside one vg_client_process() is
 * not seen here: the timer's next expiry registers the socket again. */
static void watch_update(vg_prov_async *a, vg_client *cl, int pfd)
{
	int fd = vg_client_fd(cl);
	uint32_t ev = EPOLLIN | ((vg_client_events(cl) & POLLOUT) ? EPOLLOUT : 0);
	if (fd >= 0 && (fd != a->sock || ev != a->sock_ev)) {
		struct epoll_event e = {.events = ev, .data.fd = fd};
		int op = fd == a->sock ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
		if (epoll_ctl(pfd, op, fd, &e) < 0 && (errno == EEXIST || errno == ENOENT))
			epoll_ctl(pfd, op == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &e);
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

/* The holder lets go: the socket and timer leave its epoll descriptor
 * (a closed socket has left it already), which then never fires. */
static void unwatch(vg_prov_async *a, vg_prov_slot *s)
{
	if (a->holder_state != HOLD_HELD || s->pfd < 0)
		return;
	struct epoll_event e = {0};
	if (a->sock >= 0)
		epoll_ctl(s->pfd, EPOLL_CTL_DEL, a->sock, &e);
	epoll_ctl(s->pfd, EPOLL_CTL_DEL, a->tfd, &e);
	a->sock = -1;
}

/* The watch goes from the holder to the newest waiting job (it will wait
 * longest, so the watch moves least), or to nobody when no job waits. */
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
		signal_slot(n);
	}
}

/* The slot asked to hold the watch takes it: its epoll descriptor (made
 * and added to the wait context the first time) gets the timer and the
 * socket. 0, or -1 when that fails (the job then waits blocking). */
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
	struct epoll_event e = {.events = EPOLLIN, .data.fd = a->tfd};
	if (epoll_ctl(s->pfd, EPOLL_CTL_ADD, a->tfd, &e) < 0 && errno != EEXIST)
		return -1;
	a->holder_state = HOLD_HELD;
	a->sock = -1; /* register the current socket */
	watch_update(a, cl, s->pfd);
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
	s->state = SLOT_DONE;
	list_remove(a, s);
	if (a->running != s)
		signal_slot(s); /* no-op once abandoned (efd -1) */
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

/* The slot of this wait context, made on first use (an eventfd the
 * context owns from then on). NULL when it cannot be made. */
static vg_prov_slot *slot_get(ASYNC_WAIT_CTX *w)
{
	OSSL_ASYNC_FD fd;
	void *custom = NULL;
	if (ASYNC_WAIT_CTX_get_fd(w, &slot_key, &fd, &custom) && custom)
		return custom;
	vg_prov_slot *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->refs = 1;
	s->pfd = -1;
	s->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->efd < 0 || !ASYNC_WAIT_CTX_set_wait_fd(w, &slot_key, s->efd, s, slot_cleanup)) {
		if (s->efd >= 0)
			close(s->efd);
		free(s);
		return NULL;
	}
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
		int sock = c->client ? vg_client_fd(c->client) : -1;
		struct pollfd p[3] = {{.fd = s->efd, .events = POLLIN},
				      {.fd = c->async.tfd, .events = POLLIN},
				      {.fd = sock, .events = POLLIN}};
		int t = c->timeout_ms > 0 ? c->timeout_ms : -1;
		(void)poll(p, sock >= 0 ? 3 : 2, t);
	} else {
		s->seen = 1;
	}
	drain_slot(s);
}

/* Wait for the slot's reply, reading replies while holding the watch;
 * give the watch up when done. */
static void wait_reply(vg_prov_conn *c, ASYNC_WAIT_CTX *w, vg_prov_slot *s)
{
	vg_prov_async *a = &c->async;
	int block = 0;
	for (;;) {
		pthread_mutex_lock(&c->lock);
		vg_client *cl = c->client;
		if (s->state != SLOT_DONE && a->holder == s && a->holder_state == HOLD_ASKED &&
		    take_watch(a, s, w, cl) < 0) {
			block = 1; /* no descriptor: read replies here, blocking */
			a->holder_state = HOLD_HELD;
		}
		if (s->state != SLOT_DONE && a->holder == s) {
			if (a->armed_ms && now_ms() >= a->armed_ms) {
				uint64_t v;
				if (read(a->tfd, &v, sizeof(v)) < 0) {
					/* EAGAIN: not expired after all */
				}
				a->armed_ms = 0;
				if (a->sock >= 0 && s->pfd >= 0) {
					struct epoll_event e = {0};
					epoll_ctl(s->pfd, EPOLL_CTL_DEL, a->sock, &e);
				}
				a->sock = -1; /* register the socket again */
			}
			a->running = s;
			vg_client_process(cl);
			a->running = NULL;
			if (s->pfd >= 0)
				watch_update(a, cl, s->pfd);
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
	vg_prov_slot *s = w ? slot_get(w) : NULL;
	if (!s || s->state != SLOT_IDLE)
		return 0;
	vg_prov_async *a = &c->async;
	pthread_mutex_lock(&c->lock);
	vg_client *cl = vg_prov_conn_client(c);
	if (!cl || async_ready(a) < 0) {
		pthread_mutex_unlock(&c->lock);
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
	if (!a->holder) {
		a->holder = s;
		a->holder_state = HOLD_ASKED;
	}
	pthread_mutex_unlock(&c->lock);

	wait_reply(c, w, s);
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
