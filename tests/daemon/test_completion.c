/* test_completion.c: the front's completion path, where an answer frees
 * room and the connection reads on later (front_conn.c queues it, the
 * loop's settle step reads): a client that pipelines far past
 * max_inflight and half-closes gets every answer before the close; replies
 * for a connection that went away meanwhile go nowhere without harm; and
 * keyholders replaced by reloads while they hold jobs answer them all
 * from the retiring set. */
#include <openssl/sha.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

/* A clean stop whatever the test did (a failed assertion jumps here). */
static int teardown(void **state)
{
	vgt_daemon *d = *state;
	int r = d ? dt_stop_clean(d) : 0;
	free(d);
	return r;
}

static vgt_daemon *start(void **state, const char *globals)
{
	vgt_daemon *d = calloc(1, sizeof(*d));
	assert_non_null(d);
	*state = d;
	assert_int_equal(vgt_setup(d, globals, vgt_default_keys), 0);
	assert_int_equal(vgt_start(d, 0, NULL), 0);
	return d;
}

static pid_t front_pid(const vgt_daemon *d)
{
	pid_t p[8];
	return dt_children_named(d, "vgd-front", p, 8) == 1 ? p[0] : -1;
}

/* max_inflight 2 and one keyholder, 600 requests (signatures with a ping
 * every tenth) in one write, then shutdown(SHUT_WR): the front pauses and
 * resumes about 270 times, each time from the loop after a reply; every
 * request is answered exactly once, and only then does the half-closed
 * connection close. */
static void test_half_close_with_pauses(void **state)
{
	vgt_daemon *d = start(state, "max_inflight = 2\nkeyholders = 1\n");
	EVP_PKEY *ed = vt_load_file(d, "ed25519.pem");
	assert_non_null(ed);
	enum { M = 600 };
	int fd = dt_connect(d->sock);
	assert_true(fd >= 0);
	static uint8_t out[M * 100];
	size_t ol = 0;
	for (int i = 0; i < M; i++) {
		uint8_t m[4] = {(uint8_t)i, (uint8_t)(i >> 8), 0x5a, 0xa5};
		long n = i % 10 == 9 ? dt_req_simple(out + ol, sizeof(out) - ol, VG_OP_PING, (uint32_t)i)
				     : dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "ed",
						   VG_ALG_ED25519, m, sizeof(m));
		assert_true(n > 0);
		ol += (size_t)n;
	}
	assert_int_equal(dt_send_all(fd, out, ol), 0);
	assert_int_equal(shutdown(fd, SHUT_WR), 0);
	static int seen[M];
	for (int r = 0; r < M; r++) {
		uint8_t buf[512];
		vg_reply rep;
		if (dt_read_reply(fd, buf, sizeof(buf), 30000, &rep) < 0)
			fail_msg("reply %d of %d missing", r + 1, M);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(rep.id < M);
		assert_int_equal(seen[rep.id]++, 0);
		uint8_t m[4] = {(uint8_t)rep.id, (uint8_t)(rep.id >> 8), 0x5a, 0xa5};
		if (rep.id % 10 == 9)
			assert_int_equal(rep.op, VG_OP_PING);
		else
			assert_true(vt_verify(ed, VGC_ALG_ED25519, m, sizeof(m), rep.result,
					      rep.result_len));
	}
	assert_int_equal(dt_wait_closed(fd, 5000), 1);
	close(fd);
	EVP_PKEY_free(ed);
}

/* 200 RSA-4096 signatures, then the client closes without reading: the
 * first reply finds the peer gone and the connection closes with about
 * 32 jobs still at the keyholders. Their replies arrive for a closed
 * connection and go nowhere; the queued rest is dropped. The front
 * survives, frees the connection and serves the next client. */
