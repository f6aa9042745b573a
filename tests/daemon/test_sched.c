/* test_sched.c: the scheduling policies of vgd's processes. The front is
 * SCHED_BATCH so that its wake-ups do not preempt keyholders under load
 * (daemon/supervisor.c, front_yields_to_keyholders); the keyholders and
 * the supervisor stay SCHED_OTHER, so a keyholder woken for a request
 * still preempts whatever else runs. A restarted front gets it again. */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;

/* The supervisor's children named comm, once there are n of them. The
 * front sets its policy before it takes its name, so a process named
 * vgd-front already has it. */
static int wait_named(const char *comm, int n, pid_t not_this, pid_t *p)
{
	for (int i = 0; i < 100; i++) {
		if (dt_children_named(&D, comm, p, 8) == n && p[0] != not_this)
			return n;
		usleep(50000);
	}
	return -1;
}

static int setup(void **state)
{
	(void)state;
	return vgt_setup(&D, NULL, vgt_default_keys) < 0 || vgt_start(&D, 2, NULL) < 0 ? -1 : 0;
}

/* Runs after a failed assertion too, so no daemon outlives the test. */
static int teardown(void **state)
{
	(void)state;
	int violations = vgt_log_count(&D, "sandbox violation");
	int st = vgt_stop(&D);
	if (st != 0 || violations)
		vgt_dump_log(&D);
	vgt_cleanup(&D);
	return st == 0 && violations == 0 ? 0 : -1;
}

static void test_policies(void **state)
{
	(void)state;
	pid_t fr[8], kh[8];
	assert_int_equal(wait_named("vgd-front", 1, 0, fr), 1);
	pid_t front = fr[0];
	assert_int_equal(sched_getscheduler(front), SCHED_BATCH);
	assert_int_equal(wait_named("vgd-keyholder", 2, 0, kh), 2);
	for (int i = 0; i < 2; i++)
		assert_int_equal(sched_getscheduler(kh[i]), SCHED_OTHER);
	assert_int_equal(sched_getscheduler(D.pid), SCHED_OTHER);

	/* The supervisor restarts a killed front with the same policy. */
	assert_int_equal(kill(front, SIGKILL), 0);
	assert_int_equal(wait_named("vgd-front", 1, front, fr), 1);
	assert_int_equal(sched_getscheduler(fr[0]), SCHED_BATCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policies),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
