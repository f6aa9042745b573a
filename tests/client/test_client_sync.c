/* test_client_sync.c: libvgclient's synchronous API against a real vgd
 * (tests/integration harness): every call, results checked with OpenSSL;
 * errors; reconnect after a daemon restart; a forked child on its own
 * connection; the timeout against a server that never answers; a
 * connection refused by the daemon (a connection error) reported with its
 * status and reason; an error reply with id 0 (not a connection error)
 * treated as a broken connection; a long SERVER text cut safely. */
#include <errno.h>
#include <openssl/rand.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "verify.h"
#include "vg/proto.h"
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

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_connect_and_hello(void **state)
{
	(void)state;
	assert_int_equal(vg_client_connect(C), 0);
	assert_true(vg_client_fd(C) >= 0);
	assert_int_equal(vg_client_ping(C), 0);
	vgc_hello h;
	assert_int_equal(vg_client_hello(C, &h), 0);
	assert_int_equal(h.n_versions, 1);
	assert_int_equal(h.versions[0], 1);
	assert_int_equal(h.max_inflight, 128);
	assert_int_equal(h.max_frame, 65536);
	assert_true(h.caps & 1); /* pipelining */
	assert_non_null(strstr(h.server, "vgd"));
	assert_int_equal(vg_client_hello(C, NULL), VGC_E_INVALID);
}

static void test_sign_every_alg(void **state)
{
	(void)state;
	static const char *ed_keys[] = {"ed", "ed-der"};
	static const size_t lens[] = {0, 1, 64, 1000, 65000};
	uint8_t *msg = malloc(65000);
	assert_non_null(msg);
	RAND_bytes(msg, 65000);
	for (size_t k = 0; k < 2; k++) {
		void *pk = vt_load(&D, ed_keys[k]);
		assert_non_null(pk);
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			uint8_t sig[64];
			size_t sl = 0;
			assert_int_equal(vg_client_sign(C, ed_keys[k], VGC_ALG_ED25519, msg, lens[i], sig,
							sizeof(sig), &sl),
					 0);
			assert_int_equal(sl, 64);
			assert_true(vt_verify(pk, VGC_ALG_ED25519, msg, lens[i], sig, sl));
		}
		vt_free(pk);
	}
	free(msg);
	static const char *rsa_keys[] = {"rsa2048", "rsa3072", "rsa4096", "rsa-der"};
	for (size_t k = 0; k < 4; k++) {
		void *pk = vt_load(&D, rsa_keys[k]);
		assert_non_null(pk);
		for (int alg = VGC_ALG_RSA_PKCS1_SHA256; alg <= VGC_ALG_RSA_PSS_SHA512; alg++) {
			size_t dl = (size_t[]){32, 48, 64}[(alg - 2) % 3];
			uint8_t dg[64], sig[512];
			size_t sl = 0;
			RAND_bytes(dg, sizeof(dg));
			assert_int_equal(vg_client_sign(C, rsa_keys[k], alg, dg, dl, sig, sizeof(sig), &sl), 0);
			assert_true(vt_verify(pk, alg, dg, dl, sig, sl));
			/* a corrupted signature must not verify: the check can fail */
			sig[sl / 2] ^= 1;
			assert_false(vt_verify(pk, alg, dg, dl, sig, sl));
		}
		vt_free(pk);
	}
}

