/* test_reload.c: SIGHUP with a new key (served afterwards; a connection
 * opened before keeps working; requests in flight across the reload are
 * all answered), with reloadable limits, and with a broken config or key
 * (the running set is kept, the log says why). SIGTERM with requests in
 * flight: all answered before the daemon exits. */
#include <openssl/sha.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static const char new_key[] = "[key ed-new]\nfile = ed25519-b.pem\nallow = sign\n";

static void keys_plus(char *buf, size_t cap, const char *extra)
{
	snprintf(buf, cap, "%s\n%s", vgt_default_keys, extra);
}

static int sign_ok(vg_client *c, const char *key)
{
	uint8_t sig[64];
	size_t sl;
	return vg_client_sign(c, key, VGC_ALG_ED25519, "m", 1, sig, sizeof(sig), &sl);
}

static void test_sighup(void **state)
{
	(void)state;
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, NULL, vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	EVP_PKEY *edb = vt_load_file(&d, "ed25519-b.pem"), *rsa = vt_load_file(&d, "rsa2048.pem");
	vg_client *c = vg_client_new(d.sock);
	assert_int_equal(sign_ok(c, "ed-new"), VGC_E_UNKNOWN_KEY);
	/* A raw connection opened before the reload, with 100 requests in
	 * flight across it. */
	int fd = dt_connect(d.sock);
	assert_true(fd >= 0);
	enum { N = 100 };
	static uint8_t out[N * 128];
	size_t ol = 0;
	uint8_t dg[N][32];
	for (int i = 0; i < N; i++) {
		uint8_t m[16];
		int ml = snprintf((char *)m, sizeof(m), "r%d", i);
		SHA256(m, (size_t)ml, dg[i]);
		ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "rsa2048",
					  VG_ALG_RSA_PKCS1_SHA256, dg[i], 32);
	}
	char k[8192];
	keys_plus(k, sizeof(k), new_key);
	assert_int_equal(vgt_write_config(&d, "max_inflight = 7\n", k), 0);
	assert_int_equal(dt_send_all(fd, out, ol), 0);
	assert_int_equal(kill(d.pid, SIGHUP), 0);
	int seen[N] = {0};
	for (int i = 0; i < N; i++) {
		uint8_t buf[1024];
		vg_reply rep;
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 30000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(rep.id < N);
		assert_int_equal(seen[rep.id]++, 0);
		assert_true(vt_verify(rsa, VGC_ALG_RSA_PKCS1_SHA256, dg[rep.id], 32, rep.result, rep.result_len));
	}
	assert_true(dt_wait_log(&d, "key set 1 installed", 1, 10000));
	/* The new key is served, on the old connection and on a new one. */
	uint8_t req[256], buf[512];
	long n = dt_req_sign(req, sizeof(req), 500, "ed-new", VG_ALG_ED25519, "after", 5);
	assert_int_equal(dt_send_all(fd, req, (size_t)n), 0);
	vg_reply rep;
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_OK);
	assert_true(vt_verify(edb, VGC_ALG_ED25519, (const uint8_t *)"after", 5, rep.result,
			      rep.result_len));
	assert_int_equal(sign_ok(c, "ed-new"), 0);
	/* The limits were reloaded too. */
	vgc_hello h;
	assert_int_equal(vg_client_hello(c, &h), 0);
	assert_int_equal(h.max_inflight, 7);
	assert_true(dt_wait_log(&d, "reloaded: 10 key(s)", 1, 1000));

	/* A broken config: the running set stays, the log says why. */
	assert_int_equal(vgt_write_config(&d, "no_such_setting = 1\n", k), 0);
	assert_int_equal(kill(d.pid, SIGHUP), 0);
	assert_true(dt_wait_log(&d, "unknown setting 'no_such_setting'", 1, 10000));
	assert_true(vgt_log_count(&d, "reload failed, keeping the running configuration") >= 1);
	assert_int_equal(sign_ok(c, "ed-new"), 0);
	/* A key file others may read: refused with the file and the reason. */
	char p[512];
	keys_plus(k, sizeof(k), "[key ed-loose]\nfile = loose.pem\nallow = sign\n");
	vgt_key(&d, "loose.pem", p, sizeof(p));
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n", f);
	fclose(f);
	chmod(p, 0644);
	assert_int_equal(vgt_write_config(&d, NULL, k), 0);
	assert_int_equal(kill(d.pid, SIGHUP), 0);
	assert_true(dt_wait_log(&d, "reload failed, keeping the running keys", 1, 10000));
	assert_true(vgt_log_count(&d, "loose.pem") >= 1);
	assert_true(vgt_log_count(&d, "gives access to other users") >= 1);
	assert_int_equal(sign_ok(c, "ed-new"), 0);
	assert_int_equal(sign_ok(c, "ed-loose"), VGC_E_UNKNOWN_KEY);
	assert_int_equal(dt_stat(d.sock, "keys.generation"), 1);
	/* The first connection is still there. */
	n = dt_req_simple(req, sizeof(req), VG_OP_PING, 501);
	assert_int_equal(dt_send_all(fd, req, (size_t)n), 0);
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.id, 501);
	close(fd);
	vg_client_free(c);
	EVP_PKEY_free(edb);
	EVP_PKEY_free(rsa);
	assert_int_equal(vgt_log_count(&d, "sandbox violation"), 0);
	assert_int_equal(vgt_finish(&d), 0);
}

