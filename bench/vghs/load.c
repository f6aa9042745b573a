/* load.c: vghs's load generator. One thread, non-blocking sockets and
 * epoll, OpenSSL's client: N connections in flight, each a TCP connect to
 * 127.0.0.1, a full TLS handshake (no session resumption, no tickets), one
 * tiny HTTP/1.0 request, the response read to the server's close; a
 * finished connection is replaced at once. Bounded by a connection count
 * and by time (whatever is still open at the hard end is abandoned). The
 * first connection of a phase verifies the certificate (CA, host name)
 * and the response body; the others skip the chain check (the
 * CertificateVerify signature is always checked: libssl does it) so the
 * client spends its CPU where a browser would. A saturation phase may
 * run in several processes (vgh_load_run_procs): one OpenSSL 3.0 client
 * costs more CPU per handshake than the server it measures. Nothing
 * secret. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "vghs.h"

struct vgh_client {
	SSL_CTX *ctx[2]; /* [0] TLS 1.2, [1] TLS 1.3 */
};

enum { ST_FREE, ST_CONNECT, ST_HS, ST_READ };

typedef struct {
	int fd;
	int state;
	int verify;
	SSL *ssl;
	uint64_t t0;
	size_t got;
	char buf[512];
} conn;

typedef struct {
	const vgh_phase *p;
	vgh_result *r;
	SSL_CTX *ctx, *vctx;
	int ep;
	conn *c;
	int active;
	int stopping;  /* no new connections */
	int in_window; /* between t_warm and t_stop */
	int verify_next;
	double cpu0;
	struct sockaddr_in addr;
} loop;

uint64_t vgh_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static SSL_CTX *new_ctx(int tls13)
{
	SSL_CTX *c = SSL_CTX_new(TLS_client_method());
	if (!c)
		return NULL;
	int v = tls13 ? TLS1_3_VERSION : TLS1_2_VERSION;
	/* One suite, one key exchange (X25519): every row does the same
	 * symmetric and key-exchange work; only the server's signature
	 * differs. TLS 1.2 also lists P-256 and P-384, after X25519: there
	 * the groups also say which curves an ECDSA certificate may use. */
	int ok = SSL_CTX_set_min_proto_version(c, v) && SSL_CTX_set_max_proto_version(c, v) &&
		 SSL_CTX_set1_groups_list(c, tls13 ? "X25519" : "X25519:P-256:P-384") &&
		 (tls13 ? SSL_CTX_set_ciphersuites(c, "TLS_AES_128_GCM_SHA256")
			: SSL_CTX_set_cipher_list(c, "ECDHE-ECDSA-AES128-GCM-SHA256:"
						     "ECDHE-RSA-AES128-GCM-SHA256"));
	SSL_CTX_set_options(c, SSL_OP_NO_TICKET | SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_verify(c, SSL_VERIFY_NONE, NULL);
	if (!ok) {
		SSL_CTX_free(c);
		return NULL;
	}
	return c;
}

vgh_client *vgh_client_new(char *why, size_t whylen)
{
	vgh_client *c = calloc(1, sizeof(*c));
	if (!c || !(c->ctx[0] = new_ctx(0)) || !(c->ctx[1] = new_ctx(1))) {
		snprintf(why, whylen, "cannot make the client's SSL_CTX");
		vgh_client_free(c);
		return NULL;
	}
	return c;
}

void vgh_client_free(vgh_client *c)
{
	if (!c)
		return;
	SSL_CTX_free(c->ctx[0]);
	SSL_CTX_free(c->ctx[1]);
	free(c);
}

static void fail(loop *L, conn *c, const char *what)
{
	L->r->errors++;
	if (!L->r->first_error[0]) {
		unsigned long e = ERR_peek_last_error();
		char es[160] = "";
		if (e)
			ERR_error_string_n(e, es, sizeof(es));
		snprintf(L->r->first_error, sizeof(L->r->first_error), "%s%s%s", what,
			 es[0] ? ": " : "", es);
	}
	ERR_clear_error();
	(void)c;
}

static void conn_close(loop *L, conn *c, int abort)
{
	if (c->ssl)
		SSL_free(c->ssl);
	c->ssl = NULL;
	if (c->fd >= 0) {
		if (abort) {
			/* No TIME_WAIT left behind by an error or an abandon. */
			struct linger lg = {1, 0};
			setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		}
		close(c->fd); /* also leaves the epoll set */
	}
	c->fd = -1;
	c->state = ST_FREE;
	L->active--;
}

static int want(loop *L, conn *c, uint32_t ev)
{
	struct epoll_event e = {.events = ev, .data.ptr = c};
	return epoll_ctl(L->ep, EPOLL_CTL_MOD, c->fd, &e);
}

static void step(loop *L, conn *c);

static int can_start(loop *L)
{
	const vgh_phase *p = L->p;
	return !L->stopping && (p->max_count == 0 || L->r->started < p->max_count);
}

static void start(loop *L, conn *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->t0 = vgh_now_ns();
	c->verify = L->verify_next;
	L->verify_next = 0;
	L->r->started++;
	L->active++;
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		fail(L, c, "socket");
		conn_close(L, c, 1);
		return;
	}
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->ssl = SSL_new(c->verify ? L->vctx : L->ctx);
	if (!c->ssl || !SSL_set_fd(c->ssl, c->fd) ||
	    !SSL_set_tlsext_host_name(c->ssl, L->p->host) ||
	    (c->verify && !SSL_set1_host(c->ssl, L->p->host))) {
		fail(L, c, "SSL_new");
		conn_close(L, c, 1);
		return;
	}
	SSL_set_connect_state(c->ssl);
	struct epoll_event e = {.events = EPOLLOUT, .data.ptr = c};
	if (epoll_ctl(L->ep, EPOLL_CTL_ADD, c->fd, &e) < 0) {
		fail(L, c, "epoll_ctl");
		conn_close(L, c, 1);
		return;
	}
	int r = connect(c->fd, (struct sockaddr *)&L->addr, sizeof(L->addr));
	if (r < 0 && errno != EINPROGRESS) {
		fail(L, c, strerror(errno));
		conn_close(L, c, 1);
		return;
	}
	c->state = ST_CONNECT;
	if (r == 0)
		step(L, c);
}