static void test_sign_tls13(void **state)
{
	(void)state;
	static const char *keys[] = {"ed-tls", "rsa-pkcs1", "ed", "rsa3072"};
	for (size_t k = 0; k < 4; k++) {
		void *pk = vt_load(&D, keys[k]);
		assert_non_null(pk);
		for (int role = VGC_TLS_SERVER; role <= VGC_TLS_CLIENT; role++)
			for (size_t hl = 32; hl <= 64; hl += 16) {
				uint8_t h[64], sig[512];
				size_t sl = 0;
				RAND_bytes(h, sizeof(h));
				assert_int_equal(vg_client_sign_tls13(C, keys[k], role, h, hl, sig, sizeof(sig), &sl), 0);
				assert_true(vt_verify_tls13(pk, role, h, hl, sig, sl));
				/* the other role's content must not verify */
				assert_false(vt_verify_tls13(pk, 3 - role, h, hl, sig, sl));
			}
		vt_free(pk);
	}
	uint8_t h[32] = {0}, sig[512];
	size_t sl;
	/* ed-tls allows only tls13 */
	assert_int_equal(vg_client_sign(C, "ed-tls", VGC_ALG_ED25519, h, 32, sig, sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	assert_int_equal(vg_client_sign_tls13(C, "ed-tls", 3, h, 32, sig, sizeof(sig), &sl), VGC_E_INVALID);
	assert_int_equal(vg_client_sign_tls13(C, "ed-tls", 1, h, 31, sig, sizeof(sig), &sl), VGC_E_INVALID);
}

static void test_x25519_rsa_private(void **state)
{
	(void)state;
	void *pk = vt_load(&D, "x");
	assert_non_null(pk);
	for (int i = 0; i < 4; i++) {
		uint8_t peer[32], shared[32];
		vt_x25519_peer(peer);
		assert_int_equal(vg_client_x25519(C, "x", peer, shared), 0);
		assert_true(vt_check_x25519(pk, peer, shared));
	}
	vt_free(pk);
	uint8_t zero[32] = {0}, out[32];
	assert_int_equal(vg_client_x25519(C, "x", zero, out), VGC_E_BAD_INPUT);
	/* no x25519 bit, and not an X25519 key: refused either way */
	int e = vg_client_x25519(C, "rsa2048", zero, out);
	assert_true(e == VGC_E_NOT_ALLOWED || e == VGC_E_BAD_INPUT);

	static const char *keys[] = {"rsa2048", "rsa4096"};
	for (size_t k = 0; k < 2; k++) {
		pk = vt_load(&D, keys[k]);
		assert_non_null(pk);
		size_t n = k ? 512 : 256;
		uint8_t m[512], r[512];
		size_t rl = 0;
		RAND_bytes(m, sizeof(m));
		m[0] = 0; /* below n */
		assert_int_equal(vg_client_rsa_private(C, keys[k], m, n, r, sizeof(r), &rl), 0);
		assert_true(vt_check_rsa_private(pk, m, n, r, rl));
		/* an output buffer one byte short */
		assert_int_equal(vg_client_rsa_private(C, keys[k], m, n, r, n - 1, &rl), VGC_E_BUFFER);
		vt_free(pk);
	}
}

static void test_keys_pubkey_stats(void **state)
{
	(void)state;
	vgc_key_info *k = NULL;
	int n = vg_client_list_keys(C, &k);
	for (int i = 0; n != 9 && i < n; i++)
		fprintf(stderr, "# key %s type %d\n", k[i].name, k[i].type);
	assert_int_equal(n, 9);
	for (int i = 0; i < n; i++) {
		void *pk = vt_load(&D, k[i].name);
		assert_non_null(pk);
		assert_true(vt_check_public(pk, k[i].pub, k[i].pub_len));
		vgc_key_info one;
		assert_int_equal(vg_client_public_key(C, k[i].name, &one), 0);
		assert_string_equal(one.name, k[i].name);
		assert_int_equal(one.type, k[i].type);
		assert_int_equal(one.ops, k[i].ops);
		assert_int_equal(one.pub_len, k[i].pub_len);
		assert_memory_equal(one.pub, k[i].pub, one.pub_len);
		if (one.type == VGC_KEY_RSA)
			assert_true(one.rsa_e_len >= 1);
		if (strcmp(k[i].name, "ed-tls") == 0)
			assert_int_equal(k[i].ops, VGC_OPS_SIGN_TLS13);
		if (strcmp(k[i].name, "rsa2048") == 0)
			/* sign also permits tls13: vgd may report both bits */
			assert_int_equal(k[i].ops & ~(uint32_t)VGC_OPS_SIGN_TLS13,
					 VGC_OPS_SIGN | VGC_OPS_RSA_PRIVATE);
		vt_free(pk);
	}
	free(k);
	vgc_key_info one;
	assert_int_equal(vg_client_public_key(C, "nope", &one), VGC_E_UNKNOWN_KEY);
	assert_int_equal(vg_client_public_key(C, "", &one), VGC_E_INVALID);
	vgc_stat *s = NULL;
	n = vg_client_stats(C, &s);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		assert_true(s[i].name[0] != 0);
	free(s);
}

static void test_errors(void **state)
{
	(void)state;
	uint8_t sig[512];
	size_t sl;
	assert_int_equal(vg_client_sign(C, "nope", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_UNKNOWN_KEY);
	/* the message carries the daemon's reason after the code's text */
	assert_non_null(strstr(vg_client_errmsg(C), vg_client_strerror(VGC_E_UNKNOWN_KEY)));
	assert_true(strlen(vg_client_errmsg(C)) > strlen(vg_client_strerror(VGC_E_UNKNOWN_KEY)));
	assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, "x", 1, sig, 63, &sl), VGC_E_BUFFER);
	assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_TLS13, "x", 1, sig, sizeof(sig), &sl), VGC_E_INVALID);
	assert_int_equal(vg_client_sign(C, "ed", 0, "x", 1, sig, sizeof(sig), &sl), VGC_E_INVALID);
	char longname[80];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[79] = 0;
	assert_int_equal(vg_client_sign(C, longname, VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_INVALID);
	assert_int_equal(vg_client_ping(C), 0);
	/* every code has its own text */
	static const int codes[] = {VGC_E_CONNECT, VGC_E_IO, VGC_E_TIMEOUT, VGC_E_PROTOCOL,
				    VGC_E_CLOSED, VGC_E_NOMEM, VGC_E_INVALID, VGC_E_BUFFER,
				    VGC_E_CANCELLED, VGC_E_BUSY, VGC_E_MALFORMED, VGC_E_UNAVAILABLE};
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		assert_string_not_equal(vg_client_strerror(codes[i]), "unknown error");
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(vg_client_strerror(codes[i]), vg_client_strerror(codes[j]));
	}
	assert_string_equal(vg_client_strerror(12345), "unknown error");
}

