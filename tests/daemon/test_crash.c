/* test_crash.c: keyholders killed with SIGKILL again and again while
 * clients keep signing: every request gets exactly one reply and every
 * signature verifies. Then a deliberate sandbox violation (vgd-testhooks):
 * the keyholder dies, the log names the system call, it is restarted, the
 * client gets one INTERNAL error, service continues, stats count it. A
 * poison request pipelined among good ones kills two keyholders, not
 * every one: it is retried once, alone, then answered INTERNAL, counted
 * (requests.poisoned) and logged, and every good request beside it is
 * answered OK. */
#include <pthread.h>
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

#define KILLS 12
#define PIPE_B 32 /* the pipelining client's batch */

static vgt_daemon D;
static EVP_PKEY *ED;
static volatile int stop_clients;

typedef struct {
	int index;
	long done, failed;
	long poisoned; /* INTERNAL replies: requests that met two keyholder deaths */
	char why[256];
} client_res;

/* Synchronous client: sign, verify, repeat until told to stop. */
static void *sync_client(void *arg)
{
	client_res *r = arg;
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 20000);
	for (long i = 0; !stop_clients; i++) {
		uint8_t m[64], sig[64];
		size_t sl = 0;
		int ml = snprintf((char *)m, sizeof(m), "client %d request %ld", r->index, i);
		int e = vg_client_sign(c, "ed", VGC_ALG_ED25519, m, (size_t)ml, sig, sizeof(sig), &sl);
		if (e == VGC_E_INTERNAL) {
			r->poisoned++; /* checked against vgd's requests.poisoned */
		} else if (e != 0 || !vt_verify(ED, VGC_ALG_ED25519, m, (size_t)ml, sig, sl)) {
			r->failed++;
			snprintf(r->why, sizeof(r->why), "request %ld: %s", i,
				 e ? vg_client_errmsg(c) : "signature does not verify");
		}
		__atomic_add_fetch(&r->done, 1, __ATOMIC_RELAXED);
	}
	vg_client_free(c);
	return NULL;
}

/* Raw pipelining client: batches of 32 requests, then a ping; exactly one
 * reply per id, and the ping's comes only after all of them... or among
 * them (out of order is fine), but nothing extra ever arrives. */
static void *pipe_client(void *arg)
{
	client_res *r = arg;
	int fd = dt_connect(D.sock);
	if (fd < 0) {
		r->failed++;
		snprintf(r->why, sizeof(r->why), "connect failed");
		return NULL;
	}
	uint32_t id = 1;
	while (!stop_clients && !r->failed) {
		enum { B = PIPE_B };
		static _Thread_local uint8_t out[B * 128 + 64];
		size_t ol = 0;
		uint32_t first = id;
		for (int i = 0; i < B; i++, id++) {
			uint8_t m[32];
			int ml = snprintf((char *)m, sizeof(m), "pipe %u", id);
			ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, id, "ed", VG_ALG_ED25519,
						  m, (size_t)ml);
		}
		ol += (size_t)dt_req_simple(out + ol, sizeof(out) - ol, VG_OP_PING, 0);
		if (dt_send_all(fd, out, ol) < 0) {
			r->failed++;
			snprintf(r->why, sizeof(r->why), "send failed");
			break;
		}
		int seen[B] = {0}, ping = 0;
		for (int k = 0; k < B + 1; k++) {
			uint8_t buf[512];
			vg_reply rep;
			if (dt_read_reply(fd, buf, sizeof(buf), 20000, &rep) < 0) {
				r->failed++;
				snprintf(r->why, sizeof(r->why), "reply %d of batch %u missing", k, first);
				break;
			}
			if (rep.op == VG_OP_PING) {
				ping++;
				continue;
			}
			uint32_t i = rep.id - first;
			uint8_t m[32];
			int ml = snprintf((char *)m, sizeof(m), "pipe %u", rep.id);
			if (i < B && !seen[i] && rep.status == VG_ST_INTERNAL) {
				seen[i]++;
				r->poisoned++; /* checked against vgd's requests.poisoned */
				__atomic_add_fetch(&r->done, 1, __ATOMIC_RELAXED);
				continue;
			}
			if (i >= B || seen[i]++ || rep.status != VG_ST_OK ||
			    !vt_verify(ED, VGC_ALG_ED25519, m, (size_t)ml, rep.result, rep.result_len)) {
				r->failed++;
				snprintf(r->why, sizeof(r->why), "bad reply id %u status %d", rep.id,
					 rep.status);
				break;
			}
			__atomic_add_fetch(&r->done, 1, __ATOMIC_RELAXED);
		}
		if (!r->failed && ping != 1) {
			r->failed++;
			snprintf(r->why, sizeof(r->why), "%d ping replies", ping);
		}
	}
	close(fd);
	return NULL;
}

