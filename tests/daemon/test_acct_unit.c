/* test_acct_unit.c: the use table (daemon/acct.c) on its own: counts per
 * (key, uid) exact; past the bound, new pairs go to the other row while
 * existing rows keep counting; a rekey keeps the rows of keys with the
 * same name and public key under their new index, drops the others, and
 * leaves an index that still finds every kept row and makes new ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "acct.h"

static vgd_acct A; /* large: not on the stack */

static const vgd_acct_row *find(const vgd_acct *a, uint32_t key, uint32_t uid)
{
	for (unsigned i = 0; i < a->nrows; i++)
		if (a->rows[i].key == key && a->rows[i].uid == uid)
			return &a->rows[i];
	return NULL;
}

static void test_counts(void **state)
{
	(void)state;
	vgd_acct_init(&A, 0, 0, 0);
	assert_int_equal(A.max_rows, VGD_ACCT_ROWS);
	for (int i = 0; i < 7; i++)
		vgd_acct_note(&A, 2, 33, 100 + (uint32_t)i, VGD_ACCT_OK, 1000 + (uint64_t)i);
	vgd_acct_note(&A, 2, 33, 200, VGD_ACCT_REFUSED, 2000);
	vgd_acct_note(&A, 2, 34, 300, VGD_ACCT_ERROR, 3000);
	vgd_acct_note(&A, 3, 33, 400, VGD_ACCT_OK, 4000);
	assert_int_equal(A.nrows, 3);
	const vgd_acct_row *r = find(&A, 2, 33);
	assert_non_null(r);
	assert_int_equal(r->ok, 7);
	assert_int_equal(r->refused, 1);
	assert_int_equal(r->errors, 0);
	assert_int_equal(r->last_pid, 200);
	assert_int_equal(r->last_ms, 2000);
	r = find(&A, 2, 34);
	assert_int_equal(r->errors, 1);
	assert_int_equal(r->ok, 0);
	assert_int_equal(find(&A, 3, 33)->ok, 1);
	assert_int_equal(A.overflowed, 0);
}

static void test_overflow(void **state)
{
	(void)state;
	vgd_acct_init(&A, 0, 0, 0);
	/* keys that collide in the index as much as they like: uids 0..N */
	for (uint32_t u = 0; u < VGD_ACCT_ROWS; u++)
		vgd_acct_note(&A, 1, u, u, VGD_ACCT_OK, 1);
	assert_int_equal(A.nrows, VGD_ACCT_ROWS);
	vgd_acct_note(&A, 1, 5000, 1, VGD_ACCT_OK, 2);
	vgd_acct_note(&A, 9, 0, 1, VGD_ACCT_REFUSED, 3);
	vgd_acct_note(&A, 1, 7, 1, VGD_ACCT_OK, 4); /* an existing row still counts */
	assert_int_equal(A.nrows, VGD_ACCT_ROWS);
	assert_int_equal(A.overflowed, 2);
	assert_int_equal(A.other.ok, 1);
	assert_int_equal(A.other.refused, 1);
	assert_int_equal(find(&A, 1, 7)->ok, 2);
	assert_null(find(&A, 1, 5000));
	/* a lowered bound */
	vgd_acct_init(&A, 2, 0, 0);
	vgd_acct_note(&A, 0, 0, 1, VGD_ACCT_OK, 1);
	vgd_acct_note(&A, 0, 1, 1, VGD_ACCT_OK, 1);
	vgd_acct_note(&A, 0, 2, 1, VGD_ACCT_OK, 1);
	assert_int_equal(A.nrows, 2);
	assert_int_equal(A.other.ok, 1);
}

static void key(vgd_keyinfo *k, const char *name, uint8_t pub)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->type = VG_KEY_ED25519;
	k->pub_len = 32;
	memset(k->pub, pub, 32);
}

static void test_rekey(void **state)
{
	(void)state;
	vgd_keyinfo old[3], now[3];
	key(&old[0], "a", 1);
	key(&old[1], "b", 2);
	key(&old[2], "c", 3);
	/* a moved (index 0 -> 2), b replaced (new public key), c removed,
	 * d new */
	key(&now[0], "d", 4);
	key(&now[1], "b", 9);
	key(&now[2], "a", 1);
	vgd_acct_init(&A, 0, 0, 0);
	for (uint32_t u = 0; u < 40; u++) {
		vgd_acct_note(&A, 0, u, 1, VGD_ACCT_OK, 1);
		vgd_acct_note(&A, 1, u, 1, VGD_ACCT_OK, 1);
		vgd_acct_note(&A, 2, u, 1, VGD_ACCT_OK, 1);
	}
	vgd_acct_rekey(&A, old, 3, now, 3);
	assert_int_equal(A.nrows, 40);
	for (uint32_t u = 0; u < 40; u++) {
		const vgd_acct_row *r = find(&A, 2, u);
		assert_non_null(r);
		assert_int_equal(r->ok, 1);
		assert_int_equal(r->iv_ok, 0); /* the interval was logged */
	}
	/* the index finds the kept rows under their new key index... */
	vgd_acct_note(&A, 2, 17, 5, VGD_ACCT_OK, 9);
	assert_int_equal(A.nrows, 40);
	assert_int_equal(find(&A, 2, 17)->ok, 2);
	/* ...and makes new ones for the others */
	vgd_acct_note(&A, 1, 17, 5, VGD_ACCT_OK, 9);
	vgd_acct_note(&A, 0, 17, 5, VGD_ACCT_OK, 9);
	assert_int_equal(A.nrows, 42);
	assert_int_equal(find(&A, 1, 17)->ok, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_rekey),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
