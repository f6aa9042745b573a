/* test_supchan.c: the supervisor never waits for a child and cannot be
 * flooded by one.
 *   stopped front   with vgd-front stopped (SIGSTOP) and its liveness
 *                   deadline far away, the supervisor still reloads (50
 *                   times with 100 keys: more control messages than the
 *                   socket and its bounded queue hold, so some are
 *                   dropped and the front that missed them is replaced),
 *                   reaps and restarts a killed keyholder, and, on
 *                   SIGTERM, drains and exits; once continued a front
 *                   gets everything that waited for it;
 *   report floods   20,000 fake violation reports from the front and
 *                   from a keyholder (vgd-testhooks): no violation is
 *                   counted or logged for a child that did not die of
 *                   one, the lines about the rest are rate-limited, and
 *                   the supervisor's memory does not grow with them. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;

static void test_stopped_front_does_not_block(void **state)
{
	(void)state;
	/* 400 keys: a reload sends over four hundred control messages; 30 of
	 * them (12,000) are more than the socket buffer (4 MiB, about 3,000
	 * of these messages) and the supervisor's queue (VGD_CTL_QUEUE_MAX,
	 * 2,576 since max_keys can reach 1024) hold together. */
	enum { RELOADS = 30, KEYS = 400 };
	static char keys[KEYS * 64];
	size_t kl = 0;
	for (int i = 0; i < KEYS; i++)
		kl += (size_t)snprintf(keys + kl, sizeof(keys) - kl,
				       "[key k%d]\nfile = ed25519.pem\nallow = sign\n", i);
	assert_int_equal(vgt_setup(&D, "liveness_timeout = 3600\ndrain_timeout = 1\nkeyholders = 1\n",
				   keys),
			 0);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	pid_t fr[8], kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	assert_int_equal(kill(fr[0], SIGSTOP), 0);
	for (int i = 1; i <= RELOADS; i++) {
		char want[64];
		snprintf(want, sizeof(want), "generation %d", i);
		assert_int_equal(kill(D.pid, SIGHUP), 0);
		if (!dt_wait_log(&D, want, 1, 10000)) {
			vgt_dump_log(&D);
			fail_msg("reload %d did not finish: the supervisor is blocked", i);
		}
	}
	/* The queue filled: messages were dropped and the front that missed
	 * them was replaced (it was stopped: only SIGKILL reaches it). */
	assert_true(dt_wait_log(&D, "is not reading its control channel", 1, 5000));
	assert_true(dt_wait_log(&D, "it missed control messages", 1, 5000));
	pid_t nf[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, fr[0], nf), 1);
	assert_true(dt_stat(D.sock, "supervisor.dropped") > 0);
	assert_int_equal(dt_stat(D.sock, "front.restarts"), 1);
	/* Restarts while the front is stopped: a keyholder, killed, is
	 * reaped and replaced (its channel waits in the queue). The keyholder
	 * killed must be the new front's: the old front's (orphaned when it
	 * was killed) exits by itself, and one picked while it did would
	 * never be reported killed by signal 9. */
	for (int i = 0; i < 200 && dt_stat(D.sock, "keyholders") != 1; i++)
		usleep(50000);
	assert_int_equal(dt_stat(D.sock, "keyholders"), 1);
	assert_int_equal(kill(nf[0], SIGSTOP), 0);
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 1, 0, kh), 1);
	int died = vgt_log_count(&D, "killed by signal 9");
	assert_int_equal(kill(kh[0], SIGKILL), 0);
	assert_true(dt_wait_log(&D, "killed by signal 9", died + 1, 10000));
	pid_t nk[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 1, kh[0], nk), 1);
	/* Continued, the front reads what waited, and serves with the last
	 * key set. */
	assert_int_equal(kill(nf[0], SIGCONT), 0);
	assert_int_equal(dt_stat(D.sock, "keys.generation"), RELOADS);
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 10000);
	uint8_t sig[64];
	size_t sl;
	for (int i = 0; i < 50 && dt_stat(D.sock, "keyholders") != 1; i++)
		usleep(50000);
	assert_int_equal(vg_client_sign(c, "k7", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl), 0);
	vg_client_free(c);
	/* Stopped again, the front cannot drain: SIGTERM still ends vgd
	 * (drain_timeout, then the supervisor kills what is left). */
	assert_int_equal(kill(nf[0], SIGSTOP), 0);
	long long t0 = dt_now_ms();
	int st = vgt_stop(&D);
	printf("# stopped in %lld ms with the front stopped\n", dt_now_ms() - t0);
	assert_int_equal(st, 0);
	assert_true(dt_wait_log(&D, "did not stop in time; killing them", 1, 100));
	vgt_cleanup(&D);
}

static long supervisor_rss_kb(void) { return dt_proc_status(D.pid, "VmRSS"); }

static void flood_checks(long rss0, const char *who)
{
	/* Read and dropped (counted), not believed. */
	long long dropped = -1;
	for (int i = 0; i < 200 && dropped < 19999; i++, usleep(50000))
		dropped = dt_stat(D.sock, "supervisor.dropped");
	printf("# %s: %lld messages dropped; supervisor RSS %ld -> %ld kB; %d lines\n", who,
	       dropped, rss0, supervisor_rss_kb(), vgt_log_count(&D, "unexpected message"));
	assert_true(dropped >= 19999);
	assert_int_equal(dt_stat(D.sock, "sandbox.violations"), 0);
	assert_int_equal(vgt_log_count(&D, "sandbox violation"), 0);
	/* At most a burst and a few a second of lines, not 20,000. */
	assert_true(vgt_log_count(&D, "unexpected message") <= 60);
	assert_true(supervisor_rss_kb() - rss0 < 1024);
}

static void test_report_floods(void **state)
{
	(void)state;
	assert_int_equal(vgt_setup(&D, NULL, vgt_default_keys), 0);
	assert_int_equal(vgt_start(&D, 1, NULL), 0);
	long rss0 = supervisor_rss_kb();
	char out[64];
	assert_int_equal(dt_front_hook(D.sock, "report-flood", out, sizeof(out)), 0);
	assert_string_equal(out, "sent 20000");
	flood_checks(rss0, "front");
	/* The front that sent them goes on serving. */
	pid_t fr[8];
	assert_int_equal(dt_children_named(&D, "vgd-front", fr, 8), 1);
	/* A keyholder's flood, on its own channel. */
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 20000);
	uint8_t sig[64];
	size_t sl;
	const char *flood = "vgd-test-kh:report-flood";
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, flood, strlen(flood), sig,
					sizeof(sig), &sl),
			 0);
	vg_client_free(c);
	long long dropped = -1;
	for (int i = 0; i < 200 && dropped < 2 * 19999; i++, usleep(50000))
		dropped = dt_stat(D.sock, "supervisor.dropped");
	assert_true(dropped >= 2 * 19999);
	flood_checks(rss0, "keyholder");
	assert_true(dt_wait_log(&D, "more suppressed: lines about children's messages", 1, 15000));
	assert_int_equal(dt_stop_clean(&D), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stopped_front_does_not_block),
		cmocka_unit_test(test_report_floods),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
