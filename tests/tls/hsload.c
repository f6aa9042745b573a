/* hsload.c: see hsload.h. Each thread makes its handshakes one after
 * another on blocking sockets (with timeouts, so a server that hangs
 * fails the connection instead of the test); the threads run at once.
 * TLS 1.3 and 1.2 alternate by connection. Nothing secret. */
#include "hsload.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <fcntl.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

typedef struct {
	const vgt_hs_load *l;
	int index;
	int ok, failed, tls13, tls12;
	char err[200];
} worker;

static void note(worker *w, const char *what)
{
	w->failed++;
	if (w->err[0])
		return;
	unsigned long e = ERR_peek_last_error();
	char es[160] = "";
	if (e)
		ERR_error_string_n(e, es, sizeof(es));
	snprintf(w->err, sizeof(w->err), "%s%s%s", what, es[0] ? ": " : "", es);
}

static int one(worker *w, int n)
{
	const vgt_hs_load *l = w->l;
	const vgt_hs_target *t = &l->targets[(size_t)(w->index + n) % l->ntargets];
	int tls13 = (w->index + n) % 2 == 0;
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL *s = NULL;
	int fd = -1, ok = 0;
	if (!ctx || !SSL_CTX_load_verify_locations(ctx, t->ca_file, NULL)) {
		note(w, "client context");
		goto out;
	}
	int v = tls13 ? TLS1_3_VERSION : TLS1_2_VERSION;
	SSL_CTX_set_min_proto_version(ctx, v);
	SSL_CTX_set_max_proto_version(ctx, v);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct timeval tv = {.tv_sec = l->timeout_s};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)l->port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		note(w, "connect");
		goto out;
	}
	s = SSL_new(ctx);
	if (!s || !SSL_set_fd(s, fd) || !SSL_set_tlsext_host_name(s, t->host) ||
	    !SSL_set1_host(s, t->host) || SSL_connect(s) != 1) {
		note(w, "handshake");
		goto out;
	}
	char req[200];
	int rl = snprintf(req, sizeof(req), "GET / HTTP/1.0\r\nHost: %s\r\n\r\n", t->host);
	if (SSL_write(s, req, rl) != rl) {
		note(w, "request");
		goto out;
	}
	char buf[4096];
	size_t got = 0;
	for (;;) {
		int r = SSL_read(s, buf + got, (int)(sizeof(buf) - 1 - got));
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == sizeof(buf) - 1)
			break;
	}
	buf[got] = 0;
	if (!strstr(buf, l->want)) {
		note(w, "response without the expected text");
		goto out;
	}
	ok = 1;
	w->ok++;
	if (tls13)
		w->tls13++;
	else
		w->tls12++;
out:
	SSL_free(s);
	SSL_CTX_free(ctx);
	if (fd >= 0)
		close(fd);
	ERR_clear_error();
	return ok;
}

static void *run_worker(void *arg)
{
	worker *w = arg;
	for (int n = 0; n < w->l->per_thread; n++)
		one(w, n);
	return NULL;
}

int vgt_hs_run(const vgt_hs_load *l, vgt_hs_result *r)
{
	memset(r, 0, sizeof(*r));
	if (l->threads < 1 || l->threads > 256 || l->ntargets == 0)
		return -1;
	pthread_t th[256];
	worker w[256];
	int started = 0;
	for (int i = 0; i < l->threads; i++) {
		w[i] = (worker){.l = l, .index = i};
		if (pthread_create(&th[i], NULL, run_worker, &w[i]) != 0)
			break;
		started++;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		r->ok += w[i].ok;
		r->failed += w[i].failed;
		r->tls13 += w[i].tls13;
		r->tls12 += w[i].tls12;
		if (!r->first_error[0] && w[i].err[0])
			snprintf(r->first_error, sizeof(r->first_error), "%s", w[i].err);
	}
	return started == l->threads ? 0 : -1;
}

/* One ClientHello on a non-blocking socket: SSL_connect sends it and
 * stops at the server's answer (SSL_ERROR_WANT_READ). The SSL is freed
 * (nothing more is sent); the socket stays open for the caller. */
static int hello_only(SSL_CTX *ctx, int port, const char *host)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	SSL *s = SSL_new(ctx);
	int sent = s && SSL_set_fd(s, fd) && SSL_set_tlsext_host_name(s, host) &&
		   SSL_connect(s) < 0 && SSL_get_error(s, -1) == SSL_ERROR_WANT_READ;
	SSL_free(s);
	ERR_clear_error();
	if (!sent) {
		close(fd);
		return -1;
	}
	return fd;
}

int vgt_hs_hello_only(int port, const char *host, int n, int *fds)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	int got = 0;
	if (ctx && SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION))
		while (got < n && (fds[got] = hello_only(ctx, port, host)) >= 0)
			got++;
	SSL_CTX_free(ctx);
	return got;
}

void vgt_hs_reset(const int *fds, int n)
{
	struct linger lg = {.l_onoff = 1, .l_linger = 0};
	for (int i = 0; i < n; i++) {
		setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(fds[i]);
	}
}
