/* test_sched.c: how vgd's processes use the CPU. The front is
 * SCHED_OTHER while vgd has CPU to spare and SCHED_BATCH only while every
 * CPU has a busy keyholder, so that its wake-ups do not preempt keyholders
 * under load and do not wait for a tick at light load
 * (daemon/front_sched.c); the keyholders and the supervisor stay
 * SCHED_OTHER, so a keyholder woken for a request still preempts whatever
 * else runs. A restarted front starts over as SCHED_OTHER. With
 * busy_poll_us the front polls instead of sleeping between back-to-back
 * requests (counted in its voluntary context switches). Between callers,
 * the keyholders' CPU is shared fairly: one uid's flood of RSA-4096
 * signatures does not hold back another uid's Ed25519 signature. */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;

static int start(const char *globals)
{
	return vgt_setup(&D, globals, vgt_default_keys) < 0 || vgt_start(&D, 2, NULL) < 0 ? -1 : 0;
}

static int setup_plain(void **state)
{
	(void)state;
	return start(NULL);
}

/* One keyholder per CPU (vgd's default; the harness sets 2), and a front
 * that follows its clients' CPU hints (front_follow.c). */
static int setup_per_cpu(void **state)
{
	(void)state;
	return start("keyholders = 0\nfollow_clients = yes\n");
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
	assert_int_equal(sched_getscheduler(front), SCHED_OTHER);
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	for (int i = 0; i < 2; i++)
		assert_int_equal(sched_getscheduler(kh[i]), SCHED_OTHER);
	assert_int_equal(sched_getscheduler(D.pid), SCHED_OTHER);

	/* The supervisor restarts a killed front, which starts over. */
	assert_int_equal(kill(front, SIGKILL), 0);
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, front, fr), 1);
	assert_int_equal(sched_getscheduler(fr[0]), SCHED_OTHER);
}

/* Saturated (more RSA-4096 signatures in flight than the keyholders on all
 * CPUs can take at once), the front switches to SCHED_BATCH; idle again,
 * it switches back within a few ticks. */
static void test_batch_when_saturated(void **state)
{
	(void)state;
	cpu_set_t mine;
	assert_int_equal(sched_getaffinity(D.pid, sizeof(mine), &mine), 0);
	int ncpu = CPU_COUNT(&mine);
	assert_int_equal(dt_stat(D.sock, "front.sched_switches"), 0);
	assert_int_equal(dt_stat(D.sock, "front.sched_batch"), 0);
	/* First a client's CPU hints pin the front (front_follow.c) ... */
	int first = -1;
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &mine))
			first = c;
	int hfd = dt_connect(D.sock);
	assert_true(hfd >= 0);
	assert_int_equal(dt_hinted_pings(hfd, (uint32_t)first, 6), 0);
	close(hfd);
	assert_int_equal(dt_stat(D.sock, "front.follow_pinned"), 1);
	/* ... which saturation undoes. One connection per CPU, 32 requests each: every keyholder gets
	 * jobs at the first dispatches. */
	enum { PER = 32, MAXC = 64 };
	int fds[MAXC], nc = ncpu < MAXC ? ncpu : MAXC;
	static uint8_t out[PER * 512], buf[4096];
	uint8_t digest[32] = {1};
	for (int c = 0; c < nc; c++) {
		fds[c] = dt_connect(D.sock);
		assert_true(fds[c] >= 0);
		size_t olen = 0;
		for (int i = 0; i < PER; i++) {
			long n = dt_req_sign(out + olen, sizeof(out) - olen, 1u + (uint32_t)i,
					     "rsa4096", VG_ALG_RSA_PKCS1_SHA256, digest,
					     sizeof(digest));
			assert_true(n > 0);
			olen += (size_t)n;
		}
		assert_int_equal(dt_send_all(fds[c], out, olen), 0);
	}
	for (int c = 0; c < nc; c++) {
		for (int i = 0; i < PER; i++) {
			vg_reply rep;
			assert_int_equal(dt_read_reply(fds[c], buf, sizeof(buf), 30000, &rep), 0);
			assert_int_equal(rep.status, VG_ST_OK);
		}
		close(fds[c]);
	}
	long long sw = dt_stat(D.sock, "front.sched_switches");
	print_message("front switched policy %lld time(s) under load\n", sw);
	assert_true(sw >= 1);
	assert_true(dt_stat(D.sock, "front.follow_releases") >= 1);
	assert_int_equal(dt_stat(D.sock, "front.follow_pinned"), 0);
	/* Back to SCHED_OTHER once the load is gone (SCHED_HOLD_MS, then
	 * the next tick); the deadline only bounds a failure. */
	pid_t fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	long long deadline = dt_now_ms() + 10000;
	while (sched_getscheduler(fr[0]) != SCHED_OTHER && dt_now_ms() < deadline)
		usleep(20000);
	assert_int_equal(sched_getscheduler(fr[0]), SCHED_OTHER);
	assert_int_equal(dt_stat(D.sock, "front.sched_batch"), 0);
	assert_true(dt_stat(D.sock, "front.sched_switches") >= 2);
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

/* Without polling the front sleeps about once per request. It may find
 * the next request already queued now and then (CI has shown 980 sleeps
 * in 2000 pings), so the bound only separates "sleeps between requests"
 * from the polling front's handful below. */
