/* test_access.c: access control by uid/gid (SO_PEERCRED) and key policy.
 * The test runs as root: keys are configured for root and for other ids,
 * and a forked child that switches to uid 12345 / gid 54321 checks the
 * other side. A key outside the caller's uids/gids is answered exactly as
 * a key that does not exist, for every operation (the reply frames are
 * compared byte for byte), and logged; a policy refusal (NOT_ALLOWED)
 * names what the policy allows. */
#include <grp.h>
#include <setjmp.h>
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
#include "vg/proto_tables.h"

#define OTHER_UID 12345
#define OTHER_GID 54321

static const char keys[] =
	"[key ed-root]\nfile = ed25519.pem\nallow = sign\nuids = 0\n\n"
	"[key ed-other]\nfile = ed25519.pem\nallow = sign\nuids = 12345, 777\n\n"
	"[key ed-othergid]\nfile = ed25519.pem\nallow = sign\ngids = 54321\n\n"
	"[key ed-rootgid]\nfile = ed25519.pem\nallow = sign\ngids = 0\n\n"
	"[key ed-anyone]\nfile = ed25519.pem\nallow = sign\n\n"
	"[key ed-tls]\nfile = ed25519-b.pem\nallow = tls13\n\n"
	"[key rsa-tls]\nfile = rsa2048-pkcs1.pem\nallow = tls13\n\n"
	"[key rsa-sign]\nfile = rsa2048.pem\nallow = sign\n\n"
	"[key rsa-priv]\nfile = rsa2048.pem\nallow = rsa-private\n\n"
	"[key x]\nfile = x25519.pem\nallow = x25519\n\n"
	"[key x-other]\nfile = x25519.pem\nallow = x25519\nuids = 12345\n\n"
	"[key rsa-other]\nfile = rsa2048.pem\nallow = sign, rsa-private\nuids = 12345\n";

static vgt_daemon D;

static int setup(void **state)
{
	(void)state;
	if (vgt_setup(&D, "socket_mode = 0666\n", keys) < 0 || vgt_start(&D, 0, NULL) < 0)
		return -1;
	/* Let the unprivileged child reach the socket (not the key files,
	 * which stay 0600). */
	return chmod(D.dir, 0711);
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

static int sign(vg_client *c, const char *key)
{
	uint8_t sig[512];
	size_t sl;
	return vg_client_sign(c, key, VGC_ALG_ED25519, "msg", 3, sig, sizeof(sig), &sl);
}

static void test_root_side(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		printf("# not root: skipped\n");
		skip();
	}
	vg_client *c = vg_client_new(D.sock);
	int denied0 = vgt_log_count(&D, "denied: uid 0");
	assert_int_equal(sign(c, "ed-root"), 0);
	assert_int_equal(sign(c, "ed-rootgid"), 0);
	assert_int_equal(sign(c, "ed-anyone"), 0);
	/* A key outside the caller's uids/gids looks like no key at all. */
	assert_int_equal(sign(c, "ed-other"), VGC_E_UNKNOWN_KEY);
	assert_string_equal(vg_client_errmsg(c), "vgd: unknown key: no such key");
	assert_int_equal(sign(c, "ed-othergid"), VGC_E_UNKNOWN_KEY);
	/* Each denial is logged with the caller's uid and the key (the log
	 * is the operator's: it may say which it was). */
	assert_true(dt_wait_log(&D, "may not use key 'ed-other'", 1, 2000));
	assert_true(dt_wait_log(&D, "may not use key 'ed-othergid'", 1, 2000));
	assert_int_equal(vgt_log_count(&D, "denied: uid 0") - denied0, 2);
	/* Keys the caller may not use are not listed, not counted, and look
	 * unknown. */
	vgc_key_info *k;
	int n = vg_client_list_keys(c, &k);
	assert_int_equal(n, 8);
	for (int i = 0; i < n; i++)
		assert_true(strcmp(k[i].name, "ed-other") && strcmp(k[i].name, "ed-othergid"));
	free(k);
	assert_int_equal(dt_stat(D.sock, "keys"), 8);
	vgc_key_info one;
	assert_int_equal(vg_client_public_key(c, "ed-other", &one), VGC_E_UNKNOWN_KEY);
	assert_true(dt_stat(D.sock, "requests.unknown_key") >= 3);
	vg_client_free(c);
}

/* One request on fd, its whole reply frame into out; its length. */
static long exchange(int fd, const uint8_t *req, size_t n, uint8_t *out, size_t cap)
{
	assert_int_equal(dt_send_all(fd, req, n), 0);
	long got = dt_read_frame(fd, out, cap, 5000);
	assert_true(got > 0);
	return got;
}

/* A request naming key, of each operation that takes one. */
static long key_request(uint8_t *buf, size_t cap, int op, const char *key)
{
	static const uint8_t data[256] = { 0, 1 };
	vg_request rq;
	memset(&rq, 0, sizeof rq);
	rq.op = (uint8_t)op;
	rq.id = 77;
	snprintf(rq.key, sizeof rq.key, "%s", key);
	rq.data = data;
	rq.has_data = op != VG_OP_PUBLIC_KEY;
	switch (op) {
	case VG_OP_SIGN:
		rq.alg = VG_ALG_RSA_PKCS1_SHA256;
		rq.data_len = 32;
		break;
	case VG_OP_X25519:
		rq.data_len = 32;
		break;
	case VG_OP_RSA_PRIVATE:
		rq.data_len = 256;
		break;
	}
	return vg_request_encode(&rq, buf, cap);
}

/* Every operation on a key the caller may not use gets the very bytes
 * (status UNKNOWN_KEY, reason) it gets for a name no key has: the key's
 * existence does not leak. Keys of each type, each with an ACL that
 * leaves root out. */
