/* test_liveness.c: every child that should run does, whatever happens to
 * the others.
 *   front crash loop  four crash loops back to back (vgd-front killed
 *                     every 20 ms under load, keyholders among them,
 *                     until the brake pauses restarts for 1, 2, 4, 8 s)
 *                     with libvgclient's default 5 s timeout: every
 *                     request is answered (a result, or an error: its
 *                     connection died with a front, or the supervisor
 *                     answered UNAVAILABLE during the pause; never a
 *                     timeout), then full service: two keyholders again,
 *                     and `stats` says so;
 *   stopped keyholder SIGSTOP: its jobs go to the other keyholder after
 *                     job_timeout (no request waits for it), the
 *                     supervisor's ping finds it hung and it is replaced;
 *   stopped front     SIGSTOP: the supervisor's ping finds it hung, it is
 *                     replaced, and stats count it. */
#include <pthread.h>
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
static EVP_PKEY *ED;
static volatile int stop_clients;

typedef struct {
	int index, timeout_ms;
	long ok, errors, timeouts, bad;
	char why[256];
} client_res;

/* Sign and verify until told to stop. An error is fine (a connection a
 * killed front took with it); a timeout (silence) or a wrong signature is
 * not. */
static void *signer(void *arg)
{
	client_res *r = arg;
	vg_client *c = vg_client_new(D.sock);
	if (r->timeout_ms > 0) /* else libvgclient's default */
		vg_client_set_timeout(c, r->timeout_ms);
	for (long i = 0; !stop_clients; i++) {
		uint8_t m[64], sig[64];
		size_t sl = 0;
		int ml = snprintf((char *)m, sizeof(m), "client %d request %ld", r->index, i);
		int e = vg_client_sign(c, "ed", VGC_ALG_ED25519, m, (size_t)ml, sig, sizeof(sig), &sl);
		if (e == 0 && vt_verify(ED, VGC_ALG_ED25519, m, (size_t)ml, sig, sl)) {
			r->ok++;
		} else if (e == VGC_E_TIMEOUT) {
			r->timeouts++;
			snprintf(r->why, sizeof(r->why), "request %ld timed out", i);
		} else if (e == 0) {
			r->bad++;
			snprintf(r->why, sizeof(r->why), "request %ld: signature does not verify", i);
		} else {
			r->errors++;
			usleep(10000);
		}
	}
	vg_client_free(c);
	return NULL;
}

enum { NC = 3 };
static pthread_t TH[NC];
static client_res RES[NC];

static void clients_start(int timeout_ms)
{
	memset(RES, 0, sizeof(RES));
	stop_clients = 0;
	for (int i = 0; i < NC; i++) {
		RES[i].index = i;
		RES[i].timeout_ms = timeout_ms;
		assert_int_equal(pthread_create(&TH[i], NULL, signer, &RES[i]), 0);
	}
}

static void clients_stop(long *ok, long *errors)
{
	stop_clients = 1;
	*ok = *errors = 0;
	for (int i = 0; i < NC; i++) {
		pthread_join(TH[i], NULL);
		if (RES[i].timeouts || RES[i].bad)
			fail_msg("client %d: %ld timeouts, %ld bad: %s", i, RES[i].timeouts, RES[i].bad,
				 RES[i].why);
		*ok += RES[i].ok;
		*errors += RES[i].errors;
	}
}

/* Full service: n keyholders alive, `stats` counting them, and signing
 * works, within 20 s. */
static void full_service(int n)
{
	long long deadline = dt_now_ms() + 20000, live = -1;
	pid_t kh[8];
	while (dt_now_ms() < deadline) {
		live = dt_stat(D.sock, "keyholders");
		if (live == n && dt_children_named(&D, "vgd-keyholder", kh, 8) == n)
			break;
		usleep(100000);
	}
	if (live != n) {
		vgt_dump_log(&D);
		fail_msg("stats says %lld keyholder(s), want %d", live, n);
	}
	assert_int_equal(dt_children_named(&D, "vgd-keyholder", kh, 8), n);
	assert_int_equal(dt_children_named(&D, "vgd-front", kh, 8), 1);
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 5000);
	for (int i = 0; i < 20; i++) {
		uint8_t sig[64];
		size_t sl;
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "full", 4, sig,
						sizeof(sig), &sl),
				 0);
	}
	vg_client_free(c);
}

static void start_env(const char *globals, int testhooks, char *const env[])
{
	assert_int_equal(vgt_setup(&D, globals, vgt_default_keys), 0);
	assert_int_equal(vgt_start(&D, testhooks, env), 0);
	ED = vt_load_file(&D, "ed25519.pem");
	assert_non_null(ED);
}

static void start(const char *globals)
{
	start_env(globals, 0, NULL);
}

static void finish(void)
{
	EVP_PKEY_free(ED);
	ED = NULL;
	assert_int_equal(vgt_finish(&D), 0);
}

/* While no front runs, a new connection gets the supervisor's connection
 * error at once: UNAVAILABLE, "restarting after repeated crashes; retry
 * in N s" (the supervisor never reads what the client sent). */
static void assert_supervisor_answers(void)
{
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	uint8_t req[64], buf[512];
	long n = dt_req_simple(req, sizeof(req), VG_OP_PING, 9);
	(void)dt_send_all(fd, req, (size_t)n);
	vg_reply rep;
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 1000, &rep), 0);
	assert_true(rep.conn_error);
	assert_int_equal(rep.status, VG_ST_UNAVAILABLE);
	assert_true(rep.reason_len > 40 &&
		    memcmp(rep.reason, "restarting after repeated crashes; retry in ", 44) == 0);
	assert_int_equal(dt_wait_closed(fd, 1000), 1);
	close(fd);
}

