/* test_stats.c: the stats operation on a fresh daemon: per-operation
 * counts and errors, latency percentiles, queue depth, keyholder restarts,
 * sandbox violations, malformed frames; the values follow what the test
 * did. */
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
	assert_int_equal(get(s, n, "keys"), 9);
	assert_true(get(s, n, "connections.open") >= 1);
	free(s);

	/* A keyholder restart shows up. */
	pid_t kh[8];
	assert_int_equal(dt_children_named(&D, "vgd-keyholder", kh, 8), 2);
	assert_int_equal(kill(kh[0], SIGKILL), 0);
	long long r = 0;
	for (int i = 0; i < 100 && r < 1; i++, usleep(50000))
		r = dt_stat(D.sock, "keyholder.restarts");
	assert_int_equal(r, 1);
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "abc", 3, sig, sizeof(sig), &sl), 0);
	vg_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
