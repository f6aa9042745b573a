/* test_cpus.c: a request stays on one CPU (daemon/DESIGN-cpu.md). By
 * default vgd runs one keyholder per CPU in its affinity mask, each pinned
 * to its own CPU (also after a restart), and the front hands a request to
 * the idle keyholder on the CPU it runs on (stats dispatch.local);
 * pin_keyholders = no leaves them all unpinned. The front pins itself to
 * the CPU its clients' CLIENT_CPU hints name (front_follow.c) unless
 * follow_clients = no. The CPU sets are read from /proc/PID/status
 * (Cpus_allowed_list), as an operator would check them. */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

#define MAXCPU 1024

static vgt_daemon D;

/* The CPUs in pid's Cpus_allowed_list ("0-3,6") as a bitmap; returns how
 * many, or -1 if it cannot be read. */
static int allowed(pid_t pid, unsigned char set[MAXCPU])
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = -1;
	memset(set, 0, MAXCPU);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
			continue;
		n = 0;
		for (char *p = line + 18; *p && *p != '\n';) {
			while (*p == ' ' || *p == '\t' || *p == ',')
				p++;
			if (*p < '0' || *p > '9')
				break;
			long a = strtol(p, &p, 10), b = a;
			if (*p == '-')
				b = strtol(p + 1, &p, 10);
			for (long c = a; c <= b && c < MAXCPU; c++)
				n += !set[c], set[c] = 1;
		}
		break;
	}
	fclose(f);
	return n;
}

/* The one CPU pid may run on, or -1 if it may run on none or several. */
static int pinned_cpu(pid_t pid)
{
	unsigned char set[MAXCPU];
	if (allowed(pid, set) != 1)
		return -1;
	for (int c = 0; c < MAXCPU; c++)
		if (set[c])
			return c;
	return -1;
}

static int start(const char *globals)
{
	return vgt_setup(&D, globals, vgt_default_keys) < 0 || vgt_start(&D, 0, NULL) < 0 ? -1 : 0;
}

static int setup_default(void **state)
{
	(void)state;
	return start("keyholders = 0\n"); /* the harness sets 2; 0 is vgd's default */
}

static int setup_unpinned(void **state)
{
	(void)state;
	return start("keyholders = 0\npin_keyholders = no\n");
}