static void test_no_daemon(void **state)
{
	(void)state;
	char p[400];
	snprintf(p, sizeof(p), "%s/absent.sock", D.dir);
	vg_client *c = vg_client_new(p);
	assert_non_null(c);
	assert_int_equal(vg_client_ping(c), VGC_E_CONNECT);
	assert_non_null(strstr(vg_client_errmsg(c), "absent.sock"));
	assert_int_equal(vg_client_connect(c), VGC_E_CONNECT);
	vg_client_free(c);
	char longp[200];
	memset(longp, 'a', sizeof(longp) - 1);
	longp[199] = 0;
	assert_null(vg_client_new(longp));
	/* NULL path: $VGD_SOCKET */
	setenv("VGD_SOCKET", D.sock, 1);
	c = vg_client_new(NULL);
	assert_non_null(c);
	assert_int_equal(vg_client_ping(c), 0);
	vg_client_free(c);
	unsetenv("VGD_SOCKET");
}

/* The daemon restarts between two calls: the second reconnects. */
static void test_restart(void **state)
{
	(void)state;
	void *pk = vt_load(&D, "ed");
	assert_non_null(pk);
	uint8_t sig[64];
	size_t sl;
	assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, "one", 3, sig, sizeof(sig), &sl), 0);
	assert_int_equal(vgt_stop(&D), 0);
	assert_int_equal(vg_client_ping(C), VGC_E_CONNECT);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, "two", 3, sig, sizeof(sig), &sl), 0);
	assert_true(vt_verify(pk, VGC_ALG_ED25519, (const uint8_t *)"two", 3, sig, sl));
	/* Restart again while the client holds an idle, now dead, connection. */
	assert_int_equal(vgt_stop(&D), 0);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, "three", 5, sig, sizeof(sig), &sl), 0);
	assert_true(vt_verify(pk, VGC_ALG_ED25519, (const uint8_t *)"three", 5, sig, sl));
	vt_free(pk);
}

/* A forked child signs on its own connection while the parent keeps
 * signing on the inherited client: neither sees the other's replies. */
static int child_work(vg_client *c, void *pk)
{
	for (int i = 0; i < 200; i++) {
		uint8_t msg[16], sig[64];
		size_t sl;
		memset(msg, 0xc0 | (i & 15), sizeof(msg));
		msg[0] = (uint8_t)i;
		if (vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig, sizeof(sig), &sl) != 0)
			return 1;
		if (!vt_verify(pk, VGC_ALG_ED25519, msg, sizeof(msg), sig, sl))
			return 2;
	}
	return 0;
}

static void test_fork(void **state)
{
	(void)state;
	void *pk = vt_load(&D, "ed");
	assert_non_null(pk);
	assert_int_equal(vg_client_ping(C), 0); /* connected before the fork */
	int parent_fd = vg_client_fd(C);
	assert_true(parent_fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int r = child_work(C, pk);
		/* the child opened its own socket */
		if (r == 0 && vg_client_fd(C) < 0)
			r = 3;
		vg_client_free(C);
		_exit(r);
	}
	for (int i = 0; i < 200; i++) {
		uint8_t msg[16], sig[64];
		size_t sl;
		memset(msg, 0x50, sizeof(msg));
		msg[0] = (uint8_t)i;
		assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, msg, sizeof(msg), sig, sizeof(sig), &sl), 0);
		assert_true(vt_verify(pk, VGC_ALG_ED25519, msg, sizeof(msg), sig, sl));
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* the parent's connection is the same one, still in sync */
	assert_int_equal(vg_client_fd(C), parent_fd);
	assert_int_equal(vg_client_ping(C), 0);
	vt_free(pk);
}

