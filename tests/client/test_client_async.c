/* test_client_async.c: libvgclient's asynchronous API against a real vgd:
 * every submit call; hundreds of requests in flight whose callbacks each
 * fire exactly once with a result OpenSSL verifies; errors, cancel, free,
 * re-entrancy rules, mixing with synchronous calls, a daemon restart, a
 * forked child, and timeouts against a server that never answers. The
 * event loop is poll(2) on vg_client_fd()/vg_client_events(). */
#include <openssl/rand.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "verify.h"
#include "vgclient.h"

static vgt_daemon D;
static vg_client *C;

static int setup(void **state)
{
	(void)state;
	C = vgt_start_client(&D, 0);
	return C ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	vg_client_free(C);
	return vgt_finish(&D);
}

/* Drive c until nothing is pending (or 30 s of no progress). Returns 0 or
 * -1 on a stall, checking the fd/events/timeout contract on the way. */
static int drain(vg_client *c)
{
	int idle = 0;
	while (vg_client_pending(c) > 0) {
		int fd = vg_client_fd(c), ev = vg_client_events(c), t = vg_client_timeout(c);
		if (ev && fd < 0)
			return -1; /* events without a descriptor */
		if (!ev && t < 0)
			return -1; /* pending work but nothing to wait for */
		struct pollfd p = {fd, (short)ev, 0};
		int r = poll(ev ? &p : NULL, ev ? 1 : 0, t < 0 || t > 1000 ? 1000 : t);
		int n = vg_client_process(c);
		if (n < 0)
			return -1;
		idle = r == 0 && n == 0 ? idle + 1 : 0;
		if (idle > 30)
			return -1;
	}
	return 0;
}

/* One request's record: what was asked and what came back. */
struct rec {
	int op; /* 0 ping, 1 sign, 2 tls13, 3 x25519, 4 rsa */
	const char *key;
	int alg;
	uint8_t in[512];
	size_t in_len;
	int calls;
	int status;
	uint8_t out[512];
	size_t out_len;
	char reason[300];
};

static void rec_cb(int status, const uint8_t *res, size_t len, const char *reason, void *arg)
{
	struct rec *r = arg;
	r->calls++;
	r->status = status;
	if (len > sizeof(r->out))
		len = 0;
	if (res)
		memcpy(r->out, res, len);
	r->out_len = len;
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "(null)");
}

static int submit_rec(vg_client *c, struct rec *r)
{
	switch (r->op) {
	case 0: return vg_client_submit_ping(c, rec_cb, r);
	case 1: return vg_client_submit_sign(c, r->key, r->alg, r->in, r->in_len, rec_cb, r);
	case 2: return vg_client_submit_sign_tls13(c, r->key, r->alg, r->in, r->in_len, rec_cb, r);
	case 3: return vg_client_submit_x25519(c, r->key, r->in, rec_cb, r);
	default: return vg_client_submit_rsa_private(c, r->key, r->in, r->in_len, rec_cb, r);
	}
}

static void *key_cache[16];
static const char *key_names[16];

static void *key_of(const char *name)
{
	for (int i = 0; i < 16; i++) {
		if (key_names[i] && strcmp(key_names[i], name) == 0)
			return key_cache[i];
		if (!key_names[i]) {
			key_names[i] = name;
			key_cache[i] = vt_load(&D, name);
			return key_cache[i];
		}
	}
	return NULL;
}

/* The result is right, checked independently. */
static int rec_ok(struct rec *r)
{
	if (r->calls != 1 || r->status != 0 || strcmp(r->reason, "") != 0)
		return 0;
	void *pk = r->op ? key_of(r->key) : NULL;
	switch (r->op) {
	case 0: return r->out_len == 0;
	case 1: return vt_verify(pk, r->alg, r->in, r->in_len, r->out, r->out_len);
	case 2: return vt_verify_tls13(pk, r->alg, r->in, r->in_len, r->out, r->out_len);
	case 3: return r->out_len == 32 && vt_check_x25519(pk, r->in, r->out);
	default: return vt_check_rsa_private(pk, r->in, r->in_len, r->out, r->out_len);
	}
}

