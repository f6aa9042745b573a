/* conn.c: libvgclient's socket: non-blocking connect, fork detection,
 * writing queued frames and reading reply bytes. Holds no secrets (reply
 * buffers are wiped by async.c after each frame is used). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

long long vgc_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long vgc_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Which process a client belongs to, without a getpid() system call on
 * every call (eight per signature before): a pthread_atfork handler bumps
 * the generation in every child fork() makes (glibc runs it for fork(),
 * daemon() and friends; a child made by a raw clone system call is not
 * seen, nor needs to be unless it calls in). Registered once, by the
 * first vg_client_new. The generation is this file's. */
static unsigned long fork_gen;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_child(void)
{
	/* The child has one thread here: nothing races. */
	fork_gen++;
}

static void fork_init(void)
{
	pthread_atfork(NULL, NULL, fork_child);
}

unsigned long vgc_fork_gen(void)
{
	pthread_once(&fork_once, fork_init);
	return __atomic_load_n(&fork_gen, __ATOMIC_RELAXED);
}

/* A forked child must never write to or read from the parent's stream:
 * replies would go to whichever process reads first. The child closes its
 * own copy of the descriptor only (close, not shutdown, so the parent's
 * connection is untouched) and forgets the parent's requests: their
 * callbacks belong to the parent. */
int vgc_forked_check(vg_client *c)
{
	unsigned long g = __atomic_load_n(&fork_gen, __ATOMIC_RELAXED);
	if (c->fork_gen == g)
		return 0;
	c->fork_gen = g;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->state = CS_NONE;
	c->broken = 0;
	c->woff = c->wlen = 0;
	explicit_bzero(c->rbuf, c->rlen + c->preread);
	c->rlen = 0;
	c->preread = 0;
	c->blocking = 0;
	vgc_direct_drop(c, 1);
	vgc_drop_all(c);
	return 1;
}

void vgc_conn_set_rcvtimeo(vg_client *c)
{
	struct timeval tv = {c->timeout_ms / 1000, (c->timeout_ms % 1000) * 1000};
	if (c->blocking && setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		c->blocking = 0; /* then blocking calls wait in poll() */
}

/* The connection is up. Every send and recv on it passes MSG_DONTWAIT
 * (the caller's event loop only polls the descriptor), so the descriptor
 * itself may block: a blocking call then waits for its reply inside one
 * recv (vgc_conn_read_wait) instead of a poll and a recv, one system call
 * less per request for a server that signs with blocking calls. Its
 * SO_RCVTIMEO bounds that recv by the client's timeout. */
static void conn_up(vg_client *c)
{
	c->state = CS_UP;
	c->blocking = fcntl(c->fd, F_SETFL, 0) == 0;
	vgc_conn_set_rcvtimeo(c);
}

static int try_connect(vg_client *c)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, c->path, strlen(c->path));
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == EISCONN) {
		conn_up(c);
		return 0;
	}
	if (errno == EINPROGRESS) {
		c->state = CS_CONNECTING;
		return 1;
	}
	/* AF_UNIX answers EAGAIN (not EINPROGRESS) when the daemon's listen
	 * backlog is full; nothing will signal completion, so try again on a
	 * short timer. */
	if (errno == EAGAIN || errno == EINTR) {
		c->state = CS_RETRY;
		c->retry_at = vgc_now_ms() + 5;
		return 1;
	}
	int e = errno;
	close(c->fd);
	c->fd = -1;
	c->state = CS_NONE;
	char why[200];
	size_t n = (size_t)snprintf(why, sizeof(why), "%s: %s", c->path, strerror(e));
	vgc_set_err(c, VGC_E_CONNECT, why, n < sizeof(why) ? n : sizeof(why) - 1);
	return VGC_E_CONNECT;
}

int vgc_conn_start(vg_client *c)
{
	if (c->state == CS_UP)
		return 0;
	if (c->state != CS_NONE)
		return vgc_conn_step(c);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return vgc_set_err(c, VGC_E_CONNECT, strerror(errno), strlen(strerror(errno)));
	c->woff = c->wlen = 0;
	c->rlen = 0;
	c->preread = 0;
	c->blocking = 0;
	c->broken = 0;
	c->cpu_hint = CPU_HINT_UNKNOWN; /* perhaps another daemon now */
	return try_connect(c);
}

int vgc_conn_step(vg_client *c)
{
	if (c->state == CS_UP)
		return 0;
	if (c->state == CS_NONE)
		return VGC_E_CONNECT;
	if (c->state == CS_RETRY)
		return vgc_now_ms() >= c->retry_at ? try_connect(c) : 1;
	struct pollfd p = {c->fd, POLLOUT, 0};
	if (poll(&p, 1, 0) <= 0)
		return 1;
	int err = 0;
	socklen_t l = sizeof(err);
	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l) < 0)
		err = errno;
	if (err == 0) {
		conn_up(c);
		return 0;
	}
	close(c->fd);
	c->fd = -1;
	c->state = CS_NONE;
	return vgc_set_err(c, VGC_E_CONNECT, strerror(err), strlen(strerror(err)));
}

void vgc_conn_close(vg_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->state = CS_NONE;
	c->broken = 0;
	c->woff = c->wlen = 0;
	explicit_bzero(c->rbuf, c->rlen + c->preread);
	c->rlen = 0;
	c->preread = 0;
	c->blocking = 0;
	vgc_direct_drop(c, 0);
}

int vgc_conn_flush(vg_client *c)
{
	while (c->woff < c->wlen) {
		ssize_t w = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			c->woff += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return w < 0 && errno != EPIPE && errno != ECONNRESET ? VGC_E_IO : VGC_E_CLOSED;
	}
	c->woff = c->wlen = 0;
	return 0;
}

int vgc_conn_read(vg_client *c)
{
	if (c->preread) {
		int n = (int)c->preread;
		c->rlen += c->preread;
		c->preread = 0;
		return n;
	}
	for (;;) {
		ssize_t n = recv(c->fd, c->rbuf + c->rlen, VGC_RBUF_SIZE - c->rlen, MSG_DONTWAIT);
		if (n > 0) {
			c->rlen += (size_t)n;
			return (int)n;
		}
		if (n == 0)
			return VGC_E_CLOSED;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		return errno == ECONNRESET ? VGC_E_CLOSED : VGC_E_IO;
	}
}

int vgc_conn_read_wait(vg_client *c)
{
	if (!c->blocking || c->state != CS_UP || c->preread || c->rlen >= VGC_RBUF_SIZE)
		return 0;
	ssize_t n = recv(c->fd, c->rbuf + c->rlen, VGC_RBUF_SIZE - c->rlen, 0);
	if (n <= 0)
		return 0;
	c->preread = (size_t)n;
	return (int)n;
}