/* A server that accepts connections (the backlog does) and never
 * answers: the call fails with VGC_E_TIMEOUT, not before the timeout. */
static void test_timeout_stalled(void **state)
{
	(void)state;
	char p[400];
	int s = vgt_silent_server(&D, "stall.sock", p, sizeof(p));
	assert_true(s >= 0);
	vg_client *c = vg_client_new(p);
	assert_non_null(c);
	vg_client_set_timeout(c, 300);
	long long t0 = now_ms();
	assert_int_equal(vg_client_ping(c), VGC_E_TIMEOUT);
	long long el = now_ms() - t0;
	fprintf(stderr, "# timeout after %lld ms (timeout 300 ms)\n", el);
	assert_true(el >= 299);
	uint8_t sig[64];
	size_t sl;
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_TIMEOUT);
	assert_non_null(strstr(vg_client_errmsg(c), "timed out"));
	vg_client_free(c);
	close(s);
	unlink(p);
}

/* A daemon at max_connections ends the connection with a connection
 * error (PROTOCOL.md 7.1): the call fails with its status and the
 * daemon's reason, at once (not retried, not a protocol error). */
static void test_refused_connection(void **state)
{
	(void)state;
	vgt_daemon d;
	assert_int_equal(vgt_setup(&d, "max_connections = 1\n", vgt_default_keys), 0);
	assert_int_equal(vgt_start(&d, 0, NULL), 0);
	vg_client *held = vg_client_new(d.sock);
	vg_client *c = vg_client_new(d.sock);
	int ok = 0;
	/* the harness's readiness ping may still count for a moment */
	for (int i = 0; i < 50 && !ok; i++) {
		ok = vg_client_ping(held) == 0;
		if (!ok)
			usleep(50000);
	}
	assert_true(ok);
	assert_int_equal(vg_client_ping(c), VGC_E_OVERLOADED);
	fprintf(stderr, "# refused: %s\n", vg_client_errmsg(c));
	assert_string_equal(vg_client_errmsg(c), "vgd: overloaded, try again: too many connections");
	/* once the other leaves, the same client gets in */
	vg_client_free(held);
	ok = 0;
	for (int i = 0; i < 50 && !ok; i++) {
		ok = vg_client_ping(c) == 0;
		if (!ok)
			usleep(50000);
	}
	assert_true(ok);
	vg_client_free(c);
	assert_int_equal(vgt_finish(&d), 0);
}

static int read_frame(int fd, uint8_t *buf)
{
	if (recv(fd, buf, 16, MSG_WAITALL) != 16)
		return -1;
	uint32_t body = (uint32_t)buf[12] << 24 | (uint32_t)buf[13] << 16 |
			(uint32_t)buf[14] << 8 | buf[15];
	if (body > VG_PROTO_MAX_BODY ||
	    (body && recv(fd, buf + 16, body, MSG_WAITALL) != (ssize_t)body))
		return -1;
	return (int)(16 + body);
}

/* The first connection is answered with the refusal form vgd used before
 * the 0xff connection error (an error reply, opcode 0x80, id 0) and
 * closed; the next is served: hello and ping succeed. */
static void serve_old_refusal(int s)
{
	static uint8_t buf[VG_PROTO_MAX_FRAME];
	uint8_t out[256];
	int fd = accept(s, NULL, NULL);
	if (fd < 0 || read_frame(fd, buf) < 0)
		_exit(1);
	long n = vg_error_encode(0, 0, VG_ST_OVERLOADED, "too many connections", out, sizeof out);
	if (n < 0 || send(fd, out, (size_t)n, MSG_NOSIGNAL) != n)
		_exit(2);
	close(fd);
	if ((fd = accept(s, NULL, NULL)) < 0)
		_exit(3);
	int len;
	while ((len = read_frame(fd, buf)) > 0) {
		vg_request rq;
		if (vg_request_decode(buf, (size_t)len, &rq, NULL) != VG_ST_OK)
			_exit(4);
		vg_writer w;
		vg_frame_begin(&w, out, sizeof out, rq.op | VG_OP_REPLY, 0, rq.id);
		if (rq.op == VG_OP_HELLO) {
			vg_put_u8(&w, VG_T_VERSION, 1);
			vg_put_u32(&w, VG_T_CAPS, 1);
			vg_put_open(&w, VG_T_LIMIT);
			vg_put_u32(&w, VG_T_LIM_MAX_FRAME, 65536);
			vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, 128);
			vg_put_close(&w);
		}
		n = vg_frame_end(&w);
		if (n < 0 || send(fd, out, (size_t)n, MSG_NOSIGNAL) != n)
			_exit(5);
	}
	_exit(0);
}

