/* test_conns.c: at least 500 connections open at once, each doing a
 * request; max_connections: the excess is told "too many connections" in
 * a connection error (opcode 0xff) and closed, the others are
 * unaffected; 300 excess connections at once each get that error
 * promptly; a uid over max_connections_per_uid gets the same 0xff frame;
 * one uid cannot take the places another uid needs; on SIGTERM every
 * new connection is told "daemon is shutting down" until the socket is
 * gone; a closed
 * connection stops counting at once (a burst of connect/close cycles
 * beside a checker that is never refused); a client that sends without
 * reading is not read further once its replies pile up (the front's
 * memory stays bounded) and then gets every reply; and many such clients
 * together stay under max_reply_buffers (the front's RSS, from /proc). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

#define MANY 600

static void test_many_connections(void **state)
{
	(void)state;
	long lim = dt_raise_nofile();
	if (lim < MANY + 64) {
		printf("# RLIMIT_NOFILE hard limit %ld is below %d: skipped\n", lim, MANY + 64);
		skip();
	}
	vgt_daemon d;
	/* All from one uid (ours): above its default share. */
	assert_int_equal(vgt_setup(&d, "max_connections = 2000\nmax_connections_per_uid = 2000\n",
				   vgt_default_keys),
			 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	EVP_PKEY *ed = vt_load_file(&d, "ed25519.pem");
	static int fds[MANY];
	for (int i = 0; i < MANY; i++) {
		fds[i] = dt_connect(d.sock);
		assert_true(fds[i] >= 0);
	}
	/* All open; now each sends a request, then all replies are read. */
	for (int i = 0; i < MANY; i++) {
		uint8_t req[128], m[16];
		int ml = snprintf((char *)m, sizeof(m), "conn %d", i);
		long n = dt_req_sign(req, sizeof(req), (uint32_t)i, "ed", VG_ALG_ED25519, m,
				     (size_t)ml);
		assert_int_equal(dt_send_all(fds[i], req, (size_t)n), 0);
	}
	for (int i = 0; i < MANY; i++) {
		uint8_t buf[512], m[16];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fds[i], buf, sizeof(buf), 20000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_int_equal(rep.id, (uint32_t)i);
		int ml = snprintf((char *)m, sizeof(m), "conn %d", i);
		assert_true(vt_verify(ed, VGC_ALG_ED25519, m, (size_t)ml, rep.result, rep.result_len));
	}
	long long open_now = dt_stat(d.sock, "connections.open");
	printf("# connections.open while %d are held: %lld\n", MANY, open_now);
	assert_true(open_now >= MANY);
	for (int i = 0; i < MANY; i++)
		close(fds[i]);
	EVP_PKEY_free(ed);
	assert_int_equal(dt_stop_clean(&d), 0);
}

static int ping_ok(int fd, uint32_t id)
{
	uint8_t req[64], buf[256];
	long n = dt_req_simple(req, sizeof(req), VG_OP_PING, id);
	vg_reply rep;
	return dt_send_all(fd, req, (size_t)n) == 0 &&
	       dt_read_reply(fd, buf, sizeof(buf), 5000, &rep) == 0 && rep.status == VG_ST_OK &&
	       rep.id == id;
}

/* A connection error as PROTOCOL.md 7.1 has it: opcode 0xff, id 0,
 * OVERLOADED "too many connections", then the end of the connection. */
static void assert_refused(int fd, int timeout_ms)
{
	uint8_t buf[512];
	long n = dt_read_frame(fd, buf, sizeof(buf), timeout_ms);
	assert_true(n >= VG_PROTO_HDR_LEN);
	assert_int_equal(buf[3], VG_OP_CONN_ERROR); /* not 0x80, a reply to opcode 0 */
	vg_reply rep;
	assert_int_equal(vg_reply_decode(buf, (size_t)n, &rep), VG_ST_OK);
	assert_int_equal(rep.status, VG_ST_OVERLOADED);
	assert_true(rep.conn_error);
	assert_int_equal(rep.id, 0);
	assert_true(rep.reason_len >= 20 && memcmp(rep.reason, "too many connections", 20) == 0);
	assert_int_equal(dt_wait_closed(fd, 5000), 1);
}

