/* Unit test of daemon/clock.h's vgd_ms_since: the front's tick and the
 * supervisor's liveness check compare timestamps that work done after
 * reading the clock may have made later than "now" (a keyholder stamped
 * while a settle ran). Such an age is 0, not a wrapped 2^64 - 1 that
 * expires every timeout at once: that wrap closed busy connections as
 * idle and declared working keyholders hung under ASan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "clock.h"

static void test_age_of_past_stamp(void **state)
{
	(void)state;
	assert_int_equal(vgd_ms_since(1000, 400), 600);
	assert_int_equal(vgd_ms_since(1000, 1000), 0);
	assert_int_equal(vgd_ms_since(UINT64_MAX, 0), UINT64_MAX);
}

static void test_age_of_later_stamp_is_zero(void **state)
{
	(void)state;
	assert_int_equal(vgd_ms_since(1000, 1001), 0);
	assert_int_equal(vgd_ms_since(0, UINT64_MAX), 0);
	/* Under any timeout: the stamp is fresh, not ancient. */
	uint64_t now = vgd_now_ms();
	assert_true(vgd_ms_since(now, vgd_now_ms() + 5) < 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_age_of_past_stamp),
		cmocka_unit_test(test_age_of_later_stamp_is_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
