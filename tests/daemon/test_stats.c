/* test_stats.c: the stats operation on a fresh daemon: per-operation
 * counts and errors, latency percentiles, queue depth, keyholder restarts,
 * sandbox violations, malformed frames; the values follow what the test
 * did. And the log's rate limit: a flood of loggable events writes a
 * bounded number of lines and a summary, and stats count what it
 * suppressed. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;

static int setup(void **state)
{
	(void)state;
	return vgt_setup(&D, NULL, vgt_default_keys) < 0 || vgt_start(&D, 0, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

static long long get(vgc_stat *s, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s[i].name, name) == 0)
			return (long long)s[i].value;
	fail_msg("stat %s missing", name);
	return -1;
}

static void test_stats(void **state)
{
	(void)state;
	vg_client *c = vg_client_new(D.sock);
	uint8_t sig[512], dg[32] = {7};
	size_t sl;
	for (int i = 0; i < 10; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "abc", 3, sig, sizeof(sig), &sl), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(vg_client_sign(c, "rsa2048", VGC_ALG_RSA_PSS_SHA256, dg, 32, sig,
						sizeof(sig), &sl),
				 0);
	assert_int_equal(vg_client_sign(c, "nope", VGC_ALG_ED25519, "a", 1, sig, sizeof(sig), &sl),
			 VGC_E_UNKNOWN_KEY);
	assert_int_equal(vg_client_sign(c, "ed-tls", VGC_ALG_ED25519, "a", 1, sig, sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	uint8_t peer[32] = {9}, sh[32];
	for (int i = 0; i < 3; i++)
		assert_int_equal(vg_client_x25519(c, "x", peer, sh), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(vg_client_ping(c), 0);
	/* One malformed frame on its own connection. */
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	assert_int_equal(dt_send_all(fd, "XXXXXXXXXXXXXXXX", 16), 0);
	assert_int_equal(dt_wait_closed(fd, 5000) != 0, 1);
	close(fd);

	vgc_stat *s;
	int n = vg_client_stats(c, &s);
	assert_true(n > 20);
	for (int i = 0; i < n; i++)
		printf("# %-24s %llu\n", s[i].name, (unsigned long long)s[i].value);
	assert_int_equal(get(s, n, "sign.count"), 17);
	assert_int_equal(get(s, n, "sign.errors"), 2);
	assert_int_equal(get(s, n, "x25519.count"), 3);
	assert_int_equal(get(s, n, "x25519.errors"), 0);
	assert_int_equal(get(s, n, "rsa-private.count"), 0);
	assert_true(get(s, n, "ping.count") >= 4);
	long long p50 = get(s, n, "sign.p50_us"), p90 = get(s, n, "sign.p90_us"),
		  p99 = get(s, n, "sign.p99_us"), p999 = get(s, n, "sign.p999_us");
	assert_true(p50 > 0);
	assert_true(p50 <= p90 && p90 <= p99 && p99 <= p999);
	assert_true(p999 < 10000000); /* a bucket bound, not a measurement */
	assert_int_equal(get(s, n, "queue.depth"), 0);
	assert_true(get(s, n, "queue.max") >= 0);
	assert_int_equal(get(s, n, "keyholders"), 2);
	assert_int_equal(get(s, n, "keyholder.restarts"), 0);
	assert_int_equal(get(s, n, "sandbox.violations"), 0);
	assert_int_equal(get(s, n, "requests.malformed"), 1);
	assert_int_equal(get(s, n, "requests.denied"), 1); /* the policy refusal */
	assert_int_equal(get(s, n, "requests.unknown_key"), 1);
	assert_true(get(s, n, "reply_buffers.max") > 0);
	assert_int_equal(get(s, n, "log.suppressed.malformed"), 0);
	assert_int_equal(get(s, n, "keys"), 9);
	assert_true(get(s, n, "connections.open") >= 1);
	free(s);

	/* A keyholder restart shows up. */
	pid_t kh[8];
	/* stats counted both; a keyholder names itself after it starts */
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	assert_int_equal(kill(kh[0], SIGKILL), 0);
	long long r = 0;
	for (int i = 0; i < 100 && r < 1; i++, usleep(50000))
		r = dt_stat(D.sock, "keyholder.restarts");
	assert_int_equal(r, 1);
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "abc", 3, sig, sizeof(sig), &sl), 0);
	vg_client_free(c);
}