/* max_connections 64: one uid gets 60 (the last 64/16 = 4 places are
 * kept for uids holding few), the excess is refused with the connection
 * error, the others are unaffected. */
static void test_max_connections(void **state)
{
	(void)state;
	enum { MAXC = 64, ONE_UID = MAXC - MAXC / 16, EXTRA = 10 };
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_connections = 64\nmax_connections_per_uid = 64\n",
				   vgt_default_keys),
			 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	/* The harness's readiness ping may still be counted: wait for it. */
	for (int i = 0; i < 100 && dt_stat(d.sock, "connections.open") != 1; i++)
		usleep(20000);
	usleep(100000);
	int fds[ONE_UID];
	for (int i = 0; i < ONE_UID; i++) {
		fds[i] = dt_connect(d.sock);
		assert_true(fds[i] >= 0);
		assert_true(ping_ok(fds[i], (uint32_t)i)); /* accepted and served */
	}
	for (int i = 0; i < EXTRA; i++) {
		int fd = dt_connect(d.sock); /* the kernel accepts into the backlog */
		assert_true(fd >= 0);
		assert_refused(fd, 5000);
		close(fd);
	}
	for (int i = 0; i < ONE_UID; i++)
		assert_true(ping_ok(fds[i], 1000u + (uint32_t)i)); /* unaffected */
	/* One leaves: a newcomer gets in (once the front has seen the close). */
	close(fds[0]);
	int ok = 0;
	for (int tries = 0; tries < 50 && !ok; tries++) {
		int fd = dt_connect(d.sock);
		assert_true(fd >= 0);
		ok = ping_ok(fd, 5);
		if (ok)
			fds[0] = fd;
		else
			close(fd), usleep(50000);
	}
	assert_true(ok);
	/* Asked over a held connection: a new one would be refused. */
	assert_true(dt_stat_on(fds[1], "connections.refused") >= EXTRA);
	for (int i = 0; i < ONE_UID; i++)
		close(fds[i]);
	assert_int_equal(dt_stop_clean(&d), 0);
}

/* Many connections over the limit at once, none of which sends a byte:
 * each gets its connection error and is closed. The front refused one
 * held connection per two 0.1 s ticks (about 7 a second), so 300 took
 * 40 s; held connections are now decided within two 10 ms rounds, so the
 * 20 s allowed for all of them is generous. */
static void test_many_refused_promptly(void **state)
{
	(void)state;
	enum { MAXC = 16, OVER = 300 };
	if (dt_raise_nofile() < OVER + MAXC + 64) {
		printf("# RLIMIT_NOFILE too low: skipped\n");
		skip();
	}
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_connections = 16\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	for (int i = 0; i < 100 && dt_stat(d.sock, "connections.open") != 1; i++)
		usleep(20000);
	usleep(100000);
	int held[MAXC], n = 0;
	/* Fill the front (16 places; 16/16 = 1 kept for a light uid). */
	for (; n < MAXC; n++) {
		held[n] = dt_connect(d.sock);
		assert_true(held[n] >= 0);
		if (!ping_ok(held[n], (uint32_t)n)) {
			close(held[n]);
			break;
		}
	}
	assert_int_equal(n, MAXC - 1);
	static int over[OVER];
	for (int i = 0; i < OVER; i++) {
		over[i] = dt_connect(d.sock);
		assert_true(over[i] >= 0);
	}
	long long t0 = dt_now_ms();
	for (int i = 0; i < OVER; i++) {
		long long left = t0 + 20000 - dt_now_ms();
		assert_true(left > 0);
		assert_refused(over[i], (int)left);
		close(over[i]);
	}
	printf("# %d connections over max_connections: each got its connection error "
	       "(%lld ms for all, after the last connect)\n",
	       OVER, dt_now_ms() - t0);
	for (int i = 0; i < n; i++) {
		assert_true(ping_ok(held[i], 500u + (uint32_t)i));
		close(held[i]);
	}
	assert_true(dt_stat(d.sock, "connections.refused") >= OVER);
	assert_int_equal(dt_stop_clean(&d), 0);
}