static void test_replies_after_close(void **state)
{
	vgt_daemon *d = start(state, "keyholders = 2\n");
	pid_t fp = front_pid(d);
	assert_true(fp > 0);
	enum { N = 200 };
	int fd = dt_connect(d->sock);
	assert_true(fd >= 0);
	static uint8_t out[N * 128];
	size_t ol = 0;
	for (int i = 0; i < N; i++) {
		uint8_t dg[32];
		memset(dg, i, sizeof(dg));
		ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "rsa4096",
					  VG_ALG_RSA_PKCS1_SHA256, dg, 32);
	}
	assert_int_equal(dt_send_all(fd, out, ol), 0);
	close(fd);
	/* Settled: nothing queued, the stats connection the only one open,
	 * and the count of signatures no longer moving. */
	long long n = -1, prev = -2;
	long long deadline = dt_now_ms() + 20000;
	while (dt_now_ms() < deadline) {
		usleep(100000);
		prev = n;
		n = dt_stat(d->sock, "sign.count");
		if (n == prev && n > 0 && dt_stat(d->sock, "queue.depth") == 0 &&
		    dt_stat(d->sock, "connections.open") == 1)
			break;
	}
	printf("# %lld of %d signatures ran before the connection was dropped\n", n, N);
	assert_true(n == prev);
	assert_true(n >= 1);
	assert_true(n < N); /* the queued ones were dropped, not run */
	assert_int_equal(dt_stat(d->sock, "queue.depth"), 0);
	assert_int_equal(dt_stat(d->sock, "connections.open"), 1);
	assert_int_equal(front_pid(d), fp);
	/* The next client is served. */
	vg_client *c = vg_client_new(d->sock);
	assert_non_null(c);
	uint8_t sig[64];
	size_t sl;
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "m", 1, sig, sizeof(sig), &sl), 0);
	vg_client_free(c);
	assert_int_equal(vgt_log_count(d, "unknown job"), 0);
}

/* One keyholder, a stream of RSA-4096 signatures, and five reloads while
 * it runs: each reload's keyholder takes the slot while the old one still
 * holds jobs, which it answers from the retiring set. Every request is
 * answered once and correctly, and none was retried (a retry means a
 * keyholder was dropped instead of retired). */
static void test_retiring_keyholders(void **state)
{
	vgt_daemon *d = start(state, "keyholders = 1\n");
	EVP_PKEY *rsa = vt_load_file(d, "rsa4096.pem");
	assert_non_null(rsa);
	enum { N = 400 };
	int fd = dt_connect(d->sock);
	assert_true(fd >= 0);
	static uint8_t out[N * 128];
	static uint8_t dg[N][32];
	size_t ol = 0;
	for (int i = 0; i < N; i++) {
		memset(dg[i], i * 3 + 1, sizeof(dg[i]));
		ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "rsa4096",
					  VG_ALG_RSA_PKCS1_SHA256, dg[i], 32);
	}
	assert_int_equal(dt_send_all(fd, out, ol), 0);
	static int seen[N];
	int reloads = 0;
	for (int r = 0; r < N; r++) {
		/* A reload every 40 replies: the keyholder holds up to 16 jobs.
		 * Two SIGHUPs sent before the supervisor runs merge into one
		 * (signals do not queue), so the next goes only once the last
		 * one's reload has begun; a loaded machine only makes this
		 * take longer. */
		if (r % 40 == 20 && reloads < 5) {
			assert_true(dt_wait_log(d, "reloading ", reloads, 60000));
			assert_int_equal(kill(d->pid, SIGHUP), 0);
			reloads++;
		}
		uint8_t buf[1024];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 30000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(rep.id < N);
		assert_int_equal(seen[rep.id]++, 0);
		assert_true(vt_verify(rsa, VGC_ALG_RSA_PKCS1_SHA256, dg[rep.id], 32, rep.result,
				      rep.result_len));
	}
	close(fd);
	/* Each reload loads the RSA-4096 key again and starts a keyholder: a
	 * few seconds on an idle machine, many times that while a sanitizer
	 * build compiles beside it. The deadline only bounds a hang. */
	assert_true(dt_wait_log(d, "reloaded:", reloads, 60000));
	assert_int_equal(dt_stat(d->sock, "requests.retried"), 0);
	assert_int_equal(vgt_log_count(d, "retrying them"), 0);
	assert_int_equal(vgt_log_count(d, "unknown job"), 0);
	EVP_PKEY_free(rsa);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_half_close_with_pauses, teardown),
		cmocka_unit_test_teardown(test_replies_after_close, teardown),
		cmocka_unit_test_teardown(test_retiring_keyholders, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
