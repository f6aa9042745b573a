/* test_conns.c: at least 500 connections open at once, each doing a
 * request; and max_connections: the excess is told "too many
 * connections" and closed, the others are unaffected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	assert_int_equal(vgt_setup(&d, "max_connections = 2000\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	EVP_PKEY *ed = dt_load_key(&d, "ed25519.pem");
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
		assert_true(dt_ed25519_ok(ed, m, (size_t)ml, rep.result, rep.result_len));
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

static void test_max_connections(void **state)
{
	(void)state;
	enum { MAXC = 40, EXTRA = 10 };
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_connections = 40\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	/* The harness's readiness ping may still be counted: wait for it. */
	for (int i = 0; i < 100 && dt_stat(d.sock, "connections.open") != 1; i++)
		usleep(20000);
	usleep(100000);
	int fds[MAXC];
	for (int i = 0; i < MAXC; i++) {
		fds[i] = dt_connect(d.sock);
		assert_true(fds[i] >= 0);
		assert_true(ping_ok(fds[i], (uint32_t)i)); /* accepted and served */
	}
	for (int i = 0; i < EXTRA; i++) {
		int fd = dt_connect(d.sock); /* the kernel accepts into the backlog */
		assert_true(fd >= 0);
		uint8_t buf[512];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OVERLOADED);
		assert_int_equal(rep.id, 0);
		assert_true(rep.reason_len >= 20 &&
			    memcmp(rep.reason, "too many connections", 20) == 0);
		assert_int_equal(dt_wait_closed(fd, 5000), 1);
		close(fd);
	}
	for (int i = 0; i < MAXC; i++)
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
	for (int i = 0; i < MAXC; i++)
		close(fds[i]);
	assert_int_equal(dt_stop_clean(&d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_connections),
		cmocka_unit_test(test_max_connections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