static void make_rec(struct rec *r, int kind)
{
	memset(r, 0, sizeof(*r));
	r->calls = 0;
	switch (kind % 8) {
	case 0: r->op = 0; break;
	case 1: case 5:
		r->op = 1; r->key = "ed"; r->alg = VGC_ALG_ED25519; r->in_len = 1 + (size_t)kind % 200;
		RAND_bytes(r->in, (int)r->in_len);
		break;
	case 2:
		r->op = 1; r->key = "rsa2048"; r->alg = VGC_ALG_RSA_PSS_SHA256; r->in_len = 32;
		RAND_bytes(r->in, 32);
		break;
	case 3:
		r->op = 1; r->key = "rsa2048"; r->alg = VGC_ALG_RSA_PKCS1_SHA512; r->in_len = 64;
		RAND_bytes(r->in, 64);
		break;
	case 4:
		r->op = 2; r->key = "ed-tls"; r->alg = VGC_TLS_CLIENT; r->in_len = 48;
		RAND_bytes(r->in, 48);
		break;
	case 6:
		r->op = 3; r->key = "x"; r->in_len = 32;
		vt_x25519_peer(r->in);
		break;
	default:
		r->op = 4; r->key = "rsa2048"; r->in_len = 256;
		RAND_bytes(r->in, 256);
		r->in[0] = 0;
		break;
	}
}

static void test_each_submit(void **state)
{
	(void)state;
	struct rec r[16];
	for (int i = 0; i < 16; i++) {
		make_rec(&r[i], i);
		assert_int_equal(submit_rec(C, &r[i]), 0);
		assert_int_equal(r[i].calls, 0); /* never from inside the submit */
	}
	assert_int_equal(vg_client_pending(C), 16);
	assert_int_equal(drain(C), 0);
	for (int i = 0; i < 16; i++) {
		if (!rec_ok(&r[i]))
			fail_msg("request %d (op %d, key %s): calls %d status %d (%s)", i, r[i].op,
				 r[i].key ? r[i].key : "-", r[i].calls, r[i].status, r[i].reason);
	}
	/* tls13 with an RSA key: PSS chosen by the hash length */
	struct rec t;
	make_rec(&t, 4);
	t.key = "rsa-pkcs1";
	t.alg = VGC_TLS_SERVER;
	assert_int_equal(submit_rec(C, &t), 0);
	assert_int_equal(drain(C), 0);
	assert_true(rec_ok(&t));
}

/* Hundreds in flight on one connection (above the daemon's 128: the rest
 * wait locally), replies in any order, each callback exactly once. */
static void test_many_in_flight(void **state)
{
	(void)state;
	enum { N = 600 };
	struct rec *r = calloc(N, sizeof(*r));
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		make_rec(&r[i], i);
		assert_int_equal(submit_rec(C, &r[i]), 0);
	}
	assert_int_equal(vg_client_pending(C), N);
	/* more than 128 outstanding: something is queued to go out */
	assert_true(vg_client_events(C) & POLLIN);
	assert_int_equal(drain(C), 0);
	int bad = 0;
	for (int i = 0; i < N; i++)
		if (!rec_ok(&r[i])) {
			if (bad++ < 5)
				fprintf(stderr, "request %d: calls %d status %d (%s)\n", i, r[i].calls,
					r[i].status, r[i].reason);
		}
	assert_int_equal(bad, 0);
	/* nothing fires twice later */
	assert_int_equal(vg_client_process(C), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(r[i].calls, 1);
	free(r);
}

static void test_errors(void **state)
{
	(void)state;
	struct rec r;
	make_rec(&r, 1);
	r.key = "nope";
	assert_int_equal(submit_rec(C, &r), 0);
	struct rec x;
	make_rec(&x, 6);
	memset(x.in, 0, 32); /* low-order point */
	assert_int_equal(submit_rec(C, &x), 0);
	assert_int_equal(drain(C), 0);
	assert_int_equal(r.calls, 1);
	assert_int_equal(r.status, VGC_E_UNKNOWN_KEY);
	assert_true(strlen(r.reason) > 0);
	assert_int_equal(r.out_len, 0);
	assert_int_equal(x.calls, 1);
	assert_int_equal(x.status, VGC_E_BAD_INPUT);
	/* refused locally: the callback never runs */
	struct rec bad;
	make_rec(&bad, 2);
	bad.in_len = 31;
	assert_int_equal(submit_rec(C, &bad), VGC_E_INVALID);
	assert_int_equal(vg_client_submit_ping(C, NULL, NULL), VGC_E_INVALID);
	assert_int_equal(vg_client_submit_x25519(C, "x", NULL, rec_cb, &bad), VGC_E_INVALID);
	assert_int_equal(vg_client_submit_rsa_private(C, "rsa2048", bad.in, 100, rec_cb, &bad), VGC_E_INVALID);
	assert_int_equal(drain(C), 0);
	assert_int_equal(bad.calls, 0);
}