/* Every client has been answered for everything it had sent when done
 * was d0: a synchronous client two replies on (the request in flight,
 * then one sent after it), the pipelining one more than a batch on. Or
 * one of them failed. */
static int clients_moved_on(const client_res *res, const long *d0, int nc)
{
	for (int i = 0; i < nc; i++) {
		long d = __atomic_load_n(&res[i].done, __ATOMIC_RELAXED);
		if (res[i].failed)
			return 1;
		if (d < d0[i] + (i == nc - 1 ? PIPE_B + 1 : 2))
			return 0;
	}
	return 1;
}

static void test_keyholders_killed(void **state)
{
	(void)state;
	vgt_daemon *d = &D;
	assert_int_equal(vgt_setup(d, NULL, vgt_default_keys), 0);
	assert_int_equal(vgt_start(d, 0, NULL), 0);
	ED = vt_load_file(d, "ed25519.pem");
	assert_non_null(ED);
	enum { NC = 4 };
	pthread_t th[NC];
	client_res res[NC];
	memset(res, 0, sizeof(res));
	stop_clients = 0;
	for (int i = 0; i < NC; i++) {
		res[i].index = i;
		assert_int_equal(pthread_create(&th[i], NULL, i == NC - 1 ? pipe_client : sync_client,
						&res[i]),
				 0);
	}
	int killed = 0;
	for (int k = 0; k < KILLS; k++) {
		usleep(200000);
		pid_t kh[8];
		long d0[NC];
		for (int i = 0; i < NC; i++)
			d0[i] = __atomic_load_n(&res[i].done, __ATOMIC_RELAXED);
		int n = dt_children_named(d, "vgd-keyholder", kh, 8);
		if (n > 0 && kill(kh[k % n], SIGKILL) == 0)
			killed++;
		/* The requests that were with the killed keyholder are retried,
		 * one at a time; a keyholder that dies with one of them alone
		 * makes it a poison request, answered INTERNAL. So the next kill
		 * waits until every client has been answered for what it had
		 * sent: on a loaded machine the retries can outlast 200 ms. */
		long long deadline = dt_now_ms() + 60000;
		while (!clients_moved_on(res, d0, NC) && dt_now_ms() < deadline)
			usleep(20000);
	}
	usleep(300000);
	stop_clients = 1;
	long total = 0, poisoned = 0;
	for (int i = 0; i < NC; i++) {
		pthread_join(th[i], NULL);
		if (res[i].failed)
			fail_msg("client %d: %ld of %ld failed: %s", i, res[i].failed, res[i].done,
				 res[i].why);
		assert_true(res[i].done > 0);
		total += res[i].done;
		poisoned += res[i].poisoned;
	}
	/* A request that was with two keyholders as they died is answered
	 * INTERNAL (the poison rule, PROTOCOL.md): the wait above makes that
	 * rare, but a loaded machine can still line two kills up on one
	 * retried request. Every such reply must be one vgd counted as
	 * poisoned, and they stay few; every other reply verified. */
	long long counted = dt_stat(d->sock, "requests.poisoned");
	printf("# %d keyholders killed; %ld requests, all answered once: %ld verified, %ld "
	       "poisoned (vgd counted %lld)\n",
	       killed, total, total - poisoned, poisoned, counted);
	assert_int_equal(poisoned, counted);
	assert_true(poisoned <= KILLS);
	assert_int_equal(killed, KILLS);
	assert_true(dt_wait_log(d, "killed by signal 9", KILLS, 5000));
	/* All restarted, and counted. */
	long long restarts = -1;
	for (int i = 0; i < 100 && restarts < KILLS; i++, usleep(50000))
		restarts = dt_stat(d->sock, "keyholder.restarts");
	assert_true(restarts >= KILLS);
	pid_t kh[8];
	assert_int_equal(dt_wait_children(d, "vgd-keyholder", 2, 0, kh), 2);
	assert_int_equal(dt_children_named(d, "vgd-front", kh, 8), 1);
	assert_int_equal(vgt_log_count(d, "sandbox violation"), 0);
	EVP_PKEY_free(ED);
	assert_int_equal(vgt_finish(d), 0);
}

