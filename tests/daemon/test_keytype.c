/* test_keytype.c: unit tests of the daemon's key-type table
 * (daemon/keytype.c): every key type of the protocol's table has exactly
 * one daemon row and no row lacks a protocol one; every row has what the
 * daemon calls through it, and an operation entry point exactly where the
 * protocol's tables let the type do that operation; an unknown type has
 * no row; and, from a list written here, each known type's secret size,
 * batch family and slow flag. Nothing secret. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "keytype.h"
#include "khbatch.h"
#include "vg/ecdsa.h"
#include "vg/proto.h"
#include "vg/proto_tables.h"
#include "vg/rsa.h"

/* Every value a key type could have on the wire (KEY_TYPE is a u8). */
static void test_one_row_per_protocol_type(void **state)
{
	(void)state;
	size_t proto = 0, daemon = 0;
	for (int t = 0; t <= UINT8_MAX; t++) {
		const vg_key_type_info *p = vg_key_type_get(t);
		const vgd_keytype *d = vgd_keytype_get(t);
		if (p != NULL) {
			proto++;
			if (d == NULL)
				fail_msg("key type %d (%s) has no daemon row", t, p->name);
		}
		if (d != NULL) {
			daemon++;
			if (p == NULL)
				fail_msg("daemon row %d has no protocol row", t);
			assert_int_equal(d->type, t);
		}
	}
	assert_true(proto > 0);
	assert_int_equal(proto, daemon);
	/* The array itself: a row only at its own index, none at 0. */
	size_t n = sizeof(vgd_keytypes) / sizeof(vgd_keytypes[0]);
	assert_int_equal(vgd_keytypes[0].type, 0);
	for (size_t i = 0; i < n; i++)
		if (vgd_keytypes[i].type != 0) {
			assert_int_equal(vgd_keytypes[i].type, i);
			assert_ptr_equal(vgd_keytype_get((int)i), &vgd_keytypes[i]);
		}
}

static void test_rows_complete(void **state)
{
	(void)state;
	for (int t = 1; t <= VG_KEY_MAX; t++) {
		const vgd_keytype *d = vgd_keytype_get(t);
		if (d == NULL)
			continue; /* test_one_row_per_protocol_type says so */
		const char *name = vg_key_type_name(t);
		if (d->secret_size == NULL || d->load == NULL || d->describe == NULL ||
		    d->wipe == NULL)
			fail_msg("%s: a row needs secret_size, load, describe and wipe", name);
		size_t size = d->secret_size();
		assert_true(size > 0);
		assert_true(size <= vgd_key_secret_size());
		/* An entry point exactly where the protocol lets the type do
		 * the operation (its policy bits come from the op and alg
		 * tables). */
		uint32_t allow = vg_key_type_allow(t);
		if (!!(allow & VG_ALLOW_SIGN) != (d->sign != NULL))
			fail_msg("%s: sign entry point and the algorithm table disagree", name);
		if (!!(allow & VG_ALLOW_X25519) != (d->agree != NULL))
			fail_msg("%s: agree entry point and the x25519 operation disagree", name);
		if (!!(allow & VG_ALLOW_RSA_PRIVATE) != (d->rsa_private != NULL))
			fail_msg("%s: rsa_private entry point and the operation disagree", name);
		if (d->sign == NULL && d->agree == NULL && d->rsa_private == NULL)
			fail_msg("%s: a key type with no operation", name);
		if (d->batch < VGD_KB_NONE || d->batch >= VGD_KB_KINDS)
			fail_msg("%s: batch %d is not a VGD_KB_* family", name, d->batch);
		assert_true(d->slow == 0 || d->slow == 1);
	}
}

static void test_unknown_type(void **state)
{
	(void)state;
	assert_null(vgd_keytype_get(0));
	assert_null(vgd_keytype_get(-1));
	assert_null(vgd_keytype_get(VG_KEY_MAX + 1));
	assert_null(vgd_keytype_get(UINT8_MAX));
	assert_null(vgd_keytype_get(INT_MAX));
	assert_null(vgd_keytype_get(INT_MIN));
}

/* What each known type's row must say, from the kernels' structures and
 * the keyholder's design (RSA and ECDSA hold no replies behind them),
 * written here rather than read from the rows; every row must be on it. */
static void test_known_rows(void **state)
{
	(void)state;
	const struct {
		int type;
		size_t size;
		int slow, batch;
	} want[] = {
		{VG_KEY_ED25519, sizeof(vgd_secret_25519), 0, VGD_KB_ED25519},
		{VG_KEY_X25519, sizeof(vgd_secret_25519), 0, VGD_KB_X25519},
		{VG_KEY_RSA, vg_rsa_key_size(), 1, VGD_KB_RSA},
		{VG_KEY_ECDSA_P256, vg_ecdsa_key_size(), 1, VGD_KB_ECDSA},
		{VG_KEY_ECDSA_P384, vg_ecdsa_key_size(), 1, VGD_KB_ECDSA},
	};
	size_t max = 0, rows = 0;
	for (int t = 1; t <= VG_KEY_MAX; t++)
		rows += vgd_keytype_get(t) != NULL;
	/* A new key type's row fails here until this list has it too. */
	assert_int_equal(rows, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const vgd_keytype *d = vgd_keytype_get(want[i].type);
		const char *name = vg_key_type_name(want[i].type);
		if (d == NULL)
			fail_msg("%s: no row", name);
		if (d->secret_size() != want[i].size)
			fail_msg("%s: secret size %zu, want %zu", name, d->secret_size(),
				 want[i].size);
		if (d->slow != want[i].slow)
			fail_msg("%s: slow %d, want %d", name, d->slow, want[i].slow);
		if (d->batch != want[i].batch)
			fail_msg("%s: batch family %d, want %d", name, d->batch, want[i].batch);
		max = want[i].size > max ? want[i].size : max;
	}
	/* The arena's slot: the largest, rounded to a cache line. */
	assert_int_equal(vgd_key_secret_size(), (max + 63) & ~(size_t)63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_row_per_protocol_type),
		cmocka_unit_test(test_rows_complete),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_known_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