/* max_connections_per_uid: the refusal is the 0xff connection error
 * (it was an error reply with opcode 0x80, which cannot be told from a
 * reply to opcode 0), counted, and logged. */
static void test_uid_share_refused(void **state)
{
	(void)state;
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_connections_per_uid = 3\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	for (int i = 0; i < 100 && dt_stat(d.sock, "connections.open") != 0; i++)
		usleep(20000);
	int fds[3];
	for (int i = 0; i < 3; i++) {
		fds[i] = dt_connect(d.sock);
		assert_true(fds[i] >= 0);
		assert_true(ping_ok(fds[i], (uint32_t)i));
	}
	int fd = dt_connect(d.sock);
	assert_true(fd >= 0);
	assert_refused(fd, 5000);
	close(fd);
	assert_true(dt_stat_on(fds[0], "connections.refused_uid") >= 1);
	assert_true(dt_wait_log(&d, "its uid's share is taken", 1, 5000));
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	assert_int_equal(dt_stop_clean(&d), 0);
}

/* One uid (root) holds every place it may; another uid (12345, in a
 * forked child) still gets in, on the places kept for uids holding few.
 * Before, one uid could fill max_connections and every other uid was
 * refused. */
static void test_other_uid_gets_in(void **state)
{
	(void)state;
	enum { MAXC = 32 };
	if (geteuid() != 0) {
		printf("# not root: cannot connect as another uid: skipped\n");
		skip();
	}
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d,
				   "max_connections = 32\nmax_connections_per_uid = 32\n"
				   "socket_mode = 0666\n",
				   vgt_default_keys),
			 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	assert_int_equal(chmod(d.dir, 0711), 0); /* the other uid reaches the socket */
	for (int i = 0; i < 100 && dt_stat(d.sock, "connections.open") != 1; i++)
		usleep(20000);
	usleep(100000);
	int fds[MAXC], n = 0;
	for (; n < MAXC; n++) {
		fds[n] = dt_connect(d.sock);
		assert_true(fds[n] >= 0);
		uint8_t buf[512];
		vg_reply rep;
		uint8_t req[64];
		long rl = dt_req_simple(req, sizeof(req), VG_OP_PING, 1);
		assert_int_equal(dt_send_all(fds[n], req, (size_t)rl), 0);
		assert_int_equal(dt_read_reply(fds[n], buf, sizeof(buf), 5000, &rep), 0);
		if (rep.conn_error) {
			close(fds[n]);
			break;
		}
	}
	printf("# uid 0 holds %d of %d places\n", n, MAXC);
	assert_true(n < MAXC); /* refused before it took every place */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		gid_t g = 54321;
		if (setgroups(1, &g) < 0 || setgid(54321) < 0 || setuid(12345) < 0)
			_exit(2);
		int fd = dt_connect(d.sock);
		_exit(fd >= 0 && ping_ok(fd, 77) ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	assert_int_equal(dt_stop_clean(&d), 0);
}

static long front_rss_kb(vgt_daemon *d)
{
	pid_t fr[4];
	if (dt_children_named(d, "vgd-front", fr, 4) != 1)
		return -1;
	return dt_proc_status(fr[0], "VmRSS");
}

/* list-keys answers ~5 KB for 16 bytes and is not limited by
 * max_inflight: without back-pressure the front buffered every reply
 * (900 MB after 5 s of such a client). */