/* Four crash loops back to back: fronts (and keyholders) killed until
 * the brake pauses restarts, 1, 2, 4 and then 8 s, while clients sign
 * with libvgclient's default timeout (5 s, shorter than the last pause).
 * Every request is answered: a result, or an error (a connection a
 * killed front took with it, or the supervisor's UNAVAILABLE during a
 * pause), never a timeout. */
static void test_front_crash_loop(void **state)
{
	(void)state;
	/* vgd-testhooks, whose brake counts its 20 restarts in a minute,
	 * not a second: on a loaded machine (ASan, the sanitize suite) a
	 * front's death and restart can take longer than 50 ms, and then
	 * the brake never engages; its pauses are what is tested. */
	char *env[] = {"VGD_TEST_BRAKE_WINDOW_MS=60000", NULL};
	start_env(NULL, 1, env);
	clients_start(0);
	int killed = 0;
	for (int loop = 0; loop < 4; loop++) {
		char want[64];
		snprintf(want, sizeof(want), "crashing in a loop; restarting them in %d s",
			 1 << loop);
		for (int k = 0; k < 400 && vgt_log_count(&D, want) == 0; k++) {
			usleep(20000);
			pid_t fr[8], kh[8];
			if (dt_children_named(&D, "vgd-front", fr, 8) == 1 &&
			    kill(fr[0], SIGKILL) == 0)
				killed++;
			/* Keyholders die too, before or after their front:
			 * every order of deaths must end with everything
			 * running. */
			int n = dt_children_named(&D, "vgd-keyholder", kh, 8);
			if (k % 3 == 0 && n > 0)
				kill(kh[k % n], SIGKILL);
		}
		assert_int_equal(vgt_log_count(&D, want), 1);
		pid_t fr[8];
		if (dt_children_named(&D, "vgd-front", fr, 8) == 0)
			assert_supervisor_answers();
		/* The pause ends: a front again. */
		long long deadline = dt_now_ms() + (1000LL << loop) + 5000;
		while (dt_children_named(&D, "vgd-front", fr, 8) != 1 && dt_now_ms() < deadline)
			usleep(20000);
		assert_int_equal(dt_children_named(&D, "vgd-front", fr, 8), 1);
	}
	full_service(2);
	long ok, errors;
	clients_stop(&ok, &errors);
	printf("# 4 crash loops (pauses of 1, 2, 4, 8 s), %d fronts killed; %ld requests "
	       "answered OK, %ld with an error, none silent\n",
	       killed, ok, errors);
	assert_true(ok > 0);
	assert_true(errors > 0); /* the pauses answered, not silent */
	finish();
}

static void test_stopped_keyholder(void **state)
{
	(void)state;
	/* Deadlines with room for a loaded machine (the sanitize suite runs
	 * this under ASan beside other work): a healthy keyholder is never
	 * 2 s without a reply. */
	start("job_timeout = 2\nliveness_timeout = 3\n");
	pid_t kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	/* Requests wait for a keyholder at most job_timeout plus a tick:
	 * well under the clients' 10 s. The clients use the socket: this is
	 * the front's timeout, which requests through direct slots (each on
	 * the keyholder of its client's CPU, maybe all on the other one)
	 * would not reach; a stopped keyholder's slots are test_direct's. */
	assert_int_equal(setenv("VGD_DIRECT", "0", 1), 0);
	clients_start(10000);
	usleep(300000);
	assert_int_equal(kill(kh[0], SIGSTOP), 0);
	/* The front gives up on it, the supervisor kills it, a new one
	 * comes; the clients never wait for it. */
	assert_true(dt_wait_log(&D, "answered nothing for 2000 ms", 1, 10000));
	assert_true(dt_wait_log(&D, "did not answer a ping within 3000 ms; killing it", 1, 10000));
	usleep(1000000);
	long ok, errors;
	clients_stop(&ok, &errors);
	unsetenv("VGD_DIRECT"); /* the threads made their clients with it */
	printf("# one keyholder stopped: %ld requests answered OK, %ld errors\n", ok, errors);
	assert_int_equal(errors, 0);
	full_service(2);
	assert_true(dt_stat(D.sock, "keyholder.hung") >= 1);
	assert_true(dt_stat(D.sock, "children.hung") >= 1);
	assert_true(dt_proc_status(kh[0], "VmRSS") < 0); /* gone */
	finish();
}

static void test_stopped_front(void **state)
{
	(void)state;
	/* 5 s: the healthy children must never miss a ping, and under ASan
	 * on a loaded machine 1 s was missed (children.hung 2). */
	start("liveness_timeout = 5\n");
	pid_t fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	assert_int_equal(kill(fr[0], SIGSTOP), 0);
	assert_true(dt_wait_log(&D, "did not answer a ping within 5000 ms; killing it", 1, 20000));
	pid_t nf[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, fr[0], nf), 1);
	full_service(2);
	assert_int_equal(dt_stat(D.sock, "front.restarts"), 1);
	assert_int_equal(dt_stat(D.sock, "children.hung"), 1);
	finish();
}

/* A failed test leaves its clients and daemon: stop them. */
static int teardown(void **state)
{
	(void)state;
	if (!stop_clients) {
		stop_clients = 1;
		for (int i = 0; i < NC; i++)
			pthread_join(TH[i], NULL);
	}
	vgt_cleanup(&D);
	return 0;
}

int main(void)
{
	stop_clients = 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_front_crash_loop, teardown),
		cmocka_unit_test_teardown(test_stopped_keyholder, teardown),
		cmocka_unit_test_teardown(test_stopped_front, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