static void test_sigterm_in_flight(void **state)
{
	(void)state;
	enum { N = 50 };
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "drain_timeout = 60\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	EVP_PKEY *rsa = vt_load_file(&d, "rsa4096.pem");
	int fd = dt_connect(d.sock);
	assert_true(fd >= 0);
	static uint8_t out[N * 128 + 64];
	size_t ol = 0;
	uint8_t dg[N][32];
	for (int i = 0; i < N; i++) {
		uint8_t m[16];
		int ml = snprintf((char *)m, sizeof(m), "t%d", i);
		SHA256(m, (size_t)ml, dg[i]);
		ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i, "rsa4096",
					  VG_ALG_RSA_PKCS1_SHA256, dg[i], 32);
	}
	/* A ping after them: its reply proves the daemon has read all 50
	 * (pings are answered at once, signatures take a while). */
	ol += (size_t)dt_req_simple(out + ol, sizeof(out) - ol, VG_OP_PING, 999);
	assert_int_equal(dt_send_all(fd, out, ol), 0);
	int seen[N] = {0}, got = 0, ping = 0;
	uint8_t buf[1024];
	vg_reply rep;
	while (!ping) {
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 30000, &rep), 0);
		if (rep.id == 999) {
			ping = 1;
			break;
		}
		assert_int_equal(rep.status, VG_ST_OK);
		assert_int_equal(seen[rep.id]++, 0);
		got++;
	}
	assert_int_equal(kill(d.pid, SIGTERM), 0);
	printf("# %d of %d answered before SIGTERM\n", got, N);
	while (got < N) {
		assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 60000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
		assert_true(rep.id < N);
		assert_int_equal(seen[rep.id]++, 0);
		assert_true(vt_verify(rsa, VGC_ALG_RSA_PKCS1_SHA256, dg[rep.id], 32, rep.result, rep.result_len));
		got++;
	}
	/* Then the connection error PROTOCOL.md 7.1 promises, and the end. */
	assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 20000, &rep), 0);
	assert_true(rep.conn_error && rep.status == VG_ST_UNAVAILABLE);
	assert_int_equal(dt_wait_closed(fd, 20000), 1);
	close(fd);
	/* The supervisor exits on its own, with status 0. */
	int st = -1;
	long long deadline = dt_now_ms() + 20000;
	while (waitpid(d.pid, &st, WNOHANG) == 0 && dt_now_ms() < deadline)
		usleep(20000);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		vgt_dump_log(&d);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	d.pid = 0;
	assert_true(vgt_log_count(&d, "front (pid") >= 1);
	assert_int_equal(vgt_log_count(&d, "unanswered"), 0);
	assert_int_equal(vgt_log_count(&d, "sandbox violation"), 0);
	/* The socket file is gone. */
	assert_int_equal(access(d.sock, F_OK), -1);
	EVP_PKEY_free(rsa);
	vgt_cleanup(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sighup),
		cmocka_unit_test(test_sigterm_in_flight),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