static void test_cancel_and_free(void **state)
{
	(void)state;
	enum { N = 300 };
	struct rec *r = calloc(N, sizeof(*r));
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		make_rec(&r[i], 2);
		assert_int_equal(submit_rec(C, &r[i]), 0);
	}
	vg_client_process(C); /* some may complete */
	int done = 0;
	for (int i = 0; i < N; i++)
		done += r[i].calls;
	int n = vg_client_cancel_all(C);
	assert_int_equal(n + done, N);
	assert_int_equal(vg_client_pending(C), 0);
	for (int i = 0; i < N; i++) {
		assert_int_equal(r[i].calls, 1);
		assert_true(r[i].status == 0 || r[i].status == VGC_E_CANCELLED);
	}
	/* late replies to cancelled requests are discarded; the client works */
	assert_int_equal(vg_client_ping(C), 0);
	uint8_t sig[256];
	size_t sl;
	uint8_t dg[32] = {1};
	assert_int_equal(vg_client_sign(C, "rsa2048", VGC_ALG_RSA_PSS_SHA256, dg, 32, sig, sizeof(sig), &sl), 0);
	assert_true(vt_verify(key_of("rsa2048"), VGC_ALG_RSA_PSS_SHA256, dg, 32, sig, sl));
	for (int i = 0; i < N; i++)
		assert_int_equal(r[i].calls, 1);

	/* free completes whatever is pending, exactly once */
	vg_client *c = vg_client_new(D.sock);
	assert_non_null(c);
	for (int i = 0; i < 50; i++) {
		make_rec(&r[i], 1);
		assert_int_equal(submit_rec(c, &r[i]), 0);
	}
	vg_client_free(c);
	for (int i = 0; i < 50; i++) {
		assert_int_equal(r[i].calls, 1);
		assert_int_equal(r[i].status, VGC_E_CANCELLED);
	}
	free(r);
}

/* Callbacks may submit; they may not process, call synchronously or free. */
struct chain {
	vg_client *c;
	int left, calls, busy_ok;
	struct rec last;
};

static void chain_cb(int status, const uint8_t *res, size_t len, const char *reason, void *arg)
{
	struct chain *ch = arg;
	ch->calls++;
	if (vg_client_process(ch->c) == VGC_E_BUSY && vg_client_ping(ch->c) == VGC_E_BUSY)
		ch->busy_ok++;
	rec_cb(status, res, len, reason, &ch->last);
	ch->last.calls = 1;
	if (status == 0 && ch->left-- > 0) {
		make_rec(&ch->last, 1);
		if (vg_client_submit_sign(ch->c, "ed", VGC_ALG_ED25519, ch->last.in, ch->last.in_len,
					  chain_cb, ch) != 0)
			ch->left = -100;
	}
}

static void test_reentrancy(void **state)
{
	(void)state;
	struct chain ch = {.c = C, .left = 20};
	assert_int_equal(vg_client_submit_ping(C, chain_cb, &ch), 0);
	assert_int_equal(drain(C), 0);
	assert_int_equal(ch.calls, 21);
	assert_int_equal(ch.busy_ok, 21);
	assert_true(rec_ok(&ch.last));
}

/* A synchronous call on a client with asynchronous requests pending runs
 * on the same connection and may run their callbacks. */
static void test_mixed(void **state)
{
	(void)state;
	enum { N = 200 };
	struct rec *r = calloc(N, sizeof(*r));
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		make_rec(&r[i], 1);
		assert_int_equal(submit_rec(C, &r[i]), 0);
	}
	uint8_t sig[64];
	size_t sl;
	assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, "sync", 4, sig, sizeof(sig), &sl), 0);
	assert_true(vt_verify(key_of("ed"), VGC_ALG_ED25519, (const uint8_t *)"sync", 4, sig, sl));
	assert_int_equal(drain(C), 0);
	for (int i = 0; i < N; i++)
		assert_true(rec_ok(&r[i]));
	free(r);
}

/* The daemon restarts between submits: the next request reconnects, on a
 * new descriptor. */
static void test_restart(void **state)
{
	(void)state;
	struct rec r;
	make_rec(&r, 5);
	assert_int_equal(submit_rec(C, &r), 0);
	assert_int_equal(drain(C), 0);
	assert_true(rec_ok(&r));
	int fd1 = vg_client_fd(C);
	assert_true(fd1 >= 0);
	assert_int_equal(vgt_stop(&D), 0);
	/* the idle connection's end is noticed; nothing is pending */
	vg_client_process(C);
	make_rec(&r, 5);
	assert_int_equal(submit_rec(C, &r), VGC_E_CONNECT);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	for (int i = 0; i < 2; i++) {
		make_rec(&r, 5);
		assert_int_equal(submit_rec(C, &r), 0);
		assert_int_equal(drain(C), 0);
		assert_true(rec_ok(&r));
	}
	assert_true(vg_client_fd(C) >= 0);
	/* and once more without giving the client a chance to see the EOF
	 * first: the request goes out on the dead connection and is retried */
	assert_int_equal(vgt_stop(&D), 0);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	make_rec(&r, 5);
	assert_int_equal(submit_rec(C, &r), 0);
	assert_int_equal(drain(C), 0);
	assert_true(rec_ok(&r));
}

