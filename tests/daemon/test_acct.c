/* test_acct.c: who used which key (daemon/acct.h, PROTOCOL.md 6.8). A
 * vgd-testhooks daemon with a 1 s log interval and 8 rows, max_queue 1
 * (so pipelined requests are refused as overloaded). Uses from root and
 * from a forked child as uid 12345 are counted exactly in their rows
 * (successes, errors, refusals: policy, a hidden key's ACL, overload),
 * with the pid and wall-clock time of the last use; the child sees only
 * its own uid's rows for keys it may use; each interval logs one line per
 * key and uid with KEY= and UID=, whose counts add up to the table's; a
 * reload keeps the rows of unchanged keys and resets a removed key's with
 * a log line; past 8 rows uses go to the other row, which only root sees.
 * Needs root (setuid in the child). */
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"

#define OTHER_UID 12345
#define OTHER_GID 54321
#define ROWS 8

#define KEYS_COMMON                                                                                \
	"[key ed]\nfile = ed25519.pem\nallow = sign\n\n"                                           \
	"[key ed-root]\nfile = ed25519.pem\nallow = sign\nuids = 0\n\n"                            \
	"[key ed-other]\nfile = ed25519.pem\nallow = sign\nuids = 12345\n\n"                       \
	"[key ed-tls]\nfile = ed25519-b.pem\nallow = tls13\n\n"                                    \
	"[key o1]\nfile = ed25519.pem\nallow = sign\n\n"                                           \
	"[key o2]\nfile = ed25519.pem\nallow = sign\n\n"                                           \
	"[key o3]\nfile = ed25519.pem\nallow = sign\n\n"                                           \
	"[key o4]\nfile = ed25519.pem\nallow = sign\n\n"                                           \
	"[key o5]\nfile = ed25519.pem\nallow = sign\n\n"                                           \
	"[key o6]\nfile = ed25519.pem\nallow = sign\n\n"
static const char keys[] = KEYS_COMMON "[key ed-load]\nfile = ed25519.pem\nallow = sign\n";
static const char globals[] = "socket_mode = 0666\nmax_queue = 1\n";

static vgt_daemon D;
static pid_t child_pid;
static long long t_first_ms, t_last_ms; /* wall clock around the counted uses */

static long long wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int setup(void **state)
{
	(void)state;
	static char interval[] = "VGD_TEST_ACCT_INTERVAL_MS=1000";
	static char rows[] = "VGD_TEST_ACCT_ROWS=8";
	char *env[] = {interval, rows, NULL};
	if (geteuid() != 0) {
		printf("# not root: cannot run a client as another uid\n");
		return -1;
	}
	if (vgt_setup(&D, globals, keys) < 0 || vgt_start(&D, 1, env) < 0)
		return -1;
	return chmod(D.dir, 0711); /* the child reaches the socket */
}

static int teardown(void **state)
{
	(void)state;
	return dt_stop_clean(&D);
}

static int sign(vg_client *c, const char *key, int alg)
{
	uint8_t sig[512], dg[32] = {3};
	size_t sl;
	if (alg == VGC_ALG_ED25519)
		return vg_client_sign(c, key, alg, "msg", 3, sig, sizeof(sig), &sl);
	return vg_client_sign(c, key, alg, dg, sizeof(dg), sig, sizeof(sig), &sl);
}

/* The row of key and uid in u[0, n), or NULL. */
static const vgc_key_use *row(const vgc_key_use *u, int n, const char *key, uint32_t uid)
{
	for (int i = 0; i < n; i++)
		if (!u[i].other && strcmp(u[i].key, key) == 0 && u[i].uid == uid)
			return &u[i];
	return NULL;
}

static const vgc_key_use *other_row(const vgc_key_use *u, int n)
{
	for (int i = 0; i < n; i++)
		if (u[i].other)
			return &u[i];
	return NULL;
}

/* As uid 12345: 3 signs with ed, 1 with ed-other, one try at ed-root
 * (hidden: UNKNOWN_KEY, counted refused for root's eyes), then what it
 * sees. Exit status: 0, or the number of the failed check. */
