/* test_client_hint.c: libvgclient's CLIENT_CPU hint on the wire
 * (vgclient.h, "THE CPU HINT"; PROTOCOL.md 6.10), against a scripted fake
 * daemon that logs every request it reads: asynchronous calls alone ask
 * with one hello per connection and then send the hint; that hello is not
 * the caller's (vg_client_pending, process's count); a daemon without the
 * capability never gets the hint; and a hinted request that has to be
 * sent again on a new connection goes without it, so an older daemon
 * there does not refuse it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "vg/proto.h"
#include "vgclient.h"

/* What the fake daemon read: one record per request frame. */
struct seen {
	uint8_t conn; /* 0 for the first connection, then 1, ... */
	uint8_t op;
	uint8_t hinted; /* it carried CLIENT_CPU */
};

struct fake {
	char dir[64];
	char path[96];
	pid_t pid;
	int log; /* read end of the child's records */
};

enum { HANG_UP_ON_FIRST_HINT = 1 };

static int read_full(int fd, uint8_t *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = recv(fd, p + got, n - got, 0);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int reply(int fd, uint8_t op, int status, uint32_t id, uint32_t caps)
{
	uint8_t out[256];
	vg_writer w;
	vg_frame_begin(&w, out, sizeof out, op | VG_OP_REPLY, status, id);
	if (op == VG_OP_HELLO && status == VG_ST_OK) {
		vg_put_u8(&w, VG_T_VERSION, 1);
		vg_put_u32(&w, VG_T_CAPS, caps);
		vg_put_open(&w, VG_T_LIMIT);
		vg_put_u32(&w, VG_T_LIM_MAX_FRAME, VG_PROTO_MAX_FRAME);
		vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, 128);
		vg_put_close(&w);
	}
	if (status != VG_ST_OK)
		vg_put(&w, VG_T_REASON, "unknown item", 12);
	long n = vg_frame_end(&w);
	return n > 0 && send(fd, out, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -1;
}

/* The child: serve connections one after another. caps is what the first
 * connection's hello says; with HANG_UP_ON_FIRST_HINT the first hinted
 * request ends that connection unanswered, and later connections behave
 * as a daemon from before the hint (CAPS 0, a hinted request refused). */
static void serve(int ls, int log, uint32_t caps, int mode)
{
	int hung_up = 0;
	for (uint8_t conn = 0;; conn++) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0)
			_exit(1);
		uint8_t buf[VG_PROTO_MAX_FRAME];
		while (read_full(fd, buf, VG_PROTO_HDR_LEN) == 0) {
			uint32_t body = (uint32_t)buf[12] << 24 | (uint32_t)buf[13] << 16 |
					(uint32_t)buf[14] << 8 | buf[15];
			if (body > VG_PROTO_MAX_BODY || read_full(fd, buf + VG_PROTO_HDR_LEN, body))
				_exit(2);
			vg_request rq;
			if (vg_request_decode(buf, VG_PROTO_HDR_LEN + body, &rq, NULL) != VG_ST_OK)
				_exit(3);
			struct seen s = {conn, rq.op, (uint8_t)(rq.has_cpu != 0)};
			if (write(log, &s, sizeof s) != (ssize_t)sizeof s)
				_exit(4);
			if (mode == HANG_UP_ON_FIRST_HINT && rq.has_cpu && !hung_up) {
				hung_up = 1;
				break;
			}
			uint32_t c = hung_up ? 0 : caps;
			int st = hung_up && rq.has_cpu ? VG_ST_MALFORMED : VG_ST_OK;
			if (reply(fd, rq.op, st, rq.id, c) < 0)
				break;
		}
		close(fd);
	}
}