static void finish(loop *L, conn *c)
{
	uint64_t now = vgh_now_ns();
	int ok = c->got >= 12 && memcmp(c->buf, "HTTP/1.", 7) == 0 &&
		 memcmp(c->buf + 9, "200", 3) == 0;
	if (ok && c->verify) {
		ok = strstr(c->buf, "vghs ok") != NULL;
		L->r->verified = ok;
	}
	if (!ok) {
		fail(L, c,
		     c->verify ? "response (first connection) is not 200 \"vghs ok\""
			       : "response is not 200");
		conn_close(L, c, 1);
		return;
	}
	L->r->completed_all++;
	if (L->in_window && now <= L->p->t_stop)
		L->r->done++;
	conn_close(L, c, 0);
}

static void record_hs(loop *L, conn *c)
{
	vgh_result *r = L->r;
	if (c->t0 < L->p->t_warm)
		return;
	if (r->nhs == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		uint64_t *n = realloc(r->hs_ns, cap * sizeof(*n));
		if (!n)
			return;
		r->hs_ns = n;
		r->cap = cap;
	}
	r->hs_ns[r->nhs++] = vgh_now_ns() - c->t0;
}

static void do_read(loop *L, conn *c)
{
	for (;;) {
		char tmp[4096];
		int n = SSL_read(c->ssl, tmp, sizeof(tmp));
		if (n > 0) {
			size_t room = sizeof(c->buf) - 1 - c->got;
			size_t k = (size_t)n < room ? (size_t)n : room;
			memcpy(c->buf + c->got, tmp, k);
			c->got += k;
			c->buf[c->got] = 0;
			continue;
		}
		int e = SSL_get_error(c->ssl, n);
		if (e == SSL_ERROR_WANT_READ) {
			want(L, c, EPOLLIN);
			return;
		}
		if (e == SSL_ERROR_ZERO_RETURN || e == SSL_ERROR_SYSCALL || e == SSL_ERROR_SSL) {
			/* The server closed after its response (HTTP/1.0). */
			if (c->got)
				finish(L, c);
			else {
				fail(L, c, "connection closed without a response");
				conn_close(L, c, 1);
			}
			return;
		}
		fail(L, c, "SSL_read");
		conn_close(L, c, 1);
		return;
	}
}