static int child_uses(const char *sock)
{
	gid_t g = OTHER_GID;
	if (setgroups(1, &g) < 0 || setgid(OTHER_GID) < 0 || setuid(OTHER_UID) < 0)
		return 100;
	vg_client *c = vg_client_new(sock);
	for (int i = 0; i < 3; i++)
		if (sign(c, "ed", VGC_ALG_ED25519) != 0)
			return 1;
	if (sign(c, "ed-other", VGC_ALG_ED25519) != 0)
		return 2;
	if (sign(c, "ed-root", VGC_ALG_ED25519) != VGC_E_UNKNOWN_KEY)
		return 3;
	vgc_key_use *u;
	int n = vg_client_key_use(c, &u);
	if (n < 0)
		return 4;
	/* Its own rows only, and no row of the hidden key it tried. */
	if (n != 2)
		return 5;
	for (int i = 0; i < n; i++)
		if (u[i].other || u[i].uid != OTHER_UID)
			return 6;
	const vgc_key_use *r = row(u, n, "ed", OTHER_UID);
	if (!r || r->ok != 3 || r->errors != 0 || r->refused != 0 ||
	    r->last_pid != (uint32_t)getpid())
		return 7;
	r = row(u, n, "ed-other", OTHER_UID);
	if (!r || r->ok != 1)
		return 8;
	free(u);
	/* Nor the table's own counters. */
	vgc_stat *s;
	int ns = vg_client_stats(c, &s);
	if (ns <= 0)
		return 9;
	for (int i = 0; i < ns; i++)
		if (strncmp(s[i].name, "use.", 4) == 0)
			return 10;
	free(s);
	vg_client_free(c);
	return 0;
}

static void run_child(int (*fn)(const char *), pid_t *pid_out)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(D.sock));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("the child as uid %d failed check %d", OTHER_UID, WEXITSTATUS(st));
	if (pid_out)
		*pid_out = pid;
}

static void test_counts(void **state)
{
	(void)state;
	vg_client *c = vg_client_new(D.sock);
	t_first_ms = wall_ms();
	for (int i = 0; i < 5; i++)
		assert_int_equal(sign(c, "ed", VGC_ALG_ED25519), 0);
	/* an algorithm the key type cannot do: an error */
	assert_int_equal(sign(c, "ed", VGC_ALG_RSA_PSS_SHA256), VGC_E_BAD_INPUT);
	/* the key's policy: refused */
	for (int i = 0; i < 2; i++)
		assert_int_equal(sign(c, "ed-tls", VGC_ALG_ED25519), VGC_E_NOT_ALLOWED);
	/* no such key: no row */
	assert_int_equal(sign(c, "nope", VGC_ALG_ED25519), VGC_E_UNKNOWN_KEY);
	run_child(child_uses, &child_pid);
	t_last_ms = wall_ms();

	vgc_key_use *u;
	int n = vg_client_key_use(c, &u);
	for (int i = 0; i < n; i++)
		printf("# %s uid %u: %llu ok %llu errors %llu refused, pid %u at %llu\n", u[i].key,
		       u[i].uid, (unsigned long long)u[i].ok, (unsigned long long)u[i].errors,
		       (unsigned long long)u[i].refused, u[i].last_pid,
		       (unsigned long long)u[i].last_ms);
	assert_int_equal(n, 5);
	assert_null(other_row(u, n));
	const vgc_key_use *r = row(u, n, "ed", 0);
	assert_non_null(r);
	assert_int_equal(r->ok, 5);
	assert_int_equal(r->errors, 1);
	assert_int_equal(r->refused, 0);
	assert_int_equal(r->last_pid, getpid());
	assert_true((long long)r->last_ms >= t_first_ms - 1000 &&
		    (long long)r->last_ms <= t_last_ms + 1000);
	r = row(u, n, "ed-tls", 0);
	assert_non_null(r);
	assert_int_equal(r->ok, 0);
	assert_int_equal(r->refused, 2);
	r = row(u, n, "ed", OTHER_UID);
	assert_non_null(r);
	assert_int_equal(r->ok, 3);
	assert_int_equal(r->last_pid, child_pid);
	assert_true((long long)r->last_ms >= t_first_ms - 1000 &&
		    (long long)r->last_ms <= t_last_ms + 1000);
	r = row(u, n, "ed-other", OTHER_UID);
	assert_non_null(r);
	assert_int_equal(r->ok, 1);
	/* the child's try at the key hidden from it: refused, seen by root */
	r = row(u, n, "ed-root", OTHER_UID);
	assert_non_null(r);
	assert_int_equal(r->ok, 0);
	assert_int_equal(r->refused, 1);
	free(u);
	assert_int_equal(dt_stat(D.sock, "use.rows"), 5);
	assert_int_equal(dt_stat(D.sock, "use.overflowed"), 0);
	vg_client_free(c);
}