static void test_sandbox_violation(void **state)
{
	(void)state;
	vgt_daemon *d = &D;
	/* vgd-testhooks: keyholders break their sandbox on the test message. */
	vg_client *c = vgt_start_client(d, 1);
	assert_non_null(c);
	vg_client_set_timeout(c, 20000);
	uint8_t sig[64];
	size_t sl;
	const char *bad = "vgd-test-violate-sandbox";
	/* Every keyholder the request reaches breaks its sandbox; after two
	 * (one retry) the front gives up: one INTERNAL reply. */
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, bad, strlen(bad), sig, sizeof(sig),
					&sl),
			 VGC_E_INTERNAL);
	assert_true(dt_wait_log(d, "called mkdir", 2, 5000));
	assert_true(dt_wait_log(d, "died of a sandbox violation: system call mkdir", 2, 5000));
	assert_true(vgt_log_count(d, "sandbox violation: keyholder (pid") >= 2);
	assert_int_equal(vgt_log_count(d, "sandbox violation: front"), 0);
	/* Restarted; service continues on the same connection. */
	pid_t kh[8];
	assert_int_equal(dt_wait_children(d, "vgd-keyholder", 2, 0, kh), 2);
	for (int i = 0; i < 10; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "fine", 4, sig, sizeof(sig),
						&sl),
				 0);
	long long v = -1;
	for (int i = 0; i < 100 && v < 2; i++, usleep(50000))
		v = dt_stat(d->sock, "sandbox.violations");
	assert_int_equal(v, 2);
	assert_true(dt_stat(d->sock, "keyholder.restarts") >= 2);
	assert_int_equal(vgt_log_count(d, "called mkdir"), 2);
	/* nothing else */
	assert_int_equal(vgt_log_count(d, "sandbox violation: keyholder (pid"), 2);
	assert_int_equal(dt_stat(d->sock, "requests.poisoned"), 1);
	assert_true(dt_wait_log(d, "giving up on a request of uid", 1, 5000));
	vg_client_free(c);
	assert_int_equal(vgt_finish(d), 0);
}

/* Requests that kill every keyholder they reach, sent again and again,
 * are a crash loop: past 20 restarts in a second (a minute below) the
 * supervisor pauses, 1 s and then 2 s as the loop goes on; every request
 * is still answered (INTERNAL after two keyholders), and once the
 * requests stop the service is back. Each poison request kills only two keyholders, so
 * they come 16 at a time, pipelined: every new keyholder meets one. */