static int setup_nofollow(void **state)
{
	(void)state;
	return start("keyholders = 0\nfollow_clients = no\n");
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

/* For a test that may skip before it starts a daemon. */
static int teardown_started(void **state)
{
	return D.pid > 0 ? teardown(state) : 0;
}

/* n sequential Ed25519 signatures on one connection: 1x1, so the keyholder
 * on the front's CPU is idle at every dispatch. */
static void sign_n(int n)
{
	vg_client *c = vg_client_new(D.sock);
	assert_non_null(c);
	uint8_t sig[64];
	size_t sl;
	for (int i = 0; i < n; i++)
		assert_int_equal(vg_client_sign(c, "ed", VGC_ALG_ED25519, "m", 1, sig, sizeof(sig),
						&sl),
				 0);
	vg_client_free(c);
}

/* One keyholder per allowed CPU, each pinned to a different one, together
 * all of them; a killed keyholder's replacement is pinned where it was. */
static void test_pinned_per_cpu(void **state)
{
	(void)state;
	unsigned char sup[MAXCPU], seen[MAXCPU] = {0};
	int ncpu = allowed(D.pid, sup);
	assert_true(ncpu >= 1);
	if (ncpu > 8) { /* dt_wait_children holds 8 */
		print_message("skipped: %d CPUs\n", ncpu);
		skip();
	}
	assert_int_equal(dt_stat(D.sock, "keyholders.configured"), ncpu);
	pid_t kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", ncpu, 0, kh), ncpu);
	for (int i = 0; i < ncpu; i++) {
		int c = pinned_cpu(kh[i]);
		print_message("keyholder %d: CPU %d\n", (int)kh[i], c);
		assert_true(c >= 0);
		assert_true(sup[c]);
		assert_false(seen[c]);
		seen[c] = 1;
	}
	/* The front is not pinned: it runs where the scheduler puts it. */
	pid_t fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	unsigned char fs[MAXCPU];
	assert_int_equal(allowed(fr[0], fs), ncpu);

	int was = pinned_cpu(kh[0]);
	assert_int_equal(kill(kh[0], SIGKILL), 0);
	pid_t now[8];
	long long deadline = dt_now_ms() + 5000;
	pid_t fresh = 0;
	while (!fresh && dt_now_ms() < deadline) {
		int n = dt_children_named(&D, "vgd-keyholder", now, 8);
		for (int i = 0; i < n; i++) {
			int known = 0;
			for (int j = 0; j < ncpu; j++)
				known |= now[i] == kh[j];
			if (!known)
				fresh = now[i];
		}
	}
	assert_true(fresh > 0);
	assert_int_equal(pinned_cpu(fresh), was);
}

/* Sequential requests all go to the keyholder on the front's CPU. */
static void test_dispatch_local(void **state)
{
	(void)state;
	long long l0 = dt_stat(D.sock, "dispatch.local");
	long long r0 = dt_stat(D.sock, "dispatch.remote");
	assert_true(l0 >= 0 && r0 >= 0);
	sign_n(200);
	long long l1 = dt_stat(D.sock, "dispatch.local");
	long long r1 = dt_stat(D.sock, "dispatch.remote");
	print_message("dispatch: %lld local, %lld remote\n", l1 - l0, r1 - r0);
	assert_int_equal(l1 - l0, 200);
	assert_int_equal(r1 - r0, 0);
}

static pid_t front_pid(void)
{
	pid_t fr[8];
	assert_int_equal(dt_wait_children(&D, "vgd-front", 1, 0, fr), 1);
	return fr[0];
}

/* Hints naming one CPU move the front there, each allowed CPU in turn;
 * hints naming a CPU vgd may not use move nothing. */
static void test_follow_hints(void **state)
{
	(void)state;
	unsigned char sup[MAXCPU], fs[MAXCPU];
	int ncpu = allowed(D.pid, sup);
	assert_true(ncpu >= 1);
	pid_t fr = front_pid();
	assert_int_equal(allowed(fr, fs), ncpu); /* not pinned before any hint */
	assert_int_equal(dt_stat(D.sock, "front.follow_pinned"), 0);
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	int moves = 0, last = -1;
	for (int c = 0; c < MAXCPU && moves < 8; c++) {
		if (!sup[c])
			continue;
		usleep(30000); /* past the front's 20 ms between moves */
		assert_int_equal(dt_hinted_pings(fd, (uint32_t)c, 6), 0);
		print_message("hints for CPU %d: front on CPU %d\n", c, pinned_cpu(fr));
		assert_int_equal(pinned_cpu(fr), c);
		moves++;
		last = c;
	}
	assert_int_equal(dt_stat(D.sock, "front.follow_moves"), moves);
	assert_int_equal(dt_stat(D.sock, "front.follow_pinned"), 1);
	usleep(30000);
	assert_int_equal(dt_hinted_pings(fd, MAXCPU + 7, 8), 0);
	assert_int_equal(dt_hinted_pings(fd, 0xffffffffu, 8), 0);
	assert_int_equal(pinned_cpu(fr), last);
	assert_int_equal(dt_stat(D.sock, "front.follow_moves"), moves);
	close(fd);
}

/* libvgclient sends the hint (after one hello per connection): a client
 * confined to one CPU brings the front there. */
static void test_follow_client(void **state)
{
	(void)state;
	cpu_set_t mine, one;
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	int last = -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine))
			last = c;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	vg_client *c = vg_client_new(D.sock);
	int ok = c != NULL;
	for (int i = 0; ok && i < 10; i++)
		ok = vg_client_ping(c) == 0;
	vg_client_free(c);
	assert_int_equal(sched_setaffinity(0, sizeof(mine), &mine), 0);
	assert_true(ok);
	assert_int_equal(pinned_cpu(front_pid()), last);
	assert_true(dt_stat(D.sock, "front.follow_moves") >= 1);
}