/* Pipelined signs past max_queue = 1: the OVERLOADED answers are the
 * row's refusals and the others its successes, exactly. */
static void test_overload_refused(void **state)
{
	(void)state;
	enum { N = 40 };
	long long ok = 0, over = 0;
	int fd = dt_connect(D.sock);
	assert_true(fd >= 0);
	for (int round = 0; round < 10 && over == 0; round++) {
		uint8_t out[N * 128];
		size_t ol = 0;
		for (int i = 0; i < N; i++)
			ol += (size_t)dt_req_sign(out + ol, sizeof(out) - ol, (uint32_t)i + 1,
						  "ed-load", VG_ALG_ED25519, "m", 1);
		assert_int_equal(dt_send_all(fd, out, ol), 0);
		for (int i = 0; i < N; i++) {
			uint8_t buf[512];
			vg_reply rep;
			assert_int_equal(dt_read_reply(fd, buf, sizeof(buf), 10000, &rep), 0);
			if (rep.status == VG_ST_OK)
				ok++;
			else if (rep.status == VG_ST_OVERLOADED)
				over++;
			else
				fail_msg("status %d", rep.status);
		}
	}
	close(fd);
	printf("# %lld signed, %lld overloaded\n", ok, over);
	assert_true(over > 0);
	vg_client *c = vg_client_new(D.sock);
	vgc_key_use *u;
	int n = vg_client_key_use(c, &u);
	const vgc_key_use *r = row(u, n, "ed-load", 0);
	assert_non_null(r);
	assert_int_equal(r->ok, ok);
	assert_int_equal(r->refused, over);
	assert_int_equal(r->errors, 0);
	free(u);
	vg_client_free(c);
}

/* The sums of the "N sign, N errors, N refused" of the log's lines that
 * end with tail (" KEY=ed UID=0"), and how many such lines. */
static int log_sums(const char *tail, long long sum[3])
{
	FILE *f = fopen(D.log, "r");
	char line[2048];
	int lines = 0;
	sum[0] = sum[1] = sum[2] = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		size_t ll = strlen(line), tl = strlen(tail);
		if (ll < tl || strcmp(line + ll - tl, tail) != 0)
			continue;
		const char *p = strstr(line, "front: key ");
		unsigned long long a, b, c;
		if (p)
			p = strchr(p + strlen("front: key "), ':');
		if (!p ||
		    sscanf(p, ": %llu sign, %llu errors, %llu refused for uid ", &a, &b, &c) != 3)
			continue;
		sum[0] += (long long)a;
		sum[1] += (long long)b;
		sum[2] += (long long)c;
		lines++;
	}
	fclose(f);
	return lines;
}

/* Wait (30 s at most) until the lines ending in tail add up to want. */
static int wait_sums(const char *tail, long long a, long long b, long long c)
{
	long long s[3];
	int lines = -1;
	for (int i = 0; i < 300; i++) {
		lines = log_sums(tail, s);
		if (s[0] == a && s[1] == b && s[2] == c)
			return lines;
		usleep(100000);
	}
	fail_msg("log lines ending '%s' add up to %lld %lld %lld, not %lld %lld %lld", tail, s[0],
		 s[1], s[2], a, b, c);
	return -1;
}

/* Each interval logs one line per key and uid used in it; together they
 * count every use, and a burst of signatures makes few lines, not one
 * each. */
static void test_interval_lines(void **state)
{
	(void)state;
	wait_sums(" KEY=ed UID=0", 5, 1, 0);
	wait_sums(" KEY=ed-tls UID=0", 0, 0, 2);
	wait_sums(" KEY=ed UID=12345", 3, 0, 0);
	wait_sums(" KEY=ed-root UID=12345", 0, 0, 1);
	assert_true(dt_wait_log(
		&D, " sign, 0 errors, 0 refused for uid 12345 in the last 1 s (last pid ", 1,
		1000));
	/* uid 0 is named (the supervisor looks the name up), 12345 is not */
	assert_true(dt_wait_log(&D, " for uid 0 (root) in the last 1 s (last pid ", 1, 1000));
	int before = wait_sums(" KEY=ed UID=0", 5, 1, 0);
	vg_client *c = vg_client_new(D.sock);
	for (int i = 0; i < 50; i++)
		assert_int_equal(sign(c, "ed", VGC_ALG_ED25519), 0);
	vg_client_free(c);
	int after = wait_sums(" KEY=ed UID=0", 55, 1, 0);
	printf("# 50 signatures: %d more line(s)\n", after - before);
	assert_true(after - before >= 1 && after - before < 50);
}