/* The sum of N over the log's "N more suppressed: what" lines. */
static long long suppressed_in_log(const vgt_daemon *d, const char *what)
{
	FILE *f = fopen(d->log, "r");
	char line[2048];
	long long sum = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		const char *p = strstr(line, " more suppressed: ");
		if (!p || !strstr(p, what))
			continue;
		while (p > line && p[-1] >= '0' && p[-1] <= '9')
			p--;
		sum += strtoll(p, NULL, 10);
	}
	fclose(f);
	return sum;
}

/* A flood of malformed connections and denied requests: the log gets at
 * most 10 lines of each kind per 10 s window and one summary line per
 * window; every event is a logged line or a suppressed count (stats), and
 * the summaries add up to the count. Before the limit: one line each. */
static void test_log_flood(void **state)
{
	enum { FLOOD = 2000 };
	(void)state;
	int m0 = vgt_log_count(&D, "closing connection"), d0 = vgt_log_count(&D, "denied: uid");
	long long sm0 = dt_stat(D.sock, "log.suppressed.malformed");
	long long sd0 = dt_stat(D.sock, "log.suppressed.denied");
	long long t0 = dt_now_ms();
	for (int i = 0; i < FLOOD; i++) {
		int fd = dt_connect(D.sock);
		assert_true(fd >= 0);
		assert_int_equal(dt_send_all(fd, "GET / HTTP/1.0\r\n", 16), 0);
		assert_int_equal(dt_wait_closed(fd, 5000) != 0, 1);
		close(fd);
	}
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	for (int i = 0; i < FLOOD; i++) {
		uint8_t req[128], buf[512];
		vg_reply rep;
		long n = dt_req_sign(req, sizeof req, (uint32_t)i + 1, "nope", VG_ALG_ED25519, "m", 1);
		assert_int_equal(dt_send_all(fd, req, (size_t)n), 0);
		assert_int_equal(dt_read_reply(fd, buf, sizeof buf, 5000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_UNKNOWN_KEY);
	}
	long long secs = (dt_now_ms() - t0) / 1000;
	int lines_m = vgt_log_count(&D, "closing connection") - m0;
	int lines_d = vgt_log_count(&D, "denied: uid") - d0;
	long long sm = dt_stat_on(fd, "log.suppressed.malformed") - sm0;
	long long sd = dt_stat_on(fd, "log.suppressed.denied") - sd0;
	close(fd);
	printf("# %d events of each kind in %lld s: %d and %d lines logged, %lld and %lld "
	       "suppressed\n", FLOOD, secs, lines_m, lines_d, sm, sd);
	/* at most 10 lines per started window */
	long long windows = secs / 10 + 2;
	assert_true(lines_m >= 1 && lines_m <= 10 * windows);
	assert_true(lines_d >= 1 && lines_d <= 10 * windows);
	/* every event logged or counted */
	assert_int_equal(lines_m + sm, FLOOD);
	assert_int_equal(lines_d + sd, FLOOD);
	/* the window ends: its summary line comes, and the summaries add up */
	assert_true(dt_wait_log(&D, "more suppressed: denied requests", 1, 15000));
	assert_true(dt_wait_log(&D, "more suppressed: connections closed for a malformed frame", 1,
				15000));
	assert_int_equal(suppressed_in_log(&D, "connections closed for a malformed frame"), sm0 + sm);
	assert_int_equal(suppressed_in_log(&D, "denied requests"), sd0 + sd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_log_flood),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