static void step(loop *L, conn *c)
{
	if (c->state == ST_CONNECT) {
		int err = 0;
		socklen_t l = sizeof(err);
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l) < 0 || err) {
			fail(L, c, err ? strerror(err) : "connect");
			conn_close(L, c, 1);
			return;
		}
		c->state = ST_HS;
	}
	if (c->state == ST_HS) {
		int r = SSL_do_handshake(c->ssl);
		if (r != 1) {
			int e = SSL_get_error(c->ssl, r);
			if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
				want(L, c, e == SSL_ERROR_WANT_READ ? EPOLLIN : EPOLLOUT);
				return;
			}
			fail(L, c, "handshake");
			conn_close(L, c, 1);
			return;
		}
		record_hs(L, c);
		static const char req[] = "GET / HTTP/1.0\r\nHost: vghs\r\n\r\n";
		/* A few dozen bytes always fit the socket buffer. */
		if (SSL_write(c->ssl, req, sizeof(req) - 1) != (int)sizeof(req) - 1) {
			fail(L, c, "SSL_write");
			conn_close(L, c, 1);
			return;
		}
		c->state = ST_READ;
	}
	if (c->state == ST_READ)
		do_read(L, c);
}

static void enter_window(loop *L)
{
	L->in_window = 1;
	if (L->p->sample)
		L->p->sample(L->p->sample_arg, 0);
	L->cpu0 = cpu_s();
}

static void leave_window(loop *L, uint64_t now)
{
	L->in_window = 0;
	L->stopping = 1;
	L->r->client_cpu_s = cpu_s() - L->cpu0;
	L->r->window_s = (double)(now - L->p->t_warm) / 1e9;
	if (L->p->sample)
		L->p->sample(L->p->sample_arg, 1);
}