static void test_client_that_does_not_read(void **state)
{
	(void)state;
	enum { BATCH = 256, MAX_REQ = 60000 };
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, NULL, vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	int fd = dt_connect(d.sock);
	assert_true(fd >= 0);
	uint8_t one[64], batch[BATCH * 64];
	long fl = dt_req_simple(one, sizeof(one), VG_OP_LIST_KEYS, 1);
	assert_true(fl > 0);
	for (int i = 0; i < BATCH; i++)
		memcpy(batch + (size_t)i * (size_t)fl, one, (size_t)fl);
	assert_int_equal(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
	/* Send whole frames until the socket has refused for 300 ms. */
	size_t sent = 0, blen = (size_t)fl * BATCH, off = 0;
	long long refused_since = 0;
	while (sent < (size_t)MAX_REQ * (size_t)fl) {
		ssize_t w = send(fd, batch + off, blen - off, MSG_NOSIGNAL);
		if (w > 0) {
			sent += (size_t)w;
			off = (off + (size_t)w) % blen;
			refused_since = 0;
			continue;
		}
		assert_true(w < 0 && errno == EAGAIN);
		if (!refused_since)
			refused_since = dt_now_ms();
		else if (dt_now_ms() - refused_since > 300)
			break;
		usleep(5000);
	}
	/* Complete frames are answered now; a frame a partial send left open
	 * is finished once the front reads again (after our reads). */
	assert_int_equal(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK), 0);
	size_t nreq = sent / (size_t)fl, part = sent % (size_t)fl;
	long rss = front_rss_kb(&d);
	print_message("client stopped after %zu requests unread; front RSS %ld kB\n", nreq, rss);
	assert_true(nreq < (size_t)MAX_REQ); /* the socket pushed back */
	assert_true(rss > 0 && rss < 32 * 1024);
	for (size_t r = 0; r < nreq; r++) {
		uint8_t buf[65536];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 10000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
	}
	if (part) {
		uint8_t buf[65536];
		vg_reply rep;
		assert_int_equal(dt_send_all(fd, one + part, (size_t)fl - part), 0);
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 10000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
	}
	uint8_t ping[64], buf[512];
	vg_reply rep;
	long pl = dt_req_simple(ping, sizeof(ping), VG_OP_PING, 99);
	assert_int_equal(dt_send_all(fd, ping, (size_t)pl), 0);
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 10000, &rep), 0);
	assert_int_equal(rep.id, 99);
	close(fd);
	assert_int_equal(dt_stop_clean(&d), 0);
}

struct burst {
	const char *sock;
	int cycles, failed;
	volatile int done;
};

/* connect, close, as fast as it goes */
static void *burst_thread(void *arg)
{
	struct burst *b = arg;
	for (int i = 0; i < b->cycles; i++) {
		int fd = dt_connect(b->sock);
		if (fd < 0) {
			b->failed++;
			continue;
		}
		close(fd);
	}
	b->done = 1;
	return NULL;
}

/* 1000 connect-then-close cycles beside a checker that connects, pings
 * and closes: never more than 2 connections open, max_connections 3, so
 * nobody may be refused. Counted at accept and uncounted only when the
 * loop read the end of file, a burst's connections piled up in one accept
 * loop and were refused "too many connections" with 2 open. */
static void test_connect_close_burst(void **state)
{
	(void)state;
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_connections = 3\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	struct burst b = { .sock = d.sock, .cycles = 1000 };
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, burst_thread, &b), 0);
	int checks = 0, refused = 0, other = 0;
	while (!b.done || checks < 200) {
		int fd = dt_connect(d.sock);
		assert_true(fd >= 0);
		uint8_t req[64], buf[512];
		long n = dt_req_simple(req, sizeof req, VG_OP_PING, 7);
		vg_reply rep;
		assert_int_equal(dt_send_all(fd, req, (size_t)n), 0);
		assert_int_equal(dt_read_reply(fd, buf, sizeof buf, 5000, &rep), 0);
		if (rep.conn_error && rep.status == VG_ST_OVERLOADED)
			refused++;
		else if (rep.status != VG_ST_OK || rep.id != 7)
			other++;
		close(fd);
		checks++;
	}
	pthread_join(t, NULL);
	long long refused_total = dt_stat(d.sock, "connections.refused");
	printf("# %d connect/close cycles beside %d checked pings: checker refused %d times, "
	       "daemon refused %lld connections\n", b.cycles, checks, refused, refused_total);
	assert_int_equal(b.failed, 0);
	assert_int_equal(other, 0);
	assert_int_equal(refused, 0);
	assert_int_equal(refused_total, 0);
	assert_int_equal(dt_stop_clean(&d), 0);
}

