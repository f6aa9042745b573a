/* test_keyfiles.c: how vgd opens key files (vgd --check-config loads
 * them as the daemon does): a symbolic link is not followed, a FIFO is
 * refused at once (it used to hang the load), a key owned by another user
 * is refused, and so is a key in a directory others can write, or below
 * one that is not sticky; /tmp (sticky) above the key's own directory is
 * fine (every test's keys live there). Started as root, vgd refuses a key
 * owned by its configured user and says why (it reads keys as root). And
 * an RSA key with a composite factor is refused (Miller-Rabin at load),
 * the message naming the factor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtest.h"
#include "procutil.h"

static vgt_daemon D;
static char OUT[8192];

static int setup(void **state)
{
	(void)state;
	return vgt_setup(&D, NULL, NULL);
}

static int teardown(void **state)
{
	(void)state;
	vgt_cleanup(&D);
	return 0;
}

/* --check-config with one key section for file; status and output. */
static int check_with(const char *globals, const char *file)
{
	char keys[256];
	snprintf(keys, sizeof(keys), "[key k]\nfile = %s\nallow = sign\n", file);
	assert_int_equal(vgt_write_config(&D, globals, keys), 0);
	const char *argv[] = {"vgd", "--check-config", D.conf, NULL};
	return dt_run_vgd(argv, OUT, sizeof(OUT));
}

static int check(const char *file)
{
	return check_with(NULL, file);
}

static void refused(const char *file, const char *why)
{
	int st = check(file);
	if (st != 1 || !strstr(OUT, why))
		fail_msg("%s: status %d, output:\n%s(want: %s)", file, st, OUT, why);
}

static void test_regular_key_loads(void **state)
{
	(void)state;
	assert_int_equal(check("ed25519.pem"), 0);
}

static void test_symlink_not_followed(void **state)
{
	(void)state;
	char target[400], link[400];
	vgt_key(&D, "ed25519.pem", target, sizeof(target));
	vgt_key(&D, "link.pem", link, sizeof(link));
	assert_int_equal(symlink(target, link), 0);
	refused("link.pem", "is a symbolic link");
}

static void test_fifo_refused(void **state)
{
	(void)state;
	char fifo[400];
	vgt_key(&D, "fifo.pem", fifo, sizeof(fifo));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	refused("fifo.pem", "not a regular file");
}

static void test_wrong_owner(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip(); /* only root can give a file away */
	char key[400];
	vgt_key(&D, "ed25519.pem", key, sizeof(key));
	assert_int_equal(chown(key, 65534, 65534), 0);
	refused("ed25519.pem", "owned by uid 65534");
	/* Owned by the configured user: still refused, and the message says
	 * the rule (it used to say "root or vgd's user", which this user
	 * seemed to be). */
	int st = check_with("user = nobody\n", "ed25519.pem");
	if (st != 1 || !strstr(OUT, "owned by uid 65534; vgd runs as root here, so keys and "
				    "their directories must belong to root (the 'user' setting "
				    "is who the keyholders run as"))
		fail_msg("status %d, output:\n%s", st, OUT);
	assert_int_equal(chown(key, 0, 0), 0);
	assert_int_equal(check("ed25519.pem"), 0);
}

static void test_writable_directories(void **state)
{
	(void)state;
	assert_int_equal(chmod(D.dir, 0770), 0);
	refused("ed25519.pem", "writable by group or others (mode 770)");
	assert_int_equal(chmod(D.dir, 0703), 0);
	refused("ed25519.pem", "writable by group or others");
	/* Sticky does not help the key's own directory... */
	assert_int_equal(chmod(D.dir, 01777), 0);
	refused("ed25519.pem", "the key's directory");
	/* ...but does one above it. */
	char sub[400], key[400], src[400];
	assert_int_equal(chmod(D.dir, 01777), 0);
	snprintf(sub, sizeof(sub), "%s/keys", D.dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(key, sizeof(key), "%s/keys/ed.pem", D.dir);
	vgt_key(&D, "ed25519.pem", src, sizeof(src));
	assert_int_equal(rename(src, key), 0);
	assert_int_equal(check("keys/ed.pem"), 0);
	/* Not sticky: others could rename keys/ away and put their own. */
	assert_int_equal(chmod(D.dir, 0777), 0);
	refused("keys/ed.pem", "a directory above the key");
	assert_int_equal(chmod(D.dir, 0700), 0);
	assert_int_equal(rename(key, src), 0);
}

/* An RSA key whose p is a Carmichael number (tests/keys/README.md): every
 * other check passes, the old one-base Fermat check through a test
 * signature too; Miller-Rabin refuses it. */
static void test_composite_factor_refused(void **state)
{
	(void)state;
	char src[512], dst[400];
	snprintf(src, sizeof(src), "%s/rsa2048-carmichael.pem", getenv("VG_TEST_KEYS"));
	vgt_key(&D, "carmichael.pem", dst, sizeof(dst));
	assert_int_equal(vg_copy_file(src, dst), 0);
	refused("carmichael.pem", "RSA key rejected: p is not prime");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_regular_key_loads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_owner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writable_directories, setup, teardown),
		cmocka_unit_test_setup_teardown(test_composite_factor_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
