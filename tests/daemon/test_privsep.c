/* test_privsep.c: what separates vgd's processes and callers from each
 * other, beyond seccomp:
 *   front_user      started as root, the front runs as a user of its own:
 *                   the kernel refuses to let it signal a keyholder or the
 *                   supervisor (vgd-testhooks asks it with kill(pid, 0));
 *   keyholder mlock the keyholders lock their own key memory (VmLck);
 *   keyholder ACL   a record whose caller the key's uids do not allow is
 *                   refused by the keyholder even when the front let it
 *                   through (vgd-testhooks forges one);
 *   per-uid limits  one uid cannot take every connection, nor fill the
 *                   queue ahead of another uid's requests;
 *   socket          mode and group are right with every chmod/chown by
 *                   path refused (tests/daemon/nochown.c). */
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

#define NOBODY 65534

static vgt_daemon D;

static void need_root(void)
{
	if (geteuid() != 0) {
		printf("# not root: vgd drops no privileges; skipped\n");
		skip();
	}
}

/* The front cannot signal the keyholders or the supervisor: a different
 * uid (the kernel's check alone: the testhooks filter lets the probe
 * through). Keyholders as root (no user line), then as user daemon. */
static void front_cannot_signal(const char *globals)
{
	assert_int_equal(vgt_setup(&D, globals, vgt_default_keys), 0);
	assert_int_equal(vgt_start(&D, 1, NULL), 0);
	pid_t kh[8], fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	assert_int_equal(dt_proc_status(fr[0], "Uid"), NOBODY);
	char cmd[64], out[64];
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "kill:%d", (int)kh[i]);
		assert_int_equal(dt_front_hook(D.sock, cmd, out, sizeof(out)), 0);
		assert_string_equal(out, "errno=1"); /* EPERM */
	}
	snprintf(cmd, sizeof(cmd), "kill:%d", (int)D.pid);
	assert_int_equal(dt_front_hook(D.sock, cmd, out, sizeof(out)), 0);
	assert_string_equal(out, "errno=1");
	/* The probe itself works: the front may signal itself. */
	snprintf(cmd, sizeof(cmd), "kill:%d", (int)fr[0]);
	assert_int_equal(dt_front_hook(D.sock, cmd, out, sizeof(out)), 0);
	assert_string_equal(out, "errno=0");
	assert_int_equal(dt_stop_clean(&D), 0);
}