static void test_hidden_keys_look_unknown(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		printf("# not root: skipped\n");
		skip();
	}
	static const struct {
		int op;
		const char *hidden;
	} cases[] = {
		{ VG_OP_SIGN, "ed-other" },       { VG_OP_SIGN, "rsa-other" },
		{ VG_OP_X25519, "x-other" },      { VG_OP_RSA_PRIVATE, "rsa-other" },
		{ VG_OP_PUBLIC_KEY, "ed-other" }, { VG_OP_PUBLIC_KEY, "x-other" },
		{ VG_OP_X25519, "ed-othergid" },  { VG_OP_RSA_PRIVATE, "ed-other" },
	};
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t req[512], hidden[512], missing[512];
		long n = key_request(req, sizeof req, cases[i].op, cases[i].hidden);
		assert_true(n > 0);
		long hn = exchange(fd, req, (size_t)n, hidden, sizeof hidden);
		n = key_request(req, sizeof req, cases[i].op, "no-such-key");
		long mn = exchange(fd, req, (size_t)n, missing, sizeof missing);
		vg_reply rep;
		assert_int_equal(vg_reply_decode(missing, (size_t)mn, &rep), VG_ST_OK);
		assert_int_equal(rep.status, VG_ST_UNKNOWN_KEY);
		if (hn != mn || memcmp(hidden, missing, (size_t)mn) != 0)
			fail_msg("%s on '%s' differs from a missing key", vg_op_name(cases[i].op),
				 cases[i].hidden);
	}
	close(fd);
}

/* In a child as uid 12345 gid 54321: exit status = index of the first
 * failed check + 1, 0 if all pass. */
static int child_checks(const char *sock)
{
	gid_t g = OTHER_GID;
	if (setgroups(1, &g) < 0 || setgid(OTHER_GID) < 0 || setuid(OTHER_UID) < 0)
		return 100;
	vg_client *c = vg_client_new(sock);
	int want[][2] = {{0, 0}, {1, 0}, {2, VGC_E_UNKNOWN_KEY}, {3, VGC_E_UNKNOWN_KEY},
			 {4, 0}};
	const char *names[] = {"ed-other", "ed-othergid", "ed-root", "ed-rootgid", "ed-anyone"};
	for (int i = 0; i < 5; i++)
		if (sign(c, names[want[i][0]]) != want[i][1])
			return i + 1;
	vgc_key_info *k;
	int n = vg_client_list_keys(c, &k);
	if (n != 10) /* 12 keys; ed-root and ed-rootgid are hidden */
		return 20;
	free(k);
	vg_client_free(c);
	return 0;
}

static void test_other_uid_side(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		printf("# not root: skipped\n");
		skip();
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_checks(D.sock));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("unprivileged child failed check %d", WEXITSTATUS(st));
	assert_true(dt_wait_log(&D, "denied: uid 12345 gid 54321", 2, 2000));
}

static void test_policy(void **state)
{
	(void)state;
	vg_client *c = vg_client_new(D.sock);
	uint8_t sig[512], dg[32] = {1}, h[48] = {2}, out[512];
	size_t sl;
	/* TLS 1.3-only keys refuse arbitrary signing, and sign in TLS 1.3 mode. */
	assert_int_equal(vg_client_sign(c, "ed-tls", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	/* every policy refusal names what the policy does allow */
	assert_string_equal(vg_client_errmsg(c), "vgd: not allowed: key policy does not allow "
						 "sign; it allows only tls13");
	assert_int_equal(vg_client_sign(c, "rsa-tls", VGC_ALG_RSA_PKCS1_SHA256, dg, 32, sig,
					sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	assert_int_equal(vg_client_sign_tls13(c, "ed-tls", VGC_TLS_SERVER, h, 48, sig, sizeof(sig), &sl),
			 0);
	assert_int_equal(sl, 64);
	assert_int_equal(vg_client_sign_tls13(c, "rsa-tls", VGC_TLS_CLIENT, h, 32, sig, sizeof(sig), &sl),
			 0);
	assert_int_equal(sl, 256);
	/* rsa-private needs its own permission; x25519 keys do only x25519. */
	uint8_t in[256] = {0};
	in[255] = 5;
	assert_int_equal(vg_client_rsa_private(c, "rsa-sign", in, 256, out, sizeof(out), &sl),
			 VGC_E_NOT_ALLOWED);
	assert_string_equal(vg_client_errmsg(c), "vgd: not allowed: key policy does not allow "
						 "rsa-private; it allows only sign");
	/* (this one said "allows only TLS 1.3 signing") */
	assert_int_equal(vg_client_sign(c, "rsa-priv", VGC_ALG_RSA_PKCS1_SHA256, dg, 32, sig,
					sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	assert_string_equal(vg_client_errmsg(c), "vgd: not allowed: key policy does not allow "
						 "sign; it allows only rsa-private");
	assert_int_equal(vg_client_sign_tls13(c, "rsa-priv", VGC_TLS_SERVER, h, 48, sig,
					      sizeof(sig), &sl),
			 VGC_E_NOT_ALLOWED);
	assert_string_equal(vg_client_errmsg(c), "vgd: not allowed: key policy does not allow "
						 "tls13 signing; it allows only rsa-private");
	assert_int_equal(vg_client_sign(c, "x", VGC_ALG_ED25519, "x", 1, sig, sizeof(sig), &sl),
			 VGC_E_BAD_INPUT);
	uint8_t peer[32] = {9};
	assert_int_equal(vg_client_x25519(c, "x", peer, out), 0);
	assert_int_equal(vg_client_ping(c), 0); /* still connected */
	vg_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_side),
		cmocka_unit_test(test_other_uid_side),
		cmocka_unit_test(test_hidden_keys_look_unknown),
		cmocka_unit_test(test_policy),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
