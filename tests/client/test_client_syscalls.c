/* test_client_syscalls.c: what a signature costs libvgclient in system
 * calls and allocations, against a real vgd. This executable defines
 * recv, send, poll, getpid and malloc itself, so the calls libvgclient
 * (linked statically) makes go through these counters before reaching
 * the kernel or libc; syscall() too, for the futex calls of a direct
 * slot (PROTOCOL.md 6.11). A TLS server signs once per handshake; the
 * budget asserted here is what the provider's blocking path (nginx), with
 * and without a direct slot, and its async path (HAProxy) pay per
 * signature. */
#include <dlfcn.h>
#include <linux/futex.h>
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
	int recv, send, poll, getpid, malloc, futex;
} N;

/* libvgclient's direct slot waits and wakes with syscall(SYS_futex, ...). */
long syscall(long n, ...)
{
	static long (*real)(long, ...);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_list ap;
	va_start(ap, n);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (N.on && n == SYS_futex)
		N.futex++;
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

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

/* Through a direct slot (the default: test_sync_sign_budget and
 * test_sync_sign_spins run with VGD_DIRECT=0): no send, recv or poll at
 * all, no allocation, no getpid; the futex calls are the keyholder's
 * wake-up and the wait for the reply (a third when a late wake-up of the
 * call before ends a wait early). */
static void test_direct_sign_budget(void **state)
{
	uint8_t msg[32] = {4}, sig[64];
	size_t sl;
	unsetenv("VGD_DIRECT");
	vg_client *c = vg_client_new(D.sock);
	setenv("VGD_DIRECT", "0", 1);
	assert_non_null(c);
	vg_client_set_timeout(c, 60000);
	/* The first call connects (and its hello asks about the CPU hint),
	 * the second asks for the slot. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, 32, sig, 64, &sl), 0);
	int two = 0;
	for (int i = 0; i < 20; i++) {
		count(1);
		int r = vg_client_sign(c, "ed", VGC_ALG_ED25519, msg, 32, sig, 64, &sl);
		count(0);
		assert_int_equal(r, 0);
		assert_int_equal(N.send, 0);
		assert_int_equal(N.recv, 0);
		assert_int_equal(N.poll, 0);
		assert_int_equal(N.getpid, 0);
		assert_int_equal(N.malloc, 0);
		assert_true(N.futex <= 3);
		two += N.futex <= 2;
	}
	vg_client_free(c);
	assert_true(two >= 15);
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
	setenv("VGD_DIRECT", "0", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_sign_budget),
		cmocka_unit_test(test_sync_sign_spins),
		cmocka_unit_test(test_direct_sign_budget),
		cmocka_unit_test(test_async_budget),
	};
	return cmocka_run_group_tests_name("client-syscalls", tests, setup, teardown);
}