static void test_front_cannot_signal(void **state)
{
	(void)state;
	need_root();
	front_cannot_signal(NULL);
	struct passwd *pw = getpwnam("daemon");
	if (pw && pw->pw_uid != 0 && pw->pw_uid != NOBODY)
		front_cannot_signal("user = daemon\n");
	/* The front never runs as the keyholders' user. */
	assert_int_equal(vgt_setup(&D, "user = nobody\n", vgt_default_keys), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(D.log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		dup2(fd, 2);
		execl(getenv("VG_VGD"), "vgd", "-c", D.conf, (char *)NULL);
		_exit(127);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	assert_int_equal(vgt_log_count(&D, "front_user 'nobody' is the keyholders' user"), 1);
	vgt_cleanup(&D);
}

static void test_keyholders_lock_keys(void **state)
{
	(void)state;
#ifdef __SANITIZE_ADDRESS__
	/* ASan makes mlock a no-op (tests/sanitize). */
	printf("# built with AddressSanitizer, which ignores mlock: skipped\n");
	skip();
#endif
	assert_int_equal(vgt_setup(&D, NULL, vgt_default_keys), 0);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	pid_t kh[8], fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	/* A keyholder is named before it locks its copy of the keys (right
	 * after fork): give it until it could have served a request. */
	for (int i = 0; i < 2; i++) {
		long kb = 0;
		for (int t = 0; t < 200 && kb <= 0; t++) {
			kb = dt_proc_status(kh[i], "VmLck");
			if (kb <= 0)
				usleep(10000);
		}
		printf("# keyholder %d: VmLck %ld kB\n", (int)kh[i], kb);
		assert_true(kb > 0);
	}
	assert_int_equal(vgt_log_count(&D, "could not mlock key memory"), 0);
	/* The front has no key memory to lock. */
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	assert_int_equal(dt_proc_status(fr[0], "VmLck"), 0);
	assert_int_equal(dt_stop_clean(&D), 0);
}

static void test_keyholder_checks_caller(void **state)
{
	(void)state;
	assert_int_equal(vgt_setup(&D, NULL,
				   "[key ed-acl]\nfile = ed25519.pem\nallow = sign\nuids = 0\n"),
			 0);
	assert_int_equal(vgt_start(&D, 1, NULL), 0);
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 10000);
	uint8_t sig[64];
	size_t sl;
	const char *forged = "vgd-test-front:forge-uid";
	/* Running as uid 0 we may use it; the front, told to, claims uid 4242
	 * in its record, and the keyholder refuses it as the front would: a
	 * key the caller may not use is one it cannot see. */
	assert_int_equal(vg_client_sign(c, "ed-acl", VGC_ALG_ED25519, forged, strlen(forged), sig,
					sizeof(sig), &sl),
			 VGC_E_UNKNOWN_KEY);
	if (geteuid() == 0)
		assert_int_equal(vg_client_sign(c, "ed-acl", VGC_ALG_ED25519, "ok", 2, sig,
						sizeof(sig), &sl),
				 0);
	vg_client_free(c);
	assert_int_equal(dt_stop_clean(&D), 0);
}

/* A raw connection as uid (effective: SO_PEERCRED reports it). */
static int connect_as(uid_t uid)
{
	assert_int_equal(seteuid(uid), 0);
	int fd = dt_connect(D.sock);
	assert_int_equal(seteuid(0), 0);
	return fd;
}

static void test_per_uid_connections(void **state)
{
	(void)state;
	need_root();
	assert_int_equal(vgt_setup(&D, "socket_mode = 0666\nmax_connections_per_uid = 4\n",
				   vgt_default_keys),
			 0);
	assert_int_equal(chmod(D.dir, 0711), 0);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	int fds[4];
	uint8_t req[64], buf[512];
	vg_reply rep;
	long n = dt_req_simple(req, sizeof(req), VG_OP_PING, 7);
	for (int i = 0; i < 4; i++) {
		fds[i] = connect_as(NOBODY);
		assert_true(fds[i] >= 0);
		assert_int_equal(dt_send_all(fds[i], req, (size_t)n), 0);
		assert_int_equal(dt_read_reply(fds[i], buf, sizeof(buf), 5000, &rep), 0);
		assert_int_equal(rep.status, VG_ST_OK);
	}
	/* The fifth of that uid is told why and closed... */
	int extra = connect_as(NOBODY);
	assert_true(extra >= 0);
	assert_int_equal(dt_read_reply(extra, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_OVERLOADED);
	assert_int_equal(dt_wait_closed(extra, 5000), 1);
	close(extra);
	/* ...another uid is served... */
	int other = connect_as(0);
	assert_int_equal(dt_send_all(other, req, (size_t)n), 0);
	assert_int_equal(dt_read_reply(other, buf, sizeof(buf), 5000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_OK);
	close(other);
	assert_int_equal(dt_stat(D.sock, "connections.refused_uid"), 1);
	/* ...and the first uid again once it closes one. */
	close(fds[0]);
	int again = -1;
	for (int i = 0; i < 50; i++, usleep(20000)) {
		again = connect_as(NOBODY);
		if (dt_send_all(again, req, (size_t)n) == 0 &&
		    dt_read_reply(again, buf, sizeof(buf), 5000, &rep) == 0 &&
		    rep.status == VG_ST_OK)
			break;
		close(again);
		again = -1;
	}
	assert_true(again >= 0);
	close(again);
	for (int i = 1; i < 4; i++)
		close(fds[i]);
	assert_int_equal(dt_stop_clean(&D), 0);
}

/* One uid pipelines many slow requests on several connections; another
 * uid's one request must not wait for them all: with the limit it is
 * answered while most of them are still to come (without it, it queued
 * behind all of them: the queue is first come, first served). */
/* Bytes of replies waiting in the n sockets' receive queues. */
static int waiting_bytes(const int *fds, int n)
{
	int sum = 0;
	for (int k = 0; k < n; k++) {
		int q = 0;
		assert_int_equal(ioctl(fds[k], FIONREAD, &q), 0);
		sum += q;
	}
	return sum;
}

static void test_per_uid_inflight(void **state)
{
	(void)state;
	need_root();
	enum { CONNS = 4, PER = 128, MANY = CONNS * PER };
	assert_int_equal(vgt_setup(&D,
				   "socket_mode = 0666\nkeyholders = 1\nmax_inflight_per_uid = 4\n",
				   vgt_default_keys),
			 0);
	assert_int_equal(chmod(D.dir, 0711), 0);
	assert_int_equal(vgt_start(&D, 0, NULL), 0);
	static uint8_t out[PER * 128], buf[4096];
	uint8_t digest[32] = {1};
	int a[CONNS];
	for (int k = 0; k < CONNS; k++) {
		size_t ol = 0;
		for (int i = 0; i < PER; i++)
			ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i + 1,
						  "rsa4096", VG_ALG_RSA_PKCS1_SHA256, digest,
						  sizeof(digest));
		a[k] = connect_as(NOBODY);
		assert_true(a[k] >= 0);
		/* Fits the socket's buffer: sent even while vgd does not read. */
		assert_int_equal(dt_send_all(a[k], out, ol), 0);
	}
	usleep(50000); /* vgd has read what it will of them */
	int b = connect_as(0);
	long n = dt_req_sign(out, sizeof(out), 9999, "ed", VG_ALG_ED25519, "b", 1);
	/* The first uid's replies that wait in its sockets (replies have one
	 * size), when the other uid asks and when it is answered: what was
	 * answered in between is what it waited for. Before it asked does
	 * not count (a loaded machine can delay the test itself). */
	int waiting_before = waiting_bytes(a, CONNS);
	assert_int_equal(dt_send_all(b, out, (size_t)n), 0);
	vg_reply rep;
	assert_int_equal(dt_read_reply(b, buf, sizeof(buf), 60000, &rep), 0);
	assert_int_equal(rep.status, VG_ST_OK);
	int waiting = waiting_bytes(a, CONNS) - waiting_before;
	/* Every one of them is answered, OK. */
	long frame = 0;
	for (int k = 0; k < CONNS; k++)
		for (int i = 0; i < PER; i++) {
			long got = dt_read_frame(a[k], buf, sizeof(buf), 60000);
			assert_true(got > 0);
			assert_int_equal(vg_reply_decode(buf, (size_t)got, &rep), VG_ST_OK);
			assert_int_equal(rep.status, VG_ST_OK);
			frame = got;
		}
	int before = (int)(waiting / frame);
	printf("# the other uid's request waited for %d of the first uid's %d\n", before, MANY);
	assert_true(before <= MANY / 2);
	for (int k = 0; k < CONNS; k++)
		close(a[k]);
	close(b);
	assert_int_equal(dt_stop_clean(&D), 0);
}

/* vgd under nochown: no chmod or chown by path can succeed, yet the
 * socket has its mode and group. */
static void test_socket_without_path_race(void **state)
{
	(void)state;
	need_root();
	struct group *g = getgrnam("daemon");
	if (!g)
		g = getgrnam("nogroup");
	assert_non_null(g);
	char globals[128];
	snprintf(globals, sizeof(globals), "socket_mode = 0620\nsocket_group = %s\n", g->gr_name);
	assert_int_equal(vgt_setup(&D, globals, vgt_default_keys), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(D.log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		dup2(fd, 2);
		const char *nochown = getenv("VG_NOCHOWN");
		execl(nochown, nochown, getenv("VG_VGD"), "-c", D.conf, (char *)NULL);
		_exit(127);
	}
	D.pid = pid;
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 1000);
	int up = 0;
	for (int i = 0; i < 200 && !up; i++) {
		up = vg_client_ping(c) == 0;
		if (!up && waitpid(pid, NULL, WNOHANG) == pid) {
			D.pid = 0;
			break;
		}
		if (!up)
			usleep(50000);
	}
	vg_client_free(c);
	if (!up) {
		vgt_dump_log(&D);
		fail_msg("vgd did not start with chmod/chown by path refused");
	}
	struct stat st;
	assert_int_equal(lstat(D.sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0620);
	assert_int_equal(st.st_gid, g->gr_gid);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(dt_stop_clean(&D), 0);
}

/* A failed test leaves its daemon: stop it, so the next can start. */
static int teardown(void **state)
{
	(void)state;
	vgt_cleanup(&D);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_front_cannot_signal, teardown),
		cmocka_unit_test_teardown(test_keyholders_lock_keys, teardown),
		cmocka_unit_test_teardown(test_keyholder_checks_caller, teardown),
		cmocka_unit_test_teardown(test_per_uid_connections, teardown),
		cmocka_unit_test_teardown(test_per_uid_inflight, teardown),
		cmocka_unit_test_teardown(test_socket_without_path_race, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