static void fake_start(struct fake *f, uint32_t caps, int mode)
{
	strcpy(f->dir, "/tmp/vgc-hint-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof f->path, "%s/s", f->dir);
	int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(ls >= 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "%s", f->path);
	assert_int_equal(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(ls, 8), 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	f->pid = fork();
	assert_true(f->pid >= 0);
	if (f->pid == 0) {
		/* a failed assertion ends the test without fake_finish */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		serve(ls, p[1], caps, mode);
		_exit(0);
	}
	close(p[1]);
	close(ls);
	f->log = p[0];
}

/* Stop the child and read its log into s; returns the record count. */
static int fake_finish(struct fake *f, struct seen *s, int cap)
{
	kill(f->pid, SIGTERM);
	int st;
	assert_int_equal(waitpid(f->pid, &st, 0), f->pid);
	assert_true(WIFSIGNALED(st)); /* not an _exit from a bad frame */
	int n = 0;
	while (n < cap && read(f->log, &s[n], sizeof s[n]) == (ssize_t)sizeof s[n])
		n++;
	close(f->log);
	unlink(f->path);
	rmdir(f->dir);
	return n;
}

struct done {
	int calls;
	int status;
};

static void on_done(int status, const uint8_t *res, size_t len, const char *reason, void *arg)
{
	(void)res;
	(void)len;
	(void)reason;
	struct done *d = arg;
	d->calls++;
	d->status = status;
}

/* One asynchronous ping, driven to its callback; returns the callbacks
 * vg_client_process reported, which must be the caller's one. */
static int async_ping(vg_client *c, struct done *d)
{
	int before = d->calls, ran = 0;
	assert_int_equal(vg_client_submit_ping(c, on_done, d), 0);
	assert_int_equal(vg_client_pending(c), 1); /* the hint's hello is not the caller's */
	for (int i = 0; i < 1000 && d->calls == before; i++) {
		struct pollfd p = {vg_client_fd(c), (short)vg_client_events(c), 0};
		int t = vg_client_timeout(c);
		if (p.fd >= 0 && p.events)
			assert_true(poll(&p, 1, t < 0 || t > 100 ? 100 : t) >= 0);
		int r = vg_client_process(c);
		assert_true(r >= 0);
		ran += r;
	}
	assert_int_equal(d->calls, before + 1);
	assert_int_equal(vg_client_pending(c), 0);
	return ran;
}

static void expect(const struct seen *s, int conn, uint8_t op, int hinted)
{
	assert_int_equal(s->conn, conn);
	assert_int_equal(s->op, op);
	assert_int_equal(s->hinted, hinted);
}

/* A client that only ever calls asynchronously (the OpenSSL provider's
 * path, so HAProxy's) learns the capability and sends the hint. */
static void test_async_learns_and_hints(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, VG_CAP_CPU_HINT, 0);
	vg_client *c = vg_client_new(f.path);
	assert_non_null(c);
	struct done d = {0};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(async_ping(c, &d), 1);
		assert_int_equal(d.status, 0);
	}
	vg_client_free(c);
	struct seen s[16];
	int n = fake_finish(&f, s, 16);
	assert_int_equal(n, 5);
	expect(&s[0], 0, VG_OP_PING, 0); /* sent while the connection came up */
	expect(&s[1], 0, VG_OP_HELLO, 0); /* once per connection */
	expect(&s[2], 0, VG_OP_PING, 0);  /* not waited for */
	expect(&s[3], 0, VG_OP_PING, 1);
	expect(&s[4], 0, VG_OP_PING, 1);
}

/* A daemon whose CAPS lacks CPU_HINT never gets the item. */
static void test_no_capability_no_hint(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, 0x3f, 0);
	vg_client *c = vg_client_new(f.path);
	assert_non_null(c);
	struct done d = {0};
	for (int i = 0; i < 3; i++)
		async_ping(c, &d);
	assert_int_equal(vg_client_ping(c), 0);
	vg_client_free(c);
	struct seen s[16];
	int n = fake_finish(&f, s, 16);
	assert_int_equal(n, 5);
	for (int i = 0; i < n; i++)
		assert_int_equal(s[i].hinted, 0);
	assert_int_equal(s[1].op, VG_OP_HELLO);
}

/* The connection breaks under a hinted request; the next daemon predates
 * the hint (it refuses the item). The request is sent again without it
 * and succeeds; that connection asks with its own hello and, told no,
 * sends no hint. */
static void test_retry_goes_without_hint(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, VG_CAP_CPU_HINT, HANG_UP_ON_FIRST_HINT);
	vg_client *c = vg_client_new(f.path);
	assert_non_null(c);
	struct done d = {0};
	for (int i = 0; i < 5; i++) {
		async_ping(c, &d);
		assert_int_equal(d.status, 0);
	}
	vg_client_free(c);
	struct seen s[16];
	int n = fake_finish(&f, s, 16);
	assert_int_equal(n, 8);
	expect(&s[0], 0, VG_OP_PING, 0);
	expect(&s[1], 0, VG_OP_HELLO, 0);
	expect(&s[2], 0, VG_OP_PING, 0);
	expect(&s[3], 0, VG_OP_PING, 1); /* hung up on */
	expect(&s[4], 1, VG_OP_PING, 0); /* the same request, sent again */
	expect(&s[5], 1, VG_OP_HELLO, 0);
	expect(&s[6], 1, VG_OP_PING, 0);
	expect(&s[7], 1, VG_OP_PING, 0);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_async_learns_and_hints),
		cmocka_unit_test(test_no_capability_no_hint),
		cmocka_unit_test(test_retry_goes_without_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
