/* test_sched.c: how vgd's processes use the CPU. The front is
 * SCHED_BATCH so that its wake-ups do not preempt keyholders under load
 * (daemon/supervisor_spawn.c, front_yields_to_keyholders); the keyholders and
 * the supervisor stay SCHED_OTHER, so a keyholder woken for a request
 * still preempts whatever else runs. A restarted front gets it again.
 * With busy_poll_us the front polls instead of sleeping between
 * back-to-back requests (counted in its voluntary context switches). */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;

/* The front sets its policy before it takes its name, so a process
 * named vgd-front already has it. */
static int start(const char *globals)
{
	return vgt_setup(&D, globals, vgt_default_keys) < 0 || vgt_start(&D, 2, NULL) < 0 ? -1 : 0;
}

static int setup_plain(void **state)
{
	(void)state;
	return start(NULL);
}

static int setup_polling(void **state)
{
	(void)state;
	return start("busy_poll_us = 1000\n");
}

/* Runs after a failed assertion too, so no daemon outlives the test. */
static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

static void test_policies(void **state)
{
	(void)state;
	pid_t fr[8], kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	pid_t front = fr[0];
	assert_int_equal(sched_getscheduler(front), SCHED_BATCH);
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	for (int i = 0; i < 2; i++)
		assert_int_equal(sched_getscheduler(kh[i]), SCHED_OTHER);
	assert_int_equal(sched_getscheduler(D.pid), SCHED_OTHER);

	/* The supervisor restarts a killed front with the same policy. */
	assert_int_equal(kill(front, SIGKILL), 0);
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, front, fr), 1);
	assert_int_equal(sched_getscheduler(fr[0]), SCHED_BATCH);
}

/* Sleeps of the front during n back-to-back pings on one connection. */
static long front_sleeps_per_ping(int n)
{
	pid_t fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	vg_client *c = vg_client_new(D.sock);
	assert_non_null(c);
	assert_int_equal(vg_client_ping(c), 0); /* connected and warm */
	long before = dt_proc_status(fr[0], "voluntary_ctxt_switches");
	for (int i = 0; i < n; i++)
		assert_int_equal(vg_client_ping(c), 0);
	long after = dt_proc_status(fr[0], "voluntary_ctxt_switches");
	vg_client_free(c);
	assert_true(before >= 0 && after >= before);
	return after - before;
}

/* Without polling the front sleeps about once per request. */
static void test_front_sleeps(void **state)
{
	(void)state;
	long n = front_sleeps_per_ping(2000);
	print_message("front slept %ld times in 2000 pings\n", n);
	assert_true(n >= 1000);
}

/* With it, a client that sends its next request within busy_poll_us of the
 * last reply finds the front awake. The bound leaves room for a loaded
 * machine descheduling the client now and then. */
static void test_busy_poll(void **state)
{
	(void)state;
	long n = front_sleeps_per_ping(2000);
	print_message("front slept %ld times in 2000 pings with busy_poll_us = 1000\n", n);
	assert_true(n < 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_policies, setup_plain, teardown),
		cmocka_unit_test_setup_teardown(test_front_sleeps, setup_plain, teardown),
		cmocka_unit_test_setup_teardown(test_busy_poll, setup_polling, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