static void test_crash_loop_backs_off(void **state)
{
	(void)state;
	enum { B = 32 };
	vgt_daemon *d = &D;
	/* vgd-testhooks: keyholders break their sandbox on the test message.
	 * Eight of them, so restarts come fast. The brake counts its 20
	 * restarts in a minute here, not a second: on a loaded machine a
	 * keyholder's death and restart can take longer than 50 ms, and then
	 * the second-long window never fills (the brake is what is tested). */
	assert_int_equal(vgt_setup(d, "keyholders = 8\n", vgt_default_keys), 0);
	char *env[] = {"VGD_TEST_BRAKE_WINDOW_MS=60000", NULL};
	assert_int_equal(vgt_start(d, 1, env), 0);
	vg_client *c = vg_client_new(d->sock);
	assert_non_null(c);
	int fd = dt_connect(d->sock);
	assert_true(fd >= 0);
	const char *bad = "vgd-test-violate-sandbox";
	static uint8_t out[B * 128];
	size_t ol = 0;
	for (int i = 0; i < B; i++)
		ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "ed",
					  VG_ALG_ED25519, bad, strlen(bad));
	long long t0 = dt_now_ms();
	int batches = 0;
	for (; batches < 30 && vgt_log_count(d, "restarting them in 2 s") == 0; batches++) {
		assert_int_equal(dt_send_all(fd, out, ol), 0);
		for (int i = 0; i < B; i++) {
			uint8_t buf[512];
			vg_reply rep;
			assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 30000, &rep), 0);
			assert_int_equal(rep.status, VG_ST_INTERNAL);
		}
	}
	printf("# %d batches of %d poison requests in %lld ms until the second pause\n", batches,
	       B, dt_now_ms() - t0);
	close(fd);
	assert_int_equal(vgt_log_count(d, "crashing in a loop; restarting them in 1 s"), 1);
	assert_int_equal(vgt_log_count(d, "crashing in a loop; restarting them in 2 s"), 1);
	/* Served again once the pause is over. */
	vg_client_set_timeout(c, 30000);
	uint8_t sig[64];
	size_t sl;
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "fine", 4, sig, sizeof(sig), &sl),
			 0);
	assert_int_equal(vgt_log_count(d, "sandbox violation: front"), 0);
	vg_client_free(c);
	assert_int_equal(vgt_finish(d), 0);
}

/* One poison request pipelined among 31 good ones on one connection:
 * the good ones that shared a keyholder with it when it died are each
 * retried alone and answered OK; the poison one kills exactly two
 * keyholders (three before: every retry took another keyholder, and the
 * good ones beside it died with it twice) and gets INTERNAL. */
static void test_poison_among_good(void **state)
{
	(void)state;
	enum { N = 32, BAD = 5 };
	vgt_daemon *d = &D;
	assert_int_equal(vgt_setup(d, NULL, vgt_default_keys), 0);
	assert_int_equal(vgt_start(d, 1, NULL), 0);
	EVP_PKEY *ed = vt_load_file(d, "ed25519.pem");
	assert_non_null(ed);
	int fd = dt_connect(d->sock);
	assert_true(fd >= 0);
	static uint8_t out[N * 128];
	size_t ol = 0;
	const char *bad = "vgd-test-violate-sandbox";
	for (int i = 0; i < N; i++) {
		char m[32];
		int ml = snprintf(m, sizeof(m), "good %d", i);
		long n = i == BAD ? dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "ed",
						VG_ALG_ED25519, bad, strlen(bad))
				  : dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "ed",
						VG_ALG_ED25519, m, (size_t)ml);
		assert_true(n > 0);
		ol += (size_t)n;
	}
	assert_int_equal(dt_send_all(fd, out, ol), 0);
	int seen[N] = {0}, ok = 0;
	for (int k = 0; k < N; k++) {
		uint8_t buf[512];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 20000, &rep), 0);
		assert_true(rep.id < N && !seen[rep.id]++);
		if (rep.id == BAD) {
			assert_int_equal(rep.status, VG_ST_INTERNAL);
			continue;
		}
		char m[32];
		int ml = snprintf(m, sizeof(m), "good %u", rep.id);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(vt_verify(ed, VGC_ALG_ED25519, (const uint8_t *)m, (size_t)ml,
				      rep.result, rep.result_len));
		ok++;
	}
	assert_int_equal(ok, N - 1);
	close(fd);
	pid_t kh[8];
	assert_int_equal(dt_wait_children(d, "vgd-keyholder", 2, 0, kh), 2);
	printf("# 1 poison request among %d: %d answered OK, %d keyholders died\n", N, ok,
	       vgt_log_count(d, "called mkdir"));
	assert_int_equal(vgt_log_count(d, "called mkdir"), 2);
	assert_int_equal(dt_stat(d->sock, "requests.poisoned"), 1);
	assert_true(dt_wait_log(d, "giving up on a request of uid", 1, 5000));
	EVP_PKEY_free(ed);
	assert_int_equal(vgt_finish(d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyholders_killed),
		cmocka_unit_test(test_sandbox_violation),
		cmocka_unit_test(test_crash_loop_backs_off),
		cmocka_unit_test(test_poison_among_good),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