/* Many clients that send list-keys and never read: together they hold at
 * most about max_reply_buffers of the front's memory (here 1 MiB), not
 * each up to its own 256 KiB mark (which made 32 of them cost ~16 MB);
 * a client that reads is served meanwhile; then every reply arrives. */
static void test_reply_buffers_bound(void **state)
{
	enum { CLIENTS = 32, REQS = 500, BOUND_KB = 1024 };
	(void)state;
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_reply_buffers = 1M\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	uint8_t one[64], req[REQS * 16];
	long fl = dt_req_simple(one, sizeof one, VG_OP_LIST_KEYS, 1);
	assert_int_equal(fl, 16);
	for (int i = 0; i < REQS; i++)
		memcpy(req + i * 16, one, 16);
	/* A warm front: its heap has served list-keys before. */
	vgc_key_info *keys;
	vg_client *cl = vg_client_new(d.sock);
	int nk = vg_client_list_keys(cl, &keys);
	assert_true(nk > 0);
	free(keys);
	long rss0 = front_rss_kb(&d);
	/* 8 KB of requests each: the socket takes them all at once. */
	static int fds[CLIENTS];
	for (int i = 0; i < CLIENTS; i++) {
		fds[i] = dt_connect(d.sock);
		assert_true(fds[i] >= 0);
		assert_int_equal(dt_send_all(fds[i], req, sizeof req), 0);
	}
	/* Until the front stops: paused connections and full sockets. */
	long long last = -1, now;
	for (int i = 0; i < 100; i++) {
		usleep(100000);
		now = dt_stat(d.sock, "reply_buffers.max");
		if (now == last)
			break;
		last = now;
	}
	assert_int_equal(vg_client_ping(cl), 0); /* a client that reads is served */
	long rss = front_rss_kb(&d);
	long long peak = dt_stat(d.sock, "reply_buffers.max");
	long long paused = dt_stat(d.sock, "reply_buffers.paused");
	/* The bound, plus per connection one reply and its buffer's doubling
	 * (list-keys here: under 4 KB, in an 8 KiB buffer), plus slack for
	 * the allocator. */
	long limit_kb = BOUND_KB + CLIENTS * 16 + 2048;
	printf("# %d clients x %d list-keys unread (%d keys): front RSS %ld kB -> %ld kB "
	       "(+%ld kB, limit +%ld kB); reply buffers peak %lld B, %lld pauses for the bound\n",
	       CLIENTS, REQS, nk, rss0, rss, rss - rss0, limit_kb, peak, paused);
	assert_true(rss0 > 0 && rss > 0);
	assert_true(rss - rss0 < limit_kb);
	assert_true(peak <= (BOUND_KB + CLIENTS * 16) * 1024LL);
	assert_true(paused > 0);
	/* Every reply arrives once the clients read. */
	for (int i = 0; i < CLIENTS; i++) {
		for (int r = 0; r < REQS; r++) {
			static uint8_t buf[65536];
			vg_reply rep;
			assert_int_equal(dt_read_reply(fds[i], buf, sizeof buf, 10000, &rep), 0);
			assert_int_equal(rep.status, VG_ST_OK);
		}
		close(fds[i]);
	}
	vg_client_free(cl);
	assert_int_equal(dt_stop_clean(&d), 0);
}