/* follow_clients = no: hints are read and change nothing. */
static void test_follow_off(void **state)
{
	(void)state;
	unsigned char sup[MAXCPU], fs[MAXCPU];
	int ncpu = allowed(D.pid, sup);
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	for (int c = 0; c < MAXCPU; c++)
		if (sup[c])
			assert_int_equal(dt_hinted_pings(fd, (uint32_t)c, 8), 0);
	close(fd);
	assert_int_equal(allowed(front_pid(), fs), ncpu);
	assert_int_equal(dt_stat(D.sock, "front.follow_moves"), 0);
}

/* pin_keyholders = no: keyholders may run anywhere vgd may, and no
 * dispatch counts as local. */
static void test_unpinned(void **state)
{
	(void)state;
	unsigned char sup[MAXCPU], ks[MAXCPU];
	int ncpu = allowed(D.pid, sup);
	assert_true(ncpu >= 1);
	if (ncpu > 8) {
		print_message("skipped: %d CPUs\n", ncpu);
		skip();
	}
	pid_t kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", ncpu, 0, kh), ncpu);
	for (int i = 0; i < ncpu; i++) {
		assert_int_equal(allowed(kh[i], ks), ncpu);
		assert_memory_equal(ks, sup, MAXCPU);
	}
	long long l0 = dt_stat(D.sock, "dispatch.local");
	long long r0 = dt_stat(D.sock, "dispatch.remote");
	assert_true(l0 >= 0 && r0 >= 0);
	sign_n(50);
	assert_int_equal(dt_stat(D.sock, "dispatch.local") - l0, 0);
	assert_int_equal(dt_stat(D.sock, "dispatch.remote") - r0, 50);
}

/* The default count follows the affinity mask vgd starts with, not the
 * online CPUs: under taskset -c 0 (here: our own mask, which the daemon
 * inherits) one keyholder, pinned to that CPU. */
static void test_affinity_mask(void **state)
{
	(void)state;
	memset(&D, 0, sizeof(D));
	cpu_set_t mine, one;
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	if (CPU_COUNT(&mine) < 2) {
		print_message("skipped: one CPU only\n");
		skip();
	}
	int last = -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine))
			last = c;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	int r = start("keyholders = 0\n");
	assert_int_equal(sched_setaffinity(0, sizeof(mine), &mine), 0);
	assert_int_equal(r, 0);
	assert_int_equal(dt_stat(D.sock, "keyholders.configured"), 1);
	pid_t kh[8];
	assert_int_equal(dt_wait_children(&D, "vgd-keyholder", 1, 0, kh), 1);
	assert_int_equal(pinned_cpu(kh[0]), last);
}

int main(void)
{
	/* The front's dispatch is what is checked: libvgclient's calls stay
	 * on the socket, not a direct slot (test_direct.c). */
	setenv("VGD_DIRECT", "0", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pinned_per_cpu, setup_default, teardown),
		cmocka_unit_test_setup_teardown(test_dispatch_local, setup_default, teardown),
		cmocka_unit_test_setup_teardown(test_unpinned, setup_unpinned, teardown),
		/* following is vgd's default */
		cmocka_unit_test_setup_teardown(test_follow_hints, setup_default, teardown),
		cmocka_unit_test_setup_teardown(test_follow_client, setup_default, teardown),
		cmocka_unit_test_setup_teardown(test_follow_off, setup_nofollow, teardown),
		cmocka_unit_test_teardown(test_affinity_mask, teardown_started),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