/* Requests pending in the parent at fork() are not the child's: the child
 * starts empty, uses its own connection; the parent gets all its results. */
static void test_fork(void **state)
{
	(void)state;
	enum { N = 100 };
	struct rec *r = calloc(N, sizeof(*r));
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		make_rec(&r[i], i);
		assert_int_equal(submit_rec(C, &r[i]), 0);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int code = 0;
		if (vg_client_pending(C) != 0)
			code = 10;
		struct rec *k = calloc(N, sizeof(*k));
		for (int i = 0; k && code == 0 && i < N; i++) {
			make_rec(&k[i], i + 1);
			if (submit_rec(C, &k[i]) != 0)
				code = 11;
		}
		if (code == 0 && drain(C) != 0)
			code = 12;
		for (int i = 0; k && code == 0 && i < N; i++)
			if (!rec_ok(&k[i]))
				code = 13;
		for (int i = 0; code == 0 && i < N; i++)
			if (r[i].calls != 0)
				code = 14; /* a parent callback ran in the child */
		vg_client_free(C);
		for (int i = 0; code == 0 && i < N; i++)
			if (r[i].calls != 0)
				code = 15; /* ... or on free */
		free(k);
		free(r);
		_exit(code);
	}
	assert_int_equal(drain(C), 0);
	for (int i = 0; i < N; i++)
		assert_true(rec_ok(&r[i]));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	free(r);
}

/* A server that never answers: each request completes with
 * VGC_E_TIMEOUT via vg_client_timeout()/process(), exactly once. */
static void test_timeout(void **state)
{
	(void)state;
	char p[400];
	int s = vgt_silent_server(&D, "stall-a.sock", p, sizeof(p));
	assert_true(s >= 0);
	vg_client *c = vg_client_new(p);
	assert_non_null(c);
	vg_client_set_timeout(c, 200);
	enum { N = 140 }; /* above the in-flight limit: some time out queued */
	struct rec *r = calloc(N, sizeof(*r));
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		make_rec(&r[i], 1);
		assert_int_equal(submit_rec(c, &r[i]), 0);
	}
	int t = vg_client_timeout(c);
	assert_true(t > 0 && t <= 200);
	assert_int_equal(drain(c), 0);
	for (int i = 0; i < N; i++) {
		assert_int_equal(r[i].calls, 1);
		assert_int_equal(r[i].status, VGC_E_TIMEOUT);
	}
	assert_int_equal(vg_client_timeout(c), -1);
	/* the stalled connection was replaced (all 128 slots timed out) or is
	 * still usable: either way a new request also times out, once */
	make_rec(&r[0], 1);
	assert_int_equal(submit_rec(c, &r[0]), 0);
	assert_int_equal(drain(c), 0);
	assert_int_equal(r[0].calls, 1);
	assert_int_equal(r[0].status, VGC_E_TIMEOUT);
	vg_client_free(c);
	free(r);
	close(s);
	unlink(p);
}

static void test_connect_start(void **state)
{
	(void)state;
	vg_client *c = vg_client_new(D.sock);
	assert_non_null(c);
	assert_int_equal(vg_client_fd(c), -1);
	assert_int_equal(vg_client_events(c), 0);
	assert_int_equal(vg_client_timeout(c), -1);
	int r = vg_client_connect_start(c);
	assert_true(r == 0 || r == 1);
	for (int i = 0; r == 1 && i < 1000; i++) {
		struct pollfd p = {vg_client_fd(c), (short)vg_client_events(c), 0};
		poll(p.events ? &p : NULL, p.events ? 1 : 0, 10);
		vg_client_process(c);
		r = vg_client_connect_start(c);
	}
	assert_int_equal(r, 0);
	assert_true(vg_client_fd(c) >= 0);
	assert_int_equal(vg_client_events(c), POLLIN);
	char p[400];
	snprintf(p, sizeof(p), "%s/none.sock", D.dir);
	vg_client *d = vg_client_new(p);
	assert_int_equal(vg_client_connect_start(d), VGC_E_CONNECT);
	vg_client_free(d);
	vg_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_start),
		cmocka_unit_test(test_each_submit),
		cmocka_unit_test(test_many_in_flight),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_cancel_and_free),
		cmocka_unit_test(test_reentrancy),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_restart),
	};
	int r = cmocka_run_group_tests(tests, setup, teardown);
	for (int i = 0; i < 16; i++)
		vt_free(key_cache[i]);
	return r;
}