static void test_front_sleeps(void **state)
{
	(void)state;
	long n = front_sleeps_per_ping(2000);
	print_message("front slept %ld times in 2000 pings\n", n);
	assert_true(n >= 300);
}

/* With it, a client that sends its next request within busy_poll_us of the
 * last reply finds the front awake. The bound leaves room for a loaded
 * machine descheduling the client now and then. */
static void test_busy_poll(void **state)
{
	(void)state;
	long n = front_sleeps_per_ping(2000);
	print_message("front slept %ld times in 2000 pings with busy_poll_us = 1000\n", n);
	assert_true(n < 200);
}

/* Fairness between callers: uid 0 queues 512 RSA-4096 signatures (four
 * connections of 128), then another uid (12345, a forked child) sends one
 * Ed25519 signature. Its answer comes while most of the flood is still
 * queued (queue.depth, asked when it arrives): the uids' queues are
 * served by deficit round robin weighted by cost, and each keyholder gets
 * at most VGD_KH_COST_MAX of work at once. With one FIFO queue it came
 * after the whole flood (queue.depth 0 by then). */
static int setup_shared(void **state)
{
	(void)state;
	if (start("socket_mode = 0666\n") < 0)
		return -1;
	return chmod(D.dir, 0711); /* the other uid reaches the socket */
}

static void test_fair_between_uids(void **state)
{
	(void)state;
	enum { CONNS = 4, PER = 128, FLOOD = CONNS * PER };
	if (geteuid() != 0) {
		printf("# not root: cannot connect as another uid: skipped\n");
		skip();
	}
	int fds[CONNS];
	static uint8_t out[PER * 128];
	uint8_t digest[32];
	memset(digest, 0x5a, sizeof(digest));
	for (int c = 0; c < CONNS; c++) {
		size_t ol = 0;
		for (int i = 0; i < PER; i++) {
			long n = dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)(c * PER + i),
					     "rsa4096", VG_ALG_RSA_PKCS1_SHA256, digest,
					     sizeof(digest));
			assert_true(n > 0);
			ol += (size_t)n;
		}
		fds[c] = dt_connect(D.sock);
		assert_true(fds[c] >= 0);
		assert_int_equal(dt_send_all(fds[c], out, ol), 0);
	}
	int probe = dt_connect(D.sock);
	assert_true(probe >= 0);
	long long depth = -1;
	for (int i = 0; i < 200 && depth < FLOOD / 2; i++, usleep(5000))
		depth = dt_stat_on(probe, "queue.depth");
	printf("# %d RSA-4096 signatures from uid 0; queue.depth %lld\n", FLOOD, depth);
	assert_true(depth >= FLOOD / 2); /* the flood is queued */
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		gid_t g = 54321;
		close(pfd[0]);
		if (setgroups(1, &g) < 0 || setgid(54321) < 0 || setuid(12345) < 0)
			_exit(2);
		int fd = dt_connect(D.sock);
		uint8_t req[128], buf[512];
		vg_reply rep;
		long n = dt_req_sign(req, sizeof(req), 7, "ed", VG_ALG_ED25519, "cheap", 5);
		if (fd < 0 || n <= 0 || dt_send_all(fd, req, (size_t)n) < 0 ||
		    dt_read_reply(fd, buf, sizeof(buf), 60000, &rep) < 0 || rep.status != VG_ST_OK)
			_exit(1);
		(void)!write(pfd[1], "y", 1);
		_exit(0);
	}
	close(pfd[1]);
	char b;
	assert_int_equal(read(pfd[0], &b, 1), 1);
	long long left = dt_stat_on(probe, "queue.depth");
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	printf("# uid 12345's Ed25519 signature answered with %lld of %d still queued\n", left,
	       FLOOD);
	assert_true(left >= FLOOD / 4);
	/* Every signature of the flood is answered too. */
	for (int c = 0; c < CONNS; c++) {
		for (int i = 0; i < PER; i++) {
			static uint8_t buf[1024];
			vg_reply rep;
			assert_int_equal(dt_read_reply(fds[c], buf, sizeof(buf), 60000, &rep), 0);
			assert_int_equal(rep.status, VG_ST_OK);
		}
		close(fds[c]);
	}
	close(probe);
	close(pfd[0]);
}

int main(void)
{
	/* The pings sleep in poll() at once, as before libvgclient's spin
	 * (VGD_SPIN_US): what is counted is the front's sleeping. A spinning
	 * client is one more runnable task on the front's CPU, and on a loaded
	 * machine it keeps the polling front off its CPU past busy_poll_us, so
	 * the front sleeps (may_poll's rule) and the count measures the load. */
	setenv("VGD_SPIN_US", "0", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_policies, setup_plain, teardown),
		cmocka_unit_test_setup_teardown(test_batch_when_saturated, setup_per_cpu, teardown),
		cmocka_unit_test_setup_teardown(test_front_sleeps, setup_plain, teardown),
		cmocka_unit_test_setup_teardown(test_busy_poll, setup_polling, teardown),
		cmocka_unit_test_setup_teardown(test_fair_between_uids, setup_shared, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