/* A reload that removes ed-load resets its rows (logged) and keeps the
 * others. */
static void test_reload(void **state)
{
	(void)state;
	long long gen = dt_stat(D.sock, "keys.generation");
	assert_int_equal(vgt_write_config(&D, globals, KEYS_COMMON), 0);
	assert_int_equal(kill(D.pid, SIGHUP), 0);
	for (int i = 0; i < 300 && dt_stat(D.sock, "keys.generation") == gen; i++)
		usleep(100000);
	assert_int_equal(dt_stat(D.sock, "keys.generation"), gen + 1);
	assert_true(dt_wait_log(&D, "key ed-load: use counts reset", 1, 1000));
	assert_int_equal(vgt_log_count(&D, "use counts reset"), 1);
	vg_client *c = vg_client_new(D.sock);
	vgc_key_use *u;
	int n = vg_client_key_use(c, &u);
	assert_int_equal(n, 5);
	assert_null(row(u, n, "ed-load", 0));
	const vgc_key_use *r = row(u, n, "ed", 0);
	assert_non_null(r);
	assert_int_equal(r->ok, 55);
	r = row(u, n, "ed", OTHER_UID);
	assert_non_null(r);
	assert_int_equal(r->ok, 3);
	free(u);
	/* the rows follow their keys' new indexes */
	assert_int_equal(sign(c, "ed", VGC_ALG_ED25519), 0);
	n = vg_client_key_use(c, &u);
	assert_int_equal(n, 5);
	assert_int_equal(row(u, n, "ed", 0)->ok, 56);
	free(u);
	vg_client_free(c);
}

static int child_sees_no_other(const char *sock)
{
	gid_t g = OTHER_GID;
	if (setgroups(1, &g) < 0 || setgid(OTHER_GID) < 0 || setuid(OTHER_UID) < 0)
		return 100;
	vg_client *c = vg_client_new(sock);
	vgc_key_use *u;
	int n = vg_client_key_use(c, &u);
	if (n != 2)
		return 1;
	for (int i = 0; i < n; i++)
		if (u[i].other || u[i].uid != OTHER_UID)
			return 2;
	free(u);
	vg_client_free(c);
	return 0;
}

/* Past ROWS rows, uses go to the other row (root's eyes only). */
static void test_overflow(void **state)
{
	(void)state;
	vg_client *c = vg_client_new(D.sock);
	vgc_key_use *u;
	int n0 = vg_client_key_use(c, &u);
	free(u);
	assert_true(n0 >= 0 && n0 < ROWS);
	int fit = ROWS - n0, past = 3;
	static const char *const o[] = {"o1", "o2", "o3", "o4", "o5", "o6"};
	assert_true(fit + past <= 6);
	for (int i = 0; i < fit + past; i++)
		assert_int_equal(sign(c, o[i], VGC_ALG_ED25519), 0);
	assert_int_equal(sign(c, o[fit], VGC_ALG_ED25519), 0); /* again: still other */
	int n = vg_client_key_use(c, &u);
	assert_int_equal(n, ROWS + 1);
	for (int i = 0; i < fit; i++)
		assert_non_null(row(u, n, o[i], 0));
	for (int i = fit; i < fit + past; i++)
		assert_null(row(u, n, o[i], 0));
	const vgc_key_use *r = other_row(u, n);
	assert_non_null(r);
	assert_int_equal(r->ok, past + 1);
	assert_int_equal(r->uid, 0);
	assert_string_equal(r->key, "");
	free(u);
	assert_int_equal(dt_stat(D.sock, "use.rows"), ROWS);
	assert_int_equal(dt_stat(D.sock, "use.overflowed"), past + 1);
	assert_true(dt_wait_log(&D, "keys past the use table's 8 rows: ", 1, 1000));
	run_child(child_sees_no_other, NULL);
	vg_client_free(c);
}

int main(void)
{
	/* The front's table in request order, its bound included: the
	 * clients stay on the socket. Uses through direct slots, which the
	 * front takes in at its tick, are test_direct.c's (test_use_table). */
	setenv("VGD_DIRECT", "0", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),         cmocka_unit_test(test_overload_refused),
		cmocka_unit_test(test_interval_lines), cmocka_unit_test(test_reload),
		cmocka_unit_test(test_overflow),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
