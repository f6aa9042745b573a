/* test_seccomp.c: the children's seccomp filters check arguments, not
 * only calls. Through vgd-testhooks (daemon/front_hooks.c,
 * daemon/keyholder.c) the front and a keyholder each try what a
 * compromised process would: map or make memory executable (mmap and
 * mprotect with PROT_EXEC), arrange to deliver signals with fcntl
 * (F_SETOWN, F_SETSIG, O_ASYNC), and pass a descriptor (a keyholder:
 * sendmsg with SCM_RIGHTS; both: the batch calls, sendmmsg and
 * recvmmsg). The front may sendmsg: it passes direct slots to clients
 * (PROTOCOL.md 6.11, doc/security.md). Neither may open a file, so
 * neither can create or replace a key or a config section (vgctl genkey's
 * claim, doc/security.md). Each attempt must kill the child, be reported by the
 * supervisor with the system call's name, and be followed by a restart
 * after which the service works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

static vgt_daemon D;

static int setup(void **state)
{
	(void)state;
	if (vgt_setup(&D, NULL, vgt_default_keys) < 0 || vgt_start(&D, 1, NULL) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* Violations are expected here: stop without dt_stop_clean. */
	return vgt_finish(&D);
}

/* One signature through a fresh client: the service works. */
static void serves(void)
{
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 20000);
	uint8_t sig[64];
	size_t sl = 0;
	int e = -1;
	for (int i = 0; i < 50 && e != 0; i++, usleep(100000))
		e = vg_client_sign(c, "ed", VGC_ALG_ED25519, "after", 5, sig, sizeof(sig), &sl);
	assert_int_equal(e, 0);
	vg_client_free(c);
}

/* The front tries cmd, dies of it, and the log names call. */
static void front_refused(const char *cmd, const char *call)
{
	pid_t fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	pid_t old = fr[0];
	char out[64];
	/* No reply: the front dies on the spot. */
	assert_int_equal(dt_front_hook(D.sock, cmd, out, sizeof(out)), -1);
	char want[128];
	snprintf(want, sizeof(want), "sandbox violation: front (pid %d, slot -1) called %s",
		 (int)old, call);
	if (!dt_wait_log(&D, want, 1, 5000)) {
		vgt_dump_log(&D);
		fail_msg("no '%s' in the log", want);
	}
	snprintf(want, sizeof(want), "front (pid %d) died of a sandbox violation: system call %s",
		 (int)old, call);
	assert_true(dt_wait_log(&D, want, 1, 5000));
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, old, fr), 1);
	serves();
}

static void test_front_no_exec_memory(void **state)
{
	(void)state;
	front_refused("mmap-exec", "mmap");
	front_refused("mprotect-exec", "mprotect");
}

static void test_front_no_signal_setup(void **state)
{
	(void)state;
	front_refused("fcntl-setown", "fcntl");
	front_refused("fcntl-setsig", "fcntl");
	front_refused("fcntl-async", "fcntl");
}

static void test_front_no_fd_passing(void **state)
{
	(void)state;
	/* sendmsg is the front's for direct slots; not the batch calls,
	 * which could carry descriptors either way. */
	front_refused("sendmmsg-rights", "sendmmsg");
	front_refused("recvmmsg-rights", "recvmmsg");
	/* Counted by how the fronts died. */
	long long v = -1;
	for (int i = 0; i < 100 && v < 7; i++, usleep(50000))
		v = dt_stat(D.sock, "sandbox.violations");
	assert_int_equal(v, 7);
	assert_true(dt_stat(D.sock, "front.restarts") >= 7);
}

/* A keyholder tries cmd (every keyholder the request reaches does: two
 * tries, the second alone, then INTERNAL), and the log names call. */
static void keyholder_refused(const char *cmd, const char *call)
{
	vg_client *c = vg_client_new(D.sock);
	vg_client_set_timeout(c, 20000);
	char data[64];
	snprintf(data, sizeof(data), "vgd-test-kh:%s", cmd);
	uint8_t sig[64];
	size_t sl;
	char want[128], died[128];
	snprintf(want, sizeof(want), ") called %s (system call", call);
	snprintf(died, sizeof(died), "died of a sandbox violation: system call %s", call);
	int before = vgt_log_count(&D, "sandbox violation: keyholder (pid");
	int calls = vgt_log_count(&D, want), deaths = vgt_log_count(&D, died);
	assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, data, strlen(data), sig,
					sizeof(sig), &sl),
			 VGC_E_INTERNAL);
	vg_client_free(c);
	if (!dt_wait_log(&D, "sandbox violation: keyholder (pid", before + 2, 5000) ||
	    !dt_wait_log(&D, want, calls + 2, 5000) || !dt_wait_log(&D, died, deaths + 2, 5000)) {
		vgt_dump_log(&D);
		fail_msg("two keyholders should have died of %s", call);
	}
	pid_t kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 2, 0, kh), 2);
	serves();
}

static void test_keyholder_refusals(void **state)
{
	(void)state;
	/* A new keyholder gets a ping at once and often dies here before it
	 * reads it: its report must still be read (ECONNRESET first). */
	keyholder_refused("mmap-exec", "mmap");
	keyholder_refused("mprotect-exec", "mprotect");
	keyholder_refused("fcntl-setown", "fcntl");
	keyholder_refused("sendmsg-rights", "sendmsg");
	/* No call that can carry a descriptor either way: a keyholder can
	 * neither pass one (its supervisor channel, say) nor receive one. */
	keyholder_refused("sendmmsg-rights", "sendmmsg");
	keyholder_refused("recvmmsg-rights", "recvmmsg");
}

/* Opening a file (here: creating one) kills either child. */
static void test_no_open(void **state)
{
	(void)state;
	front_refused("open-create", "openat");
	keyholder_refused("open-create", "openat");
	assert_int_equal(access("/tmp/vgd-hook-open", F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front_no_exec_memory),
		cmocka_unit_test(test_front_no_signal_setup),
		cmocka_unit_test(test_front_no_fd_passing),
		cmocka_unit_test(test_keyholder_refusals),
		cmocka_unit_test(test_no_open),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