/* SIGTERM on a socket vgd bound itself (PROTOCOL.md 7.1): while it drains,
 * every new connection gets the connection error UNAVAILABLE "daemon is
 * shutting down" (before, they were reset or saw end-of-file without a
 * word), every request already sent gets its one answer, and once vgd
 * has exited the socket is gone (ENOENT), so no connection is reset. */
static void test_shutdown_answers(void **state)
{
	(void)state;
	enum { CONNS = 4, PER = 128 };
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "drain_timeout = 20\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	int fds[CONNS];
	static uint8_t out[PER * 128];
	uint8_t digest[32];
	memset(digest, 0x33, sizeof(digest));
	for (int c = 0; c < CONNS; c++) {
		size_t ol = 0;
		for (int i = 0; i < PER; i++)
			ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i,
						  "rsa4096", VG_ALG_RSA_PKCS1_SHA256, digest,
						  sizeof(digest));
		fds[c] = dt_connect(d.sock);
		assert_true(fds[c] >= 0);
		assert_int_equal(dt_send_all(fds[c], out, ol), 0);
	}
	long long depth = -1;
	for (int i = 0; i < 200 && depth < PER; i++, usleep(5000))
		depth = dt_stat(d.sock, "queue.depth");
	assert_true(depth >= PER); /* the drain will take a while */
	assert_int_equal(kill(d.pid, SIGTERM), 0);
	int answered = 0, gone = 0, st = 0;
	pid_t done = 0;
	for (int i = 0; i < 2000 && !done; i++) {
		int fd = dt_connect(d.sock);
		if (fd < 0) {
			assert_int_equal(errno, ENOENT); /* the path is gone: vgd has stopped */
			gone = 1;
		} else {
			uint8_t buf[512];
			vg_reply rep;
			assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
			assert_true(rep.conn_error);
			assert_int_equal(rep.status, VG_ST_UNAVAILABLE);
			assert_true(rep.reason_len == 23 &&
				    memcmp(rep.reason, "daemon is shutting down", 23) == 0);
			assert_int_equal(dt_wait_closed(fd, 5000), 1);
			close(fd);
			answered++;
		}
		done = waitpid(d.pid, &st, WNOHANG);
		if (!done)
			usleep(2000);
	}
	if (!done)
		done = waitpid(d.pid, &st, 0);
	assert_int_equal(done, d.pid);
	d.pid = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	int fd = dt_connect(d.sock);
	assert_true(fd < 0 && errno == ENOENT);
	/* Every request sent before SIGTERM: one answer each. */
	long ok = 0, unavailable = 0;
	for (int c = 0; c < CONNS; c++) {
		for (int i = 0; i < PER; i++) {
			static uint8_t buf[1024];
			vg_reply rep;
			assert_int_equal(dt_read_reply(fds[c], buf, sizeof(buf), 5000, &rep), 0);
			assert_false(rep.conn_error);
			if (rep.status == VG_ST_OK)
				ok++;
			else if (rep.status == VG_ST_UNAVAILABLE)
				unavailable++;
		}
		close(fds[c]);
	}
	printf("# during the drain %d new connections were told \"daemon is shutting down\"%s; "
	       "%ld signatures finished, %ld answered UNAVAILABLE\n",
	       answered, gone ? ", then the socket was gone" : "", ok, unavailable);
	assert_true(answered > 0);
	assert_int_equal(ok + unavailable, CONNS * PER);
	vgt_cleanup(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_connections),
		cmocka_unit_test(test_max_connections),
		cmocka_unit_test(test_many_refused_promptly),
		cmocka_unit_test(test_uid_share_refused),
		cmocka_unit_test(test_other_uid_gets_in),
		cmocka_unit_test(test_shutdown_answers),
		cmocka_unit_test(test_connect_close_burst),
		cmocka_unit_test(test_client_that_does_not_read),
		cmocka_unit_test(test_reply_buffers_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