int vgh_load_run(vgh_client *cl, const vgh_phase *p, vgh_result *r)
{
	memset(r, 0, sizeof(*r));
	if (p->conns < 1 || p->conns > VGH_MAX_CONNS)
		return -1;
	loop L = {.p = p, .r = r, .verify_next = 1};
	L.ctx = cl->ctx[p->tls13 ? 1 : 0];
	/* The verifying context for the first connection: this phase's CA. */
	L.vctx = new_ctx(p->tls13);
	if (!L.vctx || SSL_CTX_load_verify_locations(L.vctx, p->ca_file, NULL) != 1) {
		snprintf(r->first_error, sizeof(r->first_error), "cannot load %s", p->ca_file);
		SSL_CTX_free(L.vctx);
		return -1;
	}
	SSL_CTX_set_verify(L.vctx, SSL_VERIFY_PEER, NULL);
	L.addr = (struct sockaddr_in){.sin_family = AF_INET,
				      .sin_port = htons((uint16_t)p->port),
				      .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	L.ep = epoll_create1(EPOLL_CLOEXEC);
	L.c = calloc((size_t)p->conns, sizeof(conn));
	if (L.ep < 0 || !L.c) {
		free(L.c);
		if (L.ep >= 0)
			close(L.ep);
		SSL_CTX_free(L.vctx);
		return -1;
	}
	for (int i = 0; i < p->conns; i++)
		L.c[i].fd = -1;
	int warm_done = 0, stop_done = 0;
	for (int i = 0; i < p->conns && can_start(&L); i++)
		start(&L, &L.c[i]);
	struct epoll_event ev[256];
	for (;;) {
		uint64_t now = vgh_now_ns();
		if (!warm_done && now >= p->t_warm) {
			warm_done = 1;
			enter_window(&L);
		}
		if (warm_done && !stop_done &&
		    (now >= p->t_stop ||
		     (p->max_count && r->started >= p->max_count && L.active == 0))) {
			stop_done = 1;
			leave_window(&L, now);
		}
		if (now >= p->t_end || (L.stopping && L.active == 0) ||
		    (!can_start(&L) && L.active == 0 && stop_done))
			break;
		if (!can_start(&L) && L.active == 0) {
			/* Count exhausted before the window opened (a tiny phase). */
			if (!warm_done) {
				warm_done = 1;
				enter_window(&L);
			}
			continue;
		}
		uint64_t next = !warm_done ? p->t_warm : !stop_done ? p->t_stop : p->t_end;
		int ms = next > now ? (int)((next - now + 999999u) / 1000000u) : 0;
		if (ms > 50)
			ms = 50;
		int n = epoll_wait(L.ep, ev, 256, ms);
		for (int i = 0; i < n; i++)
			step(&L, ev[i].data.ptr);
		/* Replace what finished. */
		for (int i = 0; i < p->conns && L.active < p->conns && can_start(&L); i++)
			if (L.c[i].state == ST_FREE && L.c[i].fd < 0)
				start(&L, &L.c[i]);
	}
	if (!stop_done)
		leave_window(&L, vgh_now_ns());
	for (int i = 0; i < p->conns; i++)
		if (L.c[i].state != ST_FREE)
			conn_close(&L, &L.c[i], 1);
	free(L.c);
	close(L.ep);
	SSL_CTX_free(L.vctx);
	return 0;
}

void vgh_result_free(vgh_result *r)
{
	free(r->hs_ns);
	r->hs_ns = NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

double vgh_percentile_us(vgh_result *r, double pct)
{
	if (r->nhs == 0)
		return -1;
	qsort(r->hs_ns, r->nhs, sizeof(uint64_t), cmp_u64);
	size_t k = (size_t)(pct / 100.0 * (double)r->nhs + 0.999999);
	if (k < 1)
		k = 1;
	if (k > r->nhs)
		k = r->nhs;
	return (double)r->hs_ns[k - 1] / 1000.0;
}

/* What a load process reports to the parent (no pointers). */
typedef struct {
	uint64_t done, started, completed_all, errors;
	double window_s, client_cpu_s;
	int verified;
	char first_error[200];
} child_report;

static void sleep_until(uint64_t t)
{
	uint64_t now = vgh_now_ns();
	if (t <= now)
		return;
	struct timespec ts = {.tv_sec = (time_t)((t - now) / 1000000000u),
			      .tv_nsec = (long)((t - now) % 1000000000u)};
	while (nanosleep(&ts, &ts) < 0) {
	}
}

int vgh_load_run_procs(vgh_client *c, const vgh_phase *p, int procs, vgh_result *r)
{
	if (procs <= 1 || p->conns < procs)
		return vgh_load_run(c, p, r);
	memset(r, 0, sizeof(*r));
	int fds[64];
	pid_t pids[64];
	int n = 0;
	if (procs > 64)
		procs = 64;
	for (int i = 0; i < procs; i++) {
		int pfd[2];
		if (pipe(pfd) < 0)
			break;
		vgh_phase q = *p;
		q.conns = p->conns / procs + (i < p->conns % procs);
		q.sample = NULL;
		pid_t pid = fork();
		if (pid < 0) {
			close(pfd[0]);
			close(pfd[1]);
			break;
		}
		if (pid == 0) {
			close(pfd[0]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			vgh_result cr;
			child_report rep = {0};
			if (vgh_load_run(c, &q, &cr) == 0) {
				rep = (child_report){.done = cr.done,
						     .started = cr.started,
						     .completed_all = cr.completed_all,
						     .errors = cr.errors,
						     .window_s = cr.window_s,
						     .client_cpu_s = cr.client_cpu_s,
						     .verified = cr.verified};
				memcpy(rep.first_error, cr.first_error, sizeof(rep.first_error));
			} else {
				snprintf(rep.first_error, sizeof(rep.first_error), "%s",
					 cr.first_error[0] ? cr.first_error
							   : "load process failed");
				rep.errors = 1;
			}
			ssize_t w = write(pfd[1], &rep, sizeof(rep));
			_exit(w == (ssize_t)sizeof(rep) ? 0 : 1);
		}
		close(pfd[1]);
		fds[n] = pfd[0];
		pids[n++] = pid;
	}
	/* The parent samples the servers at the window's edges. */
	sleep_until(p->t_warm);
	if (p->sample)
		p->sample(p->sample_arg, 0);
	sleep_until(p->t_stop);
	if (p->sample)
		p->sample(p->sample_arg, 1);
	r->window_s = (double)(p->t_stop - p->t_warm) / 1e9;
	r->verified = n > 0;
	for (int i = 0; i < n; i++) {
		child_report rep;
		ssize_t got = read(fds[i], &rep, sizeof(rep));
		close(fds[i]);
		int st;
		waitpid(pids[i], &st, 0);
		if (got != (ssize_t)sizeof(rep)) {
			r->errors++;
			r->verified = 0;
			if (!r->first_error[0])
				snprintf(r->first_error, sizeof(r->first_error),
					 "a load process died");
			continue;
		}
		r->done += rep.done;
		r->started += rep.started;
		r->completed_all += rep.completed_all;
		r->errors += rep.errors;
		r->client_cpu_s += rep.client_cpu_s;
		r->verified = r->verified && rep.verified;
		if (!r->first_error[0] && rep.first_error[0])
			memcpy(r->first_error, rep.first_error, sizeof(r->first_error));
	}
	return n == procs ? 0 : -1;
}
