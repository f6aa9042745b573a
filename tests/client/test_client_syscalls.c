/* test_client_syscalls.c: what a signature costs libvgclient in system
 * calls and allocations, against a real vgd. This executable defines
 * recv, send, poll, getpid and malloc itself, so the calls libvgclient
 * (linked statically) makes go through these counters before reaching
 * the kernel or libc. A TLS server signs once per handshake; the budget
 * asserted here is what the provider's blocking path (nginx) and its
 * async path (HAProxy) pay per signature. */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "vgclient.h"

static struct {
	int on;
	int recv, send, poll, getpid, malloc;
} N;

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	if (N.on)
		N.recv++;
	return syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	if (N.on)
		N.send++;
	return syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	if (N.on)
		N.poll++;
	return (int)syscall(SYS_poll, fds, n, timeout);
}

pid_t getpid(void)
{
	if (N.on)
		N.getpid++;
	return (pid_t)syscall(SYS_getpid);
}

extern void *__libc_malloc(size_t n);

void *malloc(size_t n)
{
	if (N.on)
		N.malloc++;
	return __libc_malloc(n);
}

static vgt_daemon D;
static vg_client *C;

static int setup(void **state)
{
	C = vgt_start_client(&D, 0);
	return C ? 0 : -1;
}

static int teardown(void **state)
{
	vg_client_free(C);
	return vgt_finish(&D) == 0 ? 0 : -1;
}

static void count(int on)
{
	if (on)
		memset(&N, 0, sizeof(N));
	N.on = on;
}

/* A blocking signature that sleeps at once (VGD_SPIN_US=0): one send and
 * one recv, which is the wait too (the descriptor blocks, bounded by
 * SO_RCVTIMEO: conn.c); no poll, no second recv to find the socket empty,
 * no getpid (fork detection) and no allocation. */
static void test_sync_sign_budget(void **state)
{
	uint8_t msg[32] = {1}, sig[64];
	size_t sl;
	/* The first call connects, the second asks hello whether the daemon
	 * takes the CPU hint (hint.c); from then on a call is one frame each
	 * way. */
	for (int i = 0; i < 2; i++)
		assert_int_equal(vg_client_sign(C, "ed", VGC_ALG_ED25519, msg, 32, sig, 64, &sl), 0);
	for (int i = 0; i < 20; i++) {
		count(1);
		int r = vg_client_sign(C, "ed", VGC_ALG_ED25519, msg, 32, sig, 64, &sl);
		count(0);
		assert_int_equal(r, 0);
		assert_int_equal(N.send, 1);
		assert_int_equal(N.poll, 0);
		assert_int_equal(N.recv, 1);
		assert_int_equal(N.getpid, 0);
		assert_int_equal(N.malloc, 0);
	}
}

/* The same signature with the spin on (VGD_SPIN_US, sync.c): the reply is
 * read while spinning, so the call makes no poll and does not sleep; the
 * spin adds no allocation or getpid. The spin is long here (20 ms) so that
 * a loaded machine still answers within it; a call that runs out of spin
 * waits in one poll as before. */
static void test_sync_sign_spins(void **state)
{
	uint8_t msg[32] = {3}, sig[64];
	size_t sl;
	setenv("VGD_SPIN_US", "20000", 1);
	vg_client *c = vg_client_new(D.sock);
	setenv("VGD_SPIN_US", "0", 1);
	assert_non_null(c);
	for (int i = 0; i < 2; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, 32, sig, 64, &sl), 0);
	int no_poll = 0;
	for (int i = 0; i < 20; i++) {
		count(1);
		int r = vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, 32, sig, 64, &sl);
		count(0);
		assert_int_equal(r, 0);
		assert_int_equal(N.send, 1);
		assert_true(N.poll <= 1);
		assert_true(N.recv >= 1);
		assert_int_equal(N.getpid, 0);
		assert_int_equal(N.malloc, 0);
		no_poll += N.poll == 0;
	}
	vg_client_free(c);
	assert_true(no_poll >= 15);
}

static int done;

static void on_done(int status, const uint8_t *res, size_t len, const char *why, void *arg)
{
	assert_int_equal(status, 0);
	assert_int_equal(len, 64);
	done++;
}

/* Asynchronous: a submit is one send and no allocation; a process() that
 * finds replies reads them with one recv. */
static void test_async_budget(void **state)
{
	uint8_t msg[32] = {2};
	done = 0;
	for (int i = 0; i < 8; i++) {
		count(1);
		assert_int_equal(
			vg_client_submit_sign(C, "ed", VGC_ALG_ED25519, msg, 32, on_done, NULL), 0);
		count(0);
		assert_int_equal(N.send, 1);
		assert_int_equal(N.malloc, 0);
		assert_int_equal(N.getpid, 0);
	}
	while (done < 8) {
		struct pollfd p = {.fd = vg_client_fd(C), .events = POLLIN};
		assert_int_equal((int)syscall(SYS_poll, &p, 1, 5000), 1);
		count(1);
		assert_true(vg_client_process(C) >= 1);
		count(0);
		assert_int_equal(N.recv, 1);
		assert_int_equal(N.getpid, 0);
	}
}

int main(void)
{
	/* The budgets below are those of a call that sleeps at once;
	 * test_sync_sign_spins turns the spin on for its own client. */
	setenv("VGD_SPIN_US", "0", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_sign_budget),
		cmocka_unit_test(test_sync_sign_spins),
		cmocka_unit_test(test_async_budget),
	};
	return cmocka_run_group_tests_name("client-syscalls", tests, setup, teardown);
}