/* PROTOCOL.md 7.1: only opcode 0xff is a connection error. An error reply
 * with id 0 answers nothing libvgclient sent (its ids are never 0), so it
 * breaks the connection like any stray frame, and the request is sent
 * once more on a new one, instead of failing with the frame's
 * OVERLOADED as a refusal would. */
static void test_id0_error_is_no_refusal(void **state)
{
	(void)state;
	char p[400];
	int s = vgt_silent_server(&D, "old.sock", p, sizeof(p));
	assert_true(s >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		serve_old_refusal(s);
	vg_client *c = vg_client_new(p);
	int r = vg_client_ping(c);
	if (r != 0) {
		/* no second connection comes: the server would wait for it */
		fprintf(stderr, "# %s\n", vg_client_errmsg(c));
		kill(pid, SIGKILL);
	}
	vg_client_free(c);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(s);
	unlink(p);
	assert_int_equal(r, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Serve one hello on s with a SERVER item of server[0, len). */
static void serve_hello(int s, const char *server, size_t len)
{
	int fd = accept(s, NULL, NULL);
	uint8_t req[16], out[1024];
	vg_frame_hdr h;
	if (fd < 0 || recv(fd, req, 16, MSG_WAITALL) != 16 || vg_frame_check(req, 16, &h) != 16)
		_exit(1);
	vg_writer w;
	vg_frame_begin(&w, out, sizeof out, VG_OP_HELLO | VG_OP_REPLY, 0, h.id);
	vg_put_u8(&w, VG_T_VERSION, 1);
	vg_put_u32(&w, VG_T_CAPS, 1);
	vg_put_open(&w, VG_T_LIMIT);
	vg_put_u32(&w, VG_T_LIM_MAX_FRAME, 65536);
	vg_put_u32(&w, VG_T_LIM_MAX_INFLIGHT, 128);
	vg_put_close(&w);
	vg_put(&w, VG_T_SERVER, server, len);
	long n = vg_frame_end(&w);
	if (n < 0 || send(fd, out, (size_t)n, MSG_NOSIGNAL) != n)
		_exit(2);
	char b;
	(void)recv(fd, &b, 1, 0); /* until the client closes */
	_exit(0);
}

/* hello of a fake daemon whose SERVER text is longer than
 * vgc_hello.server: cut to VGC_SERVER_MAX - 1 bytes, at a UTF-8 boundary,
 * NUL-terminated; the rest of the struct intact. */
static void hello_from(const char *server, size_t len, vgc_hello *h)
{
	char p[400];
	int s = vgt_silent_server(&D, "hello.sock", p, sizeof(p));
	assert_true(s >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		serve_hello(s, server, len);
	vg_client *c = vg_client_new(p);
	assert_int_equal(vg_client_hello(c, h), 0);
	vg_client_free(c);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(s);
	unlink(p);
}

static void test_hello_long_server(void **state)
{
	(void)state;
	char server[256];
	vgc_hello h;
	assert_int_equal(sizeof h.server, VGC_SERVER_MAX);
	assert_true(VGC_SERVER_MAX >= 128);
	memset(server, 'a', sizeof server);
	memcpy(server, "vgd 9.9.9 ", 10);
	hello_from(server, 255, &h);
	assert_int_equal(strlen(h.server), VGC_SERVER_MAX - 1);
	assert_memory_equal(h.server, server, VGC_SERVER_MAX - 1);
	assert_int_equal(h.max_inflight, 128);
	/* a 2-byte character across the cut is left out whole */
	server[VGC_SERVER_MAX - 2] = (char)0xc3;
	server[VGC_SERVER_MAX - 1] = (char)0xa9;
	hello_from(server, 200, &h);
	assert_int_equal(strlen(h.server), VGC_SERVER_MAX - 2);
	/* today's daemon's text fits whole */
	assert_int_equal(vg_client_hello(C, &h), 0);
	fprintf(stderr, "# server: %s (%zu bytes)\n", h.server, strlen(h.server));
	assert_true(strlen(h.server) < VGC_SERVER_MAX - 1);
	assert_non_null(strstr(h.server, "p384="));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_and_hello),
		cmocka_unit_test(test_sign_every_alg),
		cmocka_unit_test(test_sign_tls13),
		cmocka_unit_test(test_x25519_rsa_private),
		cmocka_unit_test(test_keys_pubkey_stats),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_daemon),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_timeout_stalled),
		cmocka_unit_test(test_refused_connection),
		cmocka_unit_test(test_id0_error_is_no_refusal),
		cmocka_unit_test(test_hello_long_server),
		cmocka_unit_test(test_restart),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
