/* test_access.c: access control by uid/gid (SO_PEERCRED) and key policy.
 * The test runs as root: keys are configured for root and for other ids,
 * and a forked child that switches to uid 12345 / gid 54321 checks the
 * other side. Denials are answered NOT_ALLOWED and logged. */
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
	"[key x]\nfile = x25519.pem\nallow = x25519\n";

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
	assert_int_equal(sign(c, "ed-other"), VGC_E_NOT_ALLOWED);
	assert_non_null(strstr(vg_client_errmsg(c), "may not use"));
	assert_int_equal(sign(c, "ed-othergid"), VGC_E_NOT_ALLOWED);
	/* Each denial is logged with the caller's uid and the key. */
	assert_true(dt_wait_log(&D, "may not use key 'ed-other'", 1, 2000));
	assert_true(dt_wait_log(&D, "may not use key 'ed-othergid'", 1, 2000));
	assert_int_equal(vgt_log_count(&D, "denied: uid 0") - denied0, 2);
	/* Keys the caller may not use are not listed, and look unknown. */
	vgc_key_info *k;
	int n = vg_client_list_keys(c, &k);
	assert_int_equal(n, 7);
	for (int i = 0; i < n; i++)
		assert_true(strcmp(k[i].name, "ed-other") && strcmp(k[i].name, "ed-othergid"));
	free(k);
	vgc_key_info one;
	assert_int_equal(vg_client_public_key(c, "ed-other", &one), VGC_E_UNKNOWN_KEY);
	assert_true(dt_stat(D.sock, "requests.denied") >= 2);
	vg_client_free(c);
}

/* In a child as uid 12345 gid 54321: exit status = index of the first
 * failed check + 1, 0 if all pass. */
static int child_checks(const char *sock)
{
	gid_t g = OTHER_GID;
	if (setgroups(1, &g) < 0 || setgid(OTHER_GID) < 0 || setuid(OTHER_UID) < 0)
		return 100;
	vg_client *c = vg_client_new(sock);
	int want[][2] = {{0, 0}, {1, 0}, {2, VGC_E_NOT_ALLOWED}, {3, VGC_E_NOT_ALLOWED},
			 {4, 0}};
	const char *names[] = {"ed-other", "ed-othergid", "ed-root", "ed-rootgid", "ed-anyone"};
	for (int i = 0; i < 5; i++)
		if (sign(c, names[want[i][0]]) != want[i][1])
			return i + 1;
	vgc_key_info *k;
	int n = vg_client_list_keys(c, &k);
	if (n != 7)
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
	assert_non_null(strstr(vg_client_errmsg(c), "TLS 1.3"));
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
		cmocka_unit_test(test_policy),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
